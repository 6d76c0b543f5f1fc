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
from .declarations import (
    D_ELDER,
    D_LEN,
    D_WIN_POINT,
    D_WIN_SEQUENCE,
    D_WIN_SETS,
    D_YOUNGER,
    P_CARTE_BLANCHE,
    P_REPIQUE,
    W_ELDER,
    W_YOUNGER,
    carte_blanche,
)
from .exchange import elder_exchange
from .play import PLAY_OUT_LEN, new_workspace
from .simulate import (
    F_CARDS,
    F_CARTE_BLANCHE,
    F_CARTE_ROUGE,
    F_PIQUE,
    F_PLAY,
    F_REPIQUE,
    F_TOTAL,
    R_ELDER,
    R_LEN,
    R_NET,
    R_WIN_POINT,
    R_WIN_SEQUENCE,
    R_WIN_SETS,
    R_YOUNGER,
    declare_stage,
    exchange_stage,
    finish_deal,
)

ROLE_ELDER = 0
ROLE_YOUNGER = 1
UNSEEN = 20

# Columns of the per-candidate sums (all from the advising player's side).
S_N = 0  # worlds evaluated
S_NET = 1  # own deal total minus the opponent's
S_NET2 = 2  # its square
S_DECL = 3  # own points from carte blanche, point, sequences, sets, carte rouge, repique
S_DECL_OPP = 4
S_PLAY = 5  # own points from the play: leads and wins, last trick, cards/capot, pique
S_PLAY_OPP = 6
S_WIN_POINT = 7  # worlds where the player scores the point
S_WIN_SEQUENCE = 8
S_WIN_SETS = 9
S_PIQUE = 10
S_REPIQUE = 11
S_CAPOT = 12
S_CARTE_ROUGE = 13
S_OPP_PIQUE = 14
S_OPP_REPIQUE = 15
S_OPP_CAPOT = 16
S_WIN_CARDS = 17  # the player wins the cards (7+ tricks, capot included)
N_STATS = 18

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
    for f in range(R_LEN):
        rec[f] = 0
    e_total = 0
    y_total = 0
    for k in range(P_CARTE_BLANCHE, P_REPIQUE + 1):
        rec[R_ELDER + F_CARTE_BLANCHE + k] = decl[D_ELDER + k]
        rec[R_YOUNGER + F_CARTE_BLANCHE + k] = decl[D_YOUNGER + k]
        e_total += decl[D_ELDER + k]
        y_total += decl[D_YOUNGER + k]
    rec[R_WIN_POINT] = decl[D_WIN_POINT]
    rec[R_WIN_SEQUENCE] = decl[D_WIN_SEQUENCE]
    rec[R_WIN_SETS] = decl[D_WIN_SETS]
    rec[R_NET] = e_total - y_total


@njit
def add_record(rec, role, sums, c):
    """Add one deal record to row ``c`` of ``sums`` from ``role``'s side; returns own net."""
    ob = R_ELDER if role == ROLE_ELDER else R_YOUNGER
    pb = R_YOUNGER if role == ROLE_ELDER else R_ELDER
    me = W_ELDER if role == ROLE_ELDER else W_YOUNGER
    net = rec[R_NET] if role == ROLE_ELDER else -rec[R_NET]
    d_own = 0
    d_opp = 0
    for f in range(F_CARTE_BLANCHE, F_REPIQUE + 1):
        d_own += rec[ob + f]
        d_opp += rec[pb + f]
    sums[c, S_N] += 1
    sums[c, S_NET] += net
    sums[c, S_NET2] += net * net
    sums[c, S_DECL] += d_own
    sums[c, S_DECL_OPP] += d_opp
    sums[c, S_PLAY] += rec[ob + F_PLAY] + rec[ob + F_CARDS] + rec[ob + F_PIQUE]
    sums[c, S_PLAY_OPP] += rec[pb + F_PLAY] + rec[pb + F_CARDS] + rec[pb + F_PIQUE]
    sums[c, S_WIN_POINT] += rec[R_WIN_POINT] == me
    sums[c, S_WIN_SEQUENCE] += rec[R_WIN_SEQUENCE] == me
    sums[c, S_WIN_SETS] += rec[R_WIN_SETS] == me
    sums[c, S_PIQUE] += rec[ob + F_PIQUE] > 0
    sums[c, S_REPIQUE] += rec[ob + F_REPIQUE] > 0
    sums[c, S_CAPOT] += rec[ob + F_CARDS] == 40
    sums[c, S_CARTE_ROUGE] += rec[ob + F_CARTE_ROUGE] > 0
    sums[c, S_OPP_PIQUE] += rec[pb + F_PIQUE] > 0
    sums[c, S_OPP_REPIQUE] += rec[pb + F_REPIQUE] > 0
    sums[c, S_OPP_CAPOT] += rec[pb + F_CARDS] == 40
    sums[c, S_WIN_CARDS] += rec[ob + F_CARDS] > 0
    return net


@njit
def _evaluate_span(
    hand, role, candidates, seed, start, opp, talons, s0, e_disc, valid, mode, policies, params,
    tables, rules, first, last, sums, nets, owns, ws,
):  # fmt: skip
    n = opp.shape[0]
    state = np.zeros(1, dtype=np.int64)
    decl = np.zeros(D_LEN, dtype=np.int32)
    play = np.zeros(PLAY_OUT_LEN, dtype=np.int32)
    rec = np.zeros(R_LEN, dtype=np.int32)
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
        owns[c, w] = rec[R_ELDER + F_TOTAL] if role == ROLE_ELDER else rec[R_YOUNGER + F_TOTAL]


@njit_parallel
def evaluate(
    hand, role, candidates, seed, start, opp, talons, s0, e_disc, valid, mode, policies, params,
    tables, rules, n_spans, tt_bits, for_dd, solver_tables,
):  # fmt: skip
    """Evaluate every candidate discard (int64 masks, ``candidates[C]``) on the worlds of
    :func:`build_worlds` (world i is world ``start + i`` of ``seed``; ``valid[i]`` false skips it).

    ``role`` 0: the player is elder, a candidate is elder's forced discard and younger exchanges by
    ``policies[ST_YOUNGER_EXCHANGE]``; 1: the player is younger, elder's discard is the world's.
    ``mode``: ``MODE_DECLARE_ONLY`` or ``MODE_PLAY``. Returns (sums float64[C, N_STATS], net
    int16[C, n]: own total minus the opponent's on every world, own int16[C, n]: own total).
    Parallel over ``n_spans`` spans of the (candidate, world) pairs, each writing its own
    partial rows (merged serially after), each owning a solver workspace
    (``play.new_workspace``: ``2**tt_bits`` entries when ``for_dd``; ``solver_tables`` =
    (KEYTAB, REPTAB, QTTAB, LOW8, POP8)).
    """
    n = opp.shape[0]
    n_cand = candidates.shape[0]
    total = n_cand * n
    part = np.zeros((n_spans, n_cand, N_STATS), dtype=np.float64)
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
    sums = np.zeros((n_cand, N_STATS), dtype=np.float64)
    for s in range(n_spans):
        for c in range(n_cand):
            for k in range(N_STATS):
                sums[c, k] += part[s, c, k]
    return sums, nets, owns
