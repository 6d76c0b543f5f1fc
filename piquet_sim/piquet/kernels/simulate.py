"""The full-deal loop: deal, carte blanche, elder's and younger's exchanges, declarations, play.

Each stage is driven by a policy id and parameters (``policies`` int32[N_STAGES], ``params``
float64[N_STAGES, N_PARAMS]), dispatched inside the kernels. Deal i is keyed by (seed, i): the
shuffle, then the exchanges, then play draw from that deal's stream in turn, so a record never
depends on which thread computed it.

A record (int16[R_LEN]) holds, per player (block at R_ELDER / R_YOUNGER), points by category,
tricks, cards taken and hand features; then the class winners and the net score.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import stream_key
from .deal import deal_full
from .declarations import (
    D_ELDER,
    D_LEN,
    D_WIN_POINT,
    D_WIN_SEQUENCE,
    D_WIN_SETS,
    D_YOUNGER,
    P_CARTE_BLANCHE,
    P_CARTE_ROUGE,
    P_POINT,
    P_REPIQUE,
    P_SEQUENCE,
    P_SETS,
    carte_blanche,
    point_key,
    score_declarations,
    sequence_key,
    set_ranks,
)
from .declaring import declaration_masks
from .exchange import elder_exchange, younger_exchange
from .play import (
    OUT_E_CARDS,
    OUT_E_PIQUE,
    OUT_E_PLAY,
    OUT_E_TRICKS,
    OUT_Y_CARDS,
    OUT_Y_PIQUE,
    OUT_Y_PLAY,
    OUT_Y_TRICKS,
    PLAY_OUT_LEN,
    play_deal,
)
from .solver import new_workspace

# Stages of a deal driven by a policy.
ST_ELDER_EXCHANGE = 0
ST_YOUNGER_EXCHANGE = 1
ST_ELDER_DECLARE = 2
ST_YOUNGER_DECLARE = 3
ST_ELDER_PLAY = 4
ST_YOUNGER_PLAY = 5
N_STAGES = 6
N_PARAMS = 16


# Per-player block of a record.
F_CARTE_BLANCHE = 0
F_POINT = 1
F_SEQUENCE = 2
F_SETS = 3
F_CARTE_ROUGE = 4
F_REPIQUE = 5
F_PLAY = 6  # leads, wins of the opponent's leads, last trick
F_CARDS = 7  # 10 for the cards, 40 for capot
F_PIQUE = 8
F_TOTAL = 9  # everything the player scored in the deal
F_TRICKS = 10
F_TAKEN = 11  # cards taken from the talon
F_DEALT_POINT_LEN = 12
F_DEALT_SEQ_LEN = 13  # longest sequence of the dealt hand, 0 under a tierce
F_DEALT_SET = 14  # 0 none, 1 trio, 2 quatorze (tens and higher)
F_FINAL_POINT_LEN = 15
F_FINAL_SEQ_LEN = 16
F_FINAL_SET = 17
F_BLOCK = 18
R_ELDER = 0
R_YOUNGER = F_BLOCK
R_WIN_POINT = 2 * F_BLOCK  # W_* codes of kernels.declarations
R_WIN_SEQUENCE = R_WIN_POINT + 1
R_WIN_SETS = R_WIN_POINT + 2
R_NET = R_WIN_POINT + 3  # elder's total minus younger's
R_LEN = R_NET + 1


@njit
def _features(hand, tables, rec, base, offset):
    rec[base + offset] = point_key(hand, tables) >> 7
    rec[base + offset + 1] = sequence_key(hand, tables) >> 3
    four, trio = set_ranks(hand)
    rec[base + offset + 2] = 2 if four else (1 if trio else 0)


@njit
def _player_block(rec, base, decl, dbase, play_points, cards, pique, tricks, took):
    rec[base + F_CARTE_BLANCHE] = decl[dbase + P_CARTE_BLANCHE]
    rec[base + F_POINT] = decl[dbase + P_POINT]
    rec[base + F_SEQUENCE] = decl[dbase + P_SEQUENCE]
    rec[base + F_SETS] = decl[dbase + P_SETS]
    rec[base + F_CARTE_ROUGE] = decl[dbase + P_CARTE_ROUGE]
    rec[base + F_REPIQUE] = decl[dbase + P_REPIQUE]
    rec[base + F_PLAY] = play_points
    rec[base + F_CARDS] = cards
    rec[base + F_PIQUE] = pique
    rec[base + F_TRICKS] = tricks
    rec[base + F_TAKEN] = took
    total = 0
    for f in range(F_CARTE_BLANCHE, F_PIQUE + 1):
        total += rec[base + f]
    rec[base + F_TOTAL] = total


@njit
def exchange_stage(
    elder, younger, talon, key, state, policies, params, tables, rules, e_discard, y_discard
):
    """Both exchanges: by the stage policies, or forced (``e_discard``/``y_discard`` a mask; -1
    lets the policy choose; a forced discard takes as many cards, in talon order). Returns
    (elder's hand, younger's hand, cards elder took, cards younger took)."""
    if e_discard < 0:
        elder, _, e_took = elder_exchange(
            elder,
            talon,
            policies[ST_ELDER_EXCHANGE],
            params[ST_ELDER_EXCHANGE],
            key,
            state,
            tables,
            rules,
        )
    else:
        e_took = np.int64(0)
        elder &= ~e_discard
        # count the forced discard's cards and draw as many from the front of the talon
        left = e_discard
        while left:
            left &= left - 1
            elder |= np.int64(1) << np.int64(talon[e_took])
            e_took += 1
    if y_discard < 0:
        younger, _, y_took = younger_exchange(
            younger,
            talon,
            e_took,
            policies[ST_YOUNGER_EXCHANGE],
            params[ST_YOUNGER_EXCHANGE],
            key,
            state,
            tables,
            rules,
        )
    else:
        y_took = np.int64(0)
        younger &= ~y_discard
        left = y_discard
        while left:
            left &= left - 1
            younger |= np.int64(1) << np.int64(talon[e_took + y_took])
            y_took += 1
    return elder, younger, e_took, y_took


@njit
def declare_stage(elder, younger, e_cb, y_cb, policies, params, tables, rules, decl):
    """Declarations of the hands after the exchange, by the declaration policies, into ``decl``
    (``kernels.declarations`` record)."""
    e_pm, e_sm, e_tm = declaration_masks(
        policies[ST_ELDER_DECLARE], params[ST_ELDER_DECLARE], elder
    )
    y_pm, y_sm, y_tm = declaration_masks(
        policies[ST_YOUNGER_DECLARE], params[ST_YOUNGER_DECLARE], younger
    )
    score_declarations(
        elder, younger, e_cb, y_cb, e_pm, e_sm, e_tm, y_pm, y_sm, y_tm, tables, rules, decl
    )


@njit
def play_and_record(
    elder, younger, e_took, y_took, policies, rules, key, state, decl, play, rec, ws
):
    """Play from the declarations in ``decl`` (pique counts from their points) and write every
    scoring field of the record; returns the net deal score, elder minus younger."""
    e_pre = 0
    y_pre = 0
    for k in range(P_REPIQUE):  # combinations only: the repique bonus is not a combination
        e_pre += decl[D_ELDER + k]
        y_pre += decl[D_YOUNGER + k]
    repique_done = decl[D_ELDER + P_REPIQUE] > 0 or decl[D_YOUNGER + P_REPIQUE] > 0
    play_deal(elder, younger, policies[ST_ELDER_PLAY], policies[ST_YOUNGER_PLAY], rules, e_pre,
              y_pre, repique_done, key, state, play, ws)  # fmt: skip
    _player_block(rec, R_ELDER, decl, D_ELDER, play[OUT_E_PLAY], play[OUT_E_CARDS],
                  play[OUT_E_PIQUE], play[OUT_E_TRICKS], e_took)  # fmt: skip
    _player_block(rec, R_YOUNGER, decl, D_YOUNGER, play[OUT_Y_PLAY], play[OUT_Y_CARDS],
                  play[OUT_Y_PIQUE], play[OUT_Y_TRICKS], y_took)  # fmt: skip
    rec[R_WIN_POINT] = decl[D_WIN_POINT]
    rec[R_WIN_SEQUENCE] = decl[D_WIN_SEQUENCE]
    rec[R_WIN_SETS] = decl[D_WIN_SETS]
    rec[R_NET] = rec[R_ELDER + F_TOTAL] - rec[R_YOUNGER + F_TOTAL]
    return rec[R_NET]


@njit
def finish_deal(
    elder,
    younger,
    talon,
    e_cb,
    y_cb,
    key,
    state,
    policies,
    params,
    tables,
    rules,
    e_discard,
    y_discard,
    decl,
    play,
    rec,
    ws,
):
    """Everything after the deal: exchanges, declarations, play, scoring, into ``rec``.

    ``elder``/``younger``: dealt 12-card masks; ``talon`` int8[8] in draw order; ``e_cb``/``y_cb``
    carte blanche of the dealt hands. ``e_discard``/``y_discard``: -1 lets the stage policy
    choose; a mask forces that exact discard (the player takes as many cards), which is how
    the advisor evaluates a candidate exchange. Random choices continue the stream
    (``key``, ``state``). Returns the net deal score, elder minus younger.
    """
    elder, younger, e_took, y_took = exchange_stage(
        elder, younger, talon, key, state, policies, params, tables, rules, e_discard, y_discard
    )
    _features(elder, tables, rec, R_ELDER, F_FINAL_POINT_LEN)
    _features(younger, tables, rec, R_YOUNGER, F_FINAL_POINT_LEN)

    declare_stage(elder, younger, e_cb, y_cb, policies, params, tables, rules, decl)
    return play_and_record(elder, younger, e_took, y_took, policies, rules, key, state, decl,
                           play, rec, ws)  # fmt: skip


@njit
def simulate_deal(seed, index, policies, params, tables, rules, pack, state, decl, play, rec, ws):
    """Play deal ``index`` of ``seed`` through every stage; write its record into ``rec``.

    ``pack`` int8[32], ``state`` int64[1], ``decl`` int32[D_LEN], ``play`` int32[PLAY_OUT_LEN]
    and the solver workspace ``ws`` are scratch owned by the calling thread.
    """
    elder, younger = deal_full(seed, index, pack, state)
    key = stream_key(seed, index)
    _features(elder, tables, rec, R_ELDER, F_DEALT_POINT_LEN)
    _features(younger, tables, rec, R_YOUNGER, F_DEALT_POINT_LEN)
    finish_deal(
        elder,
        younger,
        pack[24:32],
        carte_blanche(elder),
        carte_blanche(younger),
        key,
        state,
        policies,
        params,
        tables,
        rules,
        -1,
        -1,
        decl,
        play,
        rec,
        ws,
    )


@njit
def _simulate_span(seed, first, count, policies, params, tables, rules, out, row0, ws):
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    decl = np.zeros(D_LEN, dtype=np.int32)
    play = np.zeros(PLAY_OUT_LEN, dtype=np.int32)
    rec = np.zeros(R_LEN, dtype=np.int32)
    for i in range(count):
        simulate_deal(
            seed, first + i, policies, params, tables, rules, pack, state, decl, play, rec, ws
        )
        for f in range(R_LEN):
            out[row0 + i, f] = rec[f]


@njit
def thread_workspace(bits, keytab, reptab, qttab, low8, pop8):
    """A solver workspace built inside a kernel (``solver.new_workspace``), so each parallel
    span owns one; ``bits`` > 1 means a real table of ``2**bits`` entries (dd play), 1 a token
    one. The constant lookup tables are shared."""
    return new_workspace((keytab, reptab, qttab, low8, pop8), bits, bits > 1)


@njit_parallel
def simulate_records(
    seed,
    start,
    n,
    policies,
    params,
    tables,
    rules,
    n_spans,
    tt_bits,
    keytab,
    reptab,
    qttab,
    low8,
    pop8,
):
    """Records (int16[n, R_LEN]) of deals start..start+n-1, in ``n_spans`` parallel spans.

    Each span owns a solver workspace of ``2**tt_bits`` entries (dd play only needs more than a
    token one). Records do not depend on the span count: the solver's table holds exact facts
    about positions, never about deals.
    """
    out = np.zeros((n, R_LEN), dtype=np.int16)
    per = (n + n_spans - 1) // n_spans
    for s in prange(n_spans):
        first = s * per
        count = min(per, n - first)
        if count > 0:
            ws = thread_workspace(tt_bits, keytab, reptab, qttab, low8, pop8)
            _simulate_span(
                seed, start + first, count, policies, params, tables, rules, out, first, ws
            )
    return out
