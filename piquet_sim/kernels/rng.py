"""Counter-based random streams and dealing.

A stream is keyed by (seed, deal index): word j of deal i is ``mix64(key(seed, i) + j * GAMMA)``
(SplitMix64's output function over a counter), so deal i is the same whatever thread computes it
and however a batch is split. A stream state is (key, counter), held by the caller in an int64
array of two so kernels can share it without globals.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_SEED_SALT = np.uint64(0x2545F4914F6CDD1D)
_INDEX_MULT = np.uint64(0xD1B54A32D192ED03)
_LOW32 = np.uint64(0xFFFFFFFF)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)

N_PACK = 32
HAND = 12
N_DEALT = 24  # both hands; the talon is positions 24..31 of the shuffled pack


@njit
def mix64(z):
    """SplitMix64 finaliser: a bijection on uint64 with good avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit
def stream_key(seed, index):
    """Key of the stream of (seed, index); both int64 >= 0."""
    return mix64(mix64(np.uint64(seed) ^ _SEED_SALT) ^ (np.uint64(index) * _INDEX_MULT))


@njit
def word(key, counter):
    """Word ``counter`` (uint64) of the stream with this key."""
    return mix64(key + (np.uint64(counter) + np.uint64(1)) * GAMMA)


@njit
def bounded(key, state, n):
    """Uniform integer in [0, n), exact (Lemire's multiply with rejection); 32 bits per draw.

    ``state`` is int64[1]: the index of the next 32-bit half-word of the stream (advanced here).
    """
    nn = np.uint64(n)
    threshold = (np.uint64(1) << _S32) % nn  # == (2**32 - n) % n
    while True:
        c = state[0]
        state[0] = c + 1
        w = word(key, c >> 1)
        r = (w >> _S32) if (c & 1) else (w & _LOW32)
        m = r * nn
        if (m & _LOW32) >= threshold:
            return np.int64(m >> _S32)


@njit
def shuffle_pack(key, steps, pack, state):
    """Partial Fisher-Yates: after it, pack[:steps] is a uniform random ordered sample.

    ``pack`` (int8[32]) is reset to 0..31 first, so the result depends only on the key.
    Position i is fixed by draw i alone, so fewer steps give the same first cards.
    """
    for i in range(N_PACK):
        pack[i] = i
    state[0] = 0
    for i in range(steps):
        j = i + bounded(key, state, N_PACK - i)
        t = pack[i]
        pack[i] = pack[j]
        pack[j] = t


@njit
def deal_hands(seed, index, pack, state):
    """(elder mask, younger mask) of deal ``index``: pack positions 0..11 and 12..23."""
    shuffle_pack(stream_key(seed, index), N_DEALT, pack, state)
    elder = np.int64(0)
    younger = np.int64(0)
    for i in range(HAND):
        elder |= np.int64(1) << pack[i]
        younger |= np.int64(1) << pack[HAND + i]
    return elder, younger


@njit
def deal_full(seed, index, pack, state):
    """Full shuffle of deal ``index``; returns (elder mask, younger mask). The talon in draw
    order is ``pack[24:32]`` afterwards (elder's five first, then younger's three)."""
    shuffle_pack(stream_key(seed, index), N_PACK - 1, pack, state)
    elder = np.int64(0)
    younger = np.int64(0)
    for i in range(HAND):
        elder |= np.int64(1) << pack[i]
        younger |= np.int64(1) << pack[HAND + i]
    return elder, younger
