"""Score a round from a given sequence of plays (hand-worked cases, the reference's random
rounds): every card is checked against the rules, then :func:`~.scoring.score_tricks`."""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ..layouts import TRICKS, RoundRec
from ..rules import RuleSlot
from .auction import auction_result
from .scoring import score_tricks
from .tricks import beats, legal_plays


@njit
def replay_round(dealt, calls, plays, rules, rec):
    """Replay a round: ``dealt`` hands (int64[6], seat order), every seat's call
    (int64[6]), ``plays`` (int64[6 n], cards in order, the bidder leading first). Fills the
    RoundRec row ``rec``; returns -1, or the index of the first illegal play (``rec`` is then
    incomplete)."""
    n = rules[RuleSlot.PLAYERS]
    rec[:] = 0
    rec[RoundRec.PLAYERS] = n
    for s in range(n):
        rec[RoundRec.HANDS + s] = dealt[s]
        rec[RoundRec.BIDS + s] = calls[s]
    bidder, bid, stole = auction_result(calls, n)
    rec[RoundRec.BIDDER] = bidder
    rec[RoundRec.BID] = bid
    rec[RoundRec.STOLE] = stole
    hands = dealt.copy()
    tricks = np.zeros(TRICKS, dtype=np.int64)
    winners = np.zeros(TRICKS, dtype=np.int64)
    trump = np.int64(-1)
    leader = bidder
    k = 0
    for t in range(TRICKS):
        first = np.int64(-1)
        best = np.int64(-1)
        for j in range(n):
            seat = (leader + j) % n
            card = plays[k]
            legal = legal_plays(hands[seat], first, trump, rules[RuleSlot.MUST_FOLLOW], t == 0)
            if card < 0 or card > 63 or not (legal >> card) & 1:
                return k
            hands[seat] &= ~(np.int64(1) << card)
            tricks[t] |= np.int64(1) << card
            if first < 0:
                first = card
                if trump < 0:
                    trump = card >> 4
            if best < 0 or beats(card, best, trump):
                best = card
                winners[t] = seat
            k += 1
        leader = winners[t]
    score_tricks(dealt, bidder, bid, trump, tricks, winners, rules, rec)
    return -1
