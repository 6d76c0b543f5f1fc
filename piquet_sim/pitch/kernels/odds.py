"""Counts of deal events for the odds tables: fixed chunks of deals on threads (deal ``i`` of
``seed`` keyed by ``(seed, start + i)``), integer counts merged exactly.

Perspective: seat 0 is "me"; ``suit`` is the suit the events are about (the trump to be).
Count slots are :class:`~..layouts.OddsSlot`.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import high_index, low_index, popcount64
from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import deal_hands, stream_key
from ..layouts import SEATS, OddsSlot
from .tricks import suit_mask

N_CHUNKS = 64


@njit
def count_deal(hands, n, suit, counts):
    """Add one deal's events to ``counts``."""
    sm = suit_mask(suit)
    all_ = np.int64(0)
    for s in range(n):
        all_ |= hands[s]
    mine = hands[0] & sm
    dealt = all_ & sm
    base = 16 * suit
    counts[OddsSlot.DEALS] += 1
    counts[OddsSlot.JACK_IN_PLAY] += (dealt >> (base + 9)) & 1
    counts[OddsSlot.SIX_IN_PLAY] += (dealt >> (base + 4)) & 1
    counts[OddsSlot.SUIT_IN_PLAY + popcount64(dealt)] += 1
    counts[OddsSlot.MY_COUNT + popcount64(mine)] += 1
    if dealt != 0 and (mine >> high_index(dealt)) & 1:
        counts[OddsSlot.I_HOLD_TOP] += 1
    for j in range(5):  # ten, jack, queen, king, ace
        r = 8 + j
        if (mine >> (base + r)) & 1:
            counts[OddsSlot.HOLD_HIGH + j] += 1
            if high_index(dealt) == base + r:
                counts[OddsSlot.IS_HIGH + j] += 1
    for r in range(3):  # two, three, four
        if (mine >> (base + r)) & 1:
            counts[OddsSlot.HOLD_LOW + r] += 1
            if low_index(dealt) == base + r:
                counts[OddsSlot.IS_LOW + r] += 1


@njit
def _count_span(seed, start, lo, hi, n, suit, counts):
    pack = np.empty(52, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    hands = np.zeros(SEATS, dtype=np.int64)
    for i in range(lo, hi):
        state[0] = 0
        deal_hands(stream_key(seed, start + i), pack, state, n, 6, 13, 16, hands)
        count_deal(hands, n, suit, counts)


@driver(_count_span)
def odds_counts(seed, start, size, n, suit):
    """Event counts (int64[OddsSlot.LEN]) over deals ``start .. start+size-1`` of ``seed``
    with ``n`` players, about ``suit``; fixed chunks on threads (``core.engine.jit_threads``)."""
    n_chunks = min(size, N_CHUNKS)
    parts = np.zeros((max(n_chunks, 1), OddsSlot.LEN), dtype=np.int64)

    def work(ch: int, lo: int, count: int) -> None:
        _count_span(seed, start, lo, lo + count, n, suit, parts[ch])

    for_spans(size, n_chunks, work)
    return parts.sum(axis=0)
