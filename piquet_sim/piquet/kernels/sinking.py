"""Sinking kernels: one player's declaration choices evaluated on common sampled worlds.

The advising player P holds a dealt hand; a world (``advisor.build_worlds``: the opponent's dealt
hand, the talon, elder's forced discard when P is younger, the stream position after the world)
is completed by the exchanges (P's discard given, the opponent's by an exchange policy), then for
each declaration *choice* P declares from the masks of :func:`choice_masks` (the opponent
declares everything), each side learns what the declarations show (``knowledge.deal_knowledge``)
and the deal is played out by ``pimc.play_deal_info``. Every choice restarts from the same stream
position, so choices meet the same worlds and the same random draws (common random numbers).

Without a discard (``disc < 0``) the hand is taken as held at the declarations and nobody
exchanges: the opponent holds 12 of the 20 other cards.

Output row per (world, choice), P's points minus the opponent's: ``O_*`` fields.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import stream_key
from . import layouts as L
from .declarations import (
    carte_blanche,
    point_key,
    sequence_cards,
    sequence_key,
    set_cards,
    set_ranks,
)
from .declarations import score_declarations as _score
from .exchange import younger_exchange
from .knowledge import deal_knowledge
from .pimc import play_deal_info
from .play import PLAY_DD
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
def _untaken_split(talon, first, last, took):
    """(taken, left) masks of talon[first:last] when the next player took ``took`` from it."""
    taken = np.int64(0)
    left = np.int64(0)
    for i in range(first, last):
        if i - first < took:
            taken |= np.int64(1) << talon[i]
        else:
            left |= np.int64(1) << talon[i]
    return taken, left


@njit
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit
def evaluate_world(
    hand, role, disc, opp_dealt, talon, e_disc, s0, key, choices, p_policy, o_policy,
    y_exch_policy, y_exch_params, n_worlds, max_attempts, tables, rules, out, stats, ws,
):  # fmt: skip
    """Rows ``out[j]`` (int32[SINK_LEN]) for every choice ``choices[j]`` on one world."""
    state = np.zeros(1, dtype=np.int64)
    state[0] = s0
    p_cb = carte_blanche(hand)
    o_cb = carte_blanche(opp_dealt)
    p_extra_in = np.int64(0)
    p_extra_out = np.int64(0)
    o_extra_in = np.int64(0)
    o_extra_out = np.int64(0)
    p_discard = np.int64(0)
    o_discard = np.int64(0)
    if disc < 0:
        p_hand = hand
        o_hand = opp_dealt
    elif role == 0:
        k = _popcount(disc)
        p_discard = disc
        p_hand = hand & ~disc
        for i in range(k):
            p_hand |= np.int64(1) << talon[i]
        o_hand, o_discard, y_took = younger_exchange(
            opp_dealt, talon, k, y_exch_policy, y_exch_params, key, state, tables, rules
        )
        # elder saw the cards he left: which of them younger took, which stayed
        p_extra_in, p_extra_out = _untaken_split(talon, k, 5, y_took)
        # younger is shown the cards nobody took after elder's first lead
        _, o_extra_out = _untaken_split(talon, k + y_took, 8, 0)
    else:
        kk = _popcount(e_disc)
        o_discard = e_disc
        o_hand = opp_dealt & ~e_disc
        for i in range(kk):
            o_hand |= np.int64(1) << talon[i]
        m = _popcount(disc)
        p_discard = disc
        p_hand = hand & ~disc
        for i in range(m):
            p_hand |= np.int64(1) << talon[kk + i]
        if kk < 5:
            o_extra_in, o_extra_out = _untaken_split(talon, kk, 5, m)
        _, p_extra_out = _untaken_split(talon, kk + m, 8, 0)
    s1 = state[0]
    decl = np.zeros(L.DECL_LEN, dtype=np.int32)
    play = np.zeros(L.PO_LEN, dtype=np.int32)
    line = np.zeros(24, dtype=np.int8)
    pmask = np.empty(3, dtype=np.int64)
    omask = np.empty(3, dtype=np.int64)
    omask[0] = FULL
    omask[1] = FULL
    omask[2] = FULL
    a_pm, a_sm, a_tm = choice_masks(CH_ALL, p_hand, tables)
    for j in range(choices.shape[0]):
        pm, sm, tm = choice_masks(choices[j], p_hand, tables)
        pmask[0] = pm
        pmask[1] = sm
        pmask[2] = tm
        changed = (
            point_key(p_hand & pm, tables) != point_key(p_hand & a_pm, tables)
            or sequence_cards(p_hand & sm, tables) != sequence_cards(p_hand & a_sm, tables)
            or set_cards(p_hand & tm) != set_cards(p_hand & a_tm)
        )
        know_p = deal_knowledge(
            p_hand, p_discard, pmask, o_hand, omask, p_extra_in, p_extra_out, tables
        )
        know_o = deal_knowledge(
            o_hand, o_discard, omask, p_hand, pmask, o_extra_in, o_extra_out, tables
        )
        if role == 0:
            E = p_hand
            Y = o_hand
            _score(E, Y, p_cb, o_cb, pm, sm, tm, FULL, FULL, FULL, tables, rules, decl)
            know_e = know_p
            know_y = know_o
            e_pol = p_policy
            y_pol = o_policy
        else:
            E = o_hand
            Y = p_hand
            _score(E, Y, o_cb, p_cb, FULL, FULL, FULL, pm, sm, tm, tables, rules, decl)
            know_e = know_o
            know_y = know_p
            e_pol = o_policy
            y_pol = p_policy
        e_pre = 0
        y_pre = 0
        for f in range(L.DP_REPIQUE):
            e_pre += decl[L.DECL_ELDER + f]
            y_pre += decl[L.DECL_YOUNGER + f]
        rep = decl[L.DECL_ELDER + L.DP_REPIQUE] - decl[L.DECL_YOUNGER + L.DP_REPIQUE]
        repique_done = (
            1
            if (decl[L.DECL_ELDER + L.DP_REPIQUE] > 0 or decl[L.DECL_YOUNGER + L.DP_REPIQUE] > 0)
            else 0
        )
        sign = 1 if role == 0 else -1
        state[0] = s1
        play_deal_info(
            E, Y, e_pol, y_pol, rules, e_pre, y_pre, repique_done, key, state, play, ws,
            know_e, know_y, n_worlds, max_attempts, tables, stats, line,
        )  # fmt: skip
        row = out[j]
        row[L.SINK_DECL] = sign * (e_pre - y_pre)
        row[L.SINK_REPIQUE] = sign * rep
        row[L.SINK_PLAY] = sign * ((play[0] + play[4]) - (play[1] + play[5]))
        row[L.SINK_PIQUE] = sign * (play[6] - play[7])
        row[L.SINK_TOTAL] = (
            row[L.SINK_DECL] + row[L.SINK_REPIQUE] + row[L.SINK_PLAY] + row[L.SINK_PIQUE]
        )
        state[0] = s1
        play_deal_info(
            E, Y, PLAY_DD, PLAY_DD, rules, e_pre, y_pre, repique_done, key, state, play, ws,
            know_e, know_y, n_worlds, max_attempts, tables, stats, line,
        )  # fmt: skip
        row[L.SINK_DD_PLAY] = sign * ((play[0] + play[4]) - (play[1] + play[5]))
        row[L.SINK_DD_PIQUE] = sign * (play[6] - play[7])
        row[L.SINK_CHANGED] = 1 if changed else 0


@njit_parallel
def evaluate_worlds(
    hand, role, disc, opps, talons, e_discs, s0s, seed, start, choices, p_policy, o_policy,
    y_exch_policy, y_exch_params, n_worlds, max_attempts, tables, rules, n_spans, tt_bits,
    keytab, reptab, qttab, low8, pop8,
):  # fmt: skip
    """Rows int32[n, len(choices), L.SINK_LEN] of worlds ``start + i`` (``opps``/``talons``/...
    from ``advisor.build_worlds``), in ``n_spans`` parallel spans each with its own solver
    workspace; stats int64[n_spans, L.PIMC_LEN]. Rows do not depend on the span count."""
    n = opps.shape[0]
    out = np.zeros((n, choices.shape[0], L.SINK_LEN), dtype=np.int32)
    stats = np.zeros((n_spans, L.PIMC_LEN), dtype=np.int64)
    per = (n + n_spans - 1) // n_spans
    for s in prange(n_spans):
        ws = new_workspace((keytab, reptab, qttab, low8, pop8), tt_bits, True)
        for i in range(s * per, min(n, (s + 1) * per)):
            evaluate_world(
                hand, role, disc, opps[i], talons[i], e_discs[i], s0s[i],
                stream_key(seed, start + i), choices, p_policy, o_policy, y_exch_policy,
                y_exch_params, n_worlds, max_attempts, tables, rules, out[i], stats[s], ws,
            )  # fmt: skip
    return out, stats
