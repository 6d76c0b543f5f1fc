"""Counter-based random streams and dealing.

A stream is keyed by (seed, deal index): word j of deal i is ``mix64(key(seed, i) + j * GAMMA)``
(SplitMix64's output function over a counter), so deal i is the same whatever thread computes it
and however a batch is split. A stream state is (key, counter), held by the caller in an int64
array of two so kernels can share it without globals.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .jit import njit_inline, njit_parallel

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_SEED_SALT = np.uint64(0x2545F4914F6CDD1D)
_INDEX_MULT = np.uint64(0xD1B54A32D192ED03)
_LOW32 = np.uint64(0xFFFFFFFF)
_LOW16 = np.uint64(0xFFFF)
_ONE16 = np.uint64(0x10000)
_S16 = np.uint64(16)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)

N_PACK = 32
HAND = 12  # elder holds pack positions 0..11, younger 12..23, the talon 24..31


@njit_inline
def mix64(z):
    """SplitMix64 finaliser: a bijection on uint64 with good avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit_inline
def stream_key(seed, index):
    """Key of the stream of (seed, index); both int64 >= 0."""
    return mix64(mix64(np.uint64(seed) ^ _SEED_SALT) ^ (np.uint64(index) * _INDEX_MULT))


@njit_inline
def word(key, counter):
    """Word ``counter`` (uint64) of the stream with this key."""
    return mix64(key + (np.uint64(counter) + np.uint64(1)) * GAMMA)


@njit_inline
def chunk(key, c):
    """16-bit chunk ``c`` of the stream (four per 64-bit word), as uint64."""
    return (word(key, c >> 2) >> np.uint64(16 * (c & 3))) & _LOW16


@njit_inline
def bounded(key, state, n):
    """Uniform integer in [0, n) for 1 <= n < 2**32, exact (Lemire's multiply with rejection).

    ``state`` is int64[1]: the index of the next 16-bit chunk of the stream; a draw uses two.
    """
    nn = np.uint64(n)
    while True:
        c = state[0]
        state[0] = c + 2
        r = chunk(key, c) | (chunk(key, c + 1) << _S16)
        m = r * nn
        low = m & _LOW32
        if low >= nn or low >= ((np.uint64(1) << _S32) - nn) % nn:
            return np.int64(m >> _S32)


@njit_inline
def shuffle_pack(key, pack, state):
    """Uniform random permutation of the 32 cards into ``pack`` (int8[32], position -> card),
    by the inside-out Fisher-Yates shuffle.

    Position i (1..31) draws j uniform in [0, i] from 16-bit chunk i of the stream (exact:
    Lemire's multiply, a rejected chunk is redrawn from chunks 32, 33, ... in turn, which happens
    with probability below 2**-11 per deal). The result depends only on the key; ``state`` is
    left at the next unused chunk so later draws (exchange, play) continue the same stream.
    """
    extra = np.int64(N_PACK)
    pack[0] = 0
    for g in range(N_PACK // 4):
        w = word(key, g)
        for q in range(4):
            i = 4 * g + q
            if i == 0:
                continue
            n = np.uint64(i + 1)
            m = ((w >> np.uint64(16 * q)) & _LOW16) * n
            low = m & _LOW16
            if low < n:
                threshold = (_ONE16 - n) % n
                while low < threshold:
                    m = chunk(key, extra) * n
                    extra += 1
                    low = m & _LOW16
            j = np.uint64(m >> _S16)
            pack[np.uint64(i)] = pack[j]
            pack[j] = i
    state[0] = extra


@njit_inline
def deal_full(seed, index, pack, state):
    """Deal ``index`` of ``seed``: returns (elder mask, younger mask) from pack positions 0..11
    and 12..23; the talon in draw order is ``pack[24:32]`` (elder's five first, then
    younger's three). ``state`` is left for further draws of the same deal's stream."""
    shuffle_pack(stream_key(seed, index), pack, state)
    elder = np.int64(0)
    younger = np.int64(0)
    for i in range(HAND):
        elder |= np.int64(1) << pack[np.uint64(i)]
        younger |= np.int64(1) << pack[np.uint64(HAND + i)]
    return elder, younger


#: The hands alone (same cards as ``deal_full``; kept as a name for callers that ignore the talon).
deal_hands = deal_full


@njit_parallel
def deal_batch(seed, start, n):
    """Deals start..start+n-1: (elder int64[n], younger int64[n], talon int8[n, 8] in draw
    order). Identical whatever the thread count (each deal has its own stream)."""
    elders = np.empty(n, dtype=np.int64)
    youngers = np.empty(n, dtype=np.int64)
    talons = np.empty((n, 8), dtype=np.int8)
    n_chunks = min(n, 64)
    per = (n + n_chunks - 1) // n_chunks if n_chunks else 0
    for c in prange(n_chunks):
        pack = np.empty(N_PACK, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        for i in range(c * per, min(n, (c + 1) * per)):
            elders[i], youngers[i] = deal_full(seed, start + i, pack, state)
            for t in range(8):
                talons[i, t] = pack[24 + t]
    return elders, youngers, talons
