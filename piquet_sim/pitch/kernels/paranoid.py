"""Paranoid search: every other player plays against the bidder. The value of a position is
the bidder's points still to be decided; he maximises it, everyone else minimises it.

Fail-soft alpha-beta over an explicit stack, driven by MTD(f) (null-window searches; values
are 0..6, so a few passes). Trick starts are stored in the table as bounds with their best
move (tried first next time); equivalent cards are tried once; a node whose bounds on the
bidder's points (:func:`~.search_node.point_bounds`: at most what he may still take and what
the others do not surely take, at least what he surely takes) miss the window is cut before
its moves are generated.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit_inline
from ..layouts import Ctx, Frame, SearchStat
from .search_node import (
    F_EQUIV,
    F_ORDER,
    F_PRUNE,
    F_TT,
    canonical,
    generate,
    make_move,
    nibble,
    nibble_sum,
    njit_search,
    node_setup,
    plain_cards,
    point_bounds,
    tricks_left,
    unmake_move,
)
from .search_tt import key_a, key_b, tt_probe, tt_store
from .tricks import mask_game_points

INF = 64
UNBOUNDED = 15  # upper bound stored when only a lower bound is known


@njit_search
def paranoid(work, alpha, beta):
    """The bidder's points still to be decided from the position in ``work.frames[0]``, fail
    soft in (alpha, beta); -INF when ``ctx[NODE_LIMIT]`` (> 0) nodes were searched first."""
    fr = work.frames
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    bidder = ctx[Ctx.BIDDER]
    flags = ctx[Ctx.FLAGS]
    ab = flags & F_PRUNE
    gen = ctx[Ctx.GEN]
    tt = work.tt
    stats = work.stats
    fr[0, Frame.ALPHA] = alpha
    fr[0, Frame.BETA] = beta
    sp = 0
    mode = 0
    ret = np.int64(0)
    while True:
        if mode == 0:
            out, smax = node_setup(work, sp)
            lim = ctx[Ctx.NODE_LIMIT]  # read at each node: another thread may set it to stop
            if lim > 0 and stats[SearchStat.NODES] > lim:
                return np.int64(-INF)
            a = fr[sp, Frame.ALPHA] if ab else -INF
            b = fr[sp, Frame.BETA] if ab else INF
            tt_move = np.int64(-1)
            if fr[sp, Frame.K] == 0:
                if tricks_left(work, sp) == 0:
                    ret = np.int64(0)
                    mode = 2
                    continue
                if flags & F_TT and fr[sp, Frame.PITCH] == 0:
                    glive = fr[sp, Frame.GLIVE]
                    plain = plain_cards(fr[sp, Frame.TRUMP], fr[sp, Frame.LOW], glive)
                    canon = canonical(work, out, plain) if flags & F_EQUIV else out
                    ka = key_a(canon, fr[sp, Frame.SEAT], fr[sp, Frame.TRUMP], glive, 1)
                    kb = key_b(work.game, n, mask_game_points(out) if glive else 0, glive, gen)
                    fr[sp, Frame.KEYA] = ka
                    fr[sp, Frame.KEYB] = kb
                    data = tt_probe(tt, ka, kb)
                    if data >= 0:
                        lo = data & 15
                        hi = (data >> 4) & 15
                        tt_move = (data >> 8) - 1
                        if lo == hi or (ab and lo >= b):
                            stats[SearchStat.TT_HITS] += 1
                            ret = lo
                            mode = 2
                            continue
                        if ab and hi <= a:
                            stats[SearchStat.TT_HITS] += 1
                            ret = hi
                            mode = 2
                            continue
                        if ab:
                            a = max(a, lo)
                            b = min(b, hi)
            if ab:  # the bidder's rest lies in lo .. hi
                ub, lb = point_bounds(fr, ctx, work.hands, work.game, sp, out, smax)
                lo = nibble(lb, bidder)
                hi = min(nibble(ub, bidder), smax - nibble_sum(lb) + lo)
                if hi <= a or lo == hi:
                    stats[SearchStat.CUTS] += 1
                    ret = hi
                    mode = 2
                    continue
                if lo >= b:
                    stats[SearchStat.CUTS] += 1
                    ret = lo
                    mode = 2
                    continue
            fr[sp, Frame.NMOVES] = generate(work, sp, tt_move if flags & F_ORDER else -1)
            fr[sp, Frame.I] = 0
            fr[sp, Frame.ALPHA] = a
            fr[sp, Frame.BETA] = b
            fr[sp, Frame.A0] = a
            fr[sp, Frame.B0] = b
            fr[sp, Frame.VAL] = -INF if fr[sp, Frame.SEAT] == bidder else INF
            fr[sp, Frame.BMOVE] = -1
            mode = 1
        elif mode == 1:
            i = fr[sp, Frame.I]
            if i >= fr[sp, Frame.NMOVES]:
                best = fr[sp, Frame.VAL]
                if flags & F_TT and fr[sp, Frame.K] == 0 and fr[sp, Frame.PITCH] == 0:
                    lo = np.int64(0)
                    hi = np.int64(UNBOUNDED)
                    if best <= fr[sp, Frame.A0]:
                        hi = best
                    elif best >= fr[sp, Frame.B0]:
                        lo = best
                    else:
                        lo = best
                        hi = best
                    ka = fr[sp, Frame.KEYA]
                    kb = fr[sp, Frame.KEYB]
                    old = tt_probe(tt, ka, kb)
                    if old >= 0:
                        lo = max(lo, old & 15)
                        hi = min(hi, (old >> 4) & 15)
                    stats[SearchStat.TT_STORES] += 1
                    data = lo | (hi << 4) | ((fr[sp, Frame.BMOVE] + 1) << 8)
                    tt_store(tt, ka, kb, data, tricks_left(work, sp))
                ret = best
                mode = 2
                continue
            fr[sp, Frame.I] = i + 1
            c = work.moves[sp, i]
            g = nibble(make_move(work, sp, c, True), bidder)
            fr[sp, Frame.GAIN] = g
            c1 = sp + 1
            fr[c1, Frame.ALPHA] = fr[sp, Frame.ALPHA] - g
            fr[c1, Frame.BETA] = fr[sp, Frame.BETA] - g
            if fr[sp, Frame.CLOSED]:
                ret = np.int64(0)
                mode = 3
                continue
            sp = c1
            mode = 0
        elif mode == 2:
            if sp == 0:
                return ret
            sp -= 1
            mode = 3
        else:
            unmake_move(work, sp)
            v = ret + fr[sp, Frame.GAIN]
            if fr[sp, Frame.SEAT] == bidder:
                if v > fr[sp, Frame.VAL]:
                    fr[sp, Frame.VAL] = v
                    fr[sp, Frame.BMOVE] = fr[sp, Frame.CUR]
                    if v > fr[sp, Frame.ALPHA]:
                        fr[sp, Frame.ALPHA] = v
                    if ab and v >= fr[sp, Frame.BETA]:
                        fr[sp, Frame.I] = fr[sp, Frame.NMOVES]
            else:
                if v < fr[sp, Frame.VAL]:
                    fr[sp, Frame.VAL] = v
                    fr[sp, Frame.BMOVE] = fr[sp, Frame.CUR]
                    if v < fr[sp, Frame.BETA]:
                        fr[sp, Frame.BETA] = v
                    if ab and v <= fr[sp, Frame.ALPHA]:
                        fr[sp, Frame.I] = fr[sp, Frame.NMOVES]
            mode = 1


@njit_inline
def mtdf(work, guess):
    """Exact paranoid value of the position in ``work.frames[0]`` by null-window searches from
    ``guess`` (one full-window search when pruning is off); -1 when stopped at the node
    limit. The search leaves the root state in ``frames[0]`` unchanged, so every pass reuses
    it. Inlined into its one caller: as a kernel of its own, LLVM optimized and compiled the
    whole search linked into it once more (about 1 s of a cold run)."""
    if not work.ctx[Ctx.FLAGS] & F_PRUNE:
        g = paranoid(work, np.int64(-INF), np.int64(INF))  # int64: one compiled signature
        return np.int64(-1) if g == -INF else g
    lo = np.int64(0)
    hi = np.int64(INF)
    g = np.int64(guess)
    while lo < hi:
        b = g + 1 if g == lo else g
        g = paranoid(work, b - 1, b)
        if g == -INF:
            return np.int64(-1)  # stopped at the node limit
        if g < b:
            hi = g
        else:
            lo = g
    return g
