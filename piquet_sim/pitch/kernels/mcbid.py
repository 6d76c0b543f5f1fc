"""The ``montecarlo`` bid policy: a seat values its calls by playing its hand out in a few
sampled worlds.

At its turn the seat deals the 46 cards it does not hold to the other seats (uniformly: the
calls made so far are not used) in ``worlds`` worlds; in each world, for every suit it holds,
it plays the round out as the bidder pitching that suit, everyone playing ``heuristic``, and
counts its points. A bid of k in suit s is worth k * (2 P(points >= k) - 1) (made: +k, set:
-k); the seat makes the legal bid (and suit) of highest value, lowest bid and suit on ties,
when that value is above ``margin`` points, else passes (a dealer who must bid makes the best
legal bid). The suit is the pitch it then plays when it wins the auction.

Randomness: world i of the decision of seat ``seat`` in the round with stream ``key`` uses the
stream ``(key, (seat + 1) * MAX_WORLDS + i)``, apart from the round's own draws: the decision is
fixed by (seed, round index, seat) and the hand, whatever else happens in the round.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.rng import stream_key
from ..layouts import BID_MAX, BID_MIN, SEATS, RoundRec
from ..policies import MC_MAX_WORLDS, PLAY_HEURISTIC, PLAY_PARAMS_AT, PolicyArrays
from ..rules import RuleSlot
from .advisor import deal_world
from .auction import legal_calls
from .round import new_round_work, play_out
from .scoring import score_tricks
from .tricks import suit_mask

MAX_WORLDS = MC_MAX_WORLDS
REC_LEN = int(RoundRec.LEN)

#: Scratch of one thread: a RoundWork for the sampled worlds, a RoundRec row, the worlds' play
#: policy (heuristic), ``made`` int64[6, 4, 7] (per seat: worlds where suit s made k points
#: or more), ``choice`` int64[6, 7, 2] (per seat and highest bid before him: his call and
#: suit).
MCWork = namedtuple("MCWork", ["work", "rec", "play", "made", "choice"])


@njit
def new_mc_work():
    """Fresh :data:`MCWork` (one per thread)."""
    params = np.zeros(PLAY_PARAMS_AT * 2, dtype=np.float64)
    play = PolicyArrays(np.array([0, PLAY_HEURISTIC], dtype=np.int64), params)
    return MCWork(
        new_round_work(),
        np.zeros(REC_LEN, dtype=np.int64),
        play,
        np.zeros((SEATS, 4, BID_MAX + 1), dtype=np.int64),
        np.zeros((SEATS, BID_MAX + 1, 2), dtype=np.int64),
    )


@njit
def count_made(rules, hand, seat, key, worlds, mc):
    """Fill ``mc.made[seat]``: in how many of ``worlds`` sampled worlds ``seat``, bidder with
    each suit he holds as trump, takes k points or more (k = 0..6). Needs only his hand, so
    the table runs it before the auction (:func:`prepare_choices`)."""
    n = rules[RuleSlot.PLAYERS]
    made = mc.made[seat]
    made[:] = 0
    w = mc.work
    for i in range(worlds):
        wkey = stream_key(key, (seat + 1) * MAX_WORLDS + i)
        w.state[0] = 0
        deal_world(wkey, w.pack, w.state, n, seat, hand, w.dealt)
        for s in range(4):
            if hand & suit_mask(s) == 0:
                continue
            for p in range(SEATS):
                w.hands[p] = w.dealt[p]
            trump = play_out(rules, mc.play, w, wkey, seat, np.int64(s), mc.rec[:0])
            score_tricks(w.dealt, seat, BID_MIN, trump, w.tricks, w.winners, rules, mc.rec)
            pts = mc.rec[RoundRec.POINTS + seat]
            for k in range(min(pts, BID_MAX) + 1):
                made[s, k] += 1


@njit
def best_bid(hand, calls, worlds, margin, made):
    """(call, suit) from the counts ``made``: the legal bid and suit of highest value
    k * (2 made[s, k] / worlds - 1) when above ``margin`` (or passing is not legal), else
    (0, -1)."""
    best_v = -np.inf
    best_k = np.int64(0)
    best_s = np.int64(-1)
    for k in range(BID_MIN, BID_MAX + 1):
        if not (calls >> k) & 1:
            continue
        for s in range(4):
            if hand & suit_mask(s) == 0:
                continue
            v = k * (2.0 * made[s, k] / worlds - 1.0)
            if v > best_v:
                best_v = v
                best_k = np.int64(k)
                best_s = np.int64(s)
    if best_s < 0 or ((calls & 1) and best_v <= margin):
        return np.int64(0), np.int64(-1)
    return best_k, best_s


@njit_inline
def mc_worlds(params):
    """Worlds per decision from the bid parameters (slot 0), 1 .. MAX_WORLDS."""
    return np.int64(min(max(params[0], 1.0), MAX_WORLDS))


@njit
def prepare_choices(rules, hand, seat, key, params, mc):
    """Before the auction: ``seat``'s play-outs and his (call, suit) for every highest bid he
    may face, into ``mc.choice[seat]`` (the auction then only reads it)."""
    n = rules[RuleSlot.PLAYERS]
    worlds = mc_worlds(params)
    count_made(rules, hand, seat, key, worlds, mc)
    dealer = 1 if seat == n - 1 else 0
    for h in range(BID_MAX + 1):
        if 0 < h < BID_MIN:
            continue
        c, suit = best_bid(hand, legal_calls(np.int64(h), dealer), worlds, params[1], mc.made[seat])
        mc.choice[seat, h, 0] = c
        mc.choice[seat, h, 1] = suit


@njit
def montecarlo_call(rules, hand, seat, calls, params, key, mc):
    """The ``montecarlo`` bidder's (call, suit) for ``seat`` holding ``hand`` with the legal
    calls ``calls``; ``params`` = (worlds, margin) from slot 0; ``key`` the round's stream.
    (The table and the batch use :func:`prepare_choices` before the auction instead.)"""
    worlds = mc_worlds(params)
    count_made(rules, hand, seat, key, worlds, mc)
    return best_bid(hand, calls, worlds, params[1], mc.made[seat])
