"""The full deal when each seat plays greedy, random or heuristic (any exchange and declaration
policy): ``simulate.simulate_records``'s records, deal for deal, from a loop that holds no
bundle.

Why a second loop: ``simulate.finish_deal`` hands the ``Scratch`` and ``Workspace`` bundles
through every stage, and numba reference-counts their arrays with atomic instructions at each
hand-over (the general span's LLVM IR has 77 increfs and 133 decrefs, some per deal on the
parameter and table arrays every thread shares, so two cores also contend for those cache lines;
two threads gave 1.3 times one). Here the per-deal scratch and the span's copies of the tables,
rules and parameters live on the kernel's stack (no meminfo, so no atomic count is left in the
per-deal loop), the stages run on scalars, and the record is written once, straight into its
row. The steps and the random draws are those of
``simulate.simulate_deal`` (deal, dealt features, carte blanche, elder's then younger's
exchange, final features, declarations, ``play.play_simple``; with a heuristic seat, what each
seat learnt as the two card masks the heuristic reads, ``knowledge.known_cards``, and
``play.play_fast``); tests hold the records equal.

Mirrored matches and parties (``match``, ``partie``) play their deal pairs through
:func:`simple_pair`: the same stages, shared between the two seatings as ``match.play_pair``
shares them, the exchange and the declarations called as kernels of their own
(:func:`exchange_step`, :func:`declare_step`: compiled once, not inlined into each span).
"""

from __future__ import annotations

import numba
import numpy as np

from ...core.engine.arrays import copy_rows
from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import stream_key
from ..rules import RuleSlot
from . import layouts as L
from .bundles import Env, OwnEnv, Stages
from .deal import N_PACK, deal_full
from .declarations import carte_blanche, declaration_keys, declaration_points, set_ranks
from .declaring import declaration_masks
from .exchange import both_exchanges, elder_exchange, younger_exchange
from .heuristic import seat_setup
from .knowledge import known_cards
from .play import general_of, is_fast, is_simple, play_fast, play_simple
from .simulate import NOT_FORCED, talon_seen
from .stack import as_float64, as_int32, stack_bytes, stack_int64, stack_words
from .tables import SUIT_TABLES
from .tricks import N_TRICKS, cards_bonus

_pack = stack_bytes(N_PACK)
_line = stack_bytes(2 * N_TRICKS)
_state = stack_int64(1)
_TABLE_WORDS = SUIT_TABLES.size // 2  # int32 pairs
_RULES_LEN = int(RuleSlot.LEN)
_RULE_WORDS = (_RULES_LEN + 1) // 2
_tables = stack_words(_TABLE_WORDS)
_rules = stack_words(_RULE_WORDS)
_ids = stack_words((L.STAGE_LEN + 1) // 2)
_params = stack_words(L.STAGE_LEN * L.STAGE_PARAMS)
_recs = stack_words(L.REC_LEN)  # two int32 records


@njit_inline
def plays_simple(ids):
    """True when both seats play greedy or random (``ids``: the stage policy ids)."""
    return is_simple(ids[L.STAGE_ELDER_PLAY]) and is_simple(ids[L.STAGE_YOUNGER_PLAY])


@njit_inline
def plays_fast(ids):
    """True when each seat plays greedy, random or heuristic, the deals this module plays."""
    return is_fast(ids[L.STAGE_ELDER_PLAY]) and is_fast(ids[L.STAGE_YOUNGER_PLAY])


@njit_inline
def own_env(env):
    """The span's own copies of the rules and suit tables the deals read (:data:`OwnEnv`), on
    the calling kernel's stack (inlined, so the memory is the caller's): no thread shares their
    reference counts, which cost nothing there (see the module docstring)."""
    tables = numba.carray(as_int32(_tables()), SUIT_TABLES.shape)
    copy_rows(tables, env.suit)
    rules = numba.carray(as_int32(_rules()), _RULES_LEN)
    for k in range(_RULES_LEN):
        rules[k] = env.rules[k]
    return OwnEnv(rules, tables)


@njit_inline
def own_stages(stages):
    """``stages`` (a ``bundles.Stages``) copied to the calling kernel's stack (inlined; as
    :func:`own_env`): the same ids and parameters, two arrays the steps read their rows from."""
    ids = numba.carray(as_int32(_ids()), L.STAGE_LEN)
    for k in range(L.STAGE_LEN):
        ids[k] = stages.ids[k]
    params = numba.carray(as_float64(_params()), (L.STAGE_LEN, L.STAGE_PARAMS))
    copy_rows(params, stages.params)
    return Stages(ids, params)


@njit_inline
def deal_work():
    """The per-deal buffers on the calling kernel's stack (inlined): (pack int8[32], line
    int8[24], stream state int64[1])."""
    pack = numba.carray(_pack(), N_PACK)
    line = numba.carray(_line(), 2 * N_TRICKS)
    state = numba.carray(_state(), 1)
    return pack, line, state


@njit_inline
def pair_records():
    """Two int32 records (rows: A elder, B elder), zeroed, on the calling kernel's stack
    (inlined); :func:`simple_pair` leaves the hand features at 0, as ``match.play_pair``."""
    recs = numba.carray(as_int32(_recs()), (2, L.REC_LEN))
    recs[:, :] = 0
    return recs


@njit_inline
def _features(out, row, base, hand, tables):
    """``simulate._features`` into row ``row`` of the records."""
    pk, qk, _ = declaration_keys(hand, tables)  # point_key and sequence_key in one pass
    out[row, base] = pk >> 7
    out[row, base + 1] = qk >> 3
    four, trio = set_ranks(hand)
    out[row, base + 2] = 2 if four else (1 if trio else 0)


@njit_inline
def _block(out, row, base, decl, play, cards, pique, tricks, took):
    """One seat's record block (``simulate._player_block``): ``decl`` its declaration points in
    ``DP_*`` order, then its play points, cards, pique, tricks and cards taken. Returns its
    total (``RF_TOTAL``). A twin of ``_player_block`` on scalars: that one reads the scratch's
    ``decl`` and ``play`` arrays, which this loop never fills (see the module docstring)."""
    total = np.int64(0)
    for k in range(L.DP_BLOCK):
        out[row, base + L.RF_CARTE_BLANCHE + k] = decl[k]
        total += decl[k]
    out[row, base + L.RF_PLAY] = play
    out[row, base + L.RF_CARDS] = cards
    out[row, base + L.RF_PIQUE] = pique
    out[row, base + L.RF_TRICKS] = tricks
    out[row, base + L.RF_TAKEN] = took
    total += play + cards + pique
    out[row, base + L.RF_TOTAL] = total
    return total


@njit
def exchange_step(elder, younger, talon, stages, key, state, env, forced):
    """Elder's then younger's exchange (``simulate.exchange_stage``) by ``stages``
    (:func:`own_stages`); ``env``: :func:`own_env`; ``forced`` (elder's discard, younger's,
    int64): -1 for the seat's policy, else that discard (the exchange-value study's cells).
    Returns (elder's hand, younger's, cards elder took, cards younger took, elder's discard,
    younger's).

    A kernel of its own, not inlined: the span kernels of the mirrored matches and parties
    (``match``, ``partie``) inlined the whole deal, about 900 lines, and numba's typing, SSA
    and lowering of one kernel grow faster than its size (their own compile 11 CPU-s, now 5
    with the two steps' 2.5; a cold ``batch`` 26.3 -> 23.3); compiled once, the step serves
    both. The ``odds`` span keeps its inlined copy (see its comment)."""
    ids, params = stages
    policies = (ids[L.STAGE_ELDER_EXCHANGE], ids[L.STAGE_YOUNGER_EXCHANGE])
    rows = (params[L.STAGE_ELDER_EXCHANGE], params[L.STAGE_YOUNGER_EXCHANGE])
    return both_exchanges(elder, younger, talon, policies, rows, key, state, env, forced)


@njit
def declare_step(elder, younger, cb, stages, env):
    """The declarations of hands ``elder`` and ``younger`` (after the exchange; ``cb`` their
    carte blanche flags) by ``stages``: (elder's DP_BLOCK points, younger's, class winners,
    (elder's declaration masks, younger's)). Draws nothing from the stream. A kernel of its
    own (as :func:`exchange_step`)."""
    ids, params = stages
    e_masks = declaration_masks(ids[L.STAGE_ELDER_DECLARE], params[L.STAGE_ELDER_DECLARE], elder)
    y_masks = declaration_masks(
        ids[L.STAGE_YOUNGER_DECLARE], params[L.STAGE_YOUNGER_DECLARE], younger
    )
    e, y, w = declaration_points(elder, younger, cb, e_masks, y_masks, env)
    return e, y, w, (e_masks, y_masks)


@njit_inline
def play_step(exchange, talon, decl, stages, key, work, env, general):
    """Play the deal after ``exchange`` (:func:`exchange_step`) and ``decl``
    (:func:`declare_step`) by ``stages``; ``work``: :func:`deal_work`'s buffers. Returns
    (elder's play points, younger's, elder's tricks, elder's pique, younger's pique).
    Inlined, unlike the other steps: the plays are kernels already, and a kernel between them
    and the span would compile their code once more (numba links a callee's code into each
    caller and optimizes and compiles it there again). ``general``: as ``play.play_fast``'s."""
    elder, younger, e_took, y_took, e_disc, y_disc = exchange
    e, y, w, masks = decl
    ids, params = stages
    _, line, state = work
    policies = (np.int64(ids[L.STAGE_ELDER_PLAY]), np.int64(ids[L.STAGE_YOUNGER_PLAY]))
    # combinations only (the repique bonus is not one), as ``simulate.play_and_record``
    e_pre = np.int64(e[0]) + e[1] + e[2] + e[3] + e[4]
    y_pre = np.int64(y[0]) + y[1] + y[2] + y[3] + y[4]
    repique = np.int64((e[5] > 0) | (y[5] > 0))
    start = (e_pre, y_pre, repique)
    ten = env.rules[RuleSlot.LEAD_POINTS]
    if plays_simple(ids):
        return play_simple(elder, younger, policies, start, key, state, ten, line)
    seen = talon_seen(talon, np.int64(e_took), np.int64(y_took))
    e_know, y_know = known_cards((elder, younger), (e_disc, y_disc), masks, w, seen, env.suit)
    seats = (
        seat_setup(e_know, params[L.STAGE_ELDER_PLAY]),
        seat_setup(y_know, params[L.STAGE_YOUNGER_PLAY]),
    )
    return play_fast(elder, younger, policies, seats, start, key, state, ten, line, general)


@njit_inline
def record_step(out, row, exchange, decl, played):
    """Every scoring field of row ``row`` of ``out`` from the deal's steps (the hand features
    are the caller's); ``played``: :func:`play_step`'s result."""
    e_took, y_took = exchange[2], exchange[3]
    e, y, w, _ = decl
    e_play, y_play, et, e_pique, y_pique = played
    cards = cards_bonus(et)
    e_total = _block(out, row, L.REC_ELDER, e, e_play, max(cards, 0), e_pique, et, e_took)
    y_total = _block(
        out, row, L.REC_YOUNGER, y, y_play, max(-cards, 0), y_pique, N_TRICKS - et, y_took
    )
    out[row, L.REC_WIN_POINT] = w[0]
    out[row, L.REC_WIN_SEQUENCE] = w[1]
    out[row, L.REC_WIN_SETS] = w[2]
    out[row, L.REC_NET] = e_total - y_total


@njit
def _simple_span(seed, first, count, stages, env, out, row0, general):
    """Records of deals ``first .. first+count-1`` of ``seed`` into rows ``row0 ..`` of
    ``out``."""
    # Written out rather than through own_env, own_stages and simple_pair's steps (the same
    # operations): through its inlined steps this loop took 6-8% more CPU (4 M greedy deals, 3
    # alternating pairs; the cause not found, an Env without heap arrays did not remove it);
    # through the step kernels 5-15% more (1 M greedy deals, 300 k heuristic deals, 2
    # alternating pairs), where a pair of seatings pays the calls back in compile time.
    # this span's own copies of the read-only arrays the deals read, on its stack: no thread
    # shares their reference counts, which cost nothing there (see the module docstring)
    tables = numba.carray(as_int32(_tables()), SUIT_TABLES.shape)
    copy_rows(tables, env.suit)
    rules = numba.carray(as_int32(_rules()), _RULES_LEN)
    for k in range(_RULES_LEN):
        rules[k] = env.rules[k]
    params = numba.carray(as_float64(_params()), (L.STAGE_LEN, L.STAGE_PARAMS))
    copy_rows(params, stages.params)
    own = Env(rules, tables, env.pairs, env.keytab, env.reptab, env.qttab, env.low8, env.pop8)
    ids = stages.ids
    e_xpol = ids[L.STAGE_ELDER_EXCHANGE]
    y_xpol = ids[L.STAGE_YOUNGER_EXCHANGE]
    e_dpol = ids[L.STAGE_ELDER_DECLARE]
    y_dpol = ids[L.STAGE_YOUNGER_DECLARE]
    e_xpar = params[L.STAGE_ELDER_EXCHANGE]
    y_xpar = params[L.STAGE_YOUNGER_EXCHANGE]
    e_dpar = params[L.STAGE_ELDER_DECLARE]
    y_dpar = params[L.STAGE_YOUNGER_DECLARE]
    pols = (np.int64(ids[L.STAGE_ELDER_PLAY]), np.int64(ids[L.STAGE_YOUNGER_PLAY]))
    simple = plays_simple(ids)
    e_ppar = params[L.STAGE_ELDER_PLAY]
    y_ppar = params[L.STAGE_YOUNGER_PLAY]
    ten = rules[RuleSlot.LEAD_POINTS]
    pack = numba.carray(_pack(), N_PACK)
    talon = pack[24:32]
    line = numba.carray(_line(), 2 * N_TRICKS)
    state = numba.carray(_state(), 1)
    for i in range(count):
        index = first + i
        row = row0 + i
        elder, younger = deal_full(seed, index, pack, state)
        key = stream_key(seed, index)
        _features(out, row, L.REC_ELDER + L.RF_DEALT_POINT_LEN, elder, tables)
        _features(out, row, L.REC_YOUNGER + L.RF_DEALT_POINT_LEN, younger, tables)
        cb = (carte_blanche(elder), carte_blanche(younger))
        elder, e_disc, e_took = elder_exchange(elder, talon, e_xpol, e_xpar, key, state, own)
        younger, y_disc, y_took = younger_exchange(
            younger, talon, e_took, y_xpol, y_xpar, key, state, own
        )
        _features(out, row, L.REC_ELDER + L.RF_FINAL_POINT_LEN, elder, tables)
        _features(out, row, L.REC_YOUNGER + L.RF_FINAL_POINT_LEN, younger, tables)
        e_masks = declaration_masks(e_dpol, e_dpar, elder)
        y_masks = declaration_masks(y_dpol, y_dpar, younger)
        e, y, w = declaration_points(elder, younger, cb, e_masks, y_masks, own)
        # combinations only (the repique bonus is not one), as ``simulate.play_and_record``
        e_pre = np.int64(e[0]) + e[1] + e[2] + e[3] + e[4]
        y_pre = np.int64(y[0]) + y[1] + y[2] + y[3] + y[4]
        repique = np.int64((e[5] > 0) | (y[5] > 0))
        start = (e_pre, y_pre, repique)
        if simple:
            e_play, y_play, et, e_pique, y_pique = play_simple(
                elder, younger, pols, start, key, state, ten, line
            )
        else:
            seen = talon_seen(talon, np.int64(e_took), np.int64(y_took))
            e_know, y_know = known_cards(
                (elder, younger), (e_disc, y_disc), (e_masks, y_masks), w, seen, tables
            )
            seats = (
                seat_setup(e_know, e_ppar),
                seat_setup(y_know, y_ppar),
            )
            e_play, y_play, et, e_pique, y_pique = play_fast(
                elder, younger, pols, seats, start, key, state, ten, line, general
            )
        cards = cards_bonus(et)
        e_total = _block(out, row, L.REC_ELDER, e, e_play, max(cards, 0), e_pique, et, e_took)
        y_total = _block(
            out, row, L.REC_YOUNGER, y, y_play, max(-cards, 0), y_pique, N_TRICKS - et, y_took
        )
        out[row, L.REC_WIN_POINT] = w[0]
        out[row, L.REC_WIN_SEQUENCE] = w[1]
        out[row, L.REC_WIN_SETS] = w[2]
        out[row, L.REC_NET] = e_total - y_total


@driver(_simple_span)
def simple_simulate_records(seed, start, n, stages, env, n_spans, tt_bits):
    """``simulate.simulate_records`` (same arguments, same records) for stages where each
    seat plays greedy, random or heuristic (:func:`plays_fast`; other stages raise ValueError).
    ``tt_bits`` is unused (no solver). The spans run on threads (``core.engine.jit_threads``)."""
    if not plays_fast.py_func(stages.ids):
        raise ValueError(
            "simple_simulate_records: a play policy is not greedy, random or heuristic"
        )
    out = np.empty((n, L.REC_LEN), dtype=np.int16)
    general = general_of(stages)  # None: the heuristic's general arithmetic is not compiled

    def work(s: int, first: int, count: int) -> None:
        _simple_span(seed, start + first, count, stages, env, out, first, general)

    for_spans(n, n_spans, work)
    return out


@njit_inline
def simple_pair(seed, index, need, pair):
    """``match.play_pair`` for stages of :func:`plays_fast` (the same records but the hand
    features, shared alike): deal ``index`` of ``seed`` with A elder into ``recs[0]`` (when
    ``need[0]``) and with B elder into ``recs[1]`` (when ``need[1]``). ``pair`` = (``seats``
    (A elder's :func:`own_stages`, B elder's), ``share`` (``match.share_level``), ``env``
    (:func:`own_env`), ``work`` (:func:`deal_work`), ``recs`` (:func:`pair_records`),
    ``general`` (``play.play_fast``'s, for both seatings)). Returns (``recs[0]``, ``recs[1]``)."""
    seats, share, env, work, recs, general = pair
    pack, _, state = work
    need_ab, need_ba = need
    elder, younger = deal_full(seed, index, pack, state)
    key = stream_key(seed, index)
    talon = pack[24:32]
    cb = (carte_blanche(elder), carte_blanche(younger))
    s0 = state[0]
    s1 = s0
    # One loop over the two seatings, so that each step has one call site (numba compiles an
    # inlined function again at every site: twice, written out, it doubled the compile of every
    # kernel playing pairs); seating B reuses A's exchange (share 1 or more, or A not needed),
    # declarations (share 2 or more) or whole record (share 3).
    for v in range(2):
        if v == 1:
            if not need_ba:
                break
            if share == 3 and need_ab:
                for f in range(L.REC_LEN):  # not a slice assignment: see core.engine.arrays
                    recs[1, f] = recs[0, f]
                break
        fresh = v == 0 or not (share >= 1 or not need_ab)
        if v == 1:
            state[0] = s0 if fresh else s1  # the exchanges above are B's too, or made afresh
        if fresh:
            # seating A exchanges by B's policies when only B is needed and they differ
            mover = seats[0] if v == 0 and (need_ab or share >= 1) else seats[1]
            ex = exchange_step(elder, younger, talon, mover, key, state, env, NOT_FORCED)
            if v == 0:
                s1 = state[0]
        if v == 0 or share < 2:
            # declarations draw nothing: A's on the first exchange whether needed or not
            d = declare_step(ex[0], ex[1], cb, seats[v], env)
        if v == 1 or need_ab:
            played = play_step(ex, talon, d, seats[v], key, work, env, general)
            record_step(recs, v, ex, d, played)
    return recs[0], recs[1]
