"""One whole round: deal, auction, play, scoring; written as a :class:`~..layouts.RoundRec` row
(and, for tests, a :class:`~..layouts.TraceRec` row of the play).

The round's randomness is one stream ``key`` (``core.rng``): the deal first, then every random
call and card in order, so a round is fixed by (seed, round index) and the policies.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.rng import deal_hands
from ..layouts import BID_PASS, SEATS, TRICKS, RoundRec, TraceRec, View
from ..policies import PLAY_PARAMS_AT
from ..rules import RuleSlot
from .auction import auction_result, legal_calls
from .policies import choose_call, choose_card
from .scoring import score_tricks
from .tricks import beats, legal_plays

#: Scratch arrays of one thread: pack int8[52], stream state int64[1], hands and dealt hands
#: int64[6], calls int64[6], trick masks and winners int64[6], what the player to move sees
#: (a View row).
RoundWork = namedtuple(
    "RoundWork", ["pack", "state", "hands", "dealt", "calls", "tricks", "winners", "seen"]
)

VIEW_LEN = int(View.LEN)

#: Every seat on row 0 (one policy for the table).
SAME_ROW = np.zeros(SEATS, dtype=np.int64)


@njit
def new_round_work():
    """Fresh :data:`RoundWork` (built inside a kernel, one per thread)."""
    return RoundWork(
        np.empty(52, dtype=np.int8),
        np.zeros(1, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(TRICKS, dtype=np.int64),
        np.zeros(TRICKS, dtype=np.int64),
        np.zeros(VIEW_LEN, dtype=np.int64),
    )


@njit_inline
def auction(rules, policy, work, key, rec):
    """Every seat calls once from seat 0 with the bid policy; writes ``work.calls`` and the
    auction slots of ``rec``; returns (bidder, bid)."""
    n = rules[RuleSlot.PLAYERS]
    highest = np.int64(BID_PASS)
    for seat in range(n):
        calls = legal_calls(highest, 1 if seat == n - 1 else 0)
        call = choose_call(policy.ids[0], policy.params, calls, work.hands[seat], key, work.state)
        work.calls[seat] = call
        rec[RoundRec.BIDS + seat] = call
        if call > highest:
            highest = call
    bidder, bid, stole = auction_result(work.calls, n)
    rec[RoundRec.BIDDER] = bidder
    rec[RoundRec.BID] = bid
    rec[RoundRec.STOLE] = stole
    return bidder, bid


@njit_inline
def play_tricks(rules, ids, params, rows, work, key, bidder, trump, trace):
    """Play the six tricks from ``work.hands``, seat s with the play policy of row ``rows[s]``
    (``ids[row, 1]``, ``params[row, PLAY_PARAMS_AT:]``); the bidder pitches (``trump`` -1: his
    first card sets it, else he must pitch a trump). Fills ``work.tricks`` and
    ``work.winners`` and, when it has room, ``trace``. Returns the trump."""
    n = rules[RuleSlot.PLAYERS]
    must_follow = rules[RuleSlot.MUST_FOLLOW]
    hands = work.hands
    view = work.seen
    tracing = trace.shape[0] >= TraceRec.LEN
    if tracing:
        trace[:] = -1
    view[View.PLAYERS] = n
    view[View.BIDDER] = bidder
    view[View.PLAYED] = 0
    leader = bidder
    k = 0
    for t in range(TRICKS):
        first = np.int64(-1)
        best = np.int64(-1)
        winner = np.int64(-1)
        tmask = np.int64(0)
        view[View.TRICK] = t
        for j in range(n):
            seat = (leader + j) % n
            row = rows[seat]
            legal = legal_plays(hands[seat], first, trump, must_follow, t == 0)
            view[View.SEAT] = seat
            view[View.TRUMP] = trump
            view[View.FIRST] = first
            view[View.BEST] = best
            view[View.WSEAT] = winner
            view[View.TMASK] = tmask
            view[View.IN_TRICK] = j
            card = choose_card(
                ids[row, 1],
                params[row, PLAY_PARAMS_AT:],
                legal,
                hands[seat],
                view,
                key,
                work.state,
            )
            bit = np.int64(1) << card
            hands[seat] &= ~bit
            tmask |= bit
            if first < 0:
                first = card
                if trump < 0:
                    trump = card >> 4
            if best < 0 or beats(card, best, trump):
                best = card
                winner = seat
            if tracing:
                trace[TraceRec.PLAYS + k] = card
                trace[TraceRec.LEGAL + k] = legal
            k += 1
        work.tricks[t] = tmask
        work.winners[t] = winner
        view[View.PLAYED] |= tmask
        if tracing:
            trace[TraceRec.WINNERS + t] = winner
        leader = winner
    return trump


@njit_inline
def play_out(rules, policy, work, key, bidder, trump, trace):
    """:func:`play_tricks` with one play policy (``policy``) for every seat."""
    return play_tricks(
        rules,
        policy.ids.reshape((1, 2)),
        policy.params.reshape((1, policy.params.shape[0])),
        SAME_ROW,
        work,
        key,
        bidder,
        trump,
        trace,
    )


@njit
def play_round(key, rules, policy, work, rec, trace):
    """Deal, bid and play one round with the stream ``key``; fill ``rec`` (RoundRec) and, when
    it has room, ``trace`` (TraceRec). Returns the bidder's seat."""
    n = rules[RuleSlot.PLAYERS]
    hands = work.hands
    work.state[0] = 0
    hands[:] = 0
    deal_hands(key, work.pack, work.state, n, TRICKS, 13, 16, hands)
    rec[:] = 0
    rec[RoundRec.PLAYERS] = n
    for s in range(SEATS):
        work.dealt[s] = hands[s]
        rec[RoundRec.HANDS + s] = hands[s]
        rec[RoundRec.BIDS + s] = -1
    bidder, bid = auction(rules, policy, work, key, rec)
    trump = play_out(rules, policy, work, key, bidder, np.int64(-1), trace)
    score_tricks(work.dealt, bidder, bid, trump, work.tricks, work.winners, rules, rec)
    return bidder
