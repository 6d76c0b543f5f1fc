"""Sinking kernels: one player's declaration choices evaluated on common sampled worlds.

The advising player P holds a dealt hand; a world (``advisor.build_worlds``: the opponent's
dealt hand, the talon, elder's forced discard when P is younger, the stream position after the
world) is completed by the exchanges (P's discard given, the opponent's by an exchange policy),
then for each declaration *choice* P declares from the masks of :func:`choice_masks` (the
opponent declares everything), each side learns what the declarations show
(``simulate.knowledge_stage``) and the deal is played out by ``simulate.play_and_record`` (the
stages every simulated deal goes through). Every choice restarts from the same stream position,
so choices meet the same worlds and the same random draws (common random numbers).

Without a discard (``disc < 0``) the hand is taken as held at the declarations and nobody
exchanges: the opponent holds 12 of the 20 other cards.

Output row per (world, choice), P's points minus the opponent's: ``SINK_*`` fields."""

from __future__ import annotations

import numpy as np

from ...core.engine.arrays import copy_into
from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, run_spans, span_range
from ...core.engine.rng import stream_key
from ..policies import PLAY_DD
from . import layouts as L
from .bundles import Stages
from .declarations import (
    carte_blanche,
    point_key,
    score_declarations,
    sequence_cards,
    sequence_key,
    set_cards,
    set_ranks,
)
from .play import PIMC_DD_PLAYS, new_scratch, pimc_dd_play_deal, play_deal, plays_within
from .screen import screen_exchange
from .simulate import knowledge_stage, play_and_record_with, talon_seen
from .solver import new_workspace

CH_ALL = 0
CH_SINK_POINT = 1
CH_SINK_SEQUENCES = 2
CH_SINK_SETS = 3
CH_LESSER_POINT = 4  # the point less its lowest card
CH_LESSER_SEQUENCE = 5  # the best sequence less its lowest card (a quart out of a quint)
CH_LESSER_SET = 6  # the best set less one card (a trio out of a quatorze)
CH_SINK_ALL = 7
N_CHOICES = 8


FULL = np.int64(0xFFFFFFFF)
#: Both seats double-dummy (the comparison without information effects).
DD_STAGES = Stages(
    np.full(L.STAGE_LEN, PLAY_DD, dtype=np.int32), np.zeros((L.STAGE_LEN, L.STAGE_PARAMS))
)


@njit
def choice_masks(choice, hand, tables):
    """(point, sequence, sets) masks of a choice for ``hand`` (see CH_*)."""
    pm = FULL
    sm = FULL
    tm = FULL
    if choice == CH_SINK_POINT or choice == CH_SINK_ALL:  # noqa: SIM109 (numba)
        pm = np.int64(0)
    if choice == CH_SINK_SEQUENCES or choice == CH_SINK_ALL:  # noqa: SIM109 (numba)
        sm = np.int64(0)
    if choice == CH_SINK_SETS or choice == CH_SINK_ALL:  # noqa: SIM109 (numba)
        tm = np.int64(0)
    if choice == CH_LESSER_POINT:
        k = point_key(hand, tables)
        for s in range(4):
            h = (hand >> (8 * s)) & 0xFF
            if k > 0 and point_key(h << (8 * s), tables) == k:
                low = h & -h
                pm = FULL & ~(low << (8 * s))
                break
    if choice == CH_LESSER_SEQUENCE:
        k = sequence_key(hand, tables)
        if k > 0:
            length = k >> 3
            top = k & 7
            for s in range(4):
                run = ((np.int64(1) << length) - 1) << (top - length + 1)
                if ((hand >> (8 * s)) & run) == run:
                    sm = FULL & ~(np.int64(1) << (8 * s + top - length + 1))
                    break
    if choice == CH_LESSER_SET:
        four, trio = set_ranks(hand)
        ranks = four if four else trio
        if ranks:
            r = 7
            while not (ranks >> r) & 1:
                r -= 1
            for s in range(4):
                if (hand >> (8 * s + r)) & 1:
                    tm = FULL & ~(np.int64(1) << (8 * s + r))
                    break
    return pm, sm, tm


@njit
def sink_exchange(player, world, key, state, stages, env):
    """The exchanges of one world: (the exchange as ``simulate.exchange_stage`` returns it, the
    talon cards each seat saw as ``simulate.talon_seen``). ``player`` = (dealt hand, role 0
    elder / 1 younger, discard or -1); ``world`` = (opponent's dealt hand, talon, elder's forced
    discard). Without a discard nobody exchanges and nobody saw the talon."""
    hand, role, disc = player
    opp, talon, e_disc = world
    elder, younger = (hand, opp) if role == 0 else (opp, hand)
    if disc < 0:
        none = np.int64(0)
        return (elder, younger, none, none, none, none), (none, none, none)
    forced = (disc, np.int64(-1)) if role == 0 else (e_disc, disc)
    # the screen's exchange kernel (``simulate.exchange_stage`` compiled on its own), not the
    # inlined stage: a review, which screens discards too, then compiles the stage once
    ex = screen_exchange(elder, younger, talon, key, state, stages, env, forced)
    return ex, talon_seen(talon, ex[2], ex[3])


@njit
def _declare_choice(choice, exchange, role, cb, env, sc):
    """Scores the declarations with P declaring ``choice`` and the opponent everything, into
    ``sc.decl``; each seat's masks into ``sc.masks``. Returns 1 when the choice declares
    something different from "declare all"."""
    p_hand = exchange[role]
    pm, sm, tm = choice_masks(choice, p_hand, env.suit)
    a_pm, a_sm, a_tm = choice_masks(np.int64(CH_ALL), p_hand, env.suit)
    tables = env.suit
    changed = (
        point_key(p_hand & pm, tables) != point_key(p_hand & a_pm, tables)
        or sequence_cards(p_hand & sm, tables) != sequence_cards(p_hand & a_sm, tables)
        or set_cards(p_hand & tm) != set_cards(p_hand & a_tm)
    )
    full = (FULL, FULL, FULL)
    e_masks, y_masks = ((pm, sm, tm), full) if role == 0 else (full, (pm, sm, tm))
    for k in range(3):
        sc.masks[0, k] = e_masks[k]
        sc.masks[1, k] = y_masks[k]
    score_declarations(exchange[0], exchange[1], cb, e_masks, y_masks, env, sc.decl)
    return 1 if changed else 0


@njit
def _play_points(play, sign):
    """(play points and cards, pique) of the play record, P's minus the opponent's."""
    pts = (play[L.PO_E_PLAY] + play[L.PO_E_CARDS]) - (play[L.PO_Y_PLAY] + play[L.PO_Y_CARDS])
    return sign * pts, sign * (play[L.PO_E_PIQUE] - play[L.PO_Y_PIQUE])


@njit
def evaluate_world(player, world, key, s0, choices, stages, ws, sc, out, every_play):
    """Rows ``out[j]`` (int32[SINK_LEN]) for every choice ``choices[j]`` on one world, P's
    points minus the opponent's. ``stages``: the exchange and play policies (P's and the
    opponent's seats); the DD comparison plays both seats double-dummy on the same deal.

    ``every_play`` None when both seats play one of ``play.PIMC_DD_PLAYS`` (the default pimc,
    dd, greedy): numba prunes the branch on an argument typed None before typing, so the kernel
    compiles ``play.pimc_dd_play_deal``, without pimcw and the heuristic it never plays; True
    (``play.play_deal``) otherwise."""
    play = pimc_dd_play_deal if every_play is None else play_deal
    hand, role, _ = player
    env = ws.env
    sc.state[0] = s0
    ex, seen = sink_exchange(player, world, key, sc.state, stages, env)
    s1 = sc.state[0]
    dealt = (hand, world[0]) if role == 0 else (world[0], hand)
    cb = (carte_blanche(dealt[0]), carte_blanche(dealt[1]))
    sign = 1 if role == 0 else -1
    took = (ex[2], ex[3])
    for j in range(choices.shape[0]):
        row = out[j]
        row[L.SINK_CHANGED] = _declare_choice(choices[j], ex, role, cb, env, sc)
        knowledge_stage(ex, seen, sc.masks, env, sc)
        decl = sc.decl
        e_pre = 0
        y_pre = 0
        for f in range(L.DP_REPIQUE):
            e_pre += decl[L.DECL_ELDER + f]
            y_pre += decl[L.DECL_YOUNGER + f]
        row[L.SINK_DECL] = sign * (e_pre - y_pre)
        row[L.SINK_REPIQUE] = sign * (
            decl[L.DECL_ELDER + L.DP_REPIQUE] - decl[L.DECL_YOUNGER + L.DP_REPIQUE]
        )
        sc.state[0] = s1
        play_and_record_with(ex[0], ex[1], took, stages, key, ws, sc, play)
        row[L.SINK_PLAY], row[L.SINK_PIQUE] = _play_points(sc.play, sign)
        row[L.SINK_TOTAL] = row[L.SINK_DECL] + row[L.SINK_REPIQUE] + row[L.SINK_PLAY]
        row[L.SINK_TOTAL] += row[L.SINK_PIQUE]
        sc.state[0] = s1
        play_and_record_with(ex[0], ex[1], took, DD_STAGES, key, ws, sc, play)
        row[L.SINK_DD_PLAY], row[L.SINK_DD_PIQUE] = _play_points(sc.play, sign)


@njit
def _sink_span(player, worlds, origin, choices, stages, ws, span, out, stats, every_play):
    seed, start = origin
    sc = new_scratch()
    for i in range(span[0], span[1]):
        if not worlds.valid[i]:
            continue
        world = (worlds.opp[i], worlds.talons[i], worlds.e_disc[i])
        key = stream_key(seed, start + i)
        s0 = worlds.s0[i]
        evaluate_world(player, world, key, s0, choices, stages, ws, sc, out[i], every_play)
    copy_into(stats, sc.pimc)  # not stats[:] = ...: see core.engine.arrays


@driver(_sink_span, new_workspace)
def evaluate_worlds(player, worlds, seed, start, choices, stages, env, n_spans, tt_bits):
    """Rows int32[n, len(choices), SINK_LEN] of the worlds of ``advisor.build_worlds`` (world i
    is world ``start + i`` of ``seed``; rows of invalid worlds stay 0), in ``n_spans`` spans on
    threads (``core.engine.jit_threads``), each with its own solver workspace; pimc sampler
    counts int64[n_spans, PIMC_LEN]. Rows do not depend on the span count."""
    n = worlds.opp.shape[0]
    out = np.zeros((n, choices.shape[0], L.SINK_LEN), dtype=np.int32)
    stats = np.zeros((n_spans, L.PIMC_LEN), dtype=np.int64)
    origin = (seed, start)
    every_play = None if plays_within(stages, PIMC_DD_PLAYS) else True

    def run(s: int) -> None:
        ws = new_workspace(env, tt_bits, True)
        first, count = span_range(n, n_spans, s)
        span = (first, first + count)
        _sink_span(player, worlds, origin, choices, stages, ws, span, out, stats[s], every_play)

    run_spans(run, n_spans)
    return out, stats
