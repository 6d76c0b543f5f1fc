"""The full-deal loop: deal, carte blanche, elder's and younger's exchanges, declarations, play.

Each stage is driven by a policy id and parameters (``policies`` int32[STAGE_LEN], ``params``
float64[STAGE_LEN, STAGE_PARAMS]), dispatched inside the kernels. Deal i is keyed by (seed, i):
the shuffle, then the exchanges, then play draw from that deal's stream in turn, so a record
never depends on which thread computed it.

A record (int16[REC_LEN]) holds, per player (block at REC_ELDER / REC_YOUNGER), points by
category, tricks, cards taken and hand features; then the class winners and the net score.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import stream_key
from . import layouts as L
from .deal import deal_full
from .declarations import carte_blanche, point_key, score_declarations, sequence_key, set_ranks
from .declaring import declaration_masks
from .exchange import elder_exchange, younger_exchange
from .play import play_deal
from .solver import new_workspace

# Stages of a deal driven by a policy.


# Per-player block of a record.


@njit
def _features(hand, tables, rec, base, offset):
    rec[base + offset] = point_key(hand, tables) >> 7
    rec[base + offset + 1] = sequence_key(hand, tables) >> 3
    four, trio = set_ranks(hand)
    rec[base + offset + 2] = 2 if four else (1 if trio else 0)


@njit
def _player_block(rec, base, decl, dbase, play_points, cards, pique, tricks, took):
    rec[base + L.RF_CARTE_BLANCHE] = decl[dbase + L.DP_CARTE_BLANCHE]
    rec[base + L.RF_POINT] = decl[dbase + L.DP_POINT]
    rec[base + L.RF_SEQUENCE] = decl[dbase + L.DP_SEQUENCE]
    rec[base + L.RF_SETS] = decl[dbase + L.DP_SETS]
    rec[base + L.RF_CARTE_ROUGE] = decl[dbase + L.DP_CARTE_ROUGE]
    rec[base + L.RF_REPIQUE] = decl[dbase + L.DP_REPIQUE]
    rec[base + L.RF_PLAY] = play_points
    rec[base + L.RF_CARDS] = cards
    rec[base + L.RF_PIQUE] = pique
    rec[base + L.RF_TRICKS] = tricks
    rec[base + L.RF_TAKEN] = took
    total = 0
    for f in range(L.RF_CARTE_BLANCHE, L.RF_PIQUE + 1):
        total += rec[base + f]
    rec[base + L.RF_TOTAL] = total


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
            policies[L.STAGE_ELDER_EXCHANGE],
            params[L.STAGE_ELDER_EXCHANGE],
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
            policies[L.STAGE_YOUNGER_EXCHANGE],
            params[L.STAGE_YOUNGER_EXCHANGE],
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
        policies[L.STAGE_ELDER_DECLARE], params[L.STAGE_ELDER_DECLARE], elder
    )
    y_pm, y_sm, y_tm = declaration_masks(
        policies[L.STAGE_YOUNGER_DECLARE], params[L.STAGE_YOUNGER_DECLARE], younger
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
    for k in range(L.DP_REPIQUE):  # combinations only: the repique bonus is not a combination
        e_pre += decl[L.DECL_ELDER + k]
        y_pre += decl[L.DECL_YOUNGER + k]
    repique_done = decl[L.DECL_ELDER + L.DP_REPIQUE] > 0 or decl[L.DECL_YOUNGER + L.DP_REPIQUE] > 0
    play_deal(
        elder,
        younger,
        policies[L.STAGE_ELDER_PLAY],
        policies[L.STAGE_YOUNGER_PLAY],
        rules,
        e_pre,
        y_pre,
        repique_done,
        key,
        state,
        play,
        ws,
    )
    _player_block(rec, L.REC_ELDER, decl, L.DECL_ELDER, play[L.PO_E_PLAY], play[L.PO_E_CARDS],
                  play[L.PO_E_PIQUE], play[L.PO_E_TRICKS], e_took)  # fmt: skip
    _player_block(rec, L.REC_YOUNGER, decl, L.DECL_YOUNGER, play[L.PO_Y_PLAY], play[L.PO_Y_CARDS],
                  play[L.PO_Y_PIQUE], play[L.PO_Y_TRICKS], y_took)  # fmt: skip
    rec[L.REC_WIN_POINT] = decl[L.DECL_WIN_POINT]
    rec[L.REC_WIN_SEQUENCE] = decl[L.DECL_WIN_SEQUENCE]
    rec[L.REC_WIN_SETS] = decl[L.DECL_WIN_SETS]
    rec[L.REC_NET] = rec[L.REC_ELDER + L.RF_TOTAL] - rec[L.REC_YOUNGER + L.RF_TOTAL]
    return rec[L.REC_NET]


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
    _features(elder, tables, rec, L.REC_ELDER, L.RF_FINAL_POINT_LEN)
    _features(younger, tables, rec, L.REC_YOUNGER, L.RF_FINAL_POINT_LEN)

    declare_stage(elder, younger, e_cb, y_cb, policies, params, tables, rules, decl)
    return play_and_record(elder, younger, e_took, y_took, policies, rules, key, state, decl,
                           play, rec, ws)  # fmt: skip


@njit
def simulate_deal(seed, index, policies, params, tables, rules, pack, state, decl, play, rec, ws):
    """Play deal ``index`` of ``seed`` through every stage; write its record into ``rec``.

    ``pack`` int8[32], ``state`` int64[1], ``decl`` int32[DECL_LEN], ``play`` int32[PO_LEN]
    and the solver workspace ``ws`` are scratch owned by the calling thread.
    """
    elder, younger = deal_full(seed, index, pack, state)
    key = stream_key(seed, index)
    _features(elder, tables, rec, L.REC_ELDER, L.RF_DEALT_POINT_LEN)
    _features(younger, tables, rec, L.REC_YOUNGER, L.RF_DEALT_POINT_LEN)
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
    decl = np.zeros(L.DECL_LEN, dtype=np.int32)
    play = np.zeros(L.PO_LEN, dtype=np.int32)
    rec = np.zeros(L.REC_LEN, dtype=np.int32)
    for i in range(count):
        simulate_deal(
            seed, first + i, policies, params, tables, rules, pack, state, decl, play, rec, ws
        )
        for f in range(L.REC_LEN):
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
    """Records (int16[n, L.REC_LEN]) of deals start..start+n-1, in ``n_spans`` parallel spans.

    Each span owns a solver workspace of ``2**tt_bits`` entries (dd play only needs more than a
    token one). Records do not depend on the span count: the solver's table holds exact facts
    about positions, never about deals.
    """
    out = np.zeros((n, L.REC_LEN), dtype=np.int16)
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
