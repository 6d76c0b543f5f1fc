"""The bid advisor's kernel: every candidate call of one seat played out on common worlds.

A world deals the 46 cards the advising seat does not hold to the other seats (six each) with
the stream (seed, world): uniform over the unseen cards (``prior`` 0), or conditioned on the
calls already made (``prior`` 1): a world is redrawn, up to ``MAX_TRIES`` times, until the
other players' bid policy would have made exactly those calls holding those hands (a world
still inconsistent after that is kept and counted). Every candidate is then played in the
same world with the same stream: the rest of the auction by the bid policy, the play by the
play policy, the bidder pitching the candidate's suit when he is the advising seat.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import shuffle_pack, stream_key
from ..layouts import BID_PASS, SEATS, TRICKS, AdviceRec, Cand, RoundRec, RuleSlot
from .auction import auction_result, legal_calls
from .policies import choose_call
from .round import new_round_work, play_out
from .scoring import score_tricks

MAX_TRIES = 256
N_CHUNKS = 64
REC_LEN = int(RoundRec.LEN)
ADV_LEN = int(AdviceRec.LEN)

#: The question: the advising seat, his hand, the calls before him (int64[6], -1 after), the
#: candidates (int64[m, Cand.LEN]), ``prior`` (0 uniform, 1 conditioned on the calls).
BidQuery = namedtuple("BidQuery", ["seat", "hand", "calls", "cands", "prior"])


@njit
def deal_world(key, pack, state, n, seat, hand, hands):
    """The other seats' hands from the cards not in ``hand``, in pack order."""
    shuffle_pack(key, pack, state)
    hands[:] = 0
    hands[seat] = hand
    s = 0 if seat != 0 else 1
    got = 0
    for i in range(52):
        o = np.int64(pack[i])
        card = (o // 13) * 16 + o % 13
        bit = np.int64(1) << card
        if hand & bit:
            continue
        hands[s] |= bit
        got += 1
        if got == TRICKS:
            got = 0
            s += 1
            if s == seat:
                s += 1
            if s >= n:
                break


@njit
def consistent(hands, query, policy, key, state):
    """True when the bid policy, holding ``hands``, makes the calls made before the seat."""
    highest = np.int64(BID_PASS)
    for s in range(query.seat):
        calls = legal_calls(highest, 0)
        c = choose_call(policy.ids[0], policy.params, calls, hands[s], key, state)
        if c != query.calls[s]:
            return False
        if c > highest:
            highest = c
    return True


@njit
def world_span(seed, lo, hi, rules, policy, query, out, misses):
    """Worlds ``lo .. hi-1`` into ``out`` (int64[worlds, m, AdviceRec.LEN]); ``misses[w]`` is 1
    when world w could not be made consistent with the calls."""
    n = rules[RuleSlot.PLAYERS]
    work = new_round_work()
    rec = np.zeros(REC_LEN, dtype=np.int64)
    dealt = np.zeros(SEATS, dtype=np.int64)
    m = query.cands.shape[0]
    for w in range(lo, hi):
        key = stream_key(seed, w * MAX_TRIES)
        for attempt in range(MAX_TRIES):
            key = stream_key(seed, w * MAX_TRIES + attempt)
            work.state[0] = 0
            deal_world(key, work.pack, work.state, n, query.seat, query.hand, dealt)
            if query.prior == 0 or consistent(dealt, query, policy, key, work.state):
                break
            if attempt == MAX_TRIES - 1:
                misses[w] = 1
        start = work.state[0]
        for j in range(m):
            work.state[0] = start
            for s in range(SEATS):
                work.hands[s] = dealt[s]
                work.dealt[s] = dealt[s]
            highest = np.int64(BID_PASS)
            for s in range(query.seat):
                work.calls[s] = query.calls[s]
                if query.calls[s] > highest:
                    highest = query.calls[s]
            work.calls[query.seat] = query.cands[j, Cand.CALL]
            if query.cands[j, Cand.CALL] > highest:
                highest = query.cands[j, Cand.CALL]
            forced = query.cands[j, Cand.FORCED]
            for s in range(query.seat + 1, n):
                if forced:
                    work.calls[s] = BID_PASS
                    continue
                calls = legal_calls(highest, 1 if s == n - 1 else 0)
                c = choose_call(policy.ids[0], policy.params, calls, dealt[s], key, work.state)
                work.calls[s] = c
                if c > highest:
                    highest = c
            bidder, bid, _ = auction_result(work.calls, n)
            if forced:
                bidder = query.seat
                bid = query.cands[j, Cand.CALL]
            trump = query.cands[j, Cand.TRUMP] if bidder == query.seat else np.int64(-1)
            trump = play_out(rules, policy, work, key, bidder, trump, rec[:0])
            score_tricks(dealt, bidder, bid, trump, work.tricks, work.winners, rules, rec)
            o = out[w, j]
            o[AdviceRec.POINTS] = rec[RoundRec.POINTS + query.seat]
            o[AdviceRec.SCORE] = rec[RoundRec.SCORE + query.seat]
            o[AdviceRec.BIDDER] = bidder
            o[AdviceRec.BID] = bid
            taken = np.int64(0)
            for p in range(6):
                if rec[RoundRec.TAKER + p] == query.seat:
                    taken |= np.int64(1) << p
            o[AdviceRec.TAKEN] = taken


@njit_parallel
def advise_worlds(seed, worlds, rules, policy, query):
    """Outcomes (int64[worlds, m, AdviceRec.LEN]) of every candidate in every world, and the
    worlds that stayed inconsistent with the calls (int64[worlds]); the same whatever the
    thread count (world w uses the streams of (seed, w))."""
    m = query.cands.shape[0]
    out = np.zeros((worlds, m, ADV_LEN), dtype=np.int64)
    misses = np.zeros(worlds, dtype=np.int64)
    n_chunks = min(worlds, N_CHUNKS)
    per = (worlds + n_chunks - 1) // n_chunks if n_chunks else 0
    for ch in prange(n_chunks):
        lo = ch * per
        hi = min(worlds, lo + per)
        if lo < hi:
            world_span(seed, lo, hi, rules, policy, query, out, misses)
    return out, misses
