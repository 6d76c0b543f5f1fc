"""Monte Carlo counters of combinations and trumps over dealt rounds (``odds_batch``).

Deal i of a seed is the deal of round i (``deal.deal_round`` from the stream (seed, i)), so the
counts are integers that merge exactly: the same seed gives the same counts whatever the
threads or the chunking. Counters: :class:`layouts.OddsScope` x :class:`layouts.OddsBin`.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import popcount32
from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import stream_key
from ..layouts import ODDS_LEN, OddsBin, OddsScope
from .deal import N_PACK, deal_round
from .tables import FOUR_VALUE, SEQ_RUNS

ODDS_CHUNKS = 64


@njit
def longest_run(hand):
    """Longest sequence (3 or more cards of a suit in a row, natural order) of a hand; 0 for
    none."""
    best = 0
    for s in range(4):
        h = (hand >> (8 * s)) & 0xFF
        for j in range(2):
            if SEQ_RUNS[h, 2 * j] > best:
                best = SEQ_RUNS[h, 2 * j]
    return best


@njit
def fours_of(hand):
    """Bit r set: the hand holds the four cards of natural rank r (only ranks that count)."""
    out = 0
    for r in range(8):
        m = (np.int64(1) << r) * 0x01010101
        if FOUR_VALUE[r] > 0 and hand & m == m:
            out |= 1 << r
    return out


@njit
def _count_scope(counts, base, run, fours, pilotta, trumps):
    cat = 0 if run < 3 else (3 if run >= 5 else run - 2)
    counts[base + OddsBin.SEQ + cat] += 1
    for r in range(8):
        if (fours >> r) & 1:
            counts[base + OddsBin.FOUR + r] += 1
    if fours:
        counts[base + OddsBin.ANY_FOUR] += 1
    if pilotta:
        counts[base + OddsBin.PILOTTA] += 1
    counts[base + OddsBin.TRUMPS + trumps] += 1


@njit
def count_deal(hands, trump, counts):
    """Add one deal's events to ``counts`` (int64[ODDS_LEN])."""
    kq = (np.int64(1) << (8 * trump + 6)) | (np.int64(1) << (8 * trump + 5))
    run = np.zeros(4, dtype=np.int64)
    four = np.zeros(4, dtype=np.int64)
    pil = np.zeros(4, dtype=np.int64)
    ntr = np.zeros(4, dtype=np.int64)
    for p in range(4):
        run[p] = longest_run(hands[p])
        four[p] = fours_of(hands[p])
        pil[p] = 1 if hands[p] & kq == kq else 0
        ntr[p] = popcount32((hands[p] >> (8 * trump)) & 0xFF)
    b = OddsScope.HAND * OddsBin.LEN
    _count_scope(counts, b, run[0], four[0], pil[0], ntr[0])
    b = OddsScope.TEAM * OddsBin.LEN
    _count_scope(
        counts, b, max(run[0], run[2]), four[0] | four[2], pil[0] | pil[2], ntr[0] + ntr[2]
    )
    b = OddsScope.TABLE * OddsBin.LEN
    _count_scope(
        counts,
        b,
        max(max(run[0], run[1]), max(run[2], run[3])),
        four[0] | four[1] | four[2] | four[3],
        pil[0] | pil[1] | pil[2] | pil[3],
        max(max(ntr[0], ntr[1]), max(ntr[2], ntr[3])),
    )


@njit
def _odds_chunk(seed, start, lo, hi, trump, out):
    pack = np.empty(N_PACK, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    for i in range(lo, hi):
        state[0] = 0
        deal_round(stream_key(seed, start + i), pack, state, hands)
        count_deal(hands, trump, out)


@driver(_odds_chunk)
def odds_batch(seed, start, n, trump):
    """Counters (int64[ODDS_LEN]) over deals ``start .. start+n-1`` of ``seed`` with ``trump``
    the named trump suit; fixed chunks on threads (``core.engine.jit_threads``), summed (exact
    integers)."""
    n_chunks = min(n, ODDS_CHUNKS)
    parts = np.zeros((max(n_chunks, 1), ODDS_LEN), dtype=np.int64)

    def work(ch: int, lo: int, count: int) -> None:
        _odds_chunk(seed, start, lo, lo + count, trump, parts[ch])

    for_spans(n, n_chunks, work)
    return parts.sum(axis=0)
