"""Mirrored deals: every deal played twice with the seats swapped, on the same deal and stream.

Deal i of a seed is played once with strategy A elder and B younger (stage policies
``stages_ab``) and once with B elder and A younger (``stages_ba``), both on deal
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

Seatings that each play greedy, random or heuristic take :func:`simple_mirrored_deals`: the
same pairs through ``simple_deal.simple_pair`` (bundle-free, shared alike, the same records),
in about 0.55-0.7 of the CPU time (greedy and heuristic pairs) and without compiling the solver;
the caller chooses in Python (``piquet.match.match_kernel``).

Output per deal: ``nets`` int16[n, 2] = (net of the A-elder play, net of the B-elder play),
each elder minus younger. Per span: integer counts ``int64[n_spans, MATCH_LEN]`` (layout
``MATCH_*`` / ``MB_*`` of ``layouts``), merged by summing; integers, so the merge is exact and the
result does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, run_spans
from ...core.engine.jit_threads import span_range as span_range_py
from ...core.engine.rng import stream_key
from . import layouts as L
from .bundles import OwnEnv
from .deal import deal_full
from .declarations import carte_blanche
from .play import general_of, new_scratch
from .simple_deal import (
    deal_work,
    exchange_step,
    own_env,
    own_stages,
    pair_records,
    plays_fast,
    simple_pair,
)
from .simulate import NOT_FORCED, declare_stage, finish_play
from .solver import new_workspace
from .tricks import CAPOT_POINTS

SIDE_A = 0
SIDE_B = 1
SEAT_ELDER = 0
SEAT_YOUNGER = 1


@njit_inline
def _block(out, side, seat, rec, base, other):
    """Add one seat's deal to its (side, seat) block of the counts row ``out`` (inlined: its
    four calls pass constants, and a compiled kernel took one signature for each)."""
    b = L.MATCH_BLOCKS + (2 * side + seat) * L.MB_LEN
    mine = rec[base + L.RF_TOTAL]
    theirs = rec[other + L.RF_TOTAL]
    out[b + L.MB_WIN] += mine > theirs
    out[b + L.MB_TIE] += mine == theirs
    out[b + L.MB_POINTS] += mine
    out[b + L.MB_PIQUE] += rec[base + L.RF_PIQUE] > 0
    out[b + L.MB_REPIQUE] += rec[base + L.RF_REPIQUE] > 0
    out[b + L.MB_CAPOT] += rec[base + L.RF_CARDS] == CAPOT_POINTS
    out[b + L.MB_CARTE_BLANCHE] += rec[base + L.RF_CARTE_BLANCHE] > 0


@njit
def _finish_seating(exchange, talon, stages, key, ws, sc):
    """``simulate.finish_play`` as a kernel of its own: :func:`play_pair` calls it for both
    seatings, and inlined twice (every play policy's code, the solver plays' dispatch included)
    it made most of ``play_pair``'s compilation; a solver play costs milliseconds a deal, far
    more than the call."""
    return finish_play(exchange, talon, stages, key, ws, sc)


@njit_inline
def _exchange(elder, younger, talon, key, state, stages, env):
    """Both exchanges, unforced, through ``simple_deal.exchange_step`` (the same hands and
    draws as ``simulate.exchange_stage``): a kernel the bundle-free pairs compile too, so a
    command playing both kinds of pair (``ladder``) types the exchange policies once, not
    again in a kernel of this module. Inlined: two small sites, the step called once each."""
    return exchange_step(
        elder, younger, talon, stages, key, state, OwnEnv(env.rules, env.suit), NOT_FORCED
    )


@njit
def _declare(ex, cb, stages, env, decl, masks):
    """``simulate.declare_stage`` as a call of its own: :func:`play_pair` declares at two sites,
    and numba compiles an inlined function again at every site."""
    declare_stage(ex[0], ex[1], cb, stages, env, decl, masks)


@njit
def play_pair(seed, index, stages_ab, stages_ba, share, need, ws, sc, sc2):
    """Deal ``index`` of ``seed`` played with A elder (record into ``sc.rec``, when ``need[0]``)
    and with B elder (``sc2.rec``, when ``need[1]``), sharing work between the two seatings.

    ``share``: 3 when the whole policy arrays agree, 2 when exchanges and declarations agree,
    1 when only the exchanges agree, 0 otherwise (see :func:`share_level`).
    """
    need_ab, need_ba = need
    env = ws.env
    elder, younger = deal_full(seed, index, sc.pack, sc.state)
    key = stream_key(seed, index)
    talon = sc.pack[24:32]
    cb = (carte_blanche(elder), carte_blanche(younger))
    s0 = sc.state[0]
    first = stages_ab if (need_ab or share >= 1) else stages_ba
    ex1 = _exchange(elder, younger, talon, key, sc.state, first, env)
    s1 = sc.state[0]
    if need_ab or share >= 2:
        _declare(ex1, cb, stages_ab, env, sc.decl, sc.masks)
    if need_ab:
        _finish_seating(ex1, talon, stages_ab, key, ws, sc)
    if not need_ba:
        return
    if share == 3 and need_ab:
        sc2.rec[:] = sc.rec
        return
    if share >= 1 or not need_ab:
        sc2.state[0] = s1  # the exchanges above are B's too (or were made with B's policies)
        ex2 = ex1
    else:
        sc2.state[0] = s0
        ex2 = _exchange(elder, younger, talon, key, sc2.state, stages_ba, env)
    if share >= 2:
        sc2.decl[:] = sc.decl
        sc2.masks[:] = sc.masks
    else:
        _declare(ex2, cb, stages_ba, env, sc2.decl, sc2.masks)
    _finish_seating(ex2, talon, stages_ba, key, ws, sc2)


def share_level(stages_ab, stages_ba) -> int:
    """How much of a mirrored pair the two seatings share (Python side; see :func:`play_pair`)."""

    def agree(rows: list[int]) -> bool:
        return np.array_equal(stages_ab.ids[rows], stages_ba.ids[rows]) and np.array_equal(
            stages_ab.params[rows], stages_ba.params[rows]
        )

    if agree(list(range(L.STAGE_LEN))):
        return 3
    if not agree([L.STAGE_ELDER_EXCHANGE, L.STAGE_YOUNGER_EXCHANGE]):
        return 0
    return 2 if agree([L.STAGE_ELDER_DECLARE, L.STAGE_YOUNGER_DECLARE]) else 1


@njit_inline
def bundled_pair(seed, index, need, pair):
    """:func:`play_pair` behind ``simple_deal.simple_pair``'s arguments and result: ``pair`` =
    (stages_ab, stages_ba, share, ws, sc, sc2); returns (``sc.rec``, ``sc2.rec``)."""
    stages_ab, stages_ba, share, ws, sc, sc2 = pair
    play_pair(seed, index, stages_ab, stages_ba, share, need, ws, sc, sc2)
    return sc.rec, sc2.rec


@njit_inline
def _count_span(seed, first, count, play, pair, nets, row0, counts):
    """Deal pairs ``first .. first+count-1`` of ``seed`` played by ``play`` (:func:`bundled_pair`
    or ``simple_deal.simple_pair``, given ``pair``): nets into rows ``row0 ..`` of ``nets``,
    counts added to ``counts``."""
    # np.bool_, not literals: the parties pass variables, and a pair of literal Trues compiled
    # ``play_pair`` (the solver plays linked in) once more for a command running both
    both = (np.bool_(True), np.bool_(True))
    for i in range(count):
        rec_ab, rec_ba = play(seed, first + i, both, pair)
        net_ab = np.int64(rec_ab[L.REC_NET])
        net_ba = np.int64(rec_ba[L.REC_NET])
        nets[row0 + i, 0] = net_ab
        nets[row0 + i, 1] = net_ba
        d = net_ab - net_ba
        counts[L.MATCH_PAIRS] += 1
        counts[L.MATCH_SUM_D] += d
        counts[L.MATCH_SUM_D2] += d * d
        counts[L.MATCH_SUM_AE] += net_ab
        counts[L.MATCH_SUM_AE2] += net_ab * net_ab
        counts[L.MATCH_SUM_AY] -= net_ba
        counts[L.MATCH_SUM_AY2] += net_ba * net_ba
        _block(counts, SIDE_A, SEAT_ELDER, rec_ab, L.REC_ELDER, L.REC_YOUNGER)
        _block(counts, SIDE_B, SEAT_YOUNGER, rec_ab, L.REC_YOUNGER, L.REC_ELDER)
        _block(counts, SIDE_B, SEAT_ELDER, rec_ba, L.REC_ELDER, L.REC_YOUNGER)
        _block(counts, SIDE_A, SEAT_YOUNGER, rec_ba, L.REC_YOUNGER, L.REC_ELDER)


@njit
def _mirrored_span(seed, first, count, stages_ab, stages_ba, share, ws, nets, row0, counts):
    pair = (stages_ab, stages_ba, share, ws, new_scratch(), new_scratch())
    _count_span(seed, first, count, bundled_pair, pair, nets, row0, counts)


@njit
def _simple_span(seed, first, count, stages_ab, stages_ba, share, env, nets, row0, counts, general):
    seats = (own_stages(stages_ab), own_stages(stages_ba))
    pair = (seats, share, own_env(env), deal_work(), pair_records(), general)
    _count_span(seed, first, count, simple_pair, pair, nets, row0, counts)


def _pairs_on_threads(span_kernel, seed, start, n, pairing, work, n_spans):
    """Deal pairs start..start+n-1 of ``seed`` cut into ``n_spans`` spans on threads
    (``core.engine.jit_threads``), each played by ``span_kernel`` (:func:`_simple_span`'s
    arguments: ``pairing`` = (stages_ab, stages_ba, share), then ``work(s)``, the span's
    own workspace or the ``Env``). Returns (nets, counts) as :func:`mirrored_deals`."""
    nets = np.zeros((n, 2), dtype=np.int16)
    counts = np.zeros((n_spans, L.MATCH_LEN), dtype=np.int64)
    stages_ab, stages_ba, share = pairing

    def run(s: int) -> None:
        first, count = span_range_py(n, n_spans, s)
        if count > 0:
            span_kernel(
                seed, start + first, count, stages_ab, stages_ba, share, work(), nets, first,
                counts[s],
            )  # fmt: skip

    run_spans(run, n_spans)
    return nets, counts


@driver(_mirrored_span, new_workspace)
def mirrored_deals(seed, start, n, stages_ab, stages_ba, share, env, n_spans, tt_bits):
    """Deals start..start+n-1 of ``seed``, each played with A elder and with B elder.

    Returns (nets int16[n, 2], counts int64[n_spans, MATCH_LEN]); sum ``counts`` over axis 0.
    Parallel over ``n_spans`` spans on threads, each with its own scratch and solver workspace
    of ``2**tt_bits`` entries; every deal has its own stream, so nothing depends on the span or
    thread count.
    """
    pairing = (stages_ab, stages_ba, share)

    def work():
        return new_workspace(env, tt_bits, tt_bits > 1)

    return _pairs_on_threads(_mirrored_span, seed, start, n, pairing, work, n_spans)


@driver(_simple_span)
def simple_mirrored_deals(seed, start, n, stages_ab, stages_ba, share, env, n_spans, tt_bits):
    """:func:`mirrored_deals` (same arguments, same results) when each seat of both seatings
    plays greedy, random or heuristic (``simple_deal.plays_fast``; else ValueError); no solver,
    ``tt_bits`` unused."""
    if not (plays_fast.py_func(stages_ab.ids) and plays_fast.py_func(stages_ba.ids)):
        raise ValueError("simple_mirrored_deals: a play policy is not greedy, random or heuristic")
    pairing = (stages_ab, stages_ba, share)
    # None: the heuristic's general arithmetic is not compiled
    general = general_of(stages_ab, stages_ba)

    def span(*args) -> None:
        _simple_span(*args, general)

    return _pairs_on_threads(span, seed, start, n, pairing, lambda: env, n_spans)
