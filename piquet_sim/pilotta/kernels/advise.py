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

The priors are simple policies (``auction_state.simple_call``: threshold or random). The
``advisor`` auction policy (:func:`advisor_call`) is this advice at the table: at its call a
seat runs ``worlds`` worlds of the advisor's default question (the threshold prior with its
default parameters at every other seat, heuristic play, everyone declaring all; the auction so
far read from ``AState.LOG``) and makes the recommended call, the first of best mean value.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.bits import cards_outside
from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import shuffle_pack, stream_key
from ..layouts import (
    ASTATE_LEN,
    COMB_LEN,
    DECL_LEN,
    N_AUCTION_PARAMS,
    SCORE_LEN,
    SETUP_LEN,
    VIEW_LEN,
    AdvParam,
    AState,
    Comb,
    Score,
    Setup,
)
from ..policies import AUCTION_THRESHOLD, DECL_ALL, PLAY_HEURISTIC, auction_params
from ..rules import RuleSlot
from .auction_state import (
    N_LEVELS,
    apply_call,
    auction_reset,
    consistent_call,
    finish_simple,
    finish_threshold,
    level_points,
    logged_calls,
    may_bid,
    team_policy,
    threshold_estimates,
)
from .declarations import compare_declarations, declare_policy_hand
from .draws import draw
from .play import play_round, play_round_in
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
    # the combination points as int64, like every other caller's: score_round is compiled once
    score_round(
        raw_ns,
        tricks_ns,
        team,
        level_points(level),
        np.int64(comb[Comb.POINTS_NS]),
        np.int64(comb[Comb.POINTS_EW]),
        pil & 1 if pil >= 0 else -1,
        rules,
        sc,
    )


@njit
def draw_world(seed, w, q, setup, rules, hands, rest, pack, ast, state):
    """World ``w`` of the question into ``hands`` (int64[4]): shuffles of the 24 unseen cards
    (``rest``, int64[24]; ``pack`` int8[24] scratch) from the streams (seed, w * MAX_TRIES + t)
    until the calls so far fit the prior; returns (tries, the accepted shuffle's key), tries 0
    when none did; ``state`` (int64[1]) is left after the accepted shuffle (later draws of the
    world continue its stream)."""
    hand = q.query[0]
    me = q.query[1]
    dealer = q.query[2]
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
            return t + 1, key
    return 0, stream_key(seed, w * MAX_TRIES + MAX_TRIES - 1)


@njit
def unseen_cards(hand):
    """The 24 cards not in ``hand``, in index order (int64[24])."""
    rest = np.zeros(24, dtype=np.int64)
    cards_outside(hand, rest)
    return rest


@njit
def _chunk(seed, lo, hi, q, setup, rules, known, out):
    """Worlds ``lo .. hi-1`` of the question into ``out`` (see :func:`advise_worlds`).

    One kernel with one call of the round play and of the scoring: numba links every callee
    into each compiled function above it and optimizes the whole again there, so a helper
    between this loop and ``play_round_in`` (a world, a contract, a play) would compile the
    round play once more each (about 0.5 CPU-s each; four such levels were a fifth of the
    advice's compile)."""
    hand = q.query[0]
    me = q.query[1]
    dealer = q.query[2]
    mode = q.query[3]
    # the player passes after the call (the advice), or bids on as the prior does (query[4])
    silent = me if q.query.shape[0] <= 4 or q.query[4] == 0 else -1
    rest = unseen_cards(hand)
    pack = np.empty(24, dtype=np.int8)
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    state = np.zeros(1, dtype=np.int64)
    sc = np.zeros(SCORE_LEN, dtype=np.int32)
    h = np.empty(4, dtype=np.int64)
    plays = np.zeros(32, dtype=np.int8)
    legal_n = np.zeros(32, dtype=np.int8)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    total = 160 if rules[RuleSlot.TRUMP_KQ_POINTS] else 162
    us = me & 1
    m = q.cands.shape[0]
    for w in range(lo, hi):
        hands = out.hands[w]
        wknown = known[w]
        tries, key = draw_world(seed, w, q, setup, rules, hands, rest, pack, ast, state)
        out.tries[w] = tries
        if tries == 0:
            continue
        # j < 4: the player contracting in trump j; then candidate j - 4, the auction finished
        # by the others' policies (in this order: the plays and the auctions share a stream)
        for j in range(4 + m):
            if j < 4:
                b, lv, tr = me, np.int64(0), np.int64(j)
            else:
                _replay(ast, dealer, q.calls)
                apply_call(ast, q.cands[j - 4, 0], q.cands[j - 4, 1])
                finish_simple(ast, setup, hands, rules, key, state, silent)
                b = ast[AState.BIDDER]
                out.per_cand[w, j - 4, C_BIDDER] = b
                if b < 0:
                    continue
                lv, tr = ast[AState.LEVEL], ast[AState.TRUMP]
            row = wknown[b, tr]
            unknown = row[0] < 0 and row[0] != NEEDED
            if unknown and mode == MODE_RECORD:
                row[0] = NEEDED
                row[1] = 0
            elif unknown:
                # the contract played with the Setup's play policies: its team's card points
                # with the last trick and its tricks
                leader = (dealer + 1) % 4 if rules[RuleSlot.FIRST_LEAD] else b
                team = b & 1
                for p in range(4):
                    h[p] = hands[p]
                raw_ns, tricks_ns = play_round_in(
                    h, tr, leader, team, rules, setup, key, state, plays, legal_n, view
                )
                row[0] = raw_ns if team == 0 else total - raw_ns
                row[1] = tricks_ns if team == 0 else 8 - tricks_ns
            raw = max(row[0], 0)
            _score(hands, b, lv, tr, raw, row[1], dealer, setup, rules, sc)
            if j < 4:
                card = sc[Score.CARD_NS + us]
                out.per_trump[w, tr, T_CARD] = card
                out.per_trump[w, tr, T_CAPOT] = 1 if row[1] == 8 else 0
                comb = _team_combos(hands, me, tr, dealer, setup, rules)
                out.per_trump[w, tr, T_REACH] = card + comb + sc[Score.PILOTTA_GP_NS + us] * 10
            else:
                out.per_cand[w, j - 4, C_US] = sc[Score.TOTAL_NS + us]
                out.per_cand[w, j - 4, C_THEM] = sc[Score.TOTAL_NS + 1 - us]
                out.per_cand[w, j - 4, C_MADE] = sc[Score.MADE]
                out.per_cand[w, j - 4, C_LEVEL] = lv
                out.per_cand[w, j - 4, C_TRUMP] = tr


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


@driver(_chunk)
def advise_worlds(seed, n, q, setup, rules, known):
    """``n`` worlds of the question ``q`` (:data:`Query`), ``known`` int64[n, 4, 4, 2] (see
    the module docstring; filled in place): an :data:`Out` of per-trump int64[n, 4, T_LEN],
    per-candidate int64[n, m, C_LEN], tries int64[n] (shuffles drawn until the world was
    consistent with the auction, 0 when none was) and the hands int64[n, 4]. Fixed chunks on
    threads (``core.engine.jit_threads``): the same numbers whatever the thread count."""
    m = q.cands.shape[0]
    out = Out(
        np.zeros((n, 4, T_LEN), dtype=np.int64),
        np.zeros((n, m, C_LEN), dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros((n, 4), dtype=np.int64),
    )

    def work(ch: int, lo: int, count: int) -> None:
        _chunk(seed, lo, lo + count, q, setup, rules, known, out)

    for_spans(n, min(n, N_CHUNKS), work)
    return out


def _advisor_setup() -> np.ndarray:
    """The advisor's default world model (``bid.advise`` with ``prior="threshold"`` and
    heuristic play): the threshold bidder with its default parameters at every seat, heuristic
    play, every combination declared."""
    setup = np.zeros(SETUP_LEN, dtype=np.int64)
    params = auction_params("threshold")
    for team in range(2):
        setup[Setup.AUCTION_NS + team] = AUCTION_THRESHOLD
        lo = Setup.PARAMS_EW if team else Setup.PARAMS_NS
        setup[lo : lo + N_AUCTION_PARAMS] = params
        setup[Setup.PLAY_NS + team] = PLAY_HEURISTIC
        setup[Setup.DECLARE_NS + team] = DECL_ALL
    return setup


#: The ``advisor`` policy's prior and play (frozen into the kernels as a constant; kernels copy
#: it before use: a frozen array is read-only, a type of its own, and the round kernels it goes
#: to would be compiled again for it).
ADVISOR_SETUP = _advisor_setup()


@njit
def advisor_candidates(ast, p, rules, jumps=N_LEVELS):
    """The legal calls of seat ``p`` as int64[m, 2] (level or -1, suit): the pass, then every
    bid above the last, level by level, each suit (``bid.candidates``' order), at most
    ``jumps`` levels above the lowest."""
    m = 1
    start = ast[AState.LEVEL] + 1
    top = min(N_LEVELS - 1, start + jumps)
    if may_bid(ast, p, rules) and start <= top:
        m += 4 * (top - start + 1)
    out = np.empty((m, 2), dtype=np.int64)
    out[0, 0] = -1
    out[0, 1] = -1
    for i in range(1, m):
        out[i, 0] = start + (i - 1) // 4
        out[i, 1] = (i - 1) % 4
    return out


@njit
def _policy_world(seed, w, q, rules, base, silent, scratch, known, values):
    """The values of every candidate call in world ``w`` (a world of :func:`_chunk` without
    its per-trump table: the same world, auctions, play and scores), into ``values`` (int64[m]:
    the player's team's game points minus the opponents'). ``known``: int64[4, 4, 5] cache of
    the contracts played (contracting team's card points and tricks, each team's combination
    points, the pilotta's team; -1 unknown); ``base``: the auction so far. False when no
    world fits the auction."""
    hands, rest, pack, ast, state, plays, legal_n, decl, comb, sc, est, setup = scratch
    params = setup[Setup.PARAMS_NS : Setup.PARAMS_NS + N_AUCTION_PARAMS]
    me = q.query[1]
    dealer = q.query[2]
    tries, key = draw_world(seed, w, q, setup, rules, hands, rest, pack, ast, state)
    if tries == 0:
        return False
    kq = rules[RuleSlot.TRUMP_KQ_POINTS]
    for p in range(4):
        e = threshold_estimates(hands[p], params, kq)
        for t in range(4):
            est[p, t] = e[t]
    for b in range(4):
        for t in range(4):
            known[b, t, 0] = -1
    us = me & 1
    h = np.empty(4, dtype=np.int64)
    for i in range(q.cands.shape[0]):
        for j in range(ast.shape[0]):
            ast[j] = base[j]
        apply_call(ast, q.cands[i, 0], q.cands[i, 1])
        finish_threshold(ast, est, params, rules, silent)
        b = ast[AState.BIDDER]
        if b < 0:
            values[i] = 0
            continue
        tr = ast[AState.TRUMP]
        team = b & 1
        row = known[b, tr]
        if row[0] < 0:
            leader = (dealer + 1) % 4 if rules[RuleSlot.FIRST_LEAD] else b
            for p in range(4):
                h[p] = hands[p]
            raw_ns, tricks_ns = play_round(
                h, tr, leader, team, rules, setup, key, state, plays, legal_n
            )
            row[0] = raw_ns
            row[1] = tricks_ns
            for p in range(4):
                declare_policy_hand(hands[p], tr, DECL_ALL, decl[p])
            compare_declarations(decl, leader, rules, comb)
            row[2] = comb[Comb.POINTS_NS]
            row[3] = comb[Comb.POINTS_EW]
            pil = comb[Comb.PILOTTA_SEAT]
            row[4] = pil & 1 if pil >= 0 else -1
        score_round(
            row[0], row[1], team, level_points(ast[AState.LEVEL]), row[2], row[3], row[4], rules, sc
        )
        values[i] = sc[Score.TOTAL_NS + us] - sc[Score.TOTAL_NS + 1 - us]
    return True


@njit
def advisor_choice(hand, p, ast, worlds, seed, rules, rebid=0, z100=0, jumps=N_LEVELS):
    """The bid advisor's recommended call (level, suit; -1, -1 for a pass) for seat ``p``
    holding ``hand`` in the auction ``ast`` (its calls in ``AState.LOG``): ``worlds`` worlds of
    stream ``seed`` (``bid.advise(..., deals=worlds, seed=seed)`` with its defaults gives the
    same worlds, values and call), each call valued by this round's game points of the seat's
    team minus the opponents', the first call of highest mean; a pass when no world fits.
    ``rebid`` 1: in the worlds the seat bids on after its call as the prior would (the advice:
    it passes). ``z100``: a bid is made only when its mean gain over the pass is at least
    ``z100 / 100`` standard errors (paired over the worlds), else the pass. ``jumps``: bids at
    most that many levels above the lowest are considered."""
    cands = advisor_candidates(ast, p, rules, jumps)
    m = cands.shape[0]
    q = Query(
        np.array([hand, p, ast[AState.DEALER], MODE_POLICY], dtype=np.int64),
        logged_calls(ast),
        cands,
    )
    scratch = (
        np.zeros(4, dtype=np.int64),
        unseen_cards(hand),
        np.empty(24, dtype=np.int8),
        np.zeros(ASTATE_LEN, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(32, dtype=np.int8),
        np.zeros(32, dtype=np.int8),
        np.zeros((4, DECL_LEN), dtype=np.int32),
        np.zeros(COMB_LEN, dtype=np.int32),
        np.zeros(SCORE_LEN, dtype=np.int32),
        np.zeros((4, 4), dtype=np.int64),
        ADVISOR_SETUP.copy(),
    )
    known = np.zeros((4, 4, 5), dtype=np.int64)
    values = np.zeros(m, dtype=np.int64)
    sums = np.zeros(m, dtype=np.int64)
    gain = np.zeros(m, dtype=np.float64)  # sum of squared gains over the pass
    silent = -1 if rebid else p
    n = 0
    for w in range(worlds):
        if _policy_world(seed, w, q, rules, ast, silent, scratch, known, values):
            n += 1
            for i in range(m):
                sums[i] += values[i]
                d = values[i] - values[0]
                gain[i] += d * d
    best = 0
    for i in range(1, m):
        if sums[i] > sums[best]:
            best = i
    if best > 0 and z100 > 0 and n > 1:
        mean = (sums[best] - sums[0]) / n
        var = max((gain[best] - n * mean * mean) / (n - 1), 0.0)
        if mean * 100 < z100 * np.sqrt(var / n):
            best = 0
    return cands[best, 0], cands[best, 1]


@njit
def advisor_call(hand, p, ast, params, rules, key, state):
    """The ``advisor`` policy's call (``params``: :class:`layouts.AdvParam`): the advice of
    :func:`advisor_choice` on worlds of a seed drawn from the round's stream."""
    seed = draw(key, state, np.int64(1 << 30))
    return advisor_choice(
        hand,
        p,
        ast,
        params[AdvParam.WORLDS],
        seed,
        rules,
        params[AdvParam.REBID],
        params[AdvParam.Z100],
        params[AdvParam.JUMPS],
    )
