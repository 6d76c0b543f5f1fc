"""Two bid policies compared on the same rounds: one seat (the "hero", rotating with the round
index so he sits in every seat) bids with policy A, then the round is replayed from the same
deal and stream with him bidding with policy B; the other seats bid with the table's policy
and everyone plays with its play policy. The paired difference of his score is the measure.
A ``montecarlo`` hero (``kernels/mcbid.py``) pitches the suit he chose with his bid.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import deal_hands, stream_key
from ..layouts import BID_PASS, SEATS, TRICKS, RoundRec
from ..policies import BID_MONTECARLO
from ..rules import RuleSlot
from .auction import auction_result, legal_calls
from .mcbid import new_mc_work, prepare_choices
from .policies import choose_call
from .round import new_round_work, play_out
from .scoring import score_tricks

N_CHUNKS = 64
REC_LEN = int(RoundRec.LEN)
#: Per round and variant (A 0, B 1): the hero's score, his points, whether he was the bidder,
#: whether he made his bid.
DUEL_FIELDS = 4


@njit
def duel_span(seed, first, lo, hi, rules, table, heroes, out):
    """Rounds ``lo .. hi-1`` into rows ``i - first`` of ``out``; ``heroes`` is a ``Policy``
    of two rows: ``ids[v]`` and ``params[v]`` are the hero's policy in variant v (A 0, B 1)."""
    n = rules[RuleSlot.PLAYERS]
    work = new_round_work()
    mc = new_mc_work()
    rec = np.zeros(REC_LEN, dtype=np.int64)
    dealt = np.zeros(SEATS, dtype=np.int64)
    for i in range(lo, hi):
        key = stream_key(seed, i)
        hero = i % n
        work.state[0] = 0
        deal_hands(key, work.pack, work.state, n, TRICKS, 13, 16, dealt)
        start = work.state[0]
        for v in range(2):
            work.state[0] = start
            for s in range(SEATS):
                work.hands[s] = dealt[s]
            if heroes.ids[v, 0] == BID_MONTECARLO:
                prepare_choices(rules, dealt[hero], hero, key, heroes.params[v], mc)
            highest = np.int64(BID_PASS)
            pitch = np.int64(-1)
            for s in range(n):
                calls = legal_calls(highest, 1 if s == n - 1 else 0)
                if s == hero and heroes.ids[v, 0] == BID_MONTECARLO:
                    c, pitch = mc.choice[s, highest, 0], mc.choice[s, highest, 1]
                elif s == hero:
                    c = choose_call(
                        heroes.ids[v, 0], heroes.params[v], calls, dealt[s], key, work.state
                    )
                else:
                    c = choose_call(table.ids[0], table.params, calls, dealt[s], key, work.state)
                work.calls[s] = c
                if c > highest:
                    highest = c
            bidder, bid, _ = auction_result(work.calls, n)
            first_trump = pitch if bidder == hero else np.int64(-1)
            trump = play_out(rules, table, work, key, bidder, first_trump, rec[:0])
            score_tricks(dealt, bidder, bid, trump, work.tricks, work.winners, rules, rec)
            o = out[i - first, v]
            o[0] = rec[RoundRec.SCORE + hero]
            o[1] = rec[RoundRec.POINTS + hero]
            o[2] = 1 if bidder == hero else 0
            o[3] = 1 if bidder == hero and rec[RoundRec.MADE] else 0


@driver(duel_span)
def duel_rounds(seed, first, count, rules, table, heroes):
    """int64[count, 2, DUEL_FIELDS] for rounds ``first .. first+count-1``; round i uses the
    stream (seed, i) for both variants, the same whatever the thread count or the split into
    calls (fixed chunks on threads, ``core.engine.jit_threads``)."""
    out = np.zeros((count, 2, DUEL_FIELDS), dtype=np.int64)

    def work(ch: int, lo: int, size: int) -> None:
        duel_span(seed, first, first + lo, first + lo + size, rules, table, heroes, out)

    for_spans(count, min(count, N_CHUNKS), work)
    return out
