"""Counter-based random streams and dealing, for every pack.

A stream is keyed by (seed, index): word j of stream i is ``mix64(key(seed, i) + (j + 1) * GAMMA)``
(SplitMix64's output function over a counter), so deal i is the same whatever thread computes it
and however a batch is split. Kernels carry a stream as ``key`` (uint64) plus ``state``
(int64[1]: the index of the next unused 16-bit chunk), and draw only through :func:`bounded`.

Dealing: :func:`shuffle_pack` permutes the ``n`` card ordinals of a pack into ``pack[0:n]``
(inside-out Fisher-Yates, exact: Lemire's multiply on 16-bit chunks with rejection), then a game
reads hands off consecutive positions (:func:`hand_mask`). Card ordinal ``o`` of a pack with
``n_ranks`` ranks is suit ``o // n_ranks``, rank ``o % n_ranks``: mask bit ``suit * stride + rank``.
"""

from __future__ import annotations

import numpy as np

from .jit import njit, njit_inline

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

#: Largest seed and stream index a stream takes (both are mixed as 64-bit words; kept below 2**63
#: so they travel as int64 everywhere).
MAX_INDEX = (1 << 63) - 1


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


@njit
def block_words(seed, first, n, words):
    """The first words of streams (seed, first) .. (seed, first + n - 1), one stream a column:
    ``words`` is uint64[g + 1, >= n]; row w < g gets word w of each stream, row g its key. One
    loop per row over the streams, which the compiler vectorizes: a loop producing one
    stream's words after another stays scalar (Xeon: 8 words a stream in 2.7 ns, not 6.9)."""
    g = words.shape[0] - 1
    for d in range(n):
        words[g, d] = stream_key(seed, first + d)
    for w in range(g):
        step = (np.uint64(w) + np.uint64(1)) * GAMMA
        for d in range(n):
            words[w, d] = mix64(words[g, d] + step)


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
    """Uniform random permutation of the card ordinals 0..n-1 into ``pack`` (int8[n], n <= 64:
    position -> ordinal), by the inside-out Fisher-Yates shuffle.

    Position i (1..n-1) draws j uniform in [0, i] from 16-bit chunk i of the stream (exact:
    Lemire's multiply; a rejected chunk is redrawn from chunks n, n+1, ... in turn, which happens
    with probability below 2**-10 per deal). The result depends only on the key; ``state`` is
    left at the next unused chunk so later draws (exchange, play) continue the same stream.
    """
    n_cards = pack.shape[0]
    extra = np.int64(n_cards)
    pack[0] = 0
    for g in range((n_cards + 3) // 4):
        w = word(key, g)
        for q in range(4):
            i = 4 * g + q
            if i == 0 or i >= n_cards:
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
def hand_mask(pack, first, size, n_ranks, stride):
    """Mask of the cards at pack positions first..first+size-1 (ordinals -> mask bits)."""
    m = np.int64(0)
    for i in range(first, first + size):
        o = np.int64(pack[i])
        m |= np.int64(1) << ((o // n_ranks) * stride + o % n_ranks)
    return m


@njit_inline
def deal_hands(key, pack, state, n_hands, hand_size, n_ranks, stride, hands):
    """Shuffle the pack with the stream ``key`` and write ``n_hands`` hands of ``hand_size``
    cards (positions 0.., hand h from position h * hand_size) into ``hands`` (int64[n_hands]).
    The undealt rest of the pack stays in ``pack`` in order."""
    shuffle_pack(key, pack, state)
    for h in range(n_hands):
        hands[h] = hand_mask(pack, h * hand_size, hand_size, n_ranks, stride)
