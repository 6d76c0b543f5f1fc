"""Policies as data: an integer id plus a float parameter array, dispatched here.

The ids are the registry's (``..policies``: ``BID_THRESHOLD`` …, one copy). A policy may draw
random numbers only from the round's stream (``key``, ``state``). The bid policy's parameters
start at slot 0 of ``params``, the play policy's at slot ``PLAY_PARAMS_AT``.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import popcount64, select_bit64
from ...core.engine.jit import njit_inline
from ...core.engine.rng import bounded
from ..layouts import BID_MIN
from ..policies import BID_PARAMETRIC, BID_PASS, BID_THRESHOLD, PLAY_HEURISTIC
from .bidding import parametric_call, threshold_call
from .heuristic import heuristic_card


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
