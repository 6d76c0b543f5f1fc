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

Contracts are played once per world and (contracting seat, trump) and reused. ``mode`` 0 plays
with the Setup's play policies; 1 values each contract by the exact double-dummy solver
(the marked oracle: all hands seen; defenders hold the contracting team's points down).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import shuffle_pack, stream_key
from ..layouts import (
    ASTATE_LEN,
    COMB_LEN,
    DECL_LEN,
    POS_LEN,
    SCORE_LEN,
    AState,
    Comb,
    Rule,
    Score,
    SolverPos,
)
from .auction import (
    apply_call,
    auction_reset,
    consistent_call,
    finish_auction,
    level_points,
    team_policy,
)
from .declarations import compare_declarations, declare_hand
from .play import play_round
from .scoring import score_round
from .solver import F_ALL, new_workspace, solve_position
from .solver_tt import to_internal

MAX_TRIES = 400
N_CHUNKS = 64
MODE_POLICY = 0
MODE_DD = 1

#: The question: ``query`` int64[4] (hand mask, seat, dealer, mode); ``calls`` int64[k, 3]
#: (seat, level 0..9 or -1 for a pass, suit) in order; ``cands`` int64[m, 2] (level or -1,
#: suit).
Query = namedtuple("Query", "query calls cands")

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
def _play(hands, bidder, trump, dealer, setup, rules, key, state, ws, mode):
    """(contracting team's card points with the last trick, its tricks) of a contract."""
    leader = (dealer + 1) % 4 if rules[Rule.LEAD_AFTER_DEALER] else bidder
    team = bidder & 1
    total = 160 if rules[Rule.KQ_LITERAL] else 162
    if mode == MODE_DD:
        h = np.zeros(4, dtype=np.int64)
        for p in range(4):
            h[p] = to_internal(hands[p], trump)
        pos = np.zeros(POS_LEN, dtype=np.int64)
        pos[SolverPos.LEADER] = leader
        pos[SolverPos.TEAM] = team
        pos[SolverPos.CAPOT] = 1
        pos[SolverPos.KQ] = rules[Rule.KQ_LITERAL]
        pos[SolverPos.EXEMPT] = rules[Rule.PARTNER_EXEMPTION]
        v = solve_position(ws, h, np.zeros(4, dtype=np.int64), pos, F_ALL)
        if v >= 250:
            return total, 8
        return v, 0 if v == 0 else 1
    h = hands.copy()
    plays = np.zeros(32, dtype=np.int8)
    legal_n = np.zeros(32, dtype=np.int8)
    raw_ns, tricks_ns = play_round(h, trump, leader, team, rules, setup, key, state, plays, legal_n)
    if team == 0:
        return raw_ns, tricks_ns
    return total - raw_ns, 8 - tricks_ns


@njit
def _score(hands, bidder, level, trump, raw_c, tricks_c, dealer, rules, sc):
    """Score a played contract into ``sc`` (Score)."""
    leader = (dealer + 1) % 4 if rules[Rule.LEAD_AFTER_DEALER] else bidder
    decl = np.zeros((4, DECL_LEN), dtype=np.int32)
    for p in range(4):
        declare_hand(hands[p], trump, decl[p])
    comb = np.zeros(COMB_LEN, dtype=np.int32)
    compare_declarations(decl, leader, rules, comb)
    team = bidder & 1
    total = 160 if rules[Rule.KQ_LITERAL] else 162
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
def _world(seed, w, q, setup, rules, ws, per_trump, per_cand, tries):
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
    hands = np.zeros(4, dtype=np.int64)
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    tries[w] = 0
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
            tries[w] = t + 1
            break
    if tries[w] == 0:
        return
    raw = np.full((4, 4), -1, dtype=np.int64)
    trk = np.zeros((4, 4), dtype=np.int64)
    sc = np.zeros(SCORE_LEN, dtype=np.int32)
    us = me & 1
    for trump in range(4):
        if raw[me, trump] < 0:
            raw[me, trump], trk[me, trump] = _play(
                hands, me, trump, dealer, setup, rules, key, state, ws, mode
            )
        _score(hands, me, 0, trump, raw[me, trump], trk[me, trump], dealer, rules, sc)
        card = sc[Score.CARD_NS + us]
        per_trump[w, trump, T_CARD] = card
        per_trump[w, trump, T_CAPOT] = 1 if trk[me, trump] == 8 else 0
        comb = _team_combos(hands, me, trump, dealer, rules)
        per_trump[w, trump, T_REACH] = card + comb + sc[Score.PILOTTA_GP_NS + us] * 10
    for i in range(q.cands.shape[0]):
        _replay(ast, dealer, q.calls)
        apply_call(ast, q.cands[i, 0], q.cands[i, 1])
        finish_auction(ast, setup, hands, rules, key, state, me)
        b = ast[AState.BIDDER]
        per_cand[w, i, C_BIDDER] = b
        if b < 0:
            continue
        tr = ast[AState.TRUMP]
        if raw[b, tr] < 0:
            raw[b, tr], trk[b, tr] = _play(hands, b, tr, dealer, setup, rules, key, state, ws, mode)
        lv = ast[AState.LEVEL]
        _score(hands, b, lv, tr, raw[b, tr], trk[b, tr], dealer, rules, sc)
        per_cand[w, i, C_US] = sc[Score.TOTAL_NS + us]
        per_cand[w, i, C_THEM] = sc[Score.TOTAL_NS + 1 - us]
        per_cand[w, i, C_MADE] = sc[Score.MADE]
        per_cand[w, i, C_LEVEL] = lv
        per_cand[w, i, C_TRUMP] = tr


@njit
def _team_combos(hands, me, trump, dealer, rules):
    """Combination points the player's team scores after the comparison (card-point units)."""
    leader = (dealer + 1) % 4 if rules[Rule.LEAD_AFTER_DEALER] else me
    decl = np.zeros((4, DECL_LEN), dtype=np.int32)
    for p in range(4):
        declare_hand(hands[p], trump, decl[p])
    comb = np.zeros(COMB_LEN, dtype=np.int32)
    compare_declarations(decl, leader, rules, comb)
    return comb[Comb.POINTS_NS + (me & 1)]


@njit
def _chunk(seed, lo, hi, q, setup, rules, tables, per_trump, per_cand, tries):
    bits = 16 if q.query[3] == MODE_DD else 6
    ws = new_workspace(bits, tables[0], tables[1], tables[2], tables[3])
    for w in range(lo, hi):
        _world(seed, w, q, setup, rules, ws, per_trump, per_cand, tries)


@njit_parallel
def advise_worlds(seed, n, q, setup, rules, tables):
    """``n`` worlds of the question ``q`` (:data:`Query`): (per-trump int64[n, 4, T_LEN],
    per-candidate int64[n, m, C_LEN], tries int64[n]: shuffles drawn until the world was
    consistent with the auction, 0 when none was). Parallel over fixed chunks: the same
    numbers whatever the thread count."""
    m = q.cands.shape[0]
    per_trump = np.zeros((n, 4, T_LEN), dtype=np.int64)
    per_cand = np.zeros((n, m, C_LEN), dtype=np.int64)
    tries = np.zeros(n, dtype=np.int64)
    n_chunks = min(n, N_CHUNKS)
    per = (n + n_chunks - 1) // n_chunks if n_chunks else 0
    for ch in prange(n_chunks):
        _chunk(
            seed,
            ch * per,
            min(n, (ch + 1) * per),
            q,
            setup,
            rules,
            tables,
            per_trump,
            per_cand,
            tries,
        )
    return per_trump, per_cand, tries
