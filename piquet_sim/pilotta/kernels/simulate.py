"""A whole simulated round (deal, auction, declarations, play, score) and the batch driver.

Round ``i`` of ``seed`` is dealt by seat ``i % 4`` from the stream (seed, i); the auction and
random play draw from the same stream after the shuffle, so a round depends only on (seed, i)
and the setup, never on threads or chunking. Output: a :class:`layouts.RoundRec` row per round
and two int8 rows of 32: the cards in playing order and each play's number of legal cards.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import stream_key
from ..layouts import (
    ASTATE_LEN,
    AUCTION_LEN,
    COMB_LEN,
    DECL_LEN,
    ROUND_LEN,
    VIEW_LEN,
    Auction,
    Comb,
    RoundRec,
    Setup,
)
from ..policies import PLAY_RANDOM
from ..rules import RuleSlot
from .auction import run_auction_in, sampling_of
from .deal import N_PACK, deal_round
from .declarations import compare_declarations, declare_policy_hand
from .play import play_random, play_round_in
from .scoring import score_round

BATCH_CHUNKS = 64  # fixed, so results never depend on the thread count


@njit
def declare_round(hands, setup, rules, rec):
    """Declarations of a round whose auction is in ``rec`` (BIDDER >= 0): each seat declares
    under its team's declaration policy; fills FIRST_LEADER, DECL_* and PILOTTA_SEAT. Returns
    the first leader."""
    decl = np.zeros((4, DECL_LEN), dtype=np.int32)
    comb = np.zeros(COMB_LEN, dtype=np.int32)
    return declare_round_in(hands, setup, rules, rec, decl, comb)


@njit
def declare_round_in(hands, setup, rules, rec, decl, comb):
    """:func:`declare_round` in the caller's ``decl`` (int32[4, DECL_LEN]) and ``comb``
    (int32[COMB_LEN]) scratch."""
    dealer = rec[RoundRec.DEALER]
    bidder = rec[RoundRec.BIDDER]
    trump = rec[RoundRec.TRUMP]
    leader = (dealer + 1) % 4 if rules[RuleSlot.FIRST_LEAD] else bidder
    rec[RoundRec.FIRST_LEADER] = leader
    for p in range(4):
        declare_policy_hand(hands[p], trump, setup[Setup.DECLARE_NS + (p & 1)], decl[p])
    compare_declarations(decl, leader, rules, comb)
    rec[RoundRec.DECL_TEAM] = comb[Comb.TEAM]
    rec[RoundRec.DECL_NS] = comb[Comb.POINTS_NS]
    rec[RoundRec.DECL_EW] = comb[Comb.POINTS_EW]
    rec[RoundRec.PILOTTA_SEAT] = comb[Comb.PILOTTA_SEAT]
    return leader


@njit
def close_round(raw_ns, tricks_ns, rules, rec, legal_n):
    """Score a played round into ``rec`` from its play (NS card points with the last trick,
    NS tricks) and the auction and declarations already in ``rec``."""
    rec[RoundRec.TRICKS_NS] = tricks_ns
    rec[RoundRec.RAW_NS] = raw_ns
    rec[RoundRec.RAW_EW] = (160 if rules[RuleSlot.TRUMP_KQ_POINTS] else 162) - raw_ns
    s = 0
    for j in range(32):
        s += legal_n[j]
    rec[RoundRec.LEGAL_SUM] = s
    pil = rec[RoundRec.PILOTTA_SEAT]
    score = rec[RoundRec.SCORE :]
    score_round(
        raw_ns,
        tricks_ns,
        rec[RoundRec.BIDDER] & 1,
        rec[RoundRec.BID],
        rec[RoundRec.DECL_NS],
        rec[RoundRec.DECL_EW],
        pil & 1 if pil >= 0 else -1,
        rules,
        score,
    )


@njit
def open_round(seed, index, rec, hands, pack, state):
    """Clear ``rec``, deal round ``index`` of ``seed`` into ``hands`` and ``rec``; returns the
    round's stream key (``state`` left after the shuffle)."""
    key = stream_key(seed, index)
    for j in range(ROUND_LEN):
        rec[j] = 0
    for j in (RoundRec.TRUMP, RoundRec.FIRST_LEADER, RoundRec.DECL_TEAM, RoundRec.PILOTTA_SEAT):
        rec[j] = -1  # stays so in a thrown-in round
    rec[RoundRec.DEALER] = index % 4
    deal_round(key, pack, state, hands)
    for p in range(4):
        rec[RoundRec.HAND_N + p] = hands[p]
    return key


@njit
def round_scratch():
    """The arrays a round works in besides its record (a driver makes them once for all its
    rounds): the stream state, the pack, the hands, the auction's result, state and threshold
    estimates, the declarations and their comparison, the play's view."""
    return (
        np.zeros(1, dtype=np.int64),
        np.empty(N_PACK, dtype=np.int8),
        np.zeros(4, dtype=np.int64),
        np.zeros(AUCTION_LEN, dtype=np.int32),
        np.zeros(ASTATE_LEN, dtype=np.int64),
        np.zeros((4, 4), dtype=np.int64),
        np.zeros((4, DECL_LEN), dtype=np.int32),
        np.zeros(COMB_LEN, dtype=np.int32),
        np.zeros(VIEW_LEN, dtype=np.int64),
    )


@njit
def simulate_round(seed, index, setup, rules, rec, plays, legal_n):
    """Simulate round ``index`` of ``seed`` into ``rec`` (int64[RoundRec.LEN]) and the int8[32]
    rows ``plays`` / ``legal_n``. A thrown-in round has BIDDER -1 and nothing after it."""
    simulate_round_in(seed, index, setup, rules, rec, plays, legal_n, round_scratch(), True)


@njit
def simulate_round_in(seed, index, setup, rules, rec, plays, legal_n, scratch, sampling):
    """:func:`simulate_round` in the caller's ``scratch`` (:func:`round_scratch`); ``sampling``
    as :func:`.auction.run_auction_in`'s (None: no team bids with a sampling bidder)."""
    state, pack, hands, auction, ast, est, decl, comb, view = scratch
    key = open_round(seed, index, rec, hands, pack, state)
    dealer = rec[RoundRec.DEALER]
    run_auction_in(dealer, setup, hands, rules, key, state, auction, ast, est, sampling)
    # int64 like every other caller's, so each round kernel is compiled once (the advisor and
    # the Monte Carlo bidder play rounds with int64 seats and suits)
    bidder = np.int64(auction[Auction.BIDDER])
    rec[RoundRec.BIDDER] = bidder
    if bidder < 0:
        return
    trump = np.int64(auction[Auction.TRUMP])
    rec[RoundRec.BID] = auction[Auction.BID]
    rec[RoundRec.TRUMP] = trump
    leader = declare_round_in(hands, setup, rules, rec, decl, comb)
    if setup[Setup.PLAY_NS] == PLAY_RANDOM and setup[Setup.PLAY_EW] == PLAY_RANDOM:
        raw_ns, tricks_ns = play_random(hands, trump, leader, rules, key, state, plays, legal_n)
    else:
        raw_ns, tricks_ns = play_round_in(
            hands, trump, leader, bidder & 1, rules, setup, key, state, plays, legal_n, view
        )
    close_round(raw_ns, tricks_ns, rules, rec, legal_n)


@njit
def _chunk(seed, start, lo, hi, setup, rules, recs, plays, legal_n, sampling):
    scratch = round_scratch()
    for i in range(lo, hi):
        simulate_round_in(
            seed, start + i, setup, rules, recs[i], plays[i], legal_n[i], scratch, sampling
        )


@driver(_chunk)
def simulate_batch(seed, start, n, setup, rules):
    """Rounds ``start .. start+n-1`` of ``seed``: (records int64[n, RoundRec.LEN], plays
    int8[n, 32], legal counts int8[n, 32]). Fixed chunks on threads
    (``core.engine.jit_threads``; the same numbers whatever the thread count)."""
    recs = np.zeros((n, ROUND_LEN), dtype=np.int64)
    plays = np.full((n, 32), -1, dtype=np.int8)
    legal_n = np.zeros((n, 32), dtype=np.int8)
    sampled = sampling_of(setup)  # None: the sampling bidders are not compiled

    def work(ch: int, lo: int, count: int) -> None:
        _chunk(seed, start, lo, lo + count, setup, rules, recs, plays, legal_n, sampled)

    for_spans(n, min(n, BATCH_CHUNKS), work)
    return recs, plays, legal_n
