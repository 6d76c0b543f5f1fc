"""The auction: calls in turn from the player after the dealer until the three players after
the last bid have passed (or all four pass at the start: the cards are thrown in).

A bid is a level 0..9 (80, 90 … 160 points, then the capot) and a trump suit; each bid is
higher than the last. Under ``pass_is_final`` a player who has passed may not bid again.
Policies are :class:`policies.AuctionPolicy` ids with two parameters.
"""

from __future__ import annotations

import numpy as np

from ...core.jit import njit
from ...core.rng import bounded
from ..layouts import BID_CAPOT, Auction, Rule
from ..policies import AuctionPolicy

N_LEVELS = 10  # 80 .. 160 and the capot


@njit
def level_points(level):
    """Bid points of a level: 80 + 10 * level, the capot (level 9) as BID_CAPOT."""
    return BID_CAPOT if level == N_LEVELS - 1 else 80 + 10 * level


@njit
def _call(policy, params, seat, first, level, key, state):
    """One call of ``seat`` allowed to bid above ``level`` (-1: no bid yet): returns
    (new level, trump) for a bid, (-1, -1) for a pass. ``first``: this is the seat's first
    call of the auction."""
    if policy == AuctionPolicy.FIXED:
        if first and level < 0 and params[0] >= 0:
            return params[0], params[1]
        return -1, -1
    if bounded(key, state, 1000) < params[0]:
        room = N_LEVELS - 1 - level
        steps = params[1] if params[1] < room else room
        new = level + 1 + bounded(key, state, steps)
        return new, bounded(key, state, 4)
    return -1, -1


@njit
def run_auction(dealer, policy, params, rules, key, state, out):
    """Run the auction dealt by ``dealer``; fill ``out`` (int32[Auction.LEN]): bidder (-1 when
    thrown in), bid points, trump, number of calls."""
    level = -1
    bidder = -1
    trump = -1
    passes = 0
    calls = 0
    passed = np.zeros(4, dtype=np.int64)
    spoke = np.zeros(4, dtype=np.int64)
    p = (dealer + 1) % 4
    while True:
        may_bid = level < N_LEVELS - 1 and not (rules[Rule.PASS_IS_FINAL] and passed[p])
        new = -1
        suit = -1
        if may_bid:
            new, suit = _call(policy, params, p, spoke[p] == 0, level, key, state)
        spoke[p] = 1
        calls += 1
        if new > level:
            level = new
            trump = suit
            bidder = p
            passes = 0
        else:
            passed[p] = 1
            passes += 1
            if bidder < 0 and passes == 4:
                break
            if bidder >= 0 and passes == 3:
                break
        p = (p + 1) % 4
    out[Auction.BIDDER] = bidder
    out[Auction.BID] = level_points(level) if bidder >= 0 else 0
    out[Auction.TRUMP] = trump
    out[Auction.N_CALLS] = calls
