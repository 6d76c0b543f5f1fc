"""Mirrored deals: every deal played twice with the seats swapped, on the same deal and stream.

Deal i of a seed is played once with strategy A elder and B younger (policy arrays ``ids_ab``,
``params_ab``) and once with B elder and A younger (``ids_ba``, ``params_ba``), both on deal
(seed, i) and its stream, so they see the same cards and the same random draws (common random
numbers). The pair is computed by ``play_pair``, which gives exactly the
records ``simulate.simulate_deal`` gives for each seating (a test holds it to that, field by
field, except the hand-feature fields it leaves at 0) but shares work between the seatings: the
deal is shuffled once; when both seatings use the same exchange policies (ids and parameters) the
exchanges are made once (they depend only on the hands and the stream, which are the same); when
the declaration policies also agree the declarations are scored once; when everything agrees
(A and B play alike in both seats) the second play is the first one exactly. It also skips the
dealt/final hand features, which matches do not use. (Sharing is exact: an exchange is a pure
function of the hand, the policy and the stream position, and the stream is restored to where
it stood after the exchanges before each play.)

Output per deal: ``nets`` int16[n, 2] = (net of the A-elder play, net of the B-elder play),
each elder minus younger. Per span: integer counts ``int64[n_spans, MATCH_LEN]`` (layout
``MATCH_*`` / ``MB_*`` of ``layouts``), merged by summing; integers, so the merge is exact and the
result does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import stream_key
from . import layouts as L
from .deal import deal_full
from .declarations import carte_blanche
from .exchange import elder_exchange, younger_exchange
from .simulate import declare_stage, play_and_record, thread_workspace

SIDE_A = 0
SIDE_B = 1
SEAT_ELDER = 0
SEAT_YOUNGER = 1
CAPOT_POINTS = 40


@njit
def _block(out, span, side, seat, rec, base, other):
    b = L.MATCH_BLOCKS + (2 * side + seat) * L.MB_LEN
    mine = rec[base + L.RF_TOTAL]
    theirs = rec[other + L.RF_TOTAL]
    out[span, b + L.MB_WIN] += mine > theirs
    out[span, b + L.MB_TIE] += mine == theirs
    out[span, b + L.MB_POINTS] += mine
    out[span, b + L.MB_PIQUE] += rec[base + L.RF_PIQUE] > 0
    out[span, b + L.MB_REPIQUE] += rec[base + L.RF_REPIQUE] > 0
    out[span, b + L.MB_CAPOT] += rec[base + L.RF_CARDS] == CAPOT_POINTS
    out[span, b + L.MB_CARTE_BLANCHE] += rec[base + L.RF_CARTE_BLANCHE] > 0


@njit
def play_pair(
    seed, index, ids_ab, params_ab, ids_ba, params_ba, share, need_ab, need_ba, tables, rules,
    pack, state, decl, decl2, play, rec_ab, rec_ba, ws,
):  # fmt: skip
    """Deal ``index`` of ``seed`` played with A elder (record into ``rec_ab``, when ``need_ab``)
    and with B elder (``rec_ba``, when ``need_ba``), sharing work between the two seatings.

    ``share``: 3 when the whole policy arrays agree, 2 when exchanges and declarations agree,
    1 when only the exchanges agree, 0 otherwise (see :func:`share_level`).
    """
    elder, younger = deal_full(seed, index, pack, state)
    key = stream_key(seed, index)
    talon = pack[24:32]
    e_cb = carte_blanche(elder)
    y_cb = carte_blanche(younger)
    s0 = state[0]
    if need_ab or share >= 1:
        ids, params = ids_ab, params_ab
    else:
        ids, params = ids_ba, params_ba
    e1, _, ek1 = elder_exchange(
        elder,
        talon,
        ids[L.STAGE_ELDER_EXCHANGE],
        params[L.STAGE_ELDER_EXCHANGE],
        key,
        state,
        tables,
        rules,
    )
    y1, _, yk1 = younger_exchange(
        younger,
        talon,
        ek1,
        ids[L.STAGE_YOUNGER_EXCHANGE],
        params[L.STAGE_YOUNGER_EXCHANGE],
        key,
        state,
        tables,
        rules,
    )
    s1 = state[0]
    if need_ab or share >= 2:
        declare_stage(e1, y1, e_cb, y_cb, ids_ab, params_ab, tables, rules, decl)
    if need_ab:
        play_and_record(e1, y1, ek1, yk1, ids_ab, rules, key, state, decl, play, rec_ab, ws)
    if not need_ba:
        return
    if share == 3 and need_ab:
        for f in range(L.REC_LEN):
            rec_ba[f] = rec_ab[f]
        return
    if share >= 1:
        state[0] = s1
        e2, y2, ek2, yk2 = e1, y1, ek1, yk1
    elif need_ab:
        state[0] = s0
        e2, _, ek2 = elder_exchange(
            elder,
            talon,
            ids_ba[L.STAGE_ELDER_EXCHANGE],
            params_ba[L.STAGE_ELDER_EXCHANGE],
            key,
            state,
            tables,
            rules,
        )
        y2, _, yk2 = younger_exchange(
            younger,
            talon,
            ek2,
            ids_ba[L.STAGE_YOUNGER_EXCHANGE],
            params_ba[L.STAGE_YOUNGER_EXCHANGE],
            key,
            state,
            tables,
            rules,
        )
    else:
        e2, y2, ek2, yk2 = e1, y1, ek1, yk1  # already made with B's policies above
    if share >= 2:
        for f in range(L.DECL_LEN):
            decl2[f] = decl[f]
    else:
        declare_stage(e2, y2, e_cb, y_cb, ids_ba, params_ba, tables, rules, decl2)
    play_and_record(e2, y2, ek2, yk2, ids_ba, rules, key, state, decl2, play, rec_ba, ws)


def share_level(ids_ab, params_ab, ids_ba, params_ba) -> int:
    """How much of a mirrored pair the two seatings share (Python side; see :func:`play_pair`)."""

    def agree(stages: list[int]) -> bool:
        return np.array_equal(ids_ab[stages], ids_ba[stages]) and np.array_equal(
            params_ab[stages], params_ba[stages]
        )

    if agree(list(range(len(ids_ab)))):
        return 3
    if not agree([L.STAGE_ELDER_EXCHANGE, L.STAGE_YOUNGER_EXCHANGE]):
        return 0
    return 2 if agree([L.STAGE_ELDER_DECLARE, L.STAGE_YOUNGER_DECLARE]) else 1


@njit
def _mirrored_span(
    seed,
    first,
    count,
    ids_ab,
    params_ab,
    ids_ba,
    params_ba,
    share,
    tables,
    rules,
    nets,
    row0,
    counts,
    span,
    ws,
):
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    decl = np.zeros(L.DECL_LEN, dtype=np.int32)
    decl2 = np.zeros(L.DECL_LEN, dtype=np.int32)
    play = np.zeros(L.PO_LEN, dtype=np.int32)
    rec_ab = np.zeros(L.REC_LEN, dtype=np.int32)
    rec_ba = np.zeros(L.REC_LEN, dtype=np.int32)
    for i in range(count):
        index = first + i
        play_pair(
            seed, index, ids_ab, params_ab, ids_ba, params_ba, share, True, True, tables, rules,
            pack, state, decl, decl2, play, rec_ab, rec_ba, ws,
        )  # fmt: skip
        net_ab = np.int64(rec_ab[L.REC_NET])
        net_ba = np.int64(rec_ba[L.REC_NET])
        nets[row0 + i, 0] = net_ab
        nets[row0 + i, 1] = net_ba
        d = net_ab - net_ba
        counts[span, L.MATCH_PAIRS] += 1
        counts[span, L.MATCH_SUM_D] += d
        counts[span, L.MATCH_SUM_D2] += d * d
        counts[span, L.MATCH_SUM_AE] += net_ab
        counts[span, L.MATCH_SUM_AE2] += net_ab * net_ab
        counts[span, L.MATCH_SUM_AY] -= net_ba
        counts[span, L.MATCH_SUM_AY2] += net_ba * net_ba
        _block(counts, span, SIDE_A, SEAT_ELDER, rec_ab, L.REC_ELDER, L.REC_YOUNGER)
        _block(counts, span, SIDE_B, SEAT_YOUNGER, rec_ab, L.REC_YOUNGER, L.REC_ELDER)
        _block(counts, span, SIDE_B, SEAT_ELDER, rec_ba, L.REC_ELDER, L.REC_YOUNGER)
        _block(counts, span, SIDE_A, SEAT_YOUNGER, rec_ba, L.REC_YOUNGER, L.REC_ELDER)


@njit_parallel
def mirrored_deals(
    seed,
    start,
    n,
    ids_ab,
    params_ab,
    ids_ba,
    params_ba,
    share,
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
    """Deals start..start+n-1 of ``seed``, each played with A elder and with B elder.

    Returns (nets int16[n, 2], counts int64[n_spans, L.MATCH_LEN]); sum ``counts`` over axis 0.
    Parallel over ``n_spans`` spans, each with its own scratch and solver workspace of
    ``2**tt_bits`` entries; every deal has its own stream, so nothing depends on the span or
    thread count.
    """
    nets = np.zeros((n, 2), dtype=np.int16)
    counts = np.zeros((n_spans, L.MATCH_LEN), dtype=np.int64)
    per = (n + n_spans - 1) // n_spans
    for s in prange(n_spans):
        first = s * per
        count = min(per, n - first)
        if count > 0:
            ws = thread_workspace(tt_bits, keytab, reptab, qttab, low8, pop8)
            _mirrored_span(
                seed,
                start + first,
                count,
                ids_ab,
                params_ab,
                ids_ba,
                params_ba,
                share,
                tables,
                rules,
                nets,
                first,
                counts,
                s,
                ws,
            )
    return nets, counts
