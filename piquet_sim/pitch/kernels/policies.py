"""Policies as data: an integer id plus a float parameter array, dispatched here.

The registry users see (names, descriptions, parameters) is ``..policies``; its ids are the
constants below (a test holds them equal). A policy may draw random numbers only from the
round's stream (``key``, ``state``). The bid policy's parameters start at slot 0 of
``params``, the play policy's at slot ``PLAY_PARAMS_AT``.
"""

from __future__ import annotations

import numpy as np

from ...core.bits import popcount64, select_bit64
from ...core.jit import njit_inline
from ...core.rng import bounded
from ..layouts import BID_MIN
from .bidding import parametric_call, threshold_call
from .heuristic import heuristic_card

BID_RANDOM = 0  # uniform over the legal calls
BID_PASS = 1  # pass whenever allowed; a dealer who must bid bids 3
BID_THRESHOLD = 2  # kernels.bidding.threshold_call
BID_PARAMETRIC = 3  # kernels.bidding.parametric_call
BID_MONTECARLO = 4  # kernels.mcbid.montecarlo_call (at a table only: kernels/table.py, duel.py)
PLAY_RANDOM = 0  # uniform over the legal cards
PLAY_HEURISTIC = 1  # kernels.heuristic.heuristic_card
PLAY_PIMC = 2  # kernels.pimc (the bid advisor's search play only)
PLAY_DD = 3  # kernels.pimc, on the true hands (an oracle)
PLAY_PARAMS_AT = 8


@njit_inline
def random_bit(mask, key, state):
    """Index of a uniformly chosen set bit of a non-empty mask."""
    return select_bit64(mask, bounded(key, state, popcount64(mask)))


@njit_inline
def choose_call(policy_id, params, calls, hand, key, state):
    """A call (0 pass, 3..6) from the mask of legal calls, for a player holding ``hand``."""
    if policy_id == BID_PASS:
        if calls & 1:
            return np.int64(0)
        return np.int64(BID_MIN)
    if policy_id == BID_THRESHOLD:
        return threshold_call(hand, calls, params[0])
    if policy_id == BID_PARAMETRIC:
        return parametric_call(hand, calls, params)
    return random_bit(calls, key, state)


@njit_inline
def choose_card(policy_id, params, legal, hand, view, key, state):
    """A card index from the mask of legal cards of ``hand`` (``view``: a View row)."""
    if policy_id == PLAY_HEURISTIC:
        return heuristic_card(legal, hand, view)
    return random_bit(legal, key, state)
