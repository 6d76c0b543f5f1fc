"""The bid advisor's kernel: every candidate call of one seat played out on common worlds.

A world deals the 46 cards the advising seat does not hold to the other seats (six each) with
the stream (seed, world): uniform over the unseen cards (``prior`` 0), or conditioned on the
calls already made (``prior`` 1): a world is redrawn, up to ``MAX_TRIES`` times, until the
other players' bid policy would have made exactly those calls holding those hands; when the
calls are rarer than that, up to ``EXTRA_TRIES`` more draws from a stream of the world's own,
each much cheaper (:func:`deal_fitting`: seat by seat, each seat that called checked as soon as
dealt). Both are exact rejection sampling of uniform deals given the calls. A world still
inconsistent after that is flagged (``misses``; the library leaves it out when any world
fits). Every candidate is then played in the same world with the same stream: the rest of the
auction by the bid policy, the play by the play policy, the bidder pitching the candidate's
suit when he is the advising seat. A
candidate whose auction ends like an earlier one's (same bidder, same pitch, same stream
position) reuses that play-out (:class:`~..layouts.PlayCache`): the same cards, exactly.

The play here is random or heuristic; the search plays (pimc, dd) run in
``kernels/advisor_search.py`` through the same world loop (:func:`world_outcomes`, inlined,
the play-out its only difference), so this kernel never compiles the search.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.arrays import copy_into
from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import bounded, shuffle_pack, stream_key
from ..layouts import (
    BID_PASS,
    SEATS,
    TRICKS,
    AdviceRec,
    Cand,
    PlayCache,
    RoundRec,
)
from ..policies import PIMC_SCORE_AT, PLAY_PIMC
from ..rules import RuleSlot
from .auction import auction_result, legal_calls
from .policies import choose_call
from .round import new_round_work, play_out
from .scoring import score_tricks

MAX_TRIES = 256
#: Cheaper draws (:func:`deal_fitting`) a world gets when ``MAX_TRIES`` whole deals missed.
EXTRA_TRIES = 1 << 15
#: World w's extra draws use the stream (seed, EXTRA_STREAM + w), apart from its whole deals'
#: (seed, w * MAX_TRIES + attempt).
EXTRA_STREAM = 1 << 62
FULL = np.int64(0x1FFF_1FFF_1FFF_1FFF)
N_CHUNKS = 64
REC_LEN = int(RoundRec.LEN)
ADV_LEN = int(AdviceRec.LEN)
CACHE_LEN = int(PlayCache.LEN)

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
def _draw_six(deck, left, key, state):
    """Six cards from ``deck[0:left]`` (partial Fisher-Yates: they end at ``deck[left-6:left]``)."""
    h = np.int64(0)
    for _ in range(6):
        r = bounded(key, state, left)
        left -= 1
        c = deck[r]
        deck[r] = deck[left]
        deck[left] = c
        h |= np.int64(1) << np.int64(c)
    return h


@njit
def deal_fitting(key, state, n, query, policy, deck, dealt):
    """Deal the cards not in the advising seat's hand into ``dealt`` seat by seat, the seats
    before him (those who bid first, then those who passed) each checked against his call as
    soon as dealt, starting again at the first miss, up to ``EXTRA_TRIES`` times: rejection
    sampling of uniform deals given the calls, as :func:`draw_world`'s whole deals, each try
    far cheaper. The seats after him are dealt from the rest. True when the calls fit; else
    ``dealt`` is one uniform deal, not fitting. ``deck``: int8[>= 46] scratch."""
    seat = query.seat
    m = 0
    for c in range(64):
        if (FULL >> c) & 1 and not (query.hand >> c) & 1:
            deck[m] = c
            m += 1
    order = np.zeros(SEATS, dtype=np.int64)
    highs = np.zeros(SEATS, dtype=np.int64)
    k = 0
    highest = np.int64(BID_PASS)
    for s in range(seat):
        highs[s] = highest
        if query.calls[s] > highest:
            highest = query.calls[s]
        if query.calls[s] != BID_PASS:
            order[k] = s
            k += 1
    for s in range(seat):
        if query.calls[s] == BID_PASS:
            order[k] = s
            k += 1
    dealt[:] = 0
    dealt[seat] = query.hand
    left = m
    fit = False
    for _ in range(EXTRA_TRIES):
        left = m
        fit = True
        for i in range(seat):
            s = order[i]
            h = _draw_six(deck, left, key, state)
            left -= 6
            c = choose_call(policy.ids[0], policy.params, legal_calls(highs[s], 0), h, key, state)
            if c != query.calls[s]:
                fit = False
                break
            dealt[s] = h
        if fit:
            break
    if not fit:
        left = m
        for s in range(seat):
            dealt[s] = _draw_six(deck, left, key, state)
            left -= 6
    for s in range(seat + 1, n):
        dealt[s] = _draw_six(deck, left, key, state)
        left -= 6
    return fit


@njit
def draw_world(seed, w, n, policy, query, work, dealt):
    """Deal world ``w`` into ``dealt`` (the conditioned prior's redraws included: whole deals,
    then :func:`deal_fitting`); returns (the world's stream key, 1 when it stayed inconsistent
    with the calls)."""
    key = stream_key(seed, w * MAX_TRIES)
    for attempt in range(MAX_TRIES):
        key = stream_key(seed, w * MAX_TRIES + attempt)
        work.state[0] = 0
        deal_world(key, work.pack, work.state, n, query.seat, query.hand, dealt)
        if query.prior == 0 or consistent(dealt, query, policy, key, work.state):
            return key, 0
    key = stream_key(seed, EXTRA_STREAM + w)
    work.state[0] = 0
    if deal_fitting(key, work.state, n, query, policy, work.pack, dealt):
        return key, 0
    return key, 1


@njit
def candidate_auction(n, policy, query, j, dealt, work, key):
    """Candidate ``j``'s auction in the dealt world (the calls before the seat, his call, the
    others' by the bid policy; a forced candidate stops at him). Loads ``work.hands`` and
    ``work.calls``; returns (bidder, bid, trump he must pitch or -1)."""
    for s in range(SEATS):
        work.hands[s] = dealt[s]
        work.dealt[s] = dealt[s]
    highest = np.int64(BID_PASS)
    for s in range(query.seat):
        work.calls[s] = query.calls[s]
        if query.calls[s] > highest:
            highest = query.calls[s]
    call = query.cands[j, Cand.CALL]
    work.calls[query.seat] = call
    if call > highest:
        highest = call
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
        bid = call
    trump = query.cands[j, Cand.TRUMP] if bidder == query.seat else np.int64(-1)
    return bidder, bid, trump


@njit
def cached_play(cache, j, bidder, trump, state, bid_key):
    """Index of an earlier candidate (< j) whose play-out began alike, else -1."""
    for i in range(j):
        c = cache[i]
        same = c[PlayCache.BIDDER] == bidder and c[PlayCache.TRUMP] == trump
        if same and c[PlayCache.STATE] == state and c[PlayCache.BID] == bid_key:
            return i
    return -1


@njit
def keep_play(cache, j, work, bidder, trump, state, bid_key, trump_out):
    c = cache[j]
    c[PlayCache.BIDDER] = bidder
    c[PlayCache.TRUMP] = trump
    c[PlayCache.STATE] = state
    c[PlayCache.BID] = bid_key
    c[PlayCache.TRUMP_OUT] = trump_out
    for t in range(TRICKS):
        c[PlayCache.TRICKS + t] = work.tricks[t]
        c[PlayCache.WINNERS + t] = work.winners[t]


@njit
def reuse_play(cache, i, j, work):
    """Copy candidate ``i``'s play-out into candidate ``j``'s row and ``work``; its trump."""
    copy_into(cache[j], cache[i])  # not cache[j] = cache[i]: see core.engine.arrays
    for t in range(TRICKS):
        work.tricks[t] = cache[i, PlayCache.TRICKS + t]
        work.winners[t] = cache[i, PlayCache.WINNERS + t]
    return cache[i, PlayCache.TRUMP_OUT]


@njit
def record(o, rec, seat, n, bidder, bid):
    """The advising seat's outcome row (AdviceRec) from a scored round record."""
    o[AdviceRec.POINTS] = rec[RoundRec.POINTS + seat]
    o[AdviceRec.SCORE] = rec[RoundRec.SCORE + seat]
    o[AdviceRec.BIDDER] = bidder
    o[AdviceRec.BID] = bid
    taken = np.int64(0)
    for p in range(6):
        if rec[RoundRec.TAKER + p] == seat:
            taken |= np.int64(1) << p
    o[AdviceRec.TAKEN] = taken
    for s in range(n):
        o[AdviceRec.SCORES + s] = rec[RoundRec.SCORE + s]


@njit_inline
def world_outcomes(seed, w, rules, policy, query, work, scratch, out, play_fn, play_work):
    """World ``w``: every candidate's outcome into ``out`` (int64[m, AdviceRec.LEN]), each
    play-out by ``play_fn(rules, policy, work, key, bidder, trump, play_work)`` (the plain
    ``play_out`` here, the search play in ``advisor_search``); returns 1 when the world stayed
    inconsistent with the calls. ``scratch`` is (round record, dealt hands, play cache)."""
    n = rules[RuleSlot.PLAYERS]
    rec, dealt, cache = scratch
    key, miss = draw_world(seed, w, n, policy, query, work, dealt)
    start = work.state[0]
    by_bid = policy.ids[1] == PLAY_PIMC and policy.params[PIMC_SCORE_AT] > 0
    for j in range(query.cands.shape[0]):
        work.state[0] = start
        bidder, bid, trump = candidate_auction(n, policy, query, j, dealt, work, key)
        state = work.state[0]
        bid_key = bid if by_bid else 0
        i = cached_play(cache, j, bidder, trump, state, bid_key)
        if i >= 0:
            played = reuse_play(cache, i, j, work)
        else:
            played = play_fn(rules, policy, work, key, bidder, trump, play_work)
            keep_play(cache, j, work, bidder, trump, state, bid_key, played)
        score_tricks(dealt, bidder, bid, played, work.tricks, work.winners, rules, rec)
        record(out[j], rec, query.seat, n, bidder, bid)
    return miss


@njit
def new_world_scratch(m):
    """(round record, dealt hands, play cache of ``m`` candidates) for :func:`world_outcomes`."""
    return (
        np.zeros(REC_LEN, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros((m, CACHE_LEN), dtype=np.int64),
    )


@njit
def world_span(seed, lo, hi, rules, policy, query, out, misses):
    """Worlds ``lo .. hi-1`` into ``out`` (int64[worlds, m, AdviceRec.LEN]); ``misses[w]`` is 1
    when world w could not be made consistent with the calls."""
    work = new_round_work()
    scratch = new_world_scratch(query.cands.shape[0])
    no_trace = scratch[0][:0]
    for w in range(lo, hi):
        misses[w] = world_outcomes(
            seed, w, rules, policy, query, work, scratch, out[w], play_out, no_trace
        )


@driver(world_span)
def advise_worlds(seed, worlds, rules, policy, query):
    """Outcomes (int64[worlds, m, AdviceRec.LEN]) of every candidate in every world, and the
    worlds that stayed inconsistent with the calls (int64[worlds]); the same whatever the
    thread count (world w uses the streams of (seed, w); fixed chunks on threads,
    ``core.engine.jit_threads``)."""
    m = query.cands.shape[0]
    out = np.zeros((worlds, m, ADV_LEN), dtype=np.int64)
    misses = np.zeros(worlds, dtype=np.int64)

    def work(ch: int, lo: int, count: int) -> None:
        world_span(seed, lo, lo + count, rules, policy, query, out, misses)

    for_spans(worlds, min(worlds, N_CHUNKS), work)
    return out, misses
