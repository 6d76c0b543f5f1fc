"""One whole round: deal, auction, play, scoring; written as a :class:`~..layouts.RoundRec` row
(and, for tests, a :class:`~..layouts.TraceRec` row of the play).

The round's randomness is one stream ``key`` (``core.rng``): the deal first, then every random
call and card in order, so a round is fixed by (seed, round index) and the policies.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.jit import njit
from ...core.rng import deal_hands
from ..layouts import BID_PASS, SEATS, TRICKS, RoundRec, RuleSlot, TraceRec
from .auction import auction_result, legal_calls
from .policies import choose_call, choose_card
from .scoring import score_tricks
from .tricks import beats, legal_plays

#: Scratch arrays of one thread: pack int8[52], stream state int64[1], hands and dealt hands
#: int64[6], calls int64[6], trick masks and winners int64[6].
RoundWork = namedtuple(
    "RoundWork", ["pack", "state", "hands", "dealt", "calls", "tricks", "winners"]
)

#: Policy ids (``ids[0]`` the auction, ``ids[1]`` the play) and their parameters.
Policy = namedtuple("Policy", ["ids", "params"])


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
    )


@njit
def play_round(key, rules, policy, work, rec, trace):
    """Deal, bid and play one round with the stream ``key``; fill ``rec`` (RoundRec) and, when
    it has room, ``trace`` (TraceRec). Returns the bidder's seat."""
    n = rules[RuleSlot.PLAYERS]
    must_follow = rules[RuleSlot.MUST_FOLLOW]
    hands = work.hands
    state = work.state
    state[0] = 0
    hands[:] = 0
    deal_hands(key, work.pack, state, n, TRICKS, 13, 16, hands)
    rec[:] = 0
    rec[RoundRec.PLAYERS] = n
    for s in range(SEATS):
        work.dealt[s] = hands[s]
        rec[RoundRec.HANDS + s] = hands[s]
        rec[RoundRec.BIDS + s] = -1
    # auction
    highest = np.int64(BID_PASS)
    for seat in range(n):
        calls = legal_calls(highest, 1 if seat == n - 1 else 0)
        call = choose_call(policy.ids[0], policy.params, calls, key, state)
        work.calls[seat] = call
        rec[RoundRec.BIDS + seat] = call
        if call > highest:
            highest = call
    bidder, bid, stole = auction_result(work.calls, n)
    rec[RoundRec.BIDDER] = bidder
    rec[RoundRec.BID] = bid
    rec[RoundRec.STOLE] = stole
    # play: the bidder pitches; the suit of his first card is trump
    tracing = trace.shape[0] >= TraceRec.LEN
    if tracing:
        trace[:] = -1
    trump = np.int64(-1)
    leader = bidder
    k = 0
    for t in range(TRICKS):
        first = np.int64(-1)
        best = np.int64(-1)
        winner = np.int64(-1)
        tmask = np.int64(0)
        for j in range(n):
            seat = (leader + j) % n
            legal = legal_plays(hands[seat], first, trump, must_follow, t == 0)
            card = choose_card(policy.ids[1], policy.params, legal, key, state)
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
        if tracing:
            trace[TraceRec.WINNERS + t] = winner
        leader = winner
    score_tricks(work.dealt, bidder, bid, trump, work.tricks, work.winners, rules, rec)
    return bidder
