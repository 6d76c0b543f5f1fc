"""The bid advisor's kernel: sampled worlds consistent with the auction so far, and in each
the outcome of every contract the player could play and of every call he could make.

A world is the 24 cards the player does not hold dealt to the three other seats: try ``t`` of
world ``w`` shuffles with the stream (seed, w * MAX_TRIES + t), and the shuffle is redrawn
until the auction so far is one the prior
(the Setup's auction policies of the other seats) could have made (``consistent_call``), at
most ``MAX_TRIES`` times (a world never accepted is flagged and left out by the caller).

In each world:

* per trump suit, the round played with the player contracting in that suit (he leads the
  first trick unless ``first_lead = after_dealer``): his team's card points (250 for its
  capot, 0 when it takes no trick) plus the combinations it scores plus its pilotta, its card
  points alone, and whether it took every trick;
* per candidate call (a bid or a pass), the auction finished by the other three seats' policies
  (the player passes from then on), the final contract played and scored: each team's game
  points, the contracting seat, made or not.

Contracts are played once per world and (contracting seat, trump): ``known[w, seat, trump]``
holds (contracting team's card points with the last trick, its tricks), -1 while unknown.
``mode`` 0 plays unknown contracts with the Setup's play policies and stores them; mode 1
(record) plays nothing, marks the contracts needed with -2 and scores placeholders. The
double-dummy oracle (``bid.py``) is a record pass, the existing ``solver.solve_batch`` on the
contracts marked, and a second pass with every contract known: the auctions are the same in
both passes (they draw nothing from play), and this kernel never compiles the solver.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import shuffle_pack, stream_key
from ...core.spans import span_range
from ..layouts import (
    ASTATE_LEN,
    COMB_LEN,
    DECL_LEN,
    SCORE_LEN,
    AState,
    Comb,
    Score,
    Setup,
)
from ..rules import RuleSlot
from .auction import (
    apply_call,
    auction_reset,
    consistent_call,
    finish_auction,
    level_points,
    team_policy,
)
from .declarations import compare_declarations, declare_policy_hand
from .play import play_round
from .scoring import score_round

MAX_TRIES = 400
N_CHUNKS = 64
MODE_POLICY = 0
MODE_RECORD = 1
NEEDED = -2

#: The question: ``query`` int64[4] (hand mask, seat, dealer, mode); ``calls`` int64[k, 3]
#: (seat, level 0..9 or -1 for a pass, suit) in order; ``cands`` int64[m, 2] (level or -1,
#: suit).
Query = namedtuple("Query", "query calls cands")
#: The answer, one row per world (see :func:`advise_worlds`).
Out = namedtuple("Out", "per_trump per_cand tries hands")

# per-trump record
T_REACH = 0  # card points (250 capot, 0 none) + combinations scored + pilotta, the player's team
T_CARD = 1  # card points alone (step 1)
T_CAPOT = 2  # 1: the player's team took all eight tricks
T_LEN = 3
# per-candidate record
C_US = 0  # game points of the player's team
C_THEM = 1
C_BIDDER = 2  # final contracting seat (-1: thrown in)
C_MADE = 3
C_LEVEL = 4  # final contract level and suit
C_TRUMP = 5
C_LEN = 6


@njit
def _replay(ast, dealer, calls):
    auction_reset(ast, dealer)
    for i in range(calls.shape[0]):
        apply_call(ast, calls[i, 1], calls[i, 2])


@njit
def _consistent(hands, me, dealer, calls, setup, rules, ast):
    auction_reset(ast, dealer)
    for i in range(calls.shape[0]):
        p = calls[i, 0]
        if p != me:
            policy, params = team_policy(setup, p)
            if not consistent_call(
                policy, params, hands[p], p, ast, rules, calls[i, 1], calls[i, 2]
            ):
                return False
        apply_call(ast, calls[i, 1], calls[i, 2])
    return True


@njit
def _play(hands, bidder, trump, dealer, setup, rules, key, state):
    """(contracting team's card points with the last trick, its tricks) of a contract played
    with the Setup's play policies."""
    leader = (dealer + 1) % 4 if rules[RuleSlot.FIRST_LEAD] else bidder
    team = bidder & 1
    total = 160 if rules[RuleSlot.TRUMP_KQ_POINTS] else 162
    h = hands.copy()
    plays = np.zeros(32, dtype=np.int8)
    legal_n = np.zeros(32, dtype=np.int8)
    raw_ns, tricks_ns = play_round(h, trump, leader, team, rules, setup, key, state, plays, legal_n)
    if team == 0:
        return raw_ns, tricks_ns
    return total - raw_ns, 8 - tricks_ns


@njit
def _contract(known, hands, b, tr, dealer, setup, rules, key, state, mode):
    """Fill ``known[b, tr]`` (this world's row) when unknown: play it, or mark it needed."""
    if known[b, tr, 0] >= 0 or known[b, tr, 0] == NEEDED:
        return
    if mode == MODE_RECORD:
        known[b, tr, 0] = NEEDED
        known[b, tr, 1] = 0
        return
    known[b, tr, 0], known[b, tr, 1] = _play(hands, b, tr, dealer, setup, rules, key, state)


@njit
def _score(hands, bidder, level, trump, raw_c, tricks_c, dealer, setup, rules, sc):
    """Score a played contract into ``sc`` (Score)."""
    leader = (dealer + 1) % 4 if rules[RuleSlot.FIRST_LEAD] else bidder
    decl = np.zeros((4, DECL_LEN), dtype=np.int32)
    for p in range(4):
        declare_policy_hand(hands[p], trump, setup[Setup.DECLARE_NS + (p & 1)], decl[p])
    comb = np.zeros(COMB_LEN, dtype=np.int32)
    compare_declarations(decl, leader, rules, comb)
    team = bidder & 1
    total = 160 if rules[RuleSlot.TRUMP_KQ_POINTS] else 162
    raw_ns = raw_c if team == 0 else total - raw_c
    tricks_ns = tricks_c if team == 0 else 8 - tricks_c
    pil = comb[Comb.PILOTTA_SEAT]
    score_round(
        raw_ns,
        tricks_ns,
        team,
        level_points(level),
        comb[Comb.POINTS_NS],
        comb[Comb.POINTS_EW],
        pil & 1 if pil >= 0 else -1,
        rules,
        sc,
    )


@njit
def _world(seed, w, q, setup, rules, known, out):
    hand = q.query[0]
    me = q.query[1]
    dealer = q.query[2]
    mode = q.query[3]
    rest = np.zeros(24, dtype=np.int64)
    k = 0
    for c in range(32):
        if not (hand >> c) & 1:
            rest[k] = c
            k += 1
    key = stream_key(seed, w * MAX_TRIES)
    state = np.zeros(1, dtype=np.int64)
    pack = np.empty(24, dtype=np.int8)
    hands = out.hands[w]
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    out.tries[w] = 0
    for t in range(MAX_TRIES):
        key = stream_key(seed, w * MAX_TRIES + t)
        state[0] = 0
        shuffle_pack(key, pack, state)
        hands[me] = hand
        for j in range(3):
            m = np.int64(0)
            for i in range(8):
                m |= np.int64(1) << rest[pack[8 * j + i]]
            hands[(me + 1 + j) % 4] = m
        if _consistent(hands, me, dealer, q.calls, setup, rules, ast):
            out.tries[w] = t + 1
            break
    if out.tries[w] == 0:
        return
    sc = np.zeros(SCORE_LEN, dtype=np.int32)
    us = me & 1
    for trump in range(4):
        _contract(known, hands, me, trump, dealer, setup, rules, key, state, mode)
        raw = max(known[me, trump, 0], 0)
        _score(hands, me, 0, trump, raw, known[me, trump, 1], dealer, setup, rules, sc)
        card = sc[Score.CARD_NS + us]
        out.per_trump[w, trump, T_CARD] = card
        out.per_trump[w, trump, T_CAPOT] = 1 if known[me, trump, 1] == 8 else 0
        comb = _team_combos(hands, me, trump, dealer, setup, rules)
        out.per_trump[w, trump, T_REACH] = card + comb + sc[Score.PILOTTA_GP_NS + us] * 10
    for i in range(q.cands.shape[0]):
        _replay(ast, dealer, q.calls)
        apply_call(ast, q.cands[i, 0], q.cands[i, 1])
        finish_auction(ast, setup, hands, rules, key, state, me)
        b = ast[AState.BIDDER]
        out.per_cand[w, i, C_BIDDER] = b
        if b < 0:
            continue
        tr = ast[AState.TRUMP]
        _contract(known, hands, b, tr, dealer, setup, rules, key, state, mode)
        lv = ast[AState.LEVEL]
        raw = max(known[b, tr, 0], 0)
        _score(hands, b, lv, tr, raw, known[b, tr, 1], dealer, setup, rules, sc)
        out.per_cand[w, i, C_US] = sc[Score.TOTAL_NS + us]
        out.per_cand[w, i, C_THEM] = sc[Score.TOTAL_NS + 1 - us]
        out.per_cand[w, i, C_MADE] = sc[Score.MADE]
        out.per_cand[w, i, C_LEVEL] = lv
        out.per_cand[w, i, C_TRUMP] = tr


@njit
def _team_combos(hands, me, trump, dealer, setup, rules):
    """Combination points the player's team scores after the comparison (card-point units)."""
    leader = (dealer + 1) % 4 if rules[RuleSlot.FIRST_LEAD] else me
    decl = np.zeros((4, DECL_LEN), dtype=np.int32)
    for p in range(4):
        declare_policy_hand(hands[p], trump, setup[Setup.DECLARE_NS + (p & 1)], decl[p])
    comb = np.zeros(COMB_LEN, dtype=np.int32)
    compare_declarations(decl, leader, rules, comb)
    return comb[Comb.POINTS_NS + (me & 1)]


@njit
def _chunk(seed, lo, hi, q, setup, rules, known, out):
    for w in range(lo, hi):
        _world(seed, w, q, setup, rules, known[w], out)


@njit_parallel
def advise_worlds(seed, n, q, setup, rules, known):
    """``n`` worlds of the question ``q`` (:data:`Query`), ``known`` int64[n, 4, 4, 2] (see
    the module docstring; filled in place): an :data:`Out` of per-trump int64[n, 4, T_LEN],
    per-candidate int64[n, m, C_LEN], tries int64[n] (shuffles drawn until the world was
    consistent with the auction, 0 when none was) and the hands int64[n, 4]. Parallel over
    fixed chunks: the same numbers whatever the thread count."""
    m = q.cands.shape[0]
    out = Out(
        np.zeros((n, 4, T_LEN), dtype=np.int64),
        np.zeros((n, m, C_LEN), dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros((n, 4), dtype=np.int64),
    )
    n_chunks = min(n, N_CHUNKS)
    for ch in prange(n_chunks):
        lo, count = span_range(n, n_chunks, ch)
        _chunk(seed, lo, lo + count, q, setup, rules, known, out)
    return out
