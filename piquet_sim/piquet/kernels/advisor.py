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

from collections import namedtuple

import numpy as np

from ...core.engine.bits import cards_outside
from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, run_spans
from ...core.engine.jit_threads import span_range as span_range_py
from ...core.engine.rng import bounded, stream_key
from ...core.engine.spans import span_range
from . import layouts as L
from .bundles import Worlds
from .declarations import carte_blanche
from .exchange import elder_exchange
from .play import new_scratch
from .refine import pimc_finish_deal
from .screen import screen_finish_deal
from .simulate import declare_stage, exchange_stage, finish_deal
from .solver import new_workspace

#: Per-span outputs of :func:`evaluate`: sums float64[C, ADV_LEN] (the span's own), nets and own
#: totals int16[C, n] (shared; each (candidate, world) cell written by one span).
Evaluation = namedtuple("Evaluation", "sums nets owns")

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
    cards_outside(hand, out)
    return out


@njit_inline
def _deal_world(unseen, key, state, perm, talon):
    """One shuffle of the 20 ``unseen`` cards: returns the opponent's mask (the first 12);
    ``talon`` int8[8] is filled with the next 8."""
    shuffle_unseen(unseen, perm, key, state)
    opp = np.int64(0)
    for i in range(12):
        opp |= np.int64(1) << perm[i]
    for i in range(8):
        talon[i] = perm[12 + i]
    return opp


@njit
def make_world(hand, request, model, key, state, env, perm, talon):
    """One world from the stream ``key`` (``state`` from 0): returns (opponent mask, elder's
    forced discard or -1, attempts); ``talon`` int8[8] is filled. ``request`` = (role, cards
    elder took, carte blanche required of elder: 0/1, or -1 to ignore, max attempts); ``model``:
    the stages whose elder exchange policy models elder's exchange (younger's worlds). Attempts
    -1: no world of ``max_attempts`` met the younger conditions."""
    role, k_elder, cb_req, max_attempts = request
    unseen = unseen_cards(hand)
    for attempt in range(1, max_attempts + 1):
        opp = _deal_world(unseen, key, state, perm, talon)
        if role == ROLE_ELDER:
            return opp, np.int64(-1), np.int64(attempt)
        if cb_req >= 0 and np.int64(carte_blanche(opp)) != cb_req:
            continue
        _, discard, took = elder_exchange(
            opp,
            talon,
            model.ids[L.STAGE_ELDER_EXCHANGE],
            model.params[L.STAGE_ELDER_EXCHANGE],
            key,
            state,
            env,
        )
        if took == k_elder:
            return opp, discard, np.int64(attempt)
    return np.int64(0), np.int64(-1), np.int64(-1)


@njit
def elder_world(hand, request, model, key, state, env, perm, talon):
    """:func:`make_world` for elder's worlds (role 0; the other fields are not read): the first
    shuffle, no condition. The same world, compiled without the younger's exchange model."""
    return _deal_world(unseen_cards(hand), key, state, perm, talon), np.int64(-1), np.int64(1)


@njit_inline
def _build_span_with(hand, request, model, seed, start, span, env, rows, attempts, world):
    """Worlds ``span`` (first, end) into ``rows`` and ``attempts``, each made by ``world``
    (:func:`make_world`'s arguments and returns)."""
    perm = np.empty(UNSEEN, dtype=np.int8)
    talon = np.empty(8, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    for i in range(span[0], span[1]):
        key = stream_key(seed, start + i)
        state[0] = 0
        o, d, a = world(hand, request, model, key, state, env, perm, talon)
        rows.opp[i] = o
        rows.e_disc[i] = d
        rows.valid[i] = a > 0
        attempts[i] = a
        rows.s0[i] = state[0]
        for t in range(8):
            rows.talons[i, t] = talon[t]


@njit
def _build_span(hand, request, model, seed, start, span, env, rows, attempts):
    _build_span_with(hand, request, model, seed, start, span, env, rows, attempts, make_world)


@njit_inline
def _new_worlds(n):
    """An empty ``Worlds`` bundle of ``n`` worlds (none valid) and its attempts."""
    rows = Worlds(
        np.zeros(n, dtype=np.int64),
        np.zeros((n, 8), dtype=np.int8),
        np.zeros(n, dtype=np.int64),
        np.full(n, -1, dtype=np.int64),
        np.zeros(n, dtype=np.bool_),
    )
    return rows, np.zeros(n, dtype=np.int64)


@njit
def build_worlds_serial(hand, request, model, seed, start, n, env):
    """:func:`build_worlds` of elder's worlds (``request`` role 0) on one thread: the same
    worlds. Elder's worlds are too cheap to be worth threads, and this kernel compiles far less
    (the first run's path): no threads, no younger's exchange model. Raises ValueError for
    younger's request."""
    if request[0] != ROLE_ELDER:
        raise ValueError("build_worlds_serial builds elder's worlds only")
    rows, attempts = _new_worlds(n)
    span = (np.int64(0), n)
    _build_span_with(hand, request, model, seed, start, span, env, rows, attempts, elder_world)
    return rows, attempts


@driver(_build_span)
def build_worlds(hand, request, model, seed, start, n, n_spans, env):
    """Worlds start..start+n-1 of ``seed`` (see :func:`make_world`): (a ``Worlds`` bundle,
    attempts int64[n]: draws each world took, -1 when none met the request within its
    ``max_attempts``, and then the world is not ``valid``). Independent of the span count: world
    w depends only on (seed, w). The spans run on threads (``core.engine.jit_threads``);
    ``n_spans`` 1 runs serially (elder's worlds are too cheap to be worth threads)."""
    rows, attempts = _new_worlds.py_func(n)

    def run(s: int) -> None:
        first, count = span_range_py(n, n_spans, s)
        span = (np.int64(first), np.int64(first + count))
        _build_span(hand, request, model, seed, start, span, env, rows, attempts)

    run_spans(run, max(1, n_spans))
    return rows, attempts


@njit
def declare_only(elder, younger, talon, key, stages, env, sc, forced):
    """Exchanges and declarations of ``simulate.finish_deal`` without the play: writes the
    declaration fields, class winners and net (elder minus younger) of ``sc.rec``; play fields
    0."""
    cb = (carte_blanche(elder), carte_blanche(younger))
    ex = exchange_stage(elder, younger, talon, key, sc.state, stages, env, forced)
    declare_stage(ex[0], ex[1], cb, stages, env, sc.decl, sc.masks)
    rec = sc.rec
    decl = sc.decl
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


@njit_inline
def _span_body(player, candidates, origin, worlds, stages, ws, span, out, finish):
    """Candidates x worlds ``span`` of an evaluation, each deal finished by ``finish``
    (``simulate.finish_deal``'s arguments)."""
    hand, role = player
    seed, start = origin
    n = worlds.opp.shape[0]
    sc = new_scratch()
    rec = sc.rec
    for p in range(span[0], span[1]):
        c = p // n
        w = p - c * n
        if not worlds.valid[w]:
            continue
        key = stream_key(seed, start + w)
        sc.state[0] = worlds.s0[w]
        if role == ROLE_ELDER:
            elder = hand
            younger = worlds.opp[w]
            forced = (candidates[c], np.int64(-1))
        else:
            elder = worlds.opp[w]
            younger = hand
            forced = (worlds.e_disc[w], candidates[c])
        finish(elder, younger, worlds.talons[w], key, stages, ws, sc, forced)
        out.nets[c, w] = add_record(rec, role, out.sums, c)
        own = L.REC_ELDER if role == ROLE_ELDER else L.REC_YOUNGER
        out.owns[c, w] = rec[own + L.RF_TOTAL]


@njit_inline
def _declare_finish(elder, younger, talon, key, stages, ws, sc, forced):
    declare_only(elder, younger, talon, key, stages, ws.env, sc, forced)


@njit
def _play_span(player, candidates, origin, worlds, stages, ws, span, out):
    _span_body(player, candidates, origin, worlds, stages, ws, span, out, finish_deal)


@njit_inline
def _screen_span(player, candidates, origin, worlds, stages, ws, span, out):
    _span_body(player, candidates, origin, worlds, stages, ws, span, out, screen_finish_deal)


@njit
def _pimc_span(player, candidates, origin, worlds, stages, ws, span, out):
    _span_body(player, candidates, origin, worlds, stages, ws, span, out, pimc_finish_deal)


@njit
def _declare_span(player, candidates, origin, worlds, stages, ws, span, out):
    _span_body(player, candidates, origin, worlds, stages, ws, span, out, _declare_finish)


@njit_inline
def _outputs(n_spans, n_cand, n):
    """Per-span sums and the shared nets and own totals of an evaluation."""
    part = np.zeros((n_spans, n_cand, L.ADV_LEN), dtype=np.float64)
    return part, np.zeros((n_cand, n), dtype=np.int16), np.zeros((n_cand, n), dtype=np.int16)


@njit_inline
def _merge(part):
    """The spans' partial sums, merged serially (same order whatever the threads)."""
    sums = np.zeros(part.shape[1:], dtype=np.float64)
    for s in range(part.shape[0]):
        sums += part[s]
    return sums


def _threaded_evaluate(span_kernel, player, candidates, origin, worlds, stages, env, spans):
    """The candidates x worlds of an evaluation cut into ``spans`` = (n_spans, tt_bits), each
    played by ``span_kernel`` (:func:`_play_span`'s arguments) on Python threads
    (``core.engine.jit_threads``): the spans and numbers of a ``prange`` driver, without
    compiling one. Returns :func:`evaluate`'s three arrays."""
    n_spans, tt_bits = spans
    n = worlds.opp.shape[0]
    n_cand = candidates.shape[0]
    part, nets, owns = _outputs.py_func(n_spans, n_cand, n)

    def run(s: int) -> None:
        first, count = span_range_py(n_cand * n, n_spans, s)
        if count > 0:
            ws = new_workspace(env, tt_bits, tt_bits > 1)
            out = Evaluation(part[s], nets, owns)
            span_kernel(player, candidates, origin, worlds, stages, ws, (first, first + count), out)

    run_spans(run, n_spans)
    return _merge.py_func(part), nets, owns


@driver(_play_span, new_workspace)
def evaluate(player, candidates, seed, start, worlds, mode, stages, env, n_spans, tt_bits):
    """Evaluate every candidate discard (int64 masks, ``candidates[C]``) on ``worlds`` (a
    ``Worlds`` bundle of :func:`build_worlds`; world i is world ``start + i`` of ``seed``;
    ``valid[i]`` false skips it) with any play policy, the solver plays included (the refine
    path; :func:`screen_evaluate` gives the same numbers for the fast plays and compiles far
    less). ``player`` = (hand, role).

    ``role`` 0: the player is elder, a candidate is elder's forced discard and younger exchanges
    by the stages' younger exchange policy; 1: the player is younger, elder's discard is the
    world's. ``mode`` is not read: ``MODE_PLAY`` (the declarations alone are
    :func:`declare_evaluate`'s). Returns (sums float64[C, ADV_LEN],
    net int16[C, n]: own total minus the opponent's on every world, own int16[C, n]: own total).
    Parallel over ``n_spans`` spans of the (candidate, world) pairs on threads
    (:func:`_threaded_evaluate`), each writing its own partial rows (merged serially after),
    each owning a solver workspace of ``2**tt_bits`` entries (a token one when ``tt_bits`` is
    1).
    """
    origin = (seed, start)
    spans = (n_spans, tt_bits)
    return _threaded_evaluate(_play_span, player, candidates, origin, worlds, stages, env, spans)


@driver(_pimc_span, new_workspace)
def pimc_evaluate(player, candidates, seed, start, worlds, mode, stages, env, n_spans, tt_bits):
    """:func:`evaluate` in ``MODE_PLAY`` for ``refine.pimc_only`` stages (the advisor's pimc
    refine; ``mode`` is not read): the same numbers, played by ``refine.pimc_play_deal``, which
    compiles neither the dd player nor the heuristic's general arithmetic and loads the screen's
    exchange and declaration kernels."""
    origin = (seed, start)
    spans = (n_spans, tt_bits)
    return _threaded_evaluate(_pimc_span, player, candidates, origin, worlds, stages, env, spans)


@njit
def screen_evaluate(player, candidates, seed, start, worlds, mode, stages, env, n_spans, tt_bits):
    """:func:`evaluate` in ``MODE_PLAY`` for the fast plays only (random, greedy, heuristic at
    depth 0 without tilt: the screening play ``screen.table_play_deal``, which never compiles
    the exact solver, pimc or the heuristic's general arithmetic). Same arguments (``mode`` is
    not read) and numbers; never give it stages with a solver play or that are not
    ``screen.table_only``. Serial (the spans run in turn): a screen of every discard takes
    well under a second on one thread, and a parallel driver would add about a quarter to the
    first run's compilation."""
    n = worlds.opp.shape[0]
    n_cand = candidates.shape[0]
    part, nets, owns = _outputs(n_spans, n_cand, n)
    for s in range(n_spans):
        first, count = span_range(n_cand * n, n_spans, s)
        if count > 0:
            span = (first, first + count)
            ws = new_workspace(env, tt_bits, tt_bits > 1)
            out = Evaluation(part[s], nets, owns)
            _screen_span(player, candidates, (seed, start), worlds, stages, ws, span, out)
    return _merge(part), nets, owns


@driver(_declare_span, new_workspace)
def declare_evaluate(player, candidates, seed, start, worlds, mode, stages, env, n_spans, tt_bits):
    """:func:`evaluate` in ``MODE_DECLARE_ONLY`` (``mode`` is not read): exchanges and
    declarations, no play."""
    origin = (seed, start)
    spans = (n_spans, tt_bits)
    return _threaded_evaluate(_declare_span, player, candidates, origin, worlds, stages, env, spans)
