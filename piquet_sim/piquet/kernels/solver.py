"""Exact double-dummy solver for Piquet play: fail-soft alpha-beta over whole tricks.

Value: the rest of the deal, elder minus younger: play points still to come (leads, wins of the
opponent's leads, last trick), cards/capot after the last trick (tricks already won count) and
any pique (from the order of the scoring events, see ``tricks.py``).

Design (after bridge's DDS, one concern per file: rules in ``tricks.py``, tables and the
transposition table in ``solver_tt.py``, search and driver here):

* one self-recursive function, two kinds of node: trick start (``lead < 0``: the leader chooses,
  the only nodes stored in the table) and half trick (``lead >= 0``: the follower answers);
* a child's window is shifted by the points of the trick just played;
* equivalent cards (adjacent among the cards still out, same holder; cut between nine and ten
  under ``ten_or_higher``; the led card counts as out while following) are tried once;
* move ordering: table move first, then sure winners, then low cards of long suits; the follower
  tries the cheapest winner, then his lowest card;
* cheap bounds from sure tricks cut a node before its moves are generated;
* table bounds narrow the window, and what is stored afterwards is flagged against the
  narrowed window (a fail-low below a narrowed alpha is only an upper bound).

``flags`` switch the techniques off one by one (tests compare the pruned solver against the
unpruned one). The workspace is a tuple (see :func:`make_workspace`), one per thread.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.bits import popcount32
from ...core.jit import njit, njit_parallel
from . import layouts as L
from .deal import N_PACK, deal_hands
from .solver_tt import (
    KEYTAB,
    LOW8,
    POP8,
    QTTAB,
    REPTAB,
    make_tt,
    position_key,
    reset_tt,
    tt_hi,
    tt_lo,
    tt_move,
    tt_probe,
    tt_store,
)
from .tricks import (
    CAPOT_POINTS,
    PIQUE_POINTS,
    PS_ELDER,
    PS_YOUNGER,
    cards_bonus,
    legal_replies,
    pique_normalize,
    pique_start,
    trick_net,
)

INF = 1000
F_ALPHABETA = 1  # cut off with the window (off: every node searched with a full window)
F_TT = 2  # transposition table
F_EQUIV = 4  # try one card of each equivalent run
F_BOUNDS = 8  # sure-trick bounds
F_ORDER = 16  # move ordering heuristics
F_HISTORY = 32  # history heuristic (cutoff counts per player and card) breaks ordering ties
F_ALL = 31  # history (F_HISTORY) measured no gain: off by default

# stats array indices

MAX_LEVELS = 26  # two node kinds per trick count 0..12
#: default table: 2 ** 16 entries, 1 MB (fits in L2; larger tables measured slower per solve)
DEFAULT_SOLVE_BITS = 16
MAX_MOVES = 16


# workspace tuple fields
W_TT = 0
W_KEYTAB = 1
W_REPTAB = 2
W_QTTAB = 3
W_LOW8 = 4
W_POP8 = 5
W_MOVES = 6
W_SCORES = 7
W_FRAMES = 8
W_STATS = 9
W_HIST = 10


def make_workspace(tt_bits: int = DEFAULT_SOLVE_BITS) -> tuple:
    """Per-thread solver workspace: (table int64[2 ** (tt_bits + 1)], KEYTAB, REPTAB, QTTAB,
    LOW8, POP8, move stack int32[26, 16], move scores int32[26, 16], search frames
    int64[26, 19], stats int64[4], history int32[2, 32]). Only the table grows with
    ``tt_bits`` (16 bytes per entry)."""
    return (
        make_tt(tt_bits),
        KEYTAB,
        REPTAB,
        QTTAB,
        LOW8,
        POP8,
        np.zeros((MAX_LEVELS, MAX_MOVES), dtype=np.int32),
        np.zeros((MAX_LEVELS, MAX_MOVES), dtype=np.int32),
        np.zeros((MAX_LEVELS, FR_LEN), dtype=np.int64),
        np.zeros(L.SOLVE_LEN, dtype=np.int64),
        np.zeros((2, 32), dtype=np.int32),
    )


@njit
def new_workspace(tables, tt_bits, for_dd):
    """The workspace of :func:`make_workspace` built inside a kernel; ``tables`` = (KEYTAB,
    REPTAB, QTTAB, LOW8, POP8). With ``for_dd`` false (playouts without the solver) the table
    and lookup tables are one-entry stand-ins, so threads share no array."""
    if for_dd:
        tt = np.zeros(np.int64(2) << max(tt_bits, 1), dtype=np.int64)
        for i in range(0, tt.shape[0], 2):
            tt[i] = -1
        return (
            tt,
            tables[0],
            tables[1],
            tables[2],
            tables[3],
            tables[4],
            np.zeros((MAX_LEVELS, MAX_MOVES), dtype=np.int32),
            np.zeros((MAX_LEVELS, MAX_MOVES), dtype=np.int32),
            np.zeros((MAX_LEVELS, FR_LEN), dtype=np.int64),
            np.zeros(L.SOLVE_LEN, dtype=np.int64),
            np.zeros((2, 32), dtype=np.int32),
        )
    return (
        np.full(4, -1, dtype=np.int64),
        np.zeros((2, 1), dtype=np.uint16),
        np.zeros((2, 1), dtype=np.uint8),
        np.zeros(1, dtype=np.uint8),
        np.zeros(1, dtype=np.int8),
        np.zeros(1, dtype=np.int8),
        np.zeros((MAX_LEVELS, MAX_MOVES), dtype=np.int32),
        np.zeros((MAX_LEVELS, MAX_MOVES), dtype=np.int32),
        np.zeros((MAX_LEVELS, FR_LEN), dtype=np.int64),
        np.zeros(L.SOLVE_LEN, dtype=np.int64),
        np.zeros((2, 32), dtype=np.int32),
    )


@njit
def _sure_tricks(L, F, qttab):
    q = 0
    for s in range(4):
        q += qttab[((L >> (8 * s)) & 0xFF) * 256 + ((F >> (8 * s)) & 0xFF)]
    return q


@njit
def _bounds(E, Y, leader, et, ps, n, ten, qttab):
    """(lower, upper) bounds of a trick-start position's value from the leader's sure tricks."""
    who = ps >> 5
    lead_pt = 1 - ten
    if leader == 0:
        q = _sure_tricks(E, Y, qttab)
        if q > n:
            q = n
        if q == n:
            lo = q * lead_pt + 1 + cards_bonus(et + n)
        else:
            lo = q * lead_pt - (n - q) - 1 + cards_bonus(et + q)
        if who == PS_YOUNGER and (ten == 1 or q == 0):
            lo -= PIQUE_POINTS
        hi = n + 1 + cards_bonus(et + n)
        if who == PS_ELDER:
            hi += PIQUE_POINTS
    else:
        q = _sure_tricks(Y, E, qttab)
        if q > n:
            q = n
        if q == n:
            hi = -q * lead_pt - 1 + cards_bonus(et)
        else:
            hi = -q * lead_pt + (n - q) + 1 + cards_bonus(et + n - q)
        if who == PS_ELDER and (ten == 1 or q == 0):
            hi += PIQUE_POINTS
        lo = -(n + 1) + cards_bonus(et)
        if who == PS_YOUNGER:
            lo -= PIQUE_POINTS
    return lo, hi


@njit
def _gen_leads(L, F, O, ten, flags, tt_best, ws, level, player):
    """Fill the move stack row ``level`` with the leads to try, best first; returns the count."""
    hist = ws[W_HIST]
    reptab = ws[W_REPTAB]
    low8 = ws[W_LOW8]
    pop8 = ws[W_POP8]
    moves = ws[W_MOVES]
    scores = ws[W_SCORES]
    k = 0
    for s in range(4):
        h = (L >> (8 * s)) & 0xFF
        if h == 0:
            continue
        o = (O >> (8 * s)) & 0xFF
        f = (F >> (8 * s)) & 0xFF
        reps = reptab[ten, o * 256 + h] if flags & 4 else h
        nl = pop8[h]
        while reps:
            r = low8[reps]
            reps &= reps - 1
            c = 8 * s + r
            sc = 0
            if flags & 16:
                if f == 0:
                    sc = 300 + nl * 8 + r  # opponent void: a sure winner
                elif (f >> r) == 0:
                    sc = 200 + nl * 8 + r  # master card
                else:
                    sc = 100 + nl * 8 - r  # low card of a long suit
                if flags & 32:
                    sc = (sc << 16) + hist[player, c]  # hist < 2 ** 16
                if c == tt_best:
                    sc = 1 << 30
            j = k
            while j > 0 and scores[level, j - 1] < sc:
                moves[level, j] = moves[level, j - 1]
                scores[level, j] = scores[level, j - 1]
                j -= 1
            moves[level, j] = c
            scores[level, j] = sc
            k += 1
    return k


@njit
def _gen_replies(F, O, lead, ten, flags, ws, level, player):
    """Fill row ``level`` with the replies to ``lead`` to try, best first; returns the count."""
    hist = ws[W_HIST]
    reptab = ws[W_REPTAB]
    low8 = ws[W_LOW8]
    pop8 = ws[W_POP8]
    moves = ws[W_MOVES]
    scores = ws[W_SCORES]
    legal = legal_replies(F, lead)
    ls = lead >> 3
    following = ((legal >> (8 * ls)) & 0xFF) != 0
    k = 0
    for s in range(4):
        h = (legal >> (8 * s)) & 0xFF
        if h == 0:
            continue
        o = (O >> (8 * s)) & 0xFF  # the led card is still out
        reps = reptab[ten, o * 256 + h] if flags & 4 else h
        nl = pop8[h]
        while reps:
            r = low8[reps]
            reps &= reps - 1
            c = 8 * s + r
            sc = 0
            if flags & 16:
                sc = 100 - 8 * r - nl  # discard low from short suits
                if following:
                    # the cheapest winner first, then the lowest card
                    sc = 200 - r if c > lead else 100 - r
                if flags & 32:
                    sc = (sc << 16) + hist[player, c]  # hist < 2 ** 16
            j = k
            while j > 0 and scores[level, j - 1] < sc:
                moves[level, j] = moves[level, j - 1]
                scores[level, j] = scores[level, j - 1]
                j -= 1
            moves[level, j] = c
            scores[level, j] = sc
            k += 1
    return k


@njit
def _history_add(hist, player, card, n):
    """Credit a cutoff to (player, card); halve every count past 2 ** 15 (stays below 2 ** 16)."""
    hist[player, card] += n
    if hist[player, card] >= 1 << 15:
        for p in range(2):
            for c in range(32):
                hist[p, c] >>= 1


# frame fields of the explicit search stack (numba cannot cache recursive functions)
FR_E = 0
FR_Y = 1
FR_LEADER = 2
FR_ET = 3
FR_PS = 4
FR_LEAD = 5  # card led, or -1 at a trick start
FR_N = 6  # tricks left, counting the current one
FR_A = 7  # current window
FR_B = 8
FR_A0 = 9  # window after the table narrowed it (what stored bounds are flagged against)
FR_B0 = 10
FR_BEST = 11
FR_BEST_MOVE = 12
FR_KEY = 13
FR_K = 14  # number of moves generated
FR_I = 15  # next move to try
FR_NET = 16  # points of the trick being searched (half-trick nodes)
FR_CUR = 17  # move being searched
FR_MAX = 18  # 1 when elder chooses at this node
FR_LEN = 19


@njit
def search(E, Y, leader, et, ps, lead, n, alpha, beta, ten, flags, ws):
    """Value of a position (elder minus younger, rest of the deal), fail-soft in (alpha, beta).

    ``n`` tricks are left, counting the current one. ``lead < 0``: a trick starts and
    ``leader`` chooses. ``lead >= 0``: the leader has led that card (still in his hand mask)
    and the follower answers; the value then includes this trick's points.
    """
    tt = ws[W_TT]
    moves = ws[W_MOVES]
    fr = ws[W_FRAMES]
    stats = ws[W_STATS]
    hist = ws[W_HIST]
    ab = flags & 1
    sp = 0
    fr[0, FR_E] = E
    fr[0, FR_Y] = Y
    fr[0, FR_LEADER] = leader
    fr[0, FR_ET] = et
    fr[0, FR_PS] = ps
    fr[0, FR_LEAD] = lead
    fr[0, FR_N] = n
    fr[0, FR_A] = alpha
    fr[0, FR_B] = beta
    mode = 0  # 0 enter node sp, 1 next move of sp, 2 return ret to the parent, 3 take ret at sp
    ret = np.int64(0)
    while True:
        if mode == 0:
            stats[L.SOLVE_NODES] += 1
            cE = fr[sp, FR_E]
            cY = fr[sp, FR_Y]
            cl = fr[sp, FR_LEADER]
            cet = fr[sp, FR_ET]
            cps = fr[sp, FR_PS]
            cn = fr[sp, FR_N]
            clead = fr[sp, FR_LEAD]
            a = fr[sp, FR_A]
            b = fr[sp, FR_B]
            if not ab:
                a = -INF
                b = INF
            if clead < 0:
                if cn == 0:
                    ret = cards_bonus(cet)
                    mode = 2
                    continue
                tt_best = -1
                if flags & 2:
                    key = position_key(cE, cY, cl, cet, cps, ten, ws[W_KEYTAB])
                    fr[sp, FR_KEY] = key
                    data = tt_probe(tt, key)
                    if data >= 0:
                        lo = tt_lo(data)
                        hi = tt_hi(data)
                        tt_best = tt_move(data)
                        if lo == hi or (ab and lo >= b):
                            stats[L.SOLVE_TT_HITS] += 1
                            ret = lo
                            mode = 2
                            continue
                        if ab and hi <= a:
                            stats[L.SOLVE_TT_HITS] += 1
                            ret = hi
                            mode = 2
                            continue
                        if ab:
                            if lo > a:
                                a = lo
                            if hi < b:
                                b = hi
                if ab and flags & 8:
                    blo, bhi = _bounds(cE, cY, cl, cet, cps, cn, ten, ws[W_QTTAB])
                    if blo >= b:
                        stats[L.SOLVE_BOUND_CUTS] += 1
                        ret = blo
                        mode = 2
                        continue
                    if bhi <= a:
                        stats[L.SOLVE_BOUND_CUTS] += 1
                        ret = bhi
                        mode = 2
                        continue
                if cl == 0:
                    k = _gen_leads(cE, cY, cE | cY, ten, flags, tt_best, ws, sp, 0)
                else:
                    k = _gen_leads(cY, cE, cE | cY, ten, flags, tt_best, ws, sp, 1)
                fr[sp, FR_MAX] = 1 if cl == 0 else 0
            else:
                F = cY if cl == 0 else cE
                k = _gen_replies(F, cE | cY, clead, ten, flags, ws, sp, 1 - cl)
                fr[sp, FR_MAX] = 1 if cl == 1 else 0
            fr[sp, FR_A] = a
            fr[sp, FR_B] = b
            fr[sp, FR_A0] = a
            fr[sp, FR_B0] = b
            fr[sp, FR_BEST] = -INF if fr[sp, FR_MAX] else INF
            fr[sp, FR_BEST_MOVE] = -1
            fr[sp, FR_K] = k
            fr[sp, FR_I] = 0
            mode = 1
        elif mode == 1:
            i = fr[sp, FR_I]
            clead = fr[sp, FR_LEAD]
            if i >= fr[sp, FR_K]:
                best = fr[sp, FR_BEST]
                if clead < 0 and flags & 2:
                    key = fr[sp, FR_KEY]
                    bm = fr[sp, FR_BEST_MOVE]
                    cn = fr[sp, FR_N]
                    if best <= fr[sp, FR_A0]:
                        tt_store(tt, key, -127, best, bm, cn)
                    elif best >= fr[sp, FR_B0]:
                        tt_store(tt, key, best, 127, bm, cn)
                    else:
                        tt_store(tt, key, best, best, bm, cn)
                ret = best
                mode = 2
                continue
            fr[sp, FR_I] = i + 1
            c = moves[sp, i]
            fr[sp, FR_CUR] = c
            cE = fr[sp, FR_E]
            cY = fr[sp, FR_Y]
            cl = fr[sp, FR_LEADER]
            cet = fr[sp, FR_ET]
            cn = fr[sp, FR_N]
            a = fr[sp, FR_A]
            b = fr[sp, FR_B]
            if clead < 0:
                s1 = sp + 1
                fr[s1, FR_E] = cE
                fr[s1, FR_Y] = cY
                fr[s1, FR_LEADER] = cl
                fr[s1, FR_ET] = cet
                fr[s1, FR_PS] = fr[sp, FR_PS]
                fr[s1, FR_LEAD] = c
                fr[s1, FR_N] = cn
                fr[s1, FR_A] = a
                fr[s1, FR_B] = b
                fr[sp, FR_NET] = 0
                sp = s1
                mode = 0
                continue
            last = 1 if cn == 1 else 0
            winner, net, ps2 = trick_net(clead, c, cl, ten, fr[sp, FR_PS], last)
            et2 = cet + (1 if winner == 0 else 0)
            fr[sp, FR_NET] = net
            if last:
                ret = cards_bonus(et2)
                mode = 3
                continue
            lb = np.int64(1) << clead
            cb = np.int64(1) << c
            s1 = sp + 1
            if cl == 0:
                fr[s1, FR_E] = cE & ~lb
                fr[s1, FR_Y] = cY & ~cb
            else:
                fr[s1, FR_E] = cE & ~cb
                fr[s1, FR_Y] = cY & ~lb
            fr[s1, FR_LEADER] = winner
            fr[s1, FR_ET] = et2
            fr[s1, FR_PS] = pique_normalize(ps2, cn - 1)
            fr[s1, FR_LEAD] = -1
            fr[s1, FR_N] = cn - 1
            fr[s1, FR_A] = a - net
            fr[s1, FR_B] = b - net
            sp = s1
            mode = 0
        else:
            if mode == 2:
                if sp == 0:
                    return ret
                sp -= 1
            v = ret + fr[sp, FR_NET]
            if fr[sp, FR_MAX]:
                if v > fr[sp, FR_BEST]:
                    fr[sp, FR_BEST] = v
                    fr[sp, FR_BEST_MOVE] = fr[sp, FR_CUR]
                    if v > fr[sp, FR_A]:
                        fr[sp, FR_A] = v
                    if ab and v >= fr[sp, FR_B]:
                        fr[sp, FR_I] = fr[sp, FR_K]
                        if flags & 32:
                            _history_add(hist, 0, fr[sp, FR_CUR], fr[sp, FR_N])
            else:
                if v < fr[sp, FR_BEST]:
                    fr[sp, FR_BEST] = v
                    fr[sp, FR_BEST_MOVE] = fr[sp, FR_CUR]
                    if v < fr[sp, FR_B]:
                        fr[sp, FR_B] = v
                    if ab and v <= fr[sp, FR_A]:
                        fr[sp, FR_I] = fr[sp, FR_K]
                        if flags & 32:
                            _history_add(hist, 1, fr[sp, FR_CUR], fr[sp, FR_N])
            mode = 1


@njit
def mtdf(E, Y, leader, et, ps, lead, n, guess, ten, flags, ws):
    """Exact value by MTD(f): null-window searches converging from ``guess`` (the table keeps
    what each pass learnt). Without alpha-beta, one full-window search."""
    if not flags & 1:
        return search(E, Y, leader, et, ps, lead, n, -INF, INF, ten, flags, ws)
    lo = -INF
    hi = INF
    g = guess
    while lo < hi:
        b = g + 1 if g == lo else g
        g = search(E, Y, leader, et, ps, lead, n, b - 1, b, ten, flags, ws)
        if g < b:
            hi = g
        else:
            lo = g
    return g


@njit
def solve_position(E, Y, leader, et, ps, ten, flags, ws):
    """Exact value of a trick-start position (elder minus younger, rest of the deal)."""
    n = popcount32(E)
    return mtdf(E, Y, leader, et, ps, -1, n, 0, ten, flags, ws)


@njit
def lead_value(E, Y, leader, et, ps, lead, ten, flags, ws):
    """Exact value after ``leader`` leads ``lead`` (this trick's points included)."""
    n = popcount32(E)
    return mtdf(E, Y, leader, et, ps, lead, n, 0, ten, flags, ws)


@njit
def _is_value(E, Y, leader, et, ps, lead, n, target, ten, flags, ws):
    """True when the position (trick start if lead < 0) is worth exactly ``target``."""
    v = search(E, Y, leader, et, ps, lead, n, target - 1, target + 1, ten, flags, ws)
    return v == target


@njit
def best_lead(E, Y, leader, et, ps, value, ten, flags, ws):
    """The first card (ascending index) whose lead keeps the exact ``value`` of the position."""
    n = popcount32(E)
    L = E if leader == 0 else Y
    m = L
    while m:
        c = 0
        while not (m >> c) & 1:
            c += 1
        m &= m - 1
        if _is_value(E, Y, leader, et, ps, c, n, value, ten, flags, ws):
            return c
    return -1


@njit
def best_reply(E, Y, leader, et, ps, lead, value, ten, flags, ws):
    """The first reply (ascending index) to ``lead`` keeping ``value`` (the lead's value)."""
    n = popcount32(E)
    F = Y if leader == 0 else E
    m = legal_replies(F, lead)
    last = 1 if n == 1 else 0
    while m:
        d = 0
        while not (m >> d) & 1:
            d += 1
        m &= m - 1
        winner, net, ps2 = trick_net(lead, d, leader, ten, ps, last)
        et2 = et + (1 if winner == 0 else 0)
        if last:
            if net + cards_bonus(et2) == value:
                return d
            continue
        lb = np.int64(1) << lead
        db = np.int64(1) << d
        if leader == 0:
            E2 = E & ~lb
            Y2 = Y & ~db
        else:
            E2 = E & ~db
            Y2 = Y & ~lb
        ps3 = pique_normalize(ps2, n - 1)
        if _is_value(E2, Y2, winner, et2, ps3, -1, n - 1, value - net, ten, flags, ws):
            return d
    return -1


@njit
def solve_line(E, Y, leader, et, e_pts, y_pts, pique_open, ten, flags, ws, line):
    """Solve and write a principal variation into ``line`` (int32[24]: lead, reply per trick,
    the rest -1). ``e_pts``/``y_pts``: points so far in the deal (combinations and play);
    ``pique_open``: 0 after a repique or a pique. Returns the exact value."""
    n = popcount32(E)
    ps = pique_start(e_pts, y_pts, pique_open, n)
    for i in range(line.shape[0]):
        line[i] = -1
    value = mtdf(E, Y, leader, et, ps, -1, n, 0, ten, flags, ws)
    v = value
    t = 0
    while n > 0:
        c = best_lead(E, Y, leader, et, ps, v, ten, flags, ws)
        d = best_reply(E, Y, leader, et, ps, c, v, ten, flags, ws)
        line[2 * t] = c
        line[2 * t + 1] = d
        winner, net, ps2 = trick_net(c, d, leader, ten, ps, 1 if n == 1 else 0)
        if leader == 0:
            E &= ~(np.int64(1) << c)
            Y &= ~(np.int64(1) << d)
        else:
            Y &= ~(np.int64(1) << c)
            E &= ~(np.int64(1) << d)
        if winner == 0:
            et += 1
        v -= net
        n -= 1
        ps = pique_normalize(ps2, n)
        leader = winner
        t += 1
    return value


@njit
def _solve_chunk(seed, start, lo, hi, ten, tables, tt_bits, values):
    """Serial worker of :func:`solve_batch`: deals lo..hi-1 with one workspace."""
    ws = new_workspace(tables, tt_bits, True)
    pack = np.empty(N_PACK, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    for i in range(lo, hi):
        e, y = deal_hands(seed, start + i, pack, state)
        values[i] = solve_position(e, y, 0, 0, 0, ten, F_ALL, ws)


@njit_parallel
def solve_batch(seed, start, n, ten, tables, tt_bits):
    """Exact values of deals ``start .. start+n-1`` of ``seed`` (``rng.deal_hands``, elder to
    lead, nothing scored yet): int32[n]. Parallel over 64 fixed chunks, one workspace each (its
    table reused from deal to deal), so values never depend on the thread count."""
    values = np.zeros(n, dtype=np.int32)
    n_chunks = min(n, 64)
    per = (n + n_chunks - 1) // n_chunks if n_chunks else 0
    for ch in prange(n_chunks):
        _solve_chunk(seed, start, ch * per, min(n, (ch + 1) * per), ten, tables, tt_bits, values)
    return values


__all__ = [
    "CAPOT_POINTS",
    "F_ALL",
    "F_ALPHABETA",
    "F_BOUNDS",
    "F_EQUIV",
    "F_ORDER",
    "F_TT",
    "best_lead",
    "best_reply",
    "lead_value",
    "make_workspace",
    "reset_tt",
    "search",
    "solve_batch",
    "solve_line",
    "solve_position",
]
