"""The solver's endgames and bounds: positions it values without the frame stack.

* :func:`last_trick`: one card each;
* :func:`two_tricks`, :func:`three_tricks`: the whole tree of the last two or three tricks in
  nested loops (fail-soft alpha-beta in a fixed window), far cheaper than frames there; the
  two-trick endings inside three tricks through the table's two-trick column;
* :func:`four_tricks`: the first trick of the last four in nested loops, its cards ordered as
  the frame search orders them, each three-trick position it leaves through the table, the
  bounds and :func:`three_tricks` (:func:`three_start`), as the frame search would;
* :func:`bounds`: lower and upper bounds of a trick start from the trumps' top run and the
  leader's cashable cards (with the cheapest cards the other hands must play to those tricks).

Values are the contracting team's points of the rest of the round (``solver`` module docstring).
The kernels here allocate nothing and are compiled without reference counting
(``njit_no_refcount``).
``st`` is the position array (:class:`layouts.SolverPos`: contracting team, trump K/Q points,
play options, capot points); ``capot`` 1 while the contracting team has won every trick; ``pts``
card points by internal card. A capot adds ``capot points - total`` (250 or 252, less 162 or
160) to the last trick (:func:`capot_bonus`).
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import high_index, low_index, popcount
from ...core.engine.jit import njit_inline, njit_no_refcount
from ..layouts import SolverPos, SolverStat
from .solver_moves import beats, legal_internal, order_follow, order_moves
from .solver_tt import (
    F_TT,
    PTS,
    flagged,
    position_key,
    rules_code,
    t2_key,
    t2_row,
    tt_hi,
    tt_lo,
    tt_probe,
    tt_store,
)
from .tables import CAPOTS

INF = 1000
LAST_TRICK = 10

F_BOUNDS = 8  # trump-run and cash bounds at trick starts
F_FOUR = 32  # the last four tricks in nested loops (off: frames down to three tricks left)

#: The card points (every card's is one of them) and, by trump K/Q points (1: K 3, Q 2), the
#: cards worth each (internal encoding): the cheapest cards of a hand by popcounts.
CLASS_POINTS = np.unique(PTS)
N_CLASSES = len(CLASS_POINTS)
POINT_CLASSES = np.array(
    [[sum(1 << c for c in range(32) if PTS[k, c] == v) for v in CLASS_POINTS] for k in (0, 1)],
    dtype=np.int64,
)


@njit_inline
def capot_bonus(st):
    """What a capot adds to the last trick: its points (250, or 252) minus the round's total
    (162, or 160)."""
    return capot_points(st) - (160 if st[SolverPos.KQ] else 162)


@njit_inline
def capot_points(st):
    """Card points of a capot in this position's rules: 250, or 252."""
    return CAPOTS[st[SolverPos.CAPOT_252]]


@njit_inline
def last_trick(hands, leader, capot, st, pts):
    """Value of the last trick (one card in each hand, ``leader`` to lead)."""
    team = st[SolverPos.TEAM]
    wc = low_index(hands[leader])
    wseat = leader
    total = pts[wc]
    for i in range(1, 4):
        p = (leader + i) % 4
        c = low_index(hands[p])
        total += pts[c]
        if beats(c, wc):
            wc = c
            wseat = p
    if (wseat & 1) == team:
        v = total + LAST_TRICK
        if capot:
            v += capot_bonus(st)
        return v
    return 0


@njit_inline
def lowest_points(m, g, kq):
    """The least points ``g`` cards of ``m`` can hold (all of ``m``'s when it has fewer):
    the cards taken by value class, cheapest first (``kq``: 1 under trump K 3, Q 2)."""
    total = 0
    for v in range(N_CLASSES):
        k = popcount(m & POINT_CLASSES[kq, v])
        if k >= g:
            return total + g * CLASS_POINTS[v]
        total += k * CLASS_POINTS[v]
        g -= k
    return total


@njit_inline
def bounds(hands, leader, capot, r_pts, st, pts):
    """(lower, upper) bounds of a trick start's value (``r_pts``: points of the cards out).

    A hand of trumps only, each above every opponent's trump, plays in every trick and wins
    it for its side: that side takes everything. Else the trumps out from the top that one
    team holds (either partner) each win the trick they are played in (any higher trump in it
    is the team's too): those points go to that team (and a defender holding the top trump
    rules the capot out), with the cheapest cards of the other hands, each of which plays a
    card to every such trick (as many tricks as one hand holds of those trumps). When every
    trump out is the leader's, he can cash them and his unbroken runs from the top of each
    plain suit, keeping the lead, a trick each with a card of every other hand.
    :func:`lowest_points` counts those cheapest cards."""
    team = st[SolverPos.TEAM]
    kq = st[SolverPos.KQ]
    bonus = capot_bonus(st)
    lo = 0
    hi = r_pts + LAST_TRICK + (bonus if capot else 0)
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    o = rem & 0xFF
    for x in range(4):
        hx = hands[x]
        if hx != 0 and (hx & ~np.int64(0xFF)) == 0:
            # only trumps, each above every opponent's: x's side takes every trick
            ot = (hands[(x + 1) % 4] | hands[(x + 3) % 4]) & 0xFF
            if ot == 0 or low_index(hx) > high_index(ot):
                if (x & 1) == team:
                    return hi, hi
                return 0, 0
    h = hands[leader]
    if o & ~h:
        top = high_index(o)
        holder = 0
        while not (hands[holder] >> top) & 1:
            holder += 1
        hh = hands[holder] | hands[holder ^ 2]
        run = 0
        r = top
        while r >= 0:
            if (o >> r) & 1:
                if not (hh >> r) & 1:
                    break
                run += pts[r]
            r -= 1
        # the run's cards fall in at least as many tricks as one hand holds of them, each
        # holding a card of each opponent (and of the partner when he holds none of them)
        runs = o & ~((np.int64(1) << (r + 1)) - 1)
        in_partner = hands[holder ^ 2] & runs
        g = max(popcount(hands[holder] & runs), popcount(in_partner))
        run += lowest_points(hands[(holder + 1) % 4], g, kq)
        run += lowest_points(hands[(holder + 3) % 4], g, kq)
        if in_partner == 0:
            run += lowest_points(hands[holder ^ 2], g, kq)
        if (holder & 1) == team:
            lo = run
        else:
            hi = r_pts + LAST_TRICK - run
        return lo, hi
    cash = 0
    n_cash = popcount(o)
    for r in range(8):
        if (o >> r) & 1:
            cash += pts[r]
    all_cards = True
    for s in range(1, 4):
        hs = (h >> (8 * s)) & 0xFF
        os = (rem >> (8 * s)) & 0xFF
        r = 7
        while r >= 0:
            if (os >> r) & 1:
                if not (hs >> r) & 1:
                    break
                cash += pts[8 * s + r]
                n_cash += 1
            r -= 1
        if r >= 0 and (hs & ((np.int64(2) << r) - 1)) != 0:
            all_cards = False
    # each cashed card wins a trick of its own, holding a card of each other player
    for q in range(1, 4):
        cash += lowest_points(hands[(leader + q) % 4], n_cash, kq)
    if all_cards:
        cash += LAST_TRICK
        if capot and (leader & 1) == team:
            cash += bonus
    if (leader & 1) == team:
        lo = cash
    else:
        hi = r_pts + LAST_TRICK - cash
    return lo, hi


@njit_no_refcount
def two_tricks(hands, leader, capot, a, b, r_pts, st, pts):
    """Value of the last two tricks (two cards in each hand, ``leader`` to lead; ``r_pts`` the
    points of those 8 cards), fail-soft in (a, b): the whole tree (at most 16 ways to play the
    first trick) without frames."""
    team = st[SolverPos.TEAM]
    exempt = st[SolverPos.PLAY]
    bonus = capot_bonus(st)
    p1 = (leader + 1) % 4
    p2 = (leader + 2) % 4
    p3 = (leader + 3) % 4
    h0 = hands[leader]
    h1 = hands[p1]
    h2 = hands[p2]
    h3 = hands[p3]
    max0 = (leader & 1) == team
    best0 = -INF if max0 else INF
    m0 = h0
    while m0:
        c0 = low_index(m0)
        m0 &= m0 - 1
        led = c0 >> 3
        best1 = INF if max0 else -INF
        m1 = legal_internal(h1, 1, c0, led, False, exempt)
        while m1:
            c1 = low_index(m1)
            m1 &= m1 - 1
            w1 = c0
            s1 = leader
            if beats(c1, c0):
                w1 = c1
                s1 = p1
            best2 = -INF if max0 else INF
            m2 = legal_internal(h2, 2, w1, led, s1 == leader, exempt)
            while m2:
                c2 = low_index(m2)
                m2 &= m2 - 1
                w2 = w1
                s2 = s1
                if beats(c2, w1):
                    w2 = c2
                    s2 = p2
                best3 = INF if max0 else -INF
                m3 = legal_internal(h3, 3, w2, led, s2 == p1, exempt)
                while m3:
                    c3 = low_index(m3)
                    m3 &= m3 - 1
                    s3 = s2
                    if beats(c3, w2):
                        s3 = p3
                    tp = pts[c0] + pts[c1] + pts[c2] + pts[c3]
                    won = (s3 & 1) == team
                    v = tp if won else 0
                    # the last trick: the remaining card of each hand, s3 to lead; won by the
                    # highest trump, else by the highest card of the suit led (masks, no loop)
                    d0 = h0 & ~(np.int64(1) << c0)
                    d1 = h1 & ~(np.int64(1) << c1)
                    d2 = h2 & ~(np.int64(1) << c2)
                    d3 = h3 & ~(np.int64(1) << c3)
                    k = (s3 - leader) % 4
                    lc = d0 if k == 0 else (d1 if k == 1 else (d2 if k == 2 else d3))
                    last = d0 | d1 | d2 | d3
                    win = last & 0xFF
                    if win == 0:
                        win = last & (np.int64(0xFF) << (low_index(lc) & ~7))
                    # d0, d2: the leader's side
                    if ((np.int64(1) << high_index(win)) & (d0 | d2) != 0) == max0:
                        v += r_pts - tp + LAST_TRICK
                        if capot and won:
                            v += bonus
                    # p3 is the opponent of the leader's side
                    if max0:
                        if v < best3:
                            best3 = v
                        if best3 <= a:
                            break
                    else:
                        if v > best3:
                            best3 = v
                        if best3 >= b:
                            break
                if max0:
                    if best3 > best2:
                        best2 = best3
                    if best2 >= b:
                        break
                else:
                    if best3 < best2:
                        best2 = best3
                    if best2 <= a:
                        break
            if max0:
                if best2 < best1:
                    best1 = best2
                if best1 <= a:
                    break
            else:
                if best2 > best1:
                    best1 = best2
                if best1 >= b:
                    break
        if max0:
            if best1 > best0:
                best0 = best1
            if best0 >= b:
                break
        else:
            if best1 < best0:
                best0 = best1
            if best0 <= a:
                break
    return best0


@njit_no_refcount
def three_tricks(hands, leader, capot, a, b, r_pts, st, pts, sub, tt, cache):
    """Value of the last three tricks (three cards in each hand, ``leader`` to lead; ``r_pts``
    the points of those 12 cards), fail-soft in (a, b): nested loops over the first trick (the
    leader's cards high first), then the two tricks left (:func:`cached_two_tricks` when
    ``cache``, the table ``tt``'s two-trick column; else :func:`two_tricks`), skipped when the
    points left cannot reach the window. ``sub``: int64[4] scratch."""
    team = st[SolverPos.TEAM]
    exempt = st[SolverPos.PLAY]
    bonus = capot_bonus(st)
    p1 = (leader + 1) % 4
    p2 = (leader + 2) % 4
    p3 = (leader + 3) % 4
    h0 = hands[leader]
    h1 = hands[p1]
    h2 = hands[p2]
    h3 = hands[p3]
    max0 = (leader & 1) == team
    best0 = -INF if max0 else INF
    m0 = h0
    while m0:
        c0 = high_index(m0)
        m0 &= ~(np.int64(1) << c0)
        led = c0 >> 3
        best1 = INF if max0 else -INF
        m1 = legal_internal(h1, 1, c0, led, False, exempt)
        while m1:
            c1 = low_index(m1)
            m1 &= ~(np.int64(1) << c1)
            w1 = c0
            s1 = leader
            if beats(c1, c0):
                w1 = c1
                s1 = p1
            best2 = -INF if max0 else INF
            m2 = legal_internal(h2, 2, w1, led, s1 == leader, exempt)
            while m2:
                c2 = low_index(m2)
                m2 &= ~(np.int64(1) << c2)
                w2 = w1
                s2 = s1
                if beats(c2, w1):
                    w2 = c2
                    s2 = p2
                best3 = INF if max0 else -INF
                m3 = legal_internal(h3, 3, w2, led, s2 == p1, exempt)
                while m3:
                    c3 = low_index(m3)
                    m3 &= ~(np.int64(1) << c3)
                    s3 = s2
                    if beats(c3, w2):
                        s3 = p3
                    won = (s3 & 1) == team
                    tp = pts[c0] + pts[c1] + pts[c2] + pts[c3]
                    add = tp if won else 0
                    cap = 1 if (capot and won) else 0
                    most = add + r_pts - tp + LAST_TRICK + (bonus if cap else 0)
                    if most <= a:
                        v = most  # cannot reach the window: an upper bound is enough
                    elif add >= b:
                        v = add  # above the window whatever follows: a lower bound
                    else:
                        sub[leader] = h0 & ~(np.int64(1) << c0)
                        sub[p1] = h1 & ~(np.int64(1) << c1)
                        sub[p2] = h2 & ~(np.int64(1) << c2)
                        sub[p3] = h3 & ~(np.int64(1) << c3)
                        rest = r_pts - tp
                        if cache:
                            v = add + cached_two_tricks(
                                tt, sub, s3, cap, a - add, b - add, rest, st, pts
                            )
                        else:
                            v = add + two_tricks(sub, s3, cap, a - add, b - add, rest, st, pts)
                    if max0:
                        if v < best3:
                            best3 = v
                        if best3 <= a:
                            break
                    else:
                        if v > best3:
                            best3 = v
                        if best3 >= b:
                            break
                if max0:
                    if best3 > best2:
                        best2 = best3
                    if best2 >= b:
                        break
                else:
                    if best3 < best2:
                        best2 = best3
                    if best2 <= a:
                        break
            if max0:
                if best2 < best1:
                    best1 = best2
                if best1 <= a:
                    break
            else:
                if best2 > best1:
                    best1 = best2
                if best1 >= b:
                    break
        if max0:
            if best1 > best0:
                best0 = best1
            if best0 >= b:
                break
        else:
            if best1 < best0:
                best0 = best1
            if best0 <= a:
                break
    return best0


@njit_inline
def cached_two_tricks(tt, hands, leader, capot, a, b, r_pts, st, pts):
    """:func:`two_tricks` through the table's two-trick column (``solver_tt``): bounds stored
    there settle the window or narrow it; what the search finds is kept, flagged against the
    window it searched."""
    key = t2_key(hands, leader, capot, st[SolverPos.TEAM], rules_code(st))
    row = t2_row(tt, key)
    lo = 0
    hi = 511
    if tt[row, 3] == key:
        data = tt[row + 1, 3]
        lo = tt_lo(data)
        hi = tt_hi(data)
        if lo >= b or lo == hi:
            return lo
        if hi <= a:
            return hi
        a = max(a, lo)
        b = min(b, hi)
    v = two_tricks(hands, leader, capot, a, b, r_pts, st, pts)
    if v <= a:
        hi = v
    elif v >= b:
        lo = v
    else:
        lo = v
        hi = v
    tt[row, 3] = key
    tt[row + 1, 3] = lo | (hi << 9)
    return v


@njit_no_refcount
def four_tricks(
    hands,
    mv,
    sc,
    leader,
    capot,
    a,
    b,
    r_pts,
    tt_card,
    flags,
    st,
    pts,
    reps,
    pext,
    canon,
    tt,
    sub,
    stats,
):
    """Value of the last four tricks (four cards in each hand, ``leader`` to lead; ``r_pts`` the
    points of those 16 cards) and the best lead, fail-soft in (a, b): the first trick in nested
    loops, each hand's cards ordered as the frame search orders them (``order_moves`` for the
    lead, the table's ``tt_card`` first; ``order_follow`` for the others; one card of each run
    of equivalent cards), then the
    three-trick position it leaves (:func:`three_start`), skipped when the points left cannot
    reach the window. ``mv``, ``sc``: int64[4, 8] scratch rows, one per hand; ``hands`` is
    played in and restored; ``stats`` counts a node per card tried, as the frame search does."""
    team = st[SolverPos.TEAM]
    exempt = st[SolverPos.PLAY]
    bonus = capot_bonus(st)
    p1 = (leader + 1) % 4
    p2 = (leader + 2) % 4
    p3 = (leader + 3) % 4
    max0 = (leader & 1) == team
    best0 = -INF if max0 else INF
    best_move = -1
    n0 = order_moves(
        mv[0], sc[0], hands, reps, leader, 0, -1, -1, 0, hands[leader], tt_card, flags, pts
    )
    for i0 in range(n0):
        c0 = mv[0, i0]
        b0 = np.int64(1) << c0
        hands[leader] &= ~b0
        stats[SolverStat.NODES] += 1
        led = c0 >> 3
        best1 = INF if max0 else -INF
        legal = legal_internal(hands[p1], 1, c0, led, False, exempt)
        n1 = order_follow(mv[1], sc[1], hands, reps, p1, 1, leader, c0, b0, legal, flags, pts)
        for i1 in range(n1):
            c1 = mv[1, i1]
            b1 = np.int64(1) << c1
            hands[p1] &= ~b1
            stats[SolverStat.NODES] += 1
            w1 = c0
            s1 = leader
            if beats(c1, c0):
                w1 = c1
                s1 = p1
            best2 = -INF if max0 else INF
            legal = legal_internal(hands[p2], 2, w1, led, s1 == leader, exempt)
            n2 = order_follow(mv[2], sc[2], hands, reps, p2, 2, s1, w1, b0 | b1, legal, flags, pts)
            for i2 in range(n2):
                c2 = mv[2, i2]
                b2 = np.int64(1) << c2
                hands[p2] &= ~b2
                stats[SolverStat.NODES] += 1
                w2 = w1
                s2 = s1
                if beats(c2, w1):
                    w2 = c2
                    s2 = p2
                best3 = INF if max0 else -INF
                legal = legal_internal(hands[p3], 3, w2, led, s2 == p1, exempt)
                n3 = order_follow(
                    mv[3], sc[3], hands, reps, p3, 3, s2, w2, b0 | b1 | b2, legal, flags, pts
                )
                for i3 in range(n3):
                    c3 = mv[3, i3]
                    stats[SolverStat.NODES] += 1
                    s3 = s2
                    if beats(c3, w2):
                        s3 = p3
                    won = (s3 & 1) == team
                    tp = pts[c0] + pts[c1] + pts[c2] + pts[c3]
                    add = tp if won else 0
                    cap = 1 if (capot and won) else 0
                    most = add + r_pts - tp + LAST_TRICK + (bonus if cap else 0)
                    if most <= a:
                        v = most  # cannot reach the window: an upper bound is enough
                    elif add >= b:
                        v = add  # above the window whatever follows: a lower bound
                    else:
                        b3 = np.int64(1) << c3
                        hands[p3] &= ~b3
                        v = add + three_start(
                            hands,
                            s3,
                            cap,
                            a - add,
                            b - add,
                            r_pts - tp,
                            flags,
                            st,
                            pts,
                            pext,
                            canon,
                            tt,
                            sub,
                            stats,
                        )
                        hands[p3] |= b3
                    if max0:
                        if v < best3:
                            best3 = v
                        if best3 <= a:
                            break
                    else:
                        if v > best3:
                            best3 = v
                        if best3 >= b:
                            break
                hands[p2] |= b2
                if max0:
                    if best3 > best2:
                        best2 = best3
                    if best2 >= b:
                        break
                else:
                    if best3 < best2:
                        best2 = best3
                    if best2 <= a:
                        break
            hands[p1] |= b1
            if max0:
                if best2 < best1:
                    best1 = best2
                if best1 <= a:
                    break
            else:
                if best2 > best1:
                    best1 = best2
                if best1 >= b:
                    break
        hands[leader] |= b0
        if max0:
            if best1 > best0:
                best0 = best1
                best_move = c0
            if best0 >= b:
                break
        else:
            if best1 < best0:
                best0 = best1
                best_move = c0
            if best0 <= a:
                break
    return best0, best_move


@njit_inline
def three_start(hands, leader, capot, a, b, r_pts, flags, st, pts, pext, canon, tt, sub, stats):
    """Value of a three-trick position, fail-soft in (a, b), as the frame search finds it at a
    trick start: the table (its bounds settle or narrow the window), the bounds, then
    :func:`three_tricks`; the result stored in the table flagged against the narrowed window."""
    use_tt = flags & F_TT
    k1 = np.int64(0)
    k2 = np.int64(0)
    if use_tt:
        k1, k2 = position_key(
            hands[0],
            hands[1],
            hands[2],
            hands[3],
            leader,
            capot,
            st[SolverPos.TEAM],
            rules_code(st),
            pext,
            canon,
        )
        data = tt_probe(tt, k1, k2)
        if data >= 0:
            lo = tt_lo(data)
            hi = tt_hi(data)
            if lo == hi or lo >= b or hi <= a:
                stats[SolverStat.TT_CUTS] += 1
                return hi if hi <= a else lo
            a = max(a, lo)
            b = min(b, hi)
    if flags & F_BOUNDS:
        lo, hi = bounds(hands, leader, capot, r_pts, st, pts)
        if hi <= a or lo >= b:
            stats[SolverStat.BOUND_CUTS] += 1
            return hi if hi <= a else lo
    v = three_tricks(hands, leader, capot, a, b, r_pts, st, pts, sub, tt, use_tt)
    if use_tt:
        lo, hi = flagged(v, a, b)
        tt_store(tt, k1, k2, lo, hi, np.int64(-1), 3)
    return v
