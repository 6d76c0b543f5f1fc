"""The auction: calls in turn from the player after the dealer until the three players after
the last bid have passed (or all four pass at the start: the cards are thrown in).

A bid is a level 0..9 (80, 90 … 160 points, then the capot) and a trump suit; each bid is
higher than the last. Under ``pass_is_final`` a player who has passed may not bid again.
An auction in progress is an int64 :class:`layouts.AState` array, so the bid advisor can replay
a given auction, add a call and let the policies finish it. Policies are auction policy ids
(:data:`policies.REGISTRY`) with their parameters, one policy per team (``Setup``).

The state, the simple policies (random, fixed, threshold) and the sampler's consistency test
are in :mod:`.auction_state` (re-exported here); this module dispatches every policy,
the sampling bidders too (``montecarlo``: :mod:`.montecarlo`; ``advisor``: :mod:`.advise`),
which run their worlds on the simple policies.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ..layouts import ASTATE_LEN, N_AUCTION_PARAMS, AState, Setup
from ..policies import AUCTION_ADVISOR, AUCTION_MONTECARLO, AUCTION_RANDOM, AUCTION_THRESHOLD
from ..rules import RuleSlot
from .advise import advisor_call
from .auction_state import (
    N_LEVELS,
    apply_call,
    auction_reset,
    auction_result,
    consistent_call,
    estimate,
    finish_simple,
    level_points,
    log_code,
    logged_calls,
    may_bid,
    random_call,
    simple_call,
    team_policy,
    threshold_call,
    threshold_estimates,
    threshold_eval,
    threshold_pick,
    to_speak,
)
from .montecarlo import mc_call


@njit
def policy_call(policy, params, hand, p, ast, rules, key, state):
    """Seat ``p``'s call under ``policy``: (level, suit) for a bid, (-1, -1) for a pass."""
    if not may_bid(ast, p, rules):
        return -1, -1
    if policy == AUCTION_MONTECARLO:
        return mc_call(hand, p, ast, params, rules, key, state)
    if policy == AUCTION_ADVISOR:
        return advisor_call(hand, p, ast, params, rules, key, state)
    return simple_call(policy, params, hand, p, ast, rules, key, state)


@njit
def finish_auction(ast, setup, hands, rules, key, state, silent):
    """Let the policies call until the auction is over; seat ``silent`` (-1: none) passes."""
    while ast[AState.DONE] == 0:
        p = to_speak(ast)
        level, suit = -1, -1
        if p != silent:
            policy, params = team_policy(setup, p)
            level, suit = policy_call(policy, params, hands[p], p, ast, rules, key, state)
        apply_call(ast, level, suit)


@njit
def run_auction(dealer, setup, hands, rules, key, state, out):
    """Run the auction dealt by ``dealer`` with the Setup's policies; fill ``out``
    (int32[Auction.LEN]): bidder (-1 when thrown in), bid points, trump, number of calls."""
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    est = np.zeros((4, 4), dtype=np.int64)
    run_auction_in(dealer, setup, hands, rules, key, state, out, ast, est, True)


def sampling_of(setup) -> bool | None:
    """The ``sampling`` argument of :func:`run_auction_in` (and of the round kernels that pass
    it on) for a Setup: True when a team bids with a sampling bidder (montecarlo, advisor),
    else None."""
    sampled = (AUCTION_MONTECARLO, AUCTION_ADVISOR)
    if setup[Setup.AUCTION_NS] in sampled or setup[Setup.AUCTION_EW] in sampled:
        return True
    return None


@njit
def run_auction_in(dealer, setup, hands, rules, key, state, out, ast, est, sampling):
    """:func:`run_auction` in the caller's scratch (a driver's, allocated once for all its
    rounds): the auction state ``ast`` (int64[ASTATE_LEN], reset here) and ``est``
    (int64[4, 4]). The same calls as :func:`finish_auction`, faster: a threshold seat's
    estimates are made once for the auction (its hand does not change) and each of its calls
    is a pick among them; the random policy is called directly.

    ``sampling`` None (:func:`sampling_of` a Setup whose teams bid with simple policies only)
    leaves the sampling bidders out of the compiled kernel: numba prunes a branch on an
    argument typed None before typing it, and those bidders, with the worlds they play, cost
    a command of simple bidders a third of its compile time. Pass True when a team may bid
    with a sampling bidder (None then would bid at random in its seat)."""
    auction_reset(ast, dealer)
    pol_ns = setup[Setup.AUCTION_NS]
    pol_ew = setup[Setup.AUCTION_EW]
    par_ns = setup[Setup.PARAMS_NS : Setup.PARAMS_NS + N_AUCTION_PARAMS]
    par_ew = setup[Setup.PARAMS_EW : Setup.PARAMS_EW + N_AUCTION_PARAMS]
    kq = rules[RuleSlot.TRUMP_KQ_POINTS]
    for p in range(4):
        if (pol_ew if p & 1 else pol_ns) == AUCTION_THRESHOLD:
            e = threshold_estimates(hands[p], par_ew if p & 1 else par_ns, kq)
            for t in range(4):
                est[p, t] = e[t]
    while ast[AState.DONE] == 0:
        p = to_speak(ast)
        policy = pol_ew if p & 1 else pol_ns
        params = par_ew if p & 1 else par_ns
        level, suit = -1, -1
        if policy == AUCTION_THRESHOLD:
            if may_bid(ast, p, rules):
                b = ast[AState.BIDDER]
                if b < 0 or (b & 1) != (p & 1):
                    cap, t = threshold_pick(est[p], ast[AState.SUIT_N + (p + 2) % 4], params)
                    if cap > ast[AState.LEVEL]:
                        level, suit = ast[AState.LEVEL] + 1, t
        elif policy == AUCTION_RANDOM:
            if may_bid(ast, p, rules):
                level, suit = random_call(params, ast[AState.LEVEL], key, state)
        elif sampling is None:
            level, suit = simple_call(policy, params, hands[p], p, ast, rules, key, state)
        else:
            level, suit = policy_call(policy, params, hands[p], p, ast, rules, key, state)
        apply_call(ast, level, suit)
    auction_result(ast, out)


__all__ = [
    "N_LEVELS",
    "apply_call",
    "auction_reset",
    "auction_result",
    "consistent_call",
    "estimate",
    "finish_auction",
    "finish_simple",
    "level_points",
    "log_code",
    "logged_calls",
    "may_bid",
    "policy_call",
    "run_auction",
    "run_auction_in",
    "sampling_of",
    "simple_call",
    "team_policy",
    "threshold_call",
    "threshold_eval",
    "to_speak",
]
