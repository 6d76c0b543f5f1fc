"""Discard advisor kernels: worlds consistent with one player's knowledge, and the evaluation of
many candidate discards on the same worlds (common random numbers).

A *world* for a request is keyed by (seed, w) through ``rng.stream_key``: the player's 20 unseen
cards are shuffled (inside-out Fisher-Yates, every draw ``rng.bounded`` from the world's stream);
the first 12 are the opponent's hand, the next 8 the talon in draw order.

* Elder (``role`` 0): no further condition (elder knows only his 12 cards).
* Younger (``role`` 1): younger also knows that elder took ``k_elder`` cards (and whether elder
  showed carte blanche). Elder's exchange is modelled by a policy; a world is kept only when that
  policy, on that elder hand, takes exactly ``k_elder`` (rejection sampling: a rejected attempt
  reshuffles from the same stream, up to ``max_attempts``). The accepted discard is stored and
  forced, so every candidate meets the same elder exchange.

After the world, the stream position is stored (``s0``); every candidate's deal restarts from it,
so the opponent's and the play's random draws are the same for every candidate on world w.

Per candidate the evaluation returns sums over worlds (``S_*`` columns; perspective: the
advising player, "own" minus "opponent") and the net deal score on every world (int16), from
which the API computes paired differences between candidates.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import bounded, stream_key
from . import layouts as L
from .declarations import carte_blanche
from .exchange import elder_exchange
from .play import new_workspace
from .simulate import declare_stage, exchange_stage, finish_deal

ROLE_ELDER = 0
ROLE_YOUNGER = 1
UNSEEN = 20

# Columns of the per-candidate sums (all from the advising player's side).

# Play modes of ``evaluate``.
MODE_DECLARE_ONLY = 0  # exchanges and declarations, no play (no play points, no pique)
MODE_PLAY = 1  # the full deal through ``simulate.finish_deal``


@njit
def shuffle_unseen(unseen, perm, key, state):
    """Inside-out Fisher-Yates of the 20 cards ``unseen`` (int8[20]) into ``perm``: position i
    (1..19) draws j = bounded(i + 1) from the stream, in order."""
    perm[0] = unseen[0]
    for i in range(1, UNSEEN):
        j = bounded(key, state, i + 1)
        perm[i] = perm[j]
        perm[j] = unseen[i]


@njit
def unseen_cards(hand):
    """The 20 cards not in ``hand`` (int8[20], ascending index)."""
    out = np.empty(UNSEEN, dtype=np.int8)
    k = 0
    for c in range(32):
        if not (hand >> c) & 1:
            out[k] = c
            k += 1
    return out


@njit
def make_world(
    hand, role, k_elder, e_policy, e_params, cb_req, max_attempts, key, state, tables, rules,
    perm, talon,
):  # fmt: skip
    """One world from the stream ``key`` (``state`` from 0): returns (opponent mask, elder's
    forced discard or -1, attempts); ``talon`` int8[8] is filled. Attempts -1: no world of
    ``max_attempts`` met the younger conditions (elder took ``k_elder``; ``cb_req`` 0/1 requires
    elder's carte blanche off/on, -1 ignores it)."""
    unseen = unseen_cards(hand)
    for attempt in range(1, max_attempts + 1):
        shuffle_unseen(unseen, perm, key, state)
        opp = np.int64(0)
        for i in range(12):
            opp |= np.int64(1) << perm[i]
        for i in range(8):
            talon[i] = perm[12 + i]
        if role == ROLE_ELDER:
            return opp, np.int64(-1), np.int64(attempt)
        if cb_req >= 0 and np.int64(carte_blanche(opp)) != cb_req:
            continue
        _, discard, took = elder_exchange(opp, talon, e_policy, e_params, key, state, tables, rules)
        if took == k_elder:
            return opp, discard, np.int64(attempt)
    return np.int64(0), np.int64(-1), np.int64(-1)


@njit
def _build_span(
    hand, role, k_elder, e_policy, e_params, cb_req, max_attempts, seed, start, first, last,
    tables, rules, opp, talons, s0, e_disc, attempts,
):  # fmt: skip
    perm = np.empty(UNSEEN, dtype=np.int8)
    talon = np.empty(8, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    for i in range(first, last):
        key = stream_key(seed, start + i)
        state[0] = 0
        o, d, a = make_world(
            hand, role, k_elder, e_policy, e_params, cb_req, max_attempts, key, state,
            tables, rules, perm, talon,
        )  # fmt: skip
        opp[i] = o
        e_disc[i] = d
        attempts[i] = a
        s0[i] = state[0]
        for t in range(8):
            talons[i, t] = talon[t]


@njit_parallel
def build_worlds(
    hand, role, k_elder, e_policy, e_params, cb_req, max_attempts, seed, start, n, n_spans,
    tables, rules,
):  # fmt: skip
    """Worlds start..start+n-1 of ``seed``: (opponent int64[n], talon int8[n, 8], stream
    position after the world int64[n], elder's forced discard int64[n] (-1 for elder's worlds),
    attempts int64[n] (-1 = no valid world within ``max_attempts``)). Independent of the span
    count: world w depends only on (seed, w). ``n_spans`` 1 runs serially (elder's worlds are
    too cheap to be worth waking threads)."""
    opp = np.zeros(n, dtype=np.int64)
    talons = np.zeros((n, 8), dtype=np.int8)
    s0 = np.zeros(n, dtype=np.int64)
    e_disc = np.full(n, -1, dtype=np.int64)
    attempts = np.zeros(n, dtype=np.int64)
    if n_spans <= 1:
        _build_span(
            hand, role, k_elder, e_policy, e_params, cb_req, max_attempts, seed, start, 0, n,
            tables, rules, opp, talons, s0, e_disc, attempts,
        )  # fmt: skip
        return opp, talons, s0, e_disc, attempts
    per = (n + n_spans - 1) // n_spans
    for s in prange(n_spans):
        _build_span(
            hand, role, k_elder, e_policy, e_params, cb_req, max_attempts, seed, start,
            s * per, min(n, (s + 1) * per), tables, rules, opp, talons, s0, e_disc, attempts,
        )  # fmt: skip
    return opp, talons, s0, e_disc, attempts


@njit
def declare_only(
    elder, younger, talon, e_cb, y_cb, key, state, policies, params, tables, rules, e_discard,
    y_discard, decl, rec,
):  # fmt: skip
    """Exchanges and declarations of ``simulate.finish_deal`` without the play: writes the
    declaration fields, class winners and net (elder minus younger) of ``rec``; play fields 0."""
    elder, younger, _, _ = exchange_stage(
        elder, younger, talon, key, state, policies, params, tables, rules, e_discard, y_discard
    )
    declare_stage(elder, younger, e_cb, y_cb, policies, params, tables, rules, decl)
    for f in range(L.REC_LEN):
        rec[f] = 0
    e_total = 0
    y_total = 0
    for k in range(L.DP_CARTE_BLANCHE, L.DP_REPIQUE + 1):
        rec[L.REC_ELDER + L.RF_CARTE_BLANCHE + k] = decl[L.DECL_ELDER + k]
        rec[L.REC_YOUNGER + L.RF_CARTE_BLANCHE + k] = decl[L.DECL_YOUNGER + k]
        e_total += decl[L.DECL_ELDER + k]
        y_total += decl[L.DECL_YOUNGER + k]
    rec[L.REC_WIN_POINT] = decl[L.DECL_WIN_POINT]
    rec[L.REC_WIN_SEQUENCE] = decl[L.DECL_WIN_SEQUENCE]
    rec[L.REC_WIN_SETS] = decl[L.DECL_WIN_SETS]
    rec[L.REC_NET] = e_total - y_total


@njit
def add_record(rec, role, sums, c):
    """Add one deal record to row ``c`` of ``sums`` from ``role``'s side; returns own net."""
    ob = L.REC_ELDER if role == ROLE_ELDER else L.REC_YOUNGER
    pb = L.REC_YOUNGER if role == ROLE_ELDER else L.REC_ELDER
    me = L.WIN_ELDER if role == ROLE_ELDER else L.WIN_YOUNGER
    net = rec[L.REC_NET] if role == ROLE_ELDER else -rec[L.REC_NET]
    d_own = 0
    d_opp = 0
    for f in range(L.RF_CARTE_BLANCHE, L.RF_REPIQUE + 1):
        d_own += rec[ob + f]
        d_opp += rec[pb + f]
    sums[c, L.ADV_N] += 1
    sums[c, L.ADV_NET] += net
    sums[c, L.ADV_NET2] += net * net
    sums[c, L.ADV_DECL] += d_own
    sums[c, L.ADV_DECL_OPP] += d_opp
    sums[c, L.ADV_PLAY] += rec[ob + L.RF_PLAY] + rec[ob + L.RF_CARDS] + rec[ob + L.RF_PIQUE]
    sums[c, L.ADV_PLAY_OPP] += rec[pb + L.RF_PLAY] + rec[pb + L.RF_CARDS] + rec[pb + L.RF_PIQUE]
    sums[c, L.ADV_WIN_POINT] += rec[L.REC_WIN_POINT] == me
    sums[c, L.ADV_WIN_SEQUENCE] += rec[L.REC_WIN_SEQUENCE] == me
    sums[c, L.ADV_WIN_SETS] += rec[L.REC_WIN_SETS] == me
    sums[c, L.ADV_PIQUE] += rec[ob + L.RF_PIQUE] > 0
    sums[c, L.ADV_REPIQUE] += rec[ob + L.RF_REPIQUE] > 0
    sums[c, L.ADV_CAPOT] += rec[ob + L.RF_CARDS] == 40
    sums[c, L.ADV_CARTE_ROUGE] += rec[ob + L.RF_CARTE_ROUGE] > 0
    sums[c, L.ADV_OPP_PIQUE] += rec[pb + L.RF_PIQUE] > 0
    sums[c, L.ADV_OPP_REPIQUE] += rec[pb + L.RF_REPIQUE] > 0
    sums[c, L.ADV_OPP_CAPOT] += rec[pb + L.RF_CARDS] == 40
    sums[c, L.ADV_WIN_CARDS] += rec[ob + L.RF_CARDS] > 0
    return net


@njit
def _evaluate_span(
    hand, role, candidates, seed, start, opp, talons, s0, e_disc, valid, mode, policies, params,
    tables, rules, first, last, sums, nets, owns, ws,
):  # fmt: skip
    n = opp.shape[0]
    state = np.zeros(1, dtype=np.int64)
    decl = np.zeros(L.DECL_LEN, dtype=np.int32)
    play = np.zeros(L.PO_LEN, dtype=np.int32)
    rec = np.zeros(L.REC_LEN, dtype=np.int32)
    for p in range(first, last):
        c = p // n
        w = p - c * n
        if not valid[w]:
            continue
        key = stream_key(seed, start + w)
        state[0] = s0[w]
        if role == ROLE_ELDER:
            elder = hand
            younger = opp[w]
            ed = candidates[c]
            yd = np.int64(-1)
        else:
            elder = opp[w]
            younger = hand
            ed = e_disc[w]
            yd = candidates[c]
        e_cb = carte_blanche(elder)
        y_cb = carte_blanche(younger)
        if mode == MODE_DECLARE_ONLY:
            declare_only(
                elder, younger, talons[w], e_cb, y_cb, key, state, policies, params, tables,
                rules, ed, yd, decl, rec,
            )  # fmt: skip
        else:
            finish_deal(
                elder, younger, talons[w], e_cb, y_cb, key, state, policies, params, tables,
                rules, ed, yd, decl, play, rec, ws,
            )  # fmt: skip
        nets[c, w] = add_record(rec, role, sums, c)
        owns[c, w] = (
            rec[L.REC_ELDER + L.RF_TOTAL] if role == ROLE_ELDER else rec[L.REC_YOUNGER + L.RF_TOTAL]
        )


@njit_parallel
def evaluate(
    hand, role, candidates, seed, start, opp, talons, s0, e_disc, valid, mode, policies, params,
    tables, rules, n_spans, tt_bits, for_dd, solver_tables,
):  # fmt: skip
    """Evaluate every candidate discard (int64 masks, ``candidates[C]``) on the worlds of
    :func:`build_worlds` (world i is world ``start + i`` of ``seed``; ``valid[i]`` false skips it).

    ``role`` 0: the player is elder, a candidate is elder's forced discard and younger exchanges by
    ``policies[ST_YOUNGER_EXCHANGE]``; 1: the player is younger, elder's discard is the world's.
    ``mode``: ``MODE_DECLARE_ONLY`` or ``MODE_PLAY``. Returns (sums float64[C, L.ADV_LEN], net
    int16[C, n]: own total minus the opponent's on every world, own int16[C, n]: own total).
    Parallel over ``n_spans`` spans of the (candidate, world) pairs, each writing its own
    partial rows (merged serially after), each owning a solver workspace
    (``play.new_workspace``: ``2**tt_bits`` entries when ``for_dd``; ``solver_tables`` =
    (KEYTAB, REPTAB, QTTAB, LOW8, POP8)).
    """
    n = opp.shape[0]
    n_cand = candidates.shape[0]
    total = n_cand * n
    part = np.zeros((n_spans, n_cand, L.ADV_LEN), dtype=np.float64)
    nets = np.zeros((n_cand, n), dtype=np.int16)
    owns = np.zeros((n_cand, n), dtype=np.int16)
    per = (total + n_spans - 1) // n_spans
    for s in prange(n_spans):
        first = s * per
        last = min(total, first + per)
        if last > first:
            ws = new_workspace(solver_tables, tt_bits, for_dd)
            _evaluate_span(
                hand, role, candidates, seed, start, opp, talons, s0, e_disc, valid, mode,
                policies, params, tables, rules, first, last, part[s], nets, owns, ws,
            )  # fmt: skip
    sums = np.zeros((n_cand, L.ADV_LEN), dtype=np.float64)
    for s in range(n_spans):
        for c in range(n_cand):
            for k in range(L.ADV_LEN):
                sums[c, k] += part[s, c, k]
    return sums, nets, owns
