"""Piquet's deal: 12 cards to elder, 12 to younger, 8 to the talon, from a shuffled 32-card pack.

Pack positions 0..11 are elder's, 12..23 younger's, 24..31 the talon in draw order (elder's five
first, then younger's three). Deal i of a seed is shuffled from the stream (seed, i) of
``core.rng``; later draws of the deal (exchange, play) continue that stream.
"""

from __future__ import annotations

import numba
import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import block_words, chunk, stream_key, word
from .stack import as_uint16, stack_bytes, stack_int64, stack_words

N_PACK = 32
HAND = 12  # elder holds pack positions 0..11, younger 12..23, the talon 24..31
_LOW16 = np.uint64(0xFFFF)
_ONE16 = np.uint64(0x10000)
_LOW16_ABOVE_PACK = np.uint64(0xFFFF & ~(N_PACK - 1))  # bits 5..15: one fused test per card
FULL_PACK = np.int64(0xFFFFFFFF)


@njit_inline
def _place(w, q, i, key, pack, extra):
    """Step ``i`` of the inside-out shuffle from 16-bit chunk ``q`` of word ``w`` (a rejected
    chunk redrawn from chunk ``extra`` on); returns the next unused extra chunk."""
    n = np.uint64(i + 1)
    m = ((w >> np.uint64(16 * q)) & _LOW16) * n
    if (m & _LOW16_ABOVE_PACK) == 0:  # low 16 bits < 32: the only way they can be < n <= 32
        low = m & _LOW16
        if low < n:
            threshold = (_ONE16 - n) % n
            while low < threshold:
                m = chunk(key, extra) * n
                extra += 1
                low = m & _LOW16
    j = np.int64(m >> np.uint64(16))
    pack[i] = pack[j]
    pack[j] = i
    return extra


N_WORDS = N_PACK // 4  # a shuffle reads its stream's first 8 words (four 16-bit chunks each)
_stack8 = stack_words(N_WORDS)
_stack32 = stack_words(N_PACK)
_pack_bytes = stack_bytes(N_PACK)
_state_word = stack_int64(1)


@njit_inline
def _targets(key, js):
    """The 32 swap targets ``j`` of the shuffle keyed ``key`` into ``js`` (uint64[32]); returns
    non-zero when some may be inexact (:func:`_targets_of`)."""
    wp = _stack8()
    w = numba.carray(wp, N_WORDS)
    for g in range(N_WORDS):
        w[g] = word(key, g)
    return _targets_of(wp, js)


@njit_inline
def _target(c, i):
    """Step ``i``'s swap target from the 16-bit chunk ``c`` (uint64) by multiply-shift, as
    :func:`_place` draws it, and 1 when the chunk might be rejected (the product's low 16 bits
    below 32: the target is then not sure to be exact), else 0."""
    m = c * np.uint64(i + 1)
    return m >> np.uint64(16), np.uint64((m & _LOW16_ABOVE_PACK) == 0)


@njit_inline
def _targets_of(wp, js):
    """The 32 swap targets ``j`` from the stream's 8 first words at ``wp`` (a stack pointer)
    into ``js`` (uint64[32]), in one loop the compiler vectorizes (16-bit lanes of the words,
    little-endian as ``rng.chunk`` reads them). Returns non-zero when some chunk might be
    rejected (about 1.5% of deals): the targets are then not all exact and the caller takes
    the chunk-by-chunk path."""
    c = numba.carray(as_uint16(wp), N_PACK)
    suspect = np.uint64(0)
    for i in range(N_PACK):
        js[i], maybe = _target(np.uint64(c[i]), i)
        suspect |= maybe
    return suspect


@njit_inline
def _shuffle_into(key, pack):
    """The shuffle into ``pack`` (a stack array); returns the next unused chunk of the stream."""
    js = numba.carray(_stack32(), N_PACK)
    if _targets(key, js) != 0:
        state = numba.carray(_state_word(), 1)
        _shuffle32_exact(key, pack, state)
        return state[0]
    pack[0] = 0
    for i in range(1, N_PACK):
        j = js[i]
        pack[i] = pack[j]
        pack[j] = i
    return np.int64(N_PACK)


@njit_inline
def shuffle32(key, pack, state):
    """``core.rng.shuffle_pack`` of a 32-card pack: the same permutation and final ``state``
    (tests hold them equal). The targets come first (:func:`_targets`); when none can be
    rejected, the swaps are all that is left per card. The branchy work runs on a stack copy
    and ``pack`` / ``state`` are written once at the end in straight-line code: an array
    argument used on both sides of a branch of an inlined function costs an atomic reference
    count per call."""
    work = numba.carray(_pack_bytes(), N_PACK)
    extra = _shuffle_into(key, work)
    for i in range(N_PACK):
        pack[i] = work[i]
    state[0] = extra


@njit
def _shuffle32_exact(key, pack, state):
    """The shuffle chunk by chunk, each tested for rejection as ``core.rng.shuffle_pack`` does
    (unrolled for the constant size). A kernel of its own, called on stack arrays: the rare
    path (about 1.5% of deals) is compiled once, not into every inlined copy of the shuffle."""
    extra = np.int64(N_PACK)
    pack[0] = 0
    w = word(key, 0)
    extra = _place(w, 1, 1, key, pack, extra)
    extra = _place(w, 2, 2, key, pack, extra)
    extra = _place(w, 3, 3, key, pack, extra)
    for g in range(1, N_PACK // 4):
        w = word(key, g)
        for q in range(4):
            extra = _place(w, q, 4 * g + q, key, pack, extra)
    state[0] = extra


@njit_inline
def deal_full(seed, index, pack, state):
    """Deal ``index`` of ``seed``: returns (elder mask, younger mask) from pack positions 0..11
    and 12..23; the talon in draw order is ``pack[24:32]`` (elder's five first, then
    younger's three). ``state`` is left for further draws of the same deal's stream."""
    shuffle32(stream_key(seed, index), pack, state)
    return _masks(pack)


@njit_inline
def _masks(pack):
    """(elder mask, younger mask) of a shuffled pack (positions 0..11 and 12..23)."""
    younger = np.int64(0)
    for i in range(HAND):
        younger |= np.int64(1) << pack[HAND + i]
    talon = np.int64(0)
    for i in range(2 * HAND, N_PACK):
        talon |= np.int64(1) << pack[i]
    return FULL_PACK ^ younger ^ talon, younger


#: Deals whose stream words are made at once (``rng.block_words``), then dealt together.
BLOCK = 256

# The shuffle run backwards on card sets (:func:`deal_block`). The inside-out shuffle of the
# identity swaps positions i and j_i for i = 1..31 (position i still holds card i when step i
# comes), so the card at position p is t_1(t_2(...t_31(p))), t_i the transposition of i and j_i,
# and the set of cards at positions P is t_1(...t_31(P)): start from the positions as a mask
# and swap its bits i and j_i for i = 31 down to 1. Younger's positions 12..23 and the talon's
# 24..31 ride in one word (low and high half), so one swap serves both.
_SETS0 = np.uint64(0x00FFF000) | (np.uint64(0xFF000000) << np.uint64(32))
_BIT_PAIR = np.uint64(1) | (np.uint64(1) << np.uint64(32))
_LOW32 = np.uint64(0xFFFFFFFF)
_stack_block = stack_words(BLOCK)


@njit
def deal_block(seed, first, n, words, hands):
    """Deals first..first+n-1 (n <= BLOCK) into columns 0..n-1 of ``hands`` (int64[2, >= n]:
    elder's masks, younger's): their stream words at once into ``words`` (uint64[9, >= n],
    ``rng.block_words``), then the shuffle's swaps backwards on the card sets of younger's
    hand and the talon (see ``_SETS0``), one step for all n deals at a time, a loop the
    compiler vectorizes (about 4 times the speed of dealing pairs of packs, EPYC). A deal
    whose draw may be rejected (about 1.5%) is dealt again chunk by chunk. Same hands as
    :func:`deal_full` (the tests hold them equal)."""
    if n > BLOCK:  # the scratch below lives on the stack, BLOCK deals long
        raise ValueError("deal_block deals at most BLOCK deals a call")
    block_words(seed, first, n, words)
    sets = numba.carray(_stack_block(), BLOCK)
    suspect = numba.carray(_stack_block(), BLOCK)
    for d in range(n):
        sets[d] = _SETS0
        suspect[d] = 0
    for i in range(N_PACK - 1, 0, -1):
        g = i >> 2
        lane = np.uint64(16 * (i & 3))
        bit = np.uint64(i)
        for d in range(n):
            j, maybe = _target((words[g, d] >> lane) & _LOW16, i)
            suspect[d] |= maybe
            s = sets[d]
            flip = ((s >> bit) ^ (s >> j)) & _BIT_PAIR
            sets[d] = s ^ ((flip << bit) | (flip << j))
    for d in range(n):
        younger = np.int64(sets[d] & _LOW32)
        talon = np.int64(sets[d] >> np.uint64(32))
        hands[0, d] = FULL_PACK ^ younger ^ talon
        hands[1, d] = younger
    for d in range(n):
        if suspect[d] != 0:
            pack = numba.carray(_pack_bytes(), N_PACK)
            _shuffle_into(words[N_WORDS, d], pack)
            hands[0, d], hands[1, d] = _masks(pack)


@njit
def hands_batch(seed, start, n):
    """Hands of deals start..start+n-1 as (elder int64[n], younger int64[n]) by blocks
    (:func:`deal_block`): the same as :func:`deal_batch`'s (the tests hold them equal)."""
    hands = np.empty((2, n), dtype=np.int64)
    words = np.empty((N_WORDS + 1, BLOCK), dtype=np.uint64)
    block = np.empty((2, BLOCK), dtype=np.int64)
    for first in range(0, n, BLOCK):
        m = min(BLOCK, n - first)
        deal_block(seed, start + first, m, words, block)
        hands[:, first : first + m] = block[:, :m]
    return hands[0], hands[1]


#: The hands alone (same cards as ``deal_full``; kept as a name for callers that ignore the talon).
deal_hands = deal_full


@njit
def _deal_chunk(seed, start, first, count, elders, youngers, talons):
    """Deals ``start + first ..`` (``count`` of them) into rows ``first ..`` of the outputs."""
    pack = np.empty(N_PACK, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    for i in range(first, first + count):
        elders[i], youngers[i] = deal_full(seed, start + i, pack, state)
        for t in range(8):
            talons[i, t] = pack[24 + t]


@driver(_deal_chunk)
def deal_batch(seed, start, n):
    """Deals start..start+n-1: (elder int64[n], younger int64[n], talon int8[n, 8] in draw
    order), 64 chunks on threads (``core.engine.jit_threads``). Identical whatever the thread
    count (each deal has its own stream)."""
    elders = np.empty(n, dtype=np.int64)
    youngers = np.empty(n, dtype=np.int64)
    talons = np.empty((n, 8), dtype=np.int8)

    def work(c: int, first: int, count: int) -> None:
        _deal_chunk(seed, start, first, count, elders, youngers, talons)

    for_spans(n, min(n, 64), work)
    return elders, youngers, talons
