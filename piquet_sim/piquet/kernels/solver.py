"""Exact double-dummy solver for Piquet play: fail-soft alpha-beta over whole tricks.

Value: the rest of the deal, elder minus younger: play points still to come (leads, wins of the
opponent's leads, last trick), cards/capot after the last trick (tricks already won count) and
any pique (from the order of the scoring events, see ``tricks.py``).

Design (after bridge's DDS, one concern per file: rules in ``tricks.py``, tables and the
transposition table in ``solver_tt.py``, search and driver here):

* one search loop over an explicit stack of frames (numba cannot cache a recursive
  function), two kinds of node: trick start (``lead < 0``: the leader chooses,
  the only nodes stored in the table) and half trick (``lead >= 0``: the follower answers);
* a child's window is shifted by the points of the trick just played;
* equivalent cards (adjacent among the cards still out, same holder; cut between nine and ten
  under ``ten_or_higher``; the led card counts as out while following) are tried once;
* move ordering: table move first, then sure winners and masters (short suits first), then
  high cards; the follower tries the cheapest winner, then his lowest card (discarding: the
  lowest, from long suits first);
* cheap bounds from sure tricks cut a node before its moves are generated;
* table bounds narrow the window, and what is stored afterwards is flagged against the
  narrowed window (a fail-low below a narrowed alpha is only an upper bound).

``flags`` switch the techniques off one by one (tests compare the pruned solver against the
unpruned one) through ``ws.flags``. The workspace (``bundles.Workspace``, one per thread) carries
the rules array the solver reads, its tables and its stacks; a position is the tuple
``(elder's hand, younger's hand, leader, elder's tricks, pique state)``.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import low_index, popcount32
from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.move_order import insert_by_score
from ..rules import RuleSlot
from . import layouts as L
from .bundles import Workspace, make_env
from .deal import N_PACK, deal_hands
from .solver_tt import (
    position_key,
    reset_tt,
    tt_hi,
    tt_lo,
    tt_move,
    tt_prefetch,
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
TEN_UP_MASK = np.int64(0xF8F8F8F8)  # every card ten or higher


def make_workspace(rules_array=None, tt_bits: int = DEFAULT_SOLVE_BITS, flags: int = F_ALL):
    """Per-thread solver workspace (a ``bundles.Workspace``) for the rules array (default rules
    when None): a table of ``2 ** tt_bits`` entries (16 bytes each) and the search stacks.
    ``flags``: the F_* techniques switched on."""
    from ..rules import DEFAULT_RULES

    env = make_env(DEFAULT_RULES.to_array() if rules_array is None else rules_array)
    ws = new_workspace(env, tt_bits, True)
    ws.flags[0] = flags
    return ws


@njit
def new_workspace(env, tt_bits, for_dd):
    """A ``Workspace`` built inside a kernel from the ``Env`` bundle. With ``for_dd`` false
    (playouts that never call the solver) the table is a one-entry stand-in."""
    bits = max(tt_bits, 1) if for_dd else 1
    tt = np.zeros(np.int64(2) << bits, dtype=np.int64)
    for i in range(0, tt.shape[0], 2):
        tt[i] = -1
    flags = np.full(1, F_ALL, dtype=np.int64)
    return Workspace(
        env,
        tt,
        np.zeros((MAX_LEVELS, MAX_MOVES), dtype=np.int32),
        np.zeros((MAX_LEVELS, MAX_MOVES), dtype=np.int32),
        np.zeros((MAX_LEVELS, FR_LEN), dtype=np.int64),
        np.zeros(L.SOLVE_LEN, dtype=np.int64),
        np.zeros((2, 32), dtype=np.int32),
        flags,
    )


@njit_inline
def _sure_tricks(lh, fh, qttab):
    """(sure tricks of the leader, how many of those winners are ten or higher)."""
    q = 0
    for s in range(4):
        q += qttab[((lh >> (8 * s)) & 0xFF) * 256 + ((fh >> (8 * s)) & 0xFF)]
    return q & 0xF, q >> 4  # at most 12 sure tricks: the low nibbles never carry


@njit_inline
def _scorers(h, n, ten):
    """Most play points a hand can make in the ``n`` tricks left, the last trick's aside: one
    per trick, and under ``ten_or_higher`` only with a card of ten or higher (lead or win)."""
    if ten == 0:
        return n
    t = popcount32(h & TEN_UP_MASK)
    return t if t < n else n


@njit_inline
def _bounds(E, Y, leader, et, ps, n, ten, qttab):
    """(lower, upper) bounds of a trick-start position's value from the leader's sure tricks:
    he cashes them (each lead scores under "every", only a ten or higher under
    ``ten_or_higher``) and loses the rest; each side makes at most :func:`_scorers` points plus
    the last trick."""
    who = ps >> 5
    if leader == 0:
        q, qt = _sure_tricks(E, Y, qttab)
        if q > n:
            q = n
        pts = q if ten == 0 else min(qt, q)
        if q == n:
            lo = pts + 1 + cards_bonus(et + n)
        else:
            lo = pts - _scorers(Y, n - q, ten) - 1 + cards_bonus(et + q)
        if who == PS_YOUNGER and (ten == 1 or q == 0):
            lo -= PIQUE_POINTS
        hi = _scorers(E, n, ten) + 1 + cards_bonus(et + n)
        if who == PS_ELDER:
            hi += PIQUE_POINTS
    else:
        q, qt = _sure_tricks(Y, E, qttab)
        if q > n:
            q = n
        pts = q if ten == 0 else min(qt, q)
        if q == n:
            hi = -pts - 1 + cards_bonus(et)
        else:
            hi = -pts + _scorers(E, n - q, ten) + 1 + cards_bonus(et + n - q)
        if who == PS_ELDER and (ten == 1 or q == 0):
            hi += PIQUE_POINTS
        lo = -(_scorers(Y, n, ten) + 1) + cards_bonus(et)
        if who == PS_YOUNGER:
            lo -= PIQUE_POINTS
    return lo, hi


@njit_inline
def _gen_leads(lh, fh, out, ten, flags, tt_best, ws, level, player):
    """Fill the move stack row ``level`` with the leads to try, best first; returns the count."""
    hist = ws.hist
    reptab = ws.env.reptab
    low8 = ws.env.low8
    pop8 = ws.env.pop8
    moves = ws.moves[level]
    scores = ws.scores[level]
    k = 0
    for s in range(4):
        h = (lh >> (8 * s)) & 0xFF
        if h == 0:
            continue
        o = (out >> (8 * s)) & 0xFF
        f = (fh >> (8 * s)) & 0xFF
        reps = reptab[ten, o * 256 + h] if flags & 4 else h
        nl = pop8[h]
        while reps:
            r = low8[reps]
            reps &= reps - 1
            c = 8 * s + r
            sc = 0
            if flags & 16:
                # (measured on pimc deals: short suits first among winners; among the rest,
                # high cards first: 11-13% fewer nodes under "every", 31% under
                # "ten_or_higher", than long suits' winners and low cards of long suits first;
                # under "every", fewest opponent's cards above it first: 2% fewer again)
                if f == 0:
                    sc = 300 - nl * 8 + r  # opponent void: a sure winner, short suits first
                elif (f >> r) == 0:
                    sc = 200 - nl * 8 - r  # master card, short suits first
                elif ten:
                    sc = 100 + 8 * r + nl  # the rest: high cards first
                else:
                    sc = 100 - 8 * pop8[f >> (r + 1)] + nl  # the rest: fewest cards above first
                if flags & 32:
                    sc = (sc << 16) + hist[player, c]  # hist < 2 ** 16
                if c == tt_best:
                    sc = 1 << 30
            k = insert_by_score(moves, scores, k, c, sc)
    return k


@njit_inline
def _gen_replies(fh, out, lead, ten, flags, ws, level, player):
    """Fill row ``level`` with the replies to ``lead`` to try, best first; returns the count."""
    hist = ws.hist
    reptab = ws.env.reptab
    low8 = ws.env.low8
    pop8 = ws.env.pop8
    moves = ws.moves[level]
    scores = ws.scores[level]
    legal = legal_replies(fh, lead)
    ls = lead >> 3
    following = ((legal >> (8 * ls)) & 0xFF) != 0
    k = 0
    for s in range(4):
        h = (legal >> (8 * s)) & 0xFF
        if h == 0:
            continue
        o = (out >> (8 * s)) & 0xFF  # the led card is still out
        reps = reptab[ten, o * 256 + h] if flags & 4 else h
        nl = pop8[h]
        while reps:
            r = low8[reps]
            reps &= reps - 1
            c = 8 * s + r
            sc = 0
            if flags & 16:
                sc = 100 - 8 * r + nl  # discard low, from long suits first
                if following:
                    # the cheapest winner first, then the lowest card
                    sc = 200 - r if c > lead else 100 - r
                if flags & 32:
                    sc = (sc << 16) + hist[player, c]  # hist < 2 ** 16
            k = insert_by_score(moves, scores, k, c, sc)
    return k


@njit_inline
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
FR_PKEY = 19  # 1 when the parent half-trick node computed this node's key (in FR_KEY)
FR_LEN = 20


@njit
def search(pos, lead, n, alpha, beta, ws):
    """Value of a position (elder minus younger, rest of the deal), fail-soft in (alpha, beta).

    ``pos`` = (elder's hand, younger's hand, leader 0/1, elder's tricks so far, pique state
    normalized for the tricks left). ``n`` tricks are left, counting the current one.
    ``lead < 0``: a trick starts and the leader chooses. ``lead >= 0``: the leader has led that
    card (still in his hand mask) and the follower answers; the value then includes this trick's
    points. The lead rule comes from ``ws.env.rules``, the techniques from ``ws.flags``.
    """
    E, Y, leader, et, ps = pos
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    flags = ws.flags[0]
    tt = ws.tt
    moves = ws.moves
    fr = ws.frames
    stats = ws.stats
    hist = ws.hist
    ab = flags & 1
    gen = stats[L.SOLVE_GEN]
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
    fr[0, FR_PKEY] = 0
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
                # sure-trick bounds first: a cut here costs no table access (a cache miss)
                cut_b = ab and flags & 8
                blo = -INF
                bhi = INF
                if cut_b:
                    blo, bhi = _bounds(cE, cY, cl, cet, cps, cn, ten, ws.env.qttab)
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
                if flags & 2:
                    if fr[sp, FR_PKEY]:
                        key = fr[sp, FR_KEY]  # computed by the parent for its prefetch
                    else:
                        key = position_key(cE, cY, cl, cet, cps, ten, ws.env.keytab)
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
                            if cut_b and (blo >= b or bhi <= a):
                                # the narrowed window meets a bound
                                stats[L.SOLVE_BOUND_CUTS] += 1
                                ret = blo if blo >= b else bhi
                                mode = 2
                                continue
                # one call site: each inlined copy is typed and compiled again
                lh, fh = (cE, cY) if cl == 0 else (cY, cE)
                k = _gen_leads(lh, fh, cE | cY, ten, flags, tt_best, ws, sp, cl)
                fr[sp, FR_MAX] = 1 if cl == 0 else 0
            else:
                F = cY if cl == 0 else cE
                k = _gen_replies(F, cE | cY, clead, ten, flags, ws, sp, 1 - cl)
                if flags & 2 and cn > 1:
                    # the first reply's trick-start child probes the table next: start its load
                    c = moves[sp, 0]
                    w1, _, ps1 = trick_net(clead, c, cl, ten, fr[sp, FR_PS], np.int64(0))
                    lb = (np.int64(1) << clead) | (np.int64(1) << c)
                    key = position_key(
                        cE & ~lb,
                        cY & ~lb,
                        w1,
                        cet + (1 if w1 == 0 else 0),
                        pique_normalize(ps1, cn - 1),
                        ten,
                        ws.env.keytab,
                    )
                    tt_prefetch(tt, key)
                    fr[sp, FR_KEY] = key  # handed to that child (FR_PKEY)
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
                    v_lo = -127 if best <= fr[sp, FR_A0] else best
                    v_hi = 127 if best >= fr[sp, FR_B0] and best > fr[sp, FR_A0] else best
                    tt_store(tt, key, v_lo, v_hi, bm, cn, gen)
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
            # c as int64, as after_trick passes it: one compiled trick_net for both
            winner, net, ps2 = trick_net(clead, np.int64(c), cl, ten, fr[sp, FR_PS], last)
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
            # the first reply's child: its key was computed for the prefetch (flags & 2, cn > 1)
            pk = 1 if i == 0 and flags & 2 else 0
            fr[s1, FR_PKEY] = pk
            if pk:
                fr[s1, FR_KEY] = fr[sp, FR_KEY]
            sp = s1
            mode = 0
        else:
            if mode == 2:
                if sp == 0:
                    return ret
                sp -= 1
            v = ret + fr[sp, FR_NET]
            cut = -1  # the player whose move cut off, if any
            if fr[sp, FR_MAX]:
                if v > fr[sp, FR_BEST]:
                    fr[sp, FR_BEST] = v
                    fr[sp, FR_BEST_MOVE] = fr[sp, FR_CUR]
                    if v > fr[sp, FR_A]:
                        fr[sp, FR_A] = v
                    if ab and v >= fr[sp, FR_B]:
                        fr[sp, FR_I] = fr[sp, FR_K]
                        cut = 0
            else:
                if v < fr[sp, FR_BEST]:
                    fr[sp, FR_BEST] = v
                    fr[sp, FR_BEST_MOVE] = fr[sp, FR_CUR]
                    if v < fr[sp, FR_B]:
                        fr[sp, FR_B] = v
                    if ab and v <= fr[sp, FR_A]:
                        fr[sp, FR_I] = fr[sp, FR_K]
                        cut = 1
            if cut >= 0 and flags & 32:
                _history_add(hist, cut, fr[sp, FR_CUR], fr[sp, FR_N])
            mode = 1


@njit
def mtdf(pos, lead, n, guess, ws):
    """Exact value by MTD(f) from ``guess`` (the table keeps what each pass learnt). Each pass
    has a window of width two rather than a null window, so it proves one value exactly: the
    first ``(guess - 1, guess + 1)``, an exact guess in one pass instead of two; then, from
    the bound just found, the next value up or down (fail-soft: a result outside the window
    is the new bound). Without alpha-beta, one full-window search."""
    # plain int64 arguments throughout: a literal (-1, 0, INF) would compile search and mtdf
    # once per literal (4 times each on the first run)
    if not ws.flags[0] & F_ALPHABETA:
        return search(pos, lead, n, np.int64(-INF), np.int64(INF), ws)
    lo = -INF
    hi = INF
    a = guess - 1
    b = guess + 1
    while True:
        ws.stats[L.SOLVE_PASSES] += 1
        g = search(pos, lead, n, a, b, ws)
        if a < g < b:
            return g
        if g <= a:
            hi = g
        else:
            lo = g
        if lo >= hi:
            return g
        if g == lo:
            a = lo
            b = lo + 2
        else:
            a = hi - 2
            b = hi


@njit
def solve_position(pos, ws):
    """Exact value of a trick-start position (elder minus younger, rest of the deal)."""
    return mtdf(pos, np.int64(-1), popcount32(pos[0]), np.int64(0), ws)


@njit
def lead_value(pos, lead, ws):
    """Exact value after the leader leads ``lead`` (this trick's points included)."""
    return mtdf(pos, np.int64(lead), popcount32(pos[0]), np.int64(0), ws)


@njit
def _is_value(pos, lead, n, target, ws):
    """True when the position (trick start if lead < 0) is worth exactly ``target``."""
    return search(pos, lead, n, target - 1, target + 1, ws) == target


@njit
def after_trick(pos, lead, reply, ten, n):
    """(position after the trick, its points elder minus younger, tricks left after it) of
    ``lead`` and ``reply`` played from the trick-start position ``pos`` with ``n`` tricks left."""
    E, Y, leader, et, ps = pos
    winner, net, ps2 = trick_net(lead, reply, leader, ten, ps, 1 if n == 1 else 0)
    lb = np.int64(1) << lead
    rb = np.int64(1) << reply
    if leader == 0:
        E2 = E & ~lb
        Y2 = Y & ~rb
    else:
        E2 = E & ~rb
        Y2 = Y & ~lb
    et2 = et + (1 if winner == 0 else 0)
    return (E2, Y2, winner, et2, pique_normalize(ps2, n - 1)), net, n - 1


@njit
def best_lead(pos, value, ws):
    """The first card (ascending index) whose lead keeps the exact ``value`` of the position."""
    n = popcount32(pos[0])
    m = pos[0] if pos[2] == 0 else pos[1]
    while m:
        c = low_index(m)
        m &= m - 1
        if _is_value(pos, c, n, value, ws):
            return c
    return -1


@njit
def best_reply(pos, lead, value, ws):
    """The first reply (ascending index) to ``lead`` keeping ``value`` (the lead's value)."""
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    n = popcount32(pos[0])
    m = legal_replies(pos[1] if pos[2] == 0 else pos[0], lead)
    while m:
        d = low_index(m)
        m &= m - 1
        nxt, net, left = after_trick(pos, lead, d, ten, n)
        if left == 0:
            if net + cards_bonus(nxt[3]) == value:
                return d
        elif _is_value(nxt, np.int64(-1), left, value - net, ws):
            return d
    return -1


@njit
def solve_line(E, Y, leader, et, start, ws, line):
    """Solve and write a principal variation into ``line`` (int32[24]: lead, reply per trick,
    the rest -1). ``start`` = (elder's points so far, younger's, pique still open 0/1): points of
    the deal before this position (combinations and play), 0 after a repique or a pique.
    Returns the exact value."""
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    n = popcount32(E)
    pos = (E, Y, np.int64(leader), np.int64(et), pique_start(start[0], start[1], start[2], n))
    for i in range(line.shape[0]):
        line[i] = -1
    value = mtdf(pos, np.int64(-1), n, np.int64(0), ws)
    v = value
    t = 0
    while n > 0:
        c = best_lead(pos, v, ws)
        d = best_reply(pos, c, v, ws)
        line[2 * t] = c
        line[2 * t + 1] = d
        pos, net, n = after_trick(pos, c, d, ten, n)
        v -= net
        t += 1
    return value


@njit
def _solve_chunk(seed, start, lo, hi, env, tt_bits, values):
    """Serial worker of :func:`solve_batch`: deals lo..hi-1 with one workspace."""
    ws = new_workspace(env, tt_bits, True)
    pack = np.empty(N_PACK, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    for i in range(lo, hi):
        e, y = deal_hands(seed, start + i, pack, state)
        values[i] = solve_position((e, y, np.int64(0), np.int64(0), np.int64(0)), ws)


@driver(_solve_chunk)
def solve_batch(seed, start, n, env, tt_bits):
    """Exact values of deals ``start .. start+n-1`` of ``seed`` (``rng.deal_hands``, elder to
    lead, nothing scored yet): int32[n]. 64 fixed chunks on threads
    (``core.engine.jit_threads``), one workspace each (its table reused from deal to deal), so
    values never depend on the thread count."""
    values = np.zeros(n, dtype=np.int32)

    def work(ch: int, lo: int, count: int) -> None:
        _solve_chunk(seed, start, lo, lo + count, env, tt_bits, values)

    for_spans(n, min(n, 64), work)
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
