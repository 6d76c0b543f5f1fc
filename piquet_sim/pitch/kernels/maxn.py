"""Max^n search: every player maximises his own points; the value of a position is a vector
of points per seat (packed, see ``search_node``), points still to be decided from there.

Tie rule (``Ctx.FLAGS``): by default a player indifferent between cards (equal own points)
takes the first in the static move order of :func:`~.search_node.static_key` (a function of
the position only), the textbook rule that allows cutoffs; with ``F_TIE_FULL`` he takes the
outcome he prefers under :func:`~.search_node.pref_key` (his own points, then fewer for the
bidder, then fewer in all, then the smaller vector in seat order), a total order on outcomes
under which few cutoffs are possible. Either way the value does not depend on the order moves
are searched in.

Pruning (all exact; after Sturtevant and Korf's max^n pruning for games with a bounded sum),
with per-seat bounds from :func:`~.search_node.point_bounds` (``ub``: the points a seat may
still take, ``lb``: those he takes whatever anyone plays) and ``live``, the points still to be
decided (an upper bound on the sum of everyone's points: Game may go to nobody):

* early return: when every live point has a sure taker (``ub == lb``) the value is ``lb``;
* immediate: a mover who has ``live`` less everyone else's ``lb``, or his ``ub``, cannot get
  more; the static-order rule skips the moves after his best in the static order (earlier
  ones may still tie, and would win it), the full-order rule stops when everyone else is at
  his ``lb`` too;
* shallow, on entry: the parent's mover gets at most ``min(ub, live - others' lb)`` here;
  when that is below what he already has elsewhere (or equal, and he keeps his best on a
  tie: a later card in the static order; under the full order, he is a defender and the
  bidder surely gets more here than in his best line) the parent will not choose this node,
  which is cut before its moves are generated;
* shallow, after each move: the same with the mover's secured ``x`` in place of his ``lb``;
  a cut node hands up its lower bounds (which the parent's mover likes less than his best);
* trick starts are stored in the table (rest of the round), with their best move (tried
  first next time): an exact vector, or for a node cut after some moves, per-seat bounds
  (what the cut proved: the mover gets at least his secured ``x``, the parent's mover at most
  the bound that cut it) that narrow ``ub``/``lb`` when the node is reached again;
* speculative (Sturtevant), after each move and on entry: when the movers of the two plies
  above (two other players, each with a best so far) cannot together get here what they
  have (the mover holding his secured ``x``), one of them gets strictly less here: the
  parent's mover never takes this node, or his grandparent rejects him if he does. The node
  is cut and the parent ignores it (``XCUT``); when the parent's value found without it would
  be taken by the grandparent after all, the parent searches every move again with no such
  cut (``NOSPEC``), else it hands that value up, stored in the table as a bound only;
* equivalent cards are tried once;
* the last two tricks are valued from the line table (``search_node.stored_two_tricks``):
  every line's outcome kept per hands and leader, read against the game totals.

The loops are compiled without numba's reference counting (``njit_search``): they allocate
nothing, and the counting of the workspace's arrays took most of the time.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit_inline
from ..layouts import Ctx, Frame, SearchStat
from .search_node import (
    F_EQUIV,
    F_ORDER,
    F_PRUNE,
    F_SPEC,
    F_TIE_FULL,
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
    shift,
    static_key,
    table_mode,
    tie_key,
    tighten,
    tricks_left,
    unmake_move,
)
from .search_tt import key_a, key_b, tt_probe, tt_store
from .tricks import mask_game_points

NO_BOUND = -99
VEC_BITS = np.int64(0xFFFFFF)
LB_SHIFT = 24  # table data: upper bound vector, lower bound vector << 24, best move + 1 << 48
MOVE_SHIFT = 48


@njit_inline
def speculative_cut(fr, sp, ub, lb, own, smax):
    """True when the node at ply ``sp`` may be cut speculatively (Sturtevant): its mover has
    ``own`` points for sure, so the movers of the two plies above (distinct, each with a best
    so far) get together at most ``smax`` less ``own`` and the others' least (and at most
    their ``ub``); when that is below the sum of their bests, one of them gets strictly less
    here than he has: the parent's mover never takes this node, or, if he does, the
    grandparent's mover rejects the parent. Exact only when the grandparent rejects the value
    the parent finds without this node (checked there: ``SPEC``)."""
    p = fr[sp, Frame.PQ]
    seat = fr[sp, Frame.SEAT]
    if sp < 2 or fr[sp, Frame.PB] == NO_BOUND or p == seat or fr[sp - 1, Frame.NOSPEC]:
        return False
    b = sp - 1
    p1 = fr[b, Frame.PQ]
    if fr[b, Frame.PB] == NO_BOUND or p1 == seat:
        return False
    if p1 == p:  # the same player twice (a trick won and led): his points count once
        return False
    a1 = fr[b, Frame.PB] - nibble(fr[b, Frame.GAIN], p1)  # in this node's terms
    rest = smax - nibble_sum(lb) + nibble(lb, seat) - own + nibble(lb, p) + nibble(lb, p1)
    both = min(nibble(ub, p) + nibble(ub, p1), rest)
    return both < fr[sp, Frame.PB] + a1


@njit_search
def maxn(work):
    """Value (packed vector) of the position set up in ``work.frames[0]`` and ``work.hands``
    / ``work.game``; ``frames[0, PB]`` should be NO_BOUND. -1 when ``ctx[NODE_LIMIT]`` (> 0)
    nodes were searched before the value was found."""
    fr = work.frames
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    bidder = ctx[Ctx.BIDDER]
    flags = ctx[Ctx.FLAGS]
    gen = ctx[Ctx.GEN]
    tt = work.tt
    stats = work.stats
    full = flags & F_TIE_FULL
    tmode = table_mode(ctx)
    sp = 0
    mode = 0  # 0 enter node sp, 1 next move at sp, 2 return ret to the parent, 3 take ret at sp
    ret = np.int64(0)
    while True:
        if mode == 0:
            out, smax = node_setup(work, sp)
            tt_move = np.int64(-1)
            tub = np.int64(-1)  # a bound entry's vectors, when the table holds one
            tlb = np.int64(0)
            if fr[sp, Frame.K] == 0:
                left = tricks_left(work, sp)
                if left == 0:
                    ret = np.int64(0)
                    mode = 2
                    continue
                if flags & F_TT and fr[sp, Frame.PITCH] == 0:
                    glive = fr[sp, Frame.GLIVE]
                    plain = plain_cards(fr[sp, Frame.TRUMP], fr[sp, Frame.LOW], glive)
                    canon = canonical(work, out, plain) if flags & F_EQUIV else out
                    ka = key_a(canon, fr[sp, Frame.SEAT], fr[sp, Frame.TRUMP], glive, tmode)
                    kb = key_b(work.game, n, mask_game_points(out) if glive else 0, glive, gen)
                    fr[sp, Frame.KEYA] = ka
                    fr[sp, Frame.KEYB] = kb
                    data = tt_probe(tt, ka, kb)
                    if data >= 0:
                        tub = data & VEC_BITS
                        tlb = (data >> LB_SHIFT) & VEC_BITS
                        if tub == tlb:  # an exact vector
                            stats[SearchStat.TT_HITS] += 1
                            ret = tub
                            mode = 2
                            continue
                        tt_move = ((data >> MOVE_SHIFT) & 255) - 1
            lim = ctx[Ctx.NODE_LIMIT]  # read at each node: another thread may set it to stop
            if lim > 0 and stats[SearchStat.NODES] > lim:
                return np.int64(-1)
            if flags & F_PRUNE:
                ub, lb = point_bounds(fr, ctx, work.hands, work.game, sp, out, smax)
                if tub >= 0:  # a bound entry: narrow the bounds
                    ub, lb = tighten(ub, lb, tub, tlb, n, fr[sp, Frame.SEAT])
                fr[sp, Frame.UB] = ub
                fr[sp, Frame.LB] = lb
                if ub == lb:  # every point still live has its taker
                    ret = lb
                    mode = 2
                    continue
                pb = fr[sp, Frame.PB]
                if pb != NO_BOUND:
                    p = fr[sp, Frame.PQ]
                    lbs = nibble_sum(lb)
                    bound = min(nibble(ub, p), smax - lbs + nibble(lb, p))
                    if full:
                        tie_cut = p != bidder and nibble(lb, bidder) > fr[sp, Frame.PBB]
                    else:
                        tie_cut = fr[sp, Frame.PTIE] == 1
                    if bound < pb or (bound == pb and tie_cut):
                        stats[SearchStat.CUTS] += 1
                        ret = lb  # the parent's mover gets less here than he has already
                        mode = 2
                        continue
                    if flags & F_SPEC and speculative_cut(
                        fr, sp, ub, lb, nibble(lb, fr[sp, Frame.SEAT]), smax
                    ):
                        stats[SearchStat.CUTS] += 1
                        fr[sp, Frame.XCUT] = 1
                        fr[sp - 1, Frame.SPEC] = 1
                        ret = lb
                        mode = 2
                        continue
            fr[sp, Frame.NMOVES] = generate(work, sp, tt_move if flags & F_ORDER else -1)
            fr[sp, Frame.I] = 0
            fr[sp, Frame.VAL] = -1
            fr[sp, Frame.VKEY] = -1
            fr[sp, Frame.BMOVE] = -1
            fr[sp, Frame.CUT] = 0
            fr[sp, Frame.KMAX] = 255
            fr[sp, Frame.SPEC] = 0
            fr[sp, Frame.NOSPEC] = 0
            mode = 1
        elif mode == 1:
            i = fr[sp, Frame.I]
            if i >= fr[sp, Frame.NMOVES]:
                if fr[sp, Frame.SPEC] and fr[sp, Frame.CUT] == 0:
                    # a child was cut speculatively: its value was not taken, which is exact
                    # only when the parent rejects the value found without it
                    a = sp - 1
                    v = fr[sp, Frame.VAL] + fr[a, Frame.GAIN]
                    askey = np.int64(0)
                    if not full:
                        askey = static_key(
                            fr[a, Frame.CUR],
                            fr[a, Frame.FIRST],
                            fr[a, Frame.BEST],
                            fr[a, Frame.TRUMP],
                        )
                    if tie_key(v, fr[a, Frame.SEAT], bidder, full, askey) > fr[a, Frame.VKEY]:
                        stats[SearchStat.RESEARCHES] += 1
                        fr[sp, Frame.NOSPEC] = 1  # search every move again, no such cut
                        fr[sp, Frame.SPEC] = 0
                        fr[sp, Frame.I] = 0
                        fr[sp, Frame.VAL] = -1
                        fr[sp, Frame.VKEY] = -1
                        fr[sp, Frame.BMOVE] = -1
                        fr[sp, Frame.KMAX] = 255
                        continue
                    # the parent rejects it: keep for the table only what holds (the mover
                    # gets at least his best so far)
                    fr[sp, Frame.CUT] = 1
                    seat = fr[sp, Frame.SEAT]
                    own = nibble(fr[sp, Frame.VAL], seat)
                    lb = fr[sp, Frame.LB]
                    if own > nibble(lb, seat):
                        fr[sp, Frame.LB] = lb + ((own - nibble(lb, seat)) << shift(seat))
                ret = fr[sp, Frame.VAL]
                if flags & F_TT and fr[sp, Frame.K] == 0 and fr[sp, Frame.PITCH] == 0:
                    stats[SearchStat.TT_STORES] += 1
                    hi = ret
                    lo = ret
                    if fr[sp, Frame.CUT]:  # bounds only (see the cut below)
                        hi = fr[sp, Frame.UB]
                        lo = fr[sp, Frame.LB]
                    tt_store(
                        tt,
                        fr[sp, Frame.KEYA],
                        fr[sp, Frame.KEYB],
                        hi | (lo << LB_SHIFT) | ((fr[sp, Frame.BMOVE] + 1) << MOVE_SHIFT),
                        tricks_left(work, sp),
                    )
                mode = 2
                continue
            fr[sp, Frame.I] = i + 1
            c = work.moves[sp, i]
            skey = np.int64(0)
            if not full:
                skey = static_key(c, fr[sp, Frame.FIRST], fr[sp, Frame.BEST], fr[sp, Frame.TRUMP])
                if skey > fr[sp, Frame.KMAX]:
                    continue  # immediate pruning: it cannot beat the best so far
            gain = make_move(work, sp, c, False)
            fr[sp, Frame.GAIN] = gain
            seat = fr[sp, Frame.SEAT]
            c1 = sp + 1
            fr[c1, Frame.PB] = NO_BOUND
            fr[c1, Frame.XCUT] = 0
            if flags & F_PRUNE and fr[sp, Frame.VAL] >= 0:
                fr[c1, Frame.PQ] = seat
                fr[c1, Frame.PB] = nibble(fr[sp, Frame.VAL], seat) - nibble(gain, seat)
                fr[c1, Frame.PBB] = nibble(fr[sp, Frame.VAL], bidder) - nibble(gain, bidder)
                # static order: on a tie he keeps his best so far unless this card is earlier
                fr[c1, Frame.PTIE] = 1 if skey > 255 - (fr[sp, Frame.VKEY] & 255) else 0
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
            if fr[sp + 1, Frame.XCUT]:
                mode = 1  # cut speculatively: not a value to take (see SPEC at the end)
                continue
            v = ret + fr[sp, Frame.GAIN]
            seat = fr[sp, Frame.SEAT]
            skey = np.int64(0)
            if not full:
                skey = static_key(
                    fr[sp, Frame.CUR], fr[sp, Frame.FIRST], fr[sp, Frame.BEST], fr[sp, Frame.TRUMP]
                )
            key = tie_key(v, seat, bidder, full, skey)
            if key > fr[sp, Frame.VKEY]:
                fr[sp, Frame.VKEY] = key
                fr[sp, Frame.VAL] = v
                fr[sp, Frame.BMOVE] = fr[sp, Frame.CUR]
            if flags & F_PRUNE:
                # the node's value (its moves' gains included) sums to at most SMAX, and each
                # seat's share lies within its bounds
                val = fr[sp, Frame.VAL]
                own = nibble(val, seat)
                smax = fr[sp, Frame.SMAX]
                lb = fr[sp, Frame.LB]
                rest = smax - nibble_sum(lb) + nibble(lb, seat)  # most left for the mover
                pb = fr[sp, Frame.PB]
                p = fr[sp, Frame.PQ]
                ub = fr[sp, Frame.UB]
                cut = False
                bound = np.int64(0)
                if pb != NO_BOUND and p != seat:
                    bound = min(nibble(ub, p), rest - own + nibble(lb, p))
                    if full:
                        least_b = own if seat == bidder else nibble(lb, bidder)
                        tie_cut = p != bidder and least_b > fr[sp, Frame.PBB]
                    else:
                        tie_cut = fr[sp, Frame.PTIE] == 1
                    cut = bound < pb or (bound == pb and tie_cut)
                if full and (
                    own >= rest
                    or (
                        own == nibble(ub, seat)
                        and val - (own << shift(seat)) == lb - (nibble(lb, seat) << shift(seat))
                    )
                ):
                    # immediate: no better outcome (his most, everyone else his least)
                    fr[sp, Frame.I] = fr[sp, Frame.NMOVES]
                elif cut:
                    stats[SearchStat.CUTS] += 1
                    fr[sp, Frame.CUT] = 1
                    fr[sp, Frame.I] = fr[sp, Frame.NMOVES]
                    # what the cut proves of the node's value, kept for the table: the
                    # mover gets at least ``own``, the parent's mover at most ``bound``
                    fr[sp, Frame.UB] = ub - ((nibble(ub, p) - bound) << shift(p))
                    if own > nibble(lb, seat):
                        lb += (own - nibble(lb, seat)) << shift(seat)
                        fr[sp, Frame.LB] = lb
                    # the value handed up: the lower bounds, which the parent's mover
                    # likes less than his best (a table bound may be below what an
                    # outcome already seen here gives him, so not the best so far)
                    fr[sp, Frame.VAL] = lb
                elif flags & F_SPEC and speculative_cut(fr, sp, ub, lb, own, smax):
                    stats[SearchStat.CUTS] += 1
                    fr[sp, Frame.XCUT] = 1
                    fr[sp - 1, Frame.SPEC] = 1
                    fr[sp, Frame.CUT] = 1
                    fr[sp, Frame.I] = fr[sp, Frame.NMOVES]
                    if own > nibble(lb, seat):
                        fr[sp, Frame.LB] = lb + ((own - nibble(lb, seat)) << shift(seat))
                elif not full and (own >= rest or own == nibble(ub, seat)):
                    # immediate: he cannot get more; only a card earlier in the static
                    # order than his best may still tie and win
                    fr[sp, Frame.KMAX] = 255 - (fr[sp, Frame.VKEY] & 255)
            mode = 1
