"""The ``threshold`` bid policy and the hand estimate behind it (and the heuristic's pitch).

:func:`estimate` is a fixed table, not a simulation: for one suit as trump, the points a
bidder holding ``hand`` may expect, in tenths of a point: High by his top trump (ace 10,
king 6, queen 3, jack 1), Low by his bottom trump (two 10, three 6, four 3, five 1), the
Jack held (9) and the Six held (8), three tenths per trump beyond the first (Last and Game
follow trump length) and a tenth per three game points held. Hand-set, checked against the
advisor's simulated points (``piquet pitch bid``), not fitted.

The ``threshold`` policy bids the estimate of the hand's best suit less ``margin`` (rounded
down) when that beats the bid so far; the dealer steals at an equal bid.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import high_index, low_index, popcount64
from ...core.engine.jit import njit, njit_inline
from ..layouts import BID_MAX, BID_MIN
from .tricks import mask_game_points, suit_mask

#: Tenths of a point of High by the rank (0 = two .. 12 = ace) of the bidder's top trump.
HIGH_TENTHS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 6, 10], dtype=np.int64)
#: Tenths of a point of Low by the rank of his bottom trump.
LOW_TENTHS = np.array([10, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0], dtype=np.int64)
JACK_RANK = 9
SIX_RANK = 4


@njit_inline
def estimate(hand, suit):
    """Estimated points (tenths) of ``hand`` as the bidder with ``suit`` as trump; 0 when he
    holds no card of it."""
    t = hand & suit_mask(suit)
    if t == 0:
        return np.int64(0)
    base = 16 * suit
    e = HIGH_TENTHS[high_index(t) - base] + LOW_TENTHS[low_index(t) - base]
    if (t >> (base + JACK_RANK)) & 1:
        e += 9
    if (t >> (base + SIX_RANK)) & 1:
        e += 8
    e += 3 * (popcount64(t) - 1)
    e += mask_game_points(hand) // 3
    return e


@njit_inline
def best_suit(hand):
    """The suit of ``hand`` with the highest :func:`estimate` (lowest suit on ties)."""
    best = np.int64(0)
    best_e = np.int64(-1)
    for s in range(4):
        e = estimate(hand, s)
        if e > best_e:
            best_e = e
            best = s
    return best


@njit
def threshold_call(hand, calls, margin):
    """A call from the legal-call mask ``calls``: the best suit's estimate less ``margin``
    (points), rounded down, if legal, else the highest legal bid below it; a pass when none
    is legal and passing is; else the lowest legal bid (a dealer who must bid)."""
    e = estimate(hand, best_suit(hand))
    want = np.int64(np.floor(e / 10.0 - margin))
    if want > BID_MAX:
        want = BID_MAX
    for b in range(want, BID_MIN - 1, -1):
        if (calls >> b) & 1:
            return np.int64(b)
    if calls & 1:
        return np.int64(0)
    return low_index(calls)


@njit_inline
def weighted_estimate(hand, suit, w):
    """Points (not tenths) of ``hand`` as the bidder with ``suit`` as trump, by the weights
    ``w`` = (high, low, jack, six, length, game): the same table as :func:`estimate`, each
    term scaled; 0 when he holds no card of the suit."""
    t = hand & suit_mask(suit)
    if t == 0:
        return 0.0
    base = 16 * suit
    e = w[0] * HIGH_TENTHS[high_index(t) - base] + w[1] * LOW_TENTHS[low_index(t) - base]
    if (t >> (base + JACK_RANK)) & 1:
        e += 9.0 * w[2]
    if (t >> (base + SIX_RANK)) & 1:
        e += 8.0 * w[3]
    e += 3.0 * w[4] * (popcount64(t) - 1)
    e += w[5] * mask_game_points(hand) / 3.0
    return e / 10.0


@njit
def parametric_call(hand, calls, params):
    """The ``parametric`` bidder: the best suit's :func:`weighted_estimate` (weights
    ``params[0:6]``) less ``params[6]`` (margin), rounded down, bid as :func:`threshold_call`
    bids (the dealer steals at an equal bid)."""
    best = 0.0
    for s in range(4):
        e = weighted_estimate(hand, s, params)
        if e > best:
            best = e
    want = np.int64(np.floor(best - params[6]))
    if want > BID_MAX:
        want = BID_MAX
    for b in range(want, BID_MIN - 1, -1):
        if (calls >> b) & 1:
            return np.int64(b)
    if calls & 1:
        return np.int64(0)
    return low_index(calls)
