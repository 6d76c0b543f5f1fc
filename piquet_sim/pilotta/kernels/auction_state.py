"""The auction's state and its simple policies: what the sampling bidders (the Monte Carlo
bidder, the bid advisor and the ``advisor`` policy built on it) run inside their worlds, so
that they import no dispatcher that imports them (``kernels.auction`` dispatches every policy
and re-exports these names).

A bid is a level 0..9 (80, 90 … 160 points, then the capot) and a trump suit; each bid is
higher than the last. Under ``pass_is_final`` a player who has passed may not bid again.
An auction in progress is an int64 :class:`layouts.AState` array (its calls logged in order),
so the bid advisor can replay a given auction, add a call and let the policies finish it.
Simple policies: ``random``, ``fixed`` and ``threshold`` (:func:`simple_call`).
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import popcount32
from ...core.engine.jit import njit
from ..layouts import (
    BID_CAPOT,
    MAX_CALLS,
    N_AUCTION_PARAMS,
    AState,
    Auction,
    BidParam,
    Setup,
)
from ..policies import AUCTION_FIXED, AUCTION_THRESHOLD
from ..rules import RuleSlot
from .declarations import combination_points
from .draws import draw
from .tables import TRUMP_HOLDING_POINTS
from .tricks import SUIT_BITS

N_LEVELS = 10  # 80 .. 160 and the capot


@njit
def log_code(level, suit):
    """A call as ``AState.LOG`` holds it: -1 for a pass, else 4 * level + suit."""
    return -1 if level < 0 else 4 * level + suit


@njit
def logged_calls(ast):
    """The calls made so far as int64[k, 3] rows (seat, level or -1, suit or -1), in order."""
    k = min(ast[AState.CALLS], MAX_CALLS)
    out = np.empty((k, 3), dtype=np.int64)
    for i in range(k):
        code = ast[AState.LOG + i]
        out[i, 0] = (ast[AState.DEALER] + 1 + i) % 4
        out[i, 1] = -1 if code < 0 else code >> 2
        out[i, 2] = -1 if code < 0 else code & 3
    return out


@njit
def level_points(level):
    """Bid points of a level: 80 + 10 * level, the capot (level 9) as BID_CAPOT."""
    return BID_CAPOT if level == N_LEVELS - 1 else 80 + 10 * level


@njit
def auction_reset(ast, dealer):
    """An auction about to start, dealt by ``dealer``."""
    ast[AState.DEALER] = dealer
    ast[AState.LEVEL] = -1
    ast[AState.BIDDER] = -1
    ast[AState.TRUMP] = -1
    ast[AState.PASSES] = 0
    ast[AState.CALLS] = 0
    ast[AState.PASSED] = 0
    ast[AState.DONE] = 0
    for p in range(4):
        ast[AState.SUIT_N + p] = -1


@njit
def to_speak(ast):
    """Seat whose call it is."""
    return (ast[AState.DEALER] + 1 + ast[AState.CALLS]) % 4


@njit
def may_bid(ast, p, rules):
    """True when seat ``p`` may bid now (something is left above the last bid, and under
    ``pass_is_final`` it has not passed)."""
    if ast[AState.LEVEL] >= N_LEVELS - 1:
        return False
    return not (rules[RuleSlot.PASS_IS_FINAL] and (ast[AState.PASSED] >> p) & 1)


@njit
def apply_call(ast, level, suit):
    """The seat to speak calls: a bid (``level`` above the last, ``suit``) or a pass
    (``level`` -1). Logs the call (``AState.LOG``) and sets DONE when the auction is over."""
    p = to_speak(ast)
    k = ast[AState.CALLS]
    if k < MAX_CALLS:
        ast[AState.LOG + k] = log_code(level, suit)
    ast[AState.CALLS] = k + 1
    if level > ast[AState.LEVEL]:
        ast[AState.LEVEL] = level
        ast[AState.TRUMP] = suit
        ast[AState.BIDDER] = p
        ast[AState.PASSES] = 0
        ast[AState.SUIT_N + p] = suit
    else:
        ast[AState.PASSED] |= 1 << p
        ast[AState.PASSES] += 1
        if ast[AState.BIDDER] < 0 and ast[AState.PASSES] == 4:
            ast[AState.DONE] = 1
        if ast[AState.BIDDER] >= 0 and ast[AState.PASSES] == 3:
            ast[AState.DONE] = 1


@njit
def _suit_values(h, params, kq):
    """(value of holding ``h`` as a side suit, as the trump suit) in the estimate."""
    plain = params[BidParam.ACE] * ((h >> 7) & 1) + params[BidParam.TEN] * ((h >> 3) & 1)
    n = popcount32(h)
    trump = TRUMP_HOLDING_POINTS[kq, h] + params[BidParam.TRUMP_LEN] * n
    if (h >> 6) & 1 and (h >> 5) & 1:
        trump += 20
    return plain, trump


@njit
def estimate(hand, trump, params, combos, kq):
    """The threshold policy's estimate of its team's round points with ``trump`` (card-point
    units; see :class:`layouts.BidParam`); ``combos``: the hand's combination points."""
    e = params[BidParam.BASE] + combos
    for s in range(4):
        plain, as_trump = _suit_values((hand >> (8 * s)) & SUIT_BITS, params, kq)
        e += as_trump if s == trump else plain
    return e


@njit
def threshold_estimates(hand, params, kq):
    """The threshold policy's estimate of its team's round points with each trump suit, the
    partner's raise not included: a 4-tuple (S H D C)."""
    p0, t0 = _suit_values(hand & SUIT_BITS, params, kq)
    p1, t1 = _suit_values((hand >> 8) & SUIT_BITS, params, kq)
    p2, t2 = _suit_values((hand >> 16) & SUIT_BITS, params, kq)
    p3, t3 = _suit_values((hand >> 24) & SUIT_BITS, params, kq)
    base = params[BidParam.BASE] + combination_points(hand) + p0 + p1 + p2 + p3
    return base - p0 + t0, base - p1 + t1, base - p2 + t2, base - p3 + t3


@njit
def threshold_pick(est, partner_suit, params):
    """(highest level 0..9 the threshold policy would bid, -1 none; its best suit) from its
    estimates per suit (:func:`threshold_estimates`) and the partner's last suit (-1 none)."""
    best_e = -(1 << 30)
    best_t = 0
    for t in range(4):
        e = est[t]
        if t == partner_suit:
            e += params[BidParam.RAISE]
        if e > best_e:
            best_e = e
            best_t = t
    if params[BidParam.CAPOT] > 0 and best_e >= params[BidParam.CAPOT]:
        return N_LEVELS - 1, best_t
    x = best_e - params[BidParam.MARGIN]
    if x < 80:
        return -1, best_t
    cap = (x - 80) // 10
    return (cap if cap < N_LEVELS - 2 else N_LEVELS - 2), best_t


@njit
def threshold_eval(hand, p, ast, params, kq):
    """(highest level 0..9 the threshold policy would bid, -1 none; its best suit)."""
    est = threshold_estimates(hand, params, kq)
    return threshold_pick(est, ast[AState.SUIT_N + (p + 2) % 4], params)


@njit
def threshold_call(params, hand, p, ast, rules):
    """The threshold policy's call (the seat may bid): the lowest level above the last in its
    best suit when its estimate reaches it, never over its partner; else a pass."""
    b = ast[AState.BIDDER]
    if b >= 0 and (b & 1) == (p & 1):
        return -1, -1  # never over the partner
    cap, t = threshold_eval(hand, p, ast, params, rules[RuleSlot.TRUMP_KQ_POINTS])
    level = ast[AState.LEVEL]
    if cap > level:
        return level + 1, t
    return -1, -1


@njit
def finish_threshold(ast, est, params, rules, silent):
    """:func:`finish_simple` when every seat bids as the threshold policy with ``params``,
    from its estimates ``est`` (int64[4, 4]: seat, suit; :func:`threshold_estimates`): the same
    calls, each an O(1) pick."""
    while ast[AState.DONE] == 0:
        p = to_speak(ast)
        level, suit = -1, -1
        if p != silent and may_bid(ast, p, rules):
            b = ast[AState.BIDDER]
            if b < 0 or (b & 1) != (p & 1):
                cap, t = threshold_pick(est[p], ast[AState.SUIT_N + (p + 2) % 4], params)
                if cap > ast[AState.LEVEL]:
                    level, suit = ast[AState.LEVEL] + 1, t
        apply_call(ast, level, suit)


@njit
def simple_call(policy, params, hand, p, ast, rules, key, state):
    """Seat ``p``'s call under a simple policy (fixed, threshold; anything else random):
    (level, suit) for a bid, (-1, -1) for a pass."""
    if not may_bid(ast, p, rules):
        return -1, -1
    level = ast[AState.LEVEL]
    if policy == AUCTION_FIXED:
        if ast[AState.CALLS] == 0 and params[0] >= 0:
            return params[0], params[1]
        return -1, -1
    if policy == AUCTION_THRESHOLD:
        return threshold_call(params, hand, p, ast, rules)
    return random_call(params, level, key, state)


@njit
def random_call(params, level, key, state):
    """The random policy's call (the seat may bid; ``level`` the last bid's, -1 none): a bid
    with probability params[0] / 1000, 1 to params[1] levels up (the capot at most), a uniform
    suit; else a pass."""
    if draw(key, state, np.int64(1000)) < params[0]:  # int64: one signature of draw
        room = N_LEVELS - 1 - level
        steps = params[1] if params[1] < room else room
        new = level + 1 + draw(key, state, steps)
        return new, draw(key, state, np.int64(4))
    return -1, -1


@njit
def consistent_call(policy, params, hand, p, ast, rules, level, suit):
    """Could ``policy`` have made seat ``p``'s actual call (``level`` -1: a pass) with
    ``hand``? The sampler's test. Random and fixed policies allow any call; the threshold
    policy allows a pass when it would pass, and a bid (jumps included) when its best suit is
    the one bid and its highest level reaches the bid."""
    if policy != AUCTION_THRESHOLD or not may_bid(ast, p, rules):
        return True
    cap, t = threshold_eval(hand, p, ast, params, rules[RuleSlot.TRUMP_KQ_POINTS])
    if level < 0:
        b = ast[AState.BIDDER]
        return (b >= 0 and (b & 1) == (p & 1)) or cap <= ast[AState.LEVEL]
    return t == suit and cap >= level


@njit
def team_policy(setup, p):
    """(policy id, parameter slice) of seat ``p``'s team in a Setup."""
    t = p & 1
    lo = Setup.PARAMS_NS + t * (Setup.PARAMS_EW - Setup.PARAMS_NS)
    return setup[Setup.AUCTION_NS + t], setup[lo : lo + N_AUCTION_PARAMS]


@njit
def finish_simple(ast, setup, hands, rules, key, state, silent):
    """Let the Setup's simple policies call until the auction is over (:func:`simple_call`;
    the sampling bidders' priors); seat ``silent`` (-1: none) passes."""
    while ast[AState.DONE] == 0:
        p = to_speak(ast)
        level, suit = -1, -1
        if p != silent:
            policy, params = team_policy(setup, p)
            level, suit = simple_call(policy, params, hands[p], p, ast, rules, key, state)
        apply_call(ast, level, suit)


@njit
def auction_result(ast, out):
    """Fill ``out`` (int32[Auction.LEN]) from a finished auction."""
    bidder = ast[AState.BIDDER]
    out[Auction.BIDDER] = bidder
    out[Auction.BID] = level_points(ast[AState.LEVEL]) if bidder >= 0 else 0
    out[Auction.TRUMP] = ast[AState.TRUMP]
    out[Auction.N_CALLS] = ast[AState.CALLS]
