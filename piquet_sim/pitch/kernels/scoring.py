"""Scoring a round from its six tricks: the six points, points per seat, the bid made or not.

Source: ``docs/rules/pitch.md``, "The six points" and "Scoring a round". Writes the outcome
slots of a :class:`~..layouts.RoundRec` row (``TRUMP``, ``TAKER``, ``POINTS``, ``GAME_PTS``,
``SCORE``, ``MADE``, ``TOTAL``); the caller writes the deal and the auction.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import high_index, low_index
from ...core.engine.jit import njit_inline
from ..layouts import TRICKS, Point, RoundRec
from ..rules import RuleSlot
from .tricks import game_taker, mask_game_points, suit_mask

JACK_RANK = 9
SIX_RANK = 4


@njit_inline
def _holder(hands, n, card):
    for s in range(n):
        if (hands[s] >> card) & 1:
            return np.int64(s)
    return np.int64(-1)


@njit_inline
def _taker_of(tricks, winners, card):
    """Winner of the trick holding ``card``, -1 when no trick holds it."""
    for t in range(TRICKS):
        if (tricks[t] >> card) & 1:
            return winners[t]
    return np.int64(-1)


@njit_inline
def score_tricks(dealt, bidder, bid, trump, tricks, winners, rules, rec):
    """Score a finished round. ``dealt``: the hands as dealt (int64[6]); ``tricks``: each
    trick's cards (mask); ``winners``: each trick's winning seat. Writes ``rec``'s outcome
    slots; returns the bidder's points."""
    n = rules[RuleSlot.PLAYERS]
    low_capt = rules[RuleSlot.LOW_TO]
    in_play = np.int64(0)
    for s in range(n):
        in_play |= dealt[s]
    trumps = in_play & suit_mask(trump)
    high_card = high_index(trumps)
    low_card = low_index(trumps)
    taker = rec[RoundRec.TAKER : RoundRec.TAKER + Point.COUNT]
    taker[Point.HIGH] = _holder(dealt, n, high_card)
    if low_capt:
        taker[Point.LOW] = _taker_of(tricks, winners, low_card)
    else:
        taker[Point.LOW] = _holder(dealt, n, low_card)
    taker[Point.JACK] = _taker_of(tricks, winners, 16 * trump + JACK_RANK)
    taker[Point.SIX] = _taker_of(tricks, winners, 16 * trump + SIX_RANK)
    taker[Point.LAST] = winners[TRICKS - 1]
    game = rec[RoundRec.GAME_PTS : RoundRec.GAME_PTS + n]
    game[:] = 0
    for t in range(TRICKS):
        game[winners[t]] += mask_game_points(tricks[t])
    taker[Point.GAME] = game_taker(game, n, bidder, rules[RuleSlot.GAME_TIE])
    points = rec[RoundRec.POINTS : RoundRec.POINTS + n]
    points[:] = 0
    total = 0
    for p in range(Point.COUNT):
        if taker[p] >= 0:
            points[taker[p]] += 1
            total += 1
    made = 1 if points[bidder] >= bid else 0
    for s in range(n):
        rec[RoundRec.SCORE + s] = points[s]
    rec[RoundRec.SCORE + bidder] = bid if made else -bid
    rec[RoundRec.TRUMP] = trump
    rec[RoundRec.MADE] = made
    rec[RoundRec.TOTAL] = total
    return points[bidder]
