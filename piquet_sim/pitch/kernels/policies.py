"""Policies as data: an integer id plus a float parameter array, dispatched here.

The registry users see (names, descriptions, parameters) is ``..policies``; it reads the ids
below. A policy may draw random numbers only from the round's stream (``key``, ``state``).
"""

from __future__ import annotations

import numpy as np

from ...core.bits import popcount64, select_bit64
from ...core.jit import njit_inline
from ...core.rng import bounded
from ..layouts import BID_MIN

BID_RANDOM = 0  # uniform over the legal calls
BID_PASS = 1  # pass whenever allowed; a dealer who must bid bids 3
PLAY_RANDOM = 0  # uniform over the legal cards


@njit_inline
def random_bit(mask, key, state):
    """Index of a uniformly chosen set bit of a non-empty mask."""
    return select_bit64(mask, bounded(key, state, popcount64(mask)))


@njit_inline
def choose_call(policy_id, params, calls, key, state):
    """A call (0 pass, 3..6) from the mask of legal calls."""
    if policy_id == BID_PASS:
        if calls & 1:
            return np.int64(0)
        return np.int64(BID_MIN)
    return random_bit(calls, key, state)


@njit_inline
def choose_card(policy_id, params, legal, key, state):
    """A card index from the mask of legal cards."""
    return random_bit(legal, key, state)
