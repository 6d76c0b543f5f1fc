"""Exact double-dummy solver for the play of a Pilotta round: search and drivers.

Value of a position: the contracting team's card points from the position to the end of the
round (last trick 10 included) or, when that team takes every trick of the round, the rest of
its 250 capot: ``250 - total + (points of the cards still out) + 10`` (``total`` 162, or 160
under trump K 3, Q 2). Points won before the position are not included (callers add them), so
a value depends only on the cards out, who holds them, who leads, the trick in progress and
whether a capot is still possible (and the contracting team, the trump K/Q points, the play
options and the capot's worth, all in the table's key): table entries stay valid across
positions, solves, deals and rules settings. The capot is worth 250, or 252 under
``capot_points = 252`` (``SolverPos.CAPOT_252``; "250" below stands for it). The contracting
team maximises the value; the defenders minimise it (they hold the contracting team's points
down; they do not play for their own capot).

One concern per file, after bridge's DDS: keys, encoding and the transposition table in
``solver_tt``, legal cards and move ordering in ``solver_moves``, endgames and bounds in
``solver_endgame``, the search and its drivers here:

* fail-soft alpha-beta over every card (the side to move is the team of the seat to play), on
  an explicit frame stack (numba cannot cache a recursive function), making and unmaking moves
  in the workspace's hands;
* at a trick start: the last trick, then bounds, then the last two tricks valued directly; the
  table (relative keys, bounds narrowing the window, what is stored flagged against the
  narrowed window); the last three tricks, and the first trick of the last four, in nested
  loops; else moves are generated;
* equivalent cards tried once and moves ordered (``solver_moves``);
* the value is found by null-window searches that bisect the interval still possible, moved by
  each search's fail-soft bound (the table keeps what every search learnt).

``flags`` switch techniques off (tests compare the pruned solver with the plain alpha-beta and
with a brute-force reference). A workspace is a namedtuple of arrays, one per thread.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.bits import low_index, popcount32
from ...core.engine.jit import njit, njit_no_refcount
from ...core.engine.jit_threads import driver, for_spans
from ..layouts import FRAME_LEN, POS_LEN, STAT_LEN, Frame, SolverPos, SolverStat
from ..rules import RuleSlot
from .solver_endgame import (
    F_BOUNDS,
    F_FOUR,
    INF,
    LAST_TRICK,
    bounds,
    capot_bonus,
    four_tricks,
    last_trick,
    three_tricks,
    two_tricks,
)
from .solver_moves import F_EQUIV, F_ORDER, beats, gen_moves, legal_internal
from .solver_tt import (
    CANON,
    DEFAULT_TT_BITS,
    F_TT,
    PEXT,
    PTS,
    REPS,
    card_to_natural,
    flagged,
    position_key,
    rules_code,
    to_internal,
    tt_hi,
    tt_lo,
    tt_move,
    tt_probe,
    tt_store,
)
from .tricks import play_code

F_ALPHABETA = 1  # cut with the window (off: every node searched with the full window)
F_ALL = F_ALPHABETA | F_TT | F_EQUIV | F_BOUNDS | F_ORDER | F_FOUR
F_PLAIN = F_ALPHABETA | F_ORDER  # plain alpha-beta with ordering, nothing else

MAX_DEPTH = 34

#: Full rounds for :func:`solve_batch`: hands int64[n, 4] (natural masks N E S W), trumps,
#: leaders and contracting teams int64[n].
Rounds = namedtuple("Rounds", "hands trumps leaders teams")

Workspace = namedtuple(
    "Workspace", "tt pext canon reps pts hands trick st frames moves scores stats scratch"
)  # scratch: int64[1, 4], the hands after a trick inside ``three_tricks``


def make_workspace(tt_bits: int = DEFAULT_TT_BITS) -> Workspace:
    """A solver workspace (one per thread): the table (``2 ** tt_bits`` rows of 32 bytes: 8 MB at
    18 bits, empty), the shared lookup tables, the position and the search's scratch arrays
    (:func:`new_workspace` run as Python: building one compiles nothing)."""
    return new_workspace.py_func(tt_bits, PEXT, CANON, REPS, PTS)


@njit
def new_workspace(tt_bits, pext, canon, reps, pts):
    """:func:`make_workspace` inside a kernel (per-chunk workspaces of a parallel driver)."""
    tt = np.zeros((np.int64(1) << max(tt_bits, 1), 4), dtype=np.int64)
    tt[:, 0] = -1
    tt[:, 3] = -1
    return Workspace(
        tt,
        pext,
        canon,
        reps,
        pts,
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(POS_LEN, dtype=np.int64),
        np.zeros((MAX_DEPTH, FRAME_LEN), dtype=np.int64),
        np.zeros((MAX_DEPTH, 8), dtype=np.int64),
        np.zeros((MAX_DEPTH, 8), dtype=np.int64),
        np.zeros(STAT_LEN, dtype=np.int64),
        np.zeros((1, 4), dtype=np.int64),
    )


def position(
    leader: int,
    team: int,
    played: int = 0,
    capot: int = 1,
    kq: int = 0,
    exempt: int = 0,
    rules: np.ndarray | None = None,
) -> np.ndarray:
    """A :class:`layouts.SolverPos` array (int64) for :func:`solve_position`. The rules: the
    kernels' rules array ``rules`` (``Rules.to_array()``), or only ``kq`` (1: trump K 3, Q 2)
    and ``exempt`` (the partner exemption's slot value: 1 always, 2 plain-suit leads)."""
    pos = np.zeros(POS_LEN, dtype=np.int64)
    pos[SolverPos.LEADER] = leader
    pos[SolverPos.PLAYED] = played
    pos[SolverPos.TEAM] = team
    pos[SolverPos.CAPOT] = capot
    pos[SolverPos.KQ] = kq
    pos[SolverPos.PLAY] = exempt
    if rules is not None:
        rules_position.py_func(pos, np.asarray(rules, dtype=np.int64))
    return pos


@njit
def rules_position(pos, rules):
    """Set the rules fields of a position (trump K/Q points, play options, capot points) from
    the kernels' rules array."""
    pos[SolverPos.KQ] = rules[RuleSlot.TRUMP_KQ_POINTS]
    pos[SolverPos.PLAY] = play_code(rules)
    pos[SolverPos.CAPOT_252] = rules[RuleSlot.CAPOT_POINTS]


@njit
def set_position(ws, hands, trick, pos):
    """Load a position: ``hands`` int64[4] and the cards of the current trick (``trick``, in
    playing order from its leader), in the solver's encoding; ``pos`` int64[POS_LEN] as
    :class:`layouts.SolverPos`."""
    for p in range(4):
        ws.hands[p] = hands[p]
        ws.trick[p] = trick[p] if p < pos[SolverPos.PLAYED] else -1
    for j in range(POS_LEN):
        ws.st[j] = pos[j]


# The search and the endgames allocate nothing: compiled without reference counting, the
# arrays they hand each other cost no atomic increments (the solve about 10% faster).
@njit_no_refcount
def _store(tt, fr, sp, best, move, hands):
    """Store a trick start's result flagged against its narrowed window; the best lead as its
    suit and index among the suit's cards out (valid for every position of the same key)."""
    code = -1
    if move >= 0:
        s = move >> 3
        o = ((hands[0] | hands[1] | hands[2] | hands[3]) >> (8 * s)) & 0xFF
        code = 8 * s + popcount32(o & ((np.int64(1) << (move & 7)) - 1))
    k1 = fr[sp, Frame.K1]
    k2 = fr[sp, Frame.K2]
    n = fr[sp, Frame.NLEFT]
    lo, hi = flagged(best, fr[sp, Frame.A0], fr[sp, Frame.B0])
    tt_store(tt, k1, k2, lo, hi, code, n)


@njit_no_refcount
def search(ws, alpha, beta, flags):
    """Fail-soft alpha-beta value of the loaded position within (alpha, beta): the contracting
    team's points of the rest of the round (module docstring)."""
    hands = ws.hands
    fr = ws.frames
    mv = ws.moves
    st = ws.st
    stats = ws.stats
    tt = ws.tt
    team = st[SolverPos.TEAM]
    kq = st[SolverPos.KQ]
    pts = ws.pts[kq]
    exempt = st[SolverPos.PLAY]
    rcode = rules_code(st)
    bonus = capot_bonus(st)
    ab = flags & F_ALPHABETA
    stats[SolverStat.SEARCHES] += 1
    leader = st[SolverPos.LEADER]
    played = st[SolverPos.PLAYED]
    wseat = -1
    wcard = -1
    tpts = 0
    out = np.int64(0)
    for i in range(played):
        c = ws.trick[i]
        tpts += pts[c]
        out |= np.int64(1) << c
        if i == 0 or beats(c, wcard):
            wcard = c
            wseat = (leader + i) % 4
    r_pts = 0
    for p in range(4):
        m = hands[p]
        while m:
            r_pts += pts[low_index(m)]
            m &= m - 1
    seat = (leader + played) % 4
    fr[0, Frame.SEAT] = seat
    fr[0, Frame.POS] = played
    fr[0, Frame.WSEAT] = wseat
    fr[0, Frame.WCARD] = wcard
    fr[0, Frame.TPTS] = tpts
    fr[0, Frame.OUT] = out
    fr[0, Frame.LED] = ws.trick[0] >> 3 if played > 0 else -1
    fr[0, Frame.CAPOT] = st[SolverPos.CAPOT]
    fr[0, Frame.NLEFT] = popcount32(hands[seat])
    fr[0, Frame.R] = r_pts
    fr[0, Frame.A] = alpha
    fr[0, Frame.B] = beta
    sp = np.int64(0)  # int64, not a literal: one compiled signature of _store
    mode = 0  # 0 enter node sp, 1 next move of sp, 2 return ret to the parent
    ret = np.int64(0)
    while True:
        if mode == 0:
            stats[SolverStat.NODES] += 1
            seat = fr[sp, Frame.SEAT]
            pos = fr[sp, Frame.POS]
            nleft = fr[sp, Frame.NLEFT]
            capot = fr[sp, Frame.CAPOT]
            a = fr[sp, Frame.A]
            b = fr[sp, Frame.B]
            if not ab:
                a = -INF
                b = INF
            tt_card = -1
            if pos == 0:
                if nleft <= 1:
                    ret = last_trick(hands, seat, capot, st, pts) if nleft else 0
                    mode = 2
                    continue
                # two tricks left: the bounds, then the two-trick search, no table; else the
                # table, then the bounds (one call site of the bounds: numba compiles an
                # inlined function again at every site)
                if nleft > 2 and flags & F_TT:
                    k1, k2 = position_key(
                        hands[0],
                        hands[1],
                        hands[2],
                        hands[3],
                        seat,
                        capot,
                        team,
                        rcode,
                        ws.pext,
                        ws.canon,
                    )
                    fr[sp, Frame.K1] = k1
                    fr[sp, Frame.K2] = k2
                    data = tt_probe(tt, k1, k2)
                    if data >= 0:
                        lo = tt_lo(data)
                        hi = tt_hi(data)
                        if lo == hi or (ab and (lo >= b or hi <= a)):
                            stats[SolverStat.TT_CUTS] += 1
                            ret = hi if (ab and hi <= a) else lo
                            mode = 2
                            continue
                        if ab:
                            a = max(a, lo)
                            b = min(b, hi)
                        code = tt_move(data)
                        if code >= 0:  # the code's card: index (code & 7) among the suit's out
                            s = code >> 3
                            o = ((hands[0] | hands[1] | hands[2] | hands[3]) >> (8 * s)) & 0xFF
                            for _ in range(code & 7):
                                o &= o - 1
                            if o:
                                tt_card = 8 * s + low_index(o)
                if ab and flags & F_BOUNDS:
                    lo, hi = bounds(hands, seat, capot, fr[sp, Frame.R], st, pts)
                    if hi <= a or lo >= b:
                        stats[SolverStat.BOUND_CUTS] += 1
                        ret = hi if hi <= a else lo
                        mode = 2
                        continue
                if nleft == 2:
                    ret = two_tricks(hands, seat, capot, a, b, fr[sp, Frame.R], st, pts)
                    mode = 2
                    continue
                fr[sp, Frame.A0] = a
                fr[sp, Frame.B0] = b
                if nleft == 3:
                    r_pts = fr[sp, Frame.R]
                    ret = three_tricks(
                        hands, seat, capot, a, b, r_pts, st, pts, ws.scratch[0], tt, flags & F_TT
                    )
                    if flags & F_TT:
                        _store(tt, fr, sp, ret, np.int64(-1), hands)
                    mode = 2
                    continue
                if nleft == 4 and ab and flags & F_FOUR:
                    ret, bm = four_tricks(
                        hands,
                        mv[sp : sp + 4],
                        ws.scores[sp : sp + 4],
                        seat,
                        capot,
                        a,
                        b,
                        fr[sp, Frame.R],
                        tt_card,
                        flags,
                        st,
                        pts,
                        ws.reps,
                        ws.pext,
                        ws.canon,
                        tt,
                        ws.scratch[0],
                        stats,
                    )
                    if flags & F_TT:
                        _store(tt, fr, sp, ret, bm, hands)
                    mode = 2
                    continue

            wseat = fr[sp, Frame.WSEAT]
            wcard = fr[sp, Frame.WCARD]
            partner_win = pos >= 2 and wseat == (seat + 2) % 4
            legal = legal_internal(hands[seat], pos, wcard, fr[sp, Frame.LED], partner_win, exempt)
            k = gen_moves(ws, sp, legal, tt_card, flags, pts)
            fr[sp, Frame.MAX] = 1 if (seat & 1) == team else 0
            fr[sp, Frame.A] = a
            fr[sp, Frame.B] = b
            fr[sp, Frame.A0] = a
            fr[sp, Frame.B0] = b
            fr[sp, Frame.BEST] = -INF if fr[sp, Frame.MAX] else INF
            fr[sp, Frame.BM] = -1
            fr[sp, Frame.N] = k
            fr[sp, Frame.I] = 0
            mode = 1
        elif mode == 1:
            i = fr[sp, Frame.I]
            if i >= fr[sp, Frame.N]:
                ret = fr[sp, Frame.BEST]
                if fr[sp, Frame.POS] == 0 and flags & F_TT:
                    _store(tt, fr, sp, ret, fr[sp, Frame.BM], hands)
                mode = 2
                continue
            fr[sp, Frame.I] = i + 1
            c = mv[sp, i]
            fr[sp, Frame.CARD] = c
            seat = fr[sp, Frame.SEAT]
            pos = fr[sp, Frame.POS]
            hands[seat] &= ~(np.int64(1) << c)
            wseat = fr[sp, Frame.WSEAT]
            wcard = fr[sp, Frame.WCARD]
            if pos == 0 or beats(c, wcard):
                wseat = seat
                wcard = c
            tp = fr[sp, Frame.TPTS] + pts[c]
            s1 = sp + 1
            fr[s1, Frame.R] = fr[sp, Frame.R] - pts[c]
            if pos < 3:
                fr[sp, Frame.ADD] = 0
                fr[s1, Frame.SEAT] = (seat + 1) % 4
                fr[s1, Frame.POS] = pos + 1
                fr[s1, Frame.WSEAT] = wseat
                fr[s1, Frame.WCARD] = wcard
                fr[s1, Frame.TPTS] = tp
                fr[s1, Frame.OUT] = fr[sp, Frame.OUT] | (np.int64(1) << c)
                fr[s1, Frame.LED] = c >> 3 if pos == 0 else fr[sp, Frame.LED]
                fr[s1, Frame.CAPOT] = fr[sp, Frame.CAPOT]
                fr[s1, Frame.NLEFT] = fr[sp, Frame.NLEFT]
                fr[s1, Frame.A] = fr[sp, Frame.A]
                fr[s1, Frame.B] = fr[sp, Frame.B]
            else:
                nleft = fr[sp, Frame.NLEFT]
                won = (wseat & 1) == team
                add = 0
                if won:
                    add = tp
                    if nleft == 1:
                        add += LAST_TRICK
                        if fr[sp, Frame.CAPOT]:
                            add += bonus
                fr[sp, Frame.ADD] = add
                fr[s1, Frame.SEAT] = wseat
                fr[s1, Frame.POS] = 0
                fr[s1, Frame.WSEAT] = -1
                fr[s1, Frame.WCARD] = -1
                fr[s1, Frame.TPTS] = 0
                fr[s1, Frame.OUT] = 0
                fr[s1, Frame.LED] = -1
                fr[s1, Frame.CAPOT] = 1 if (fr[sp, Frame.CAPOT] and won) else 0
                fr[s1, Frame.NLEFT] = nleft - 1
                fr[s1, Frame.A] = fr[sp, Frame.A] - add
                fr[s1, Frame.B] = fr[sp, Frame.B] - add
            sp = s1
            mode = 0
        else:
            if sp == 0:
                return ret
            sp -= 1
            c = fr[sp, Frame.CARD]
            hands[fr[sp, Frame.SEAT]] |= np.int64(1) << c
            v = ret + fr[sp, Frame.ADD]
            if fr[sp, Frame.MAX]:
                if v > fr[sp, Frame.BEST]:
                    fr[sp, Frame.BEST] = v
                    fr[sp, Frame.BM] = c
                    if v > fr[sp, Frame.A]:
                        fr[sp, Frame.A] = v
                    if ab and v >= fr[sp, Frame.B]:
                        fr[sp, Frame.I] = fr[sp, Frame.N]
            elif v < fr[sp, Frame.BEST]:
                fr[sp, Frame.BEST] = v
                fr[sp, Frame.BM] = c
                if v < fr[sp, Frame.B]:
                    fr[sp, Frame.B] = v
                if ab and v <= fr[sp, Frame.A]:
                    fr[sp, Frame.I] = fr[sp, Frame.N]
            mode = 1


@njit
def value(ws, guess, flags):
    """Exact value of the loaded position. With alpha-beta and the table: null-window searches
    bracketing the values the position can have, each moving the interval by its fail-soft
    bound; else one full-window search. The values: 0 to ``top`` (the points still to win, the
    last trick's 10 included) and, while a capot is possible, ``top`` plus the capot's bonus;
    the bracketing runs over 0 .. top (the gap up to the capot holds no value) and one more
    search tells a capot from ``top``.

    ``guess`` < 0: the tests split the interval (:func:`_probe`). ``guess`` >= 0 (int64, not a
    literal: one signature): the first test is the guess, the next ones gallop away from it in
    the direction the test failed (steps 2, 4, 8 ... past its fail-soft bound) until the value
    is bracketed, then split it; a close guess takes two or three searches instead of about
    seven. One function for both (and the capot's test): every function calling
    :func:`search` re-optimizes the whole search with it when numba links them (about 1.5
    CPU-s of a cold compile each)."""
    if not (flags & F_ALPHABETA and flags & F_TT):
        return search(ws, np.int64(-INF), np.int64(INF), flags)  # int64: one signature
    top = _top(ws)
    lo = np.int64(0)  # value >= lo (int64, not a literal: one signature of _probe)
    hi = top + 1  # value < hi, or the capot's
    cost = np.zeros(4, dtype=np.int64)  # nodes of the searches that passed, failed; counts
    gallop = guess >= 0
    m = min(max(guess, 1), top) if gallop else _probe(lo, hi, cost)
    step = 2
    while lo + 1 < hi:
        n0 = ws.stats[SolverStat.NODES]
        g = search(ws, m - 1, m, flags)
        _count(cost, g >= m, ws.stats[SolverStat.NODES] - n0)
        if g >= m:
            lo = g
            m = lo + step
        else:
            hi = g + 1
            m = hi - step
        step *= 2
        if not gallop or m <= lo or m >= hi:
            m = _probe(lo, hi, cost)
    st = ws.st
    capot = top + capot_bonus(st)
    if st[SolverPos.CAPOT] and lo >= top:  # ``top`` may be a capot; a bound past it is one
        if lo < capot:
            if search(ws, capot - 1, capot, flags) >= capot:
                lo = capot
        else:
            lo = capot
    return lo


@njit
def _probe(lo, hi, cost):
    """The next null-window test in (lo, hi): the middle until a search has passed and one
    has failed, then the point splitting the interval as the mean nodes of a passing search
    to that of a failing one (within a quarter and three quarters): when proving the value
    at least m costs more than proving it below, tests go higher, so that fewer pass (7%
    fewer nodes over the colver bench's deals)."""
    f = 0.5
    if cost[2] and cost[3]:
        up = cost[0] / cost[2]
        down = cost[1] / cost[3]
        if up + down > 0:
            f = min(max(up / (up + down), 0.25), 0.75)
    m = lo + 1 + np.int64((hi - lo - 1) * f)
    return min(max(m, lo + 1), hi - 1)


@njit
def _count(cost, passed, nodes):
    """Record a search's nodes (``cost``: passing nodes, failing nodes, passes, fails)."""
    k = 0 if passed else 1
    cost[k] += nodes
    cost[k + 2] += 1


@njit
def _top(ws):
    """The most the contracting team can still take short of a capot: the points of the cards
    in the hands and in the current trick, and the last trick's 10."""
    pts = ws.pts[ws.st[SolverPos.KQ]]
    top = LAST_TRICK
    for p in range(4):
        m = ws.hands[p]
        while m:
            top += pts[low_index(m)]
            m &= m - 1
    for i in range(ws.st[SolverPos.PLAYED]):
        top += pts[ws.trick[i]]
    return top


@njit
def solve_position(ws, hands, trick, pos, flags):
    """Load a position (solver encoding, see :func:`set_position`) and return its value."""
    set_position(ws, hands, trick, pos)
    return value(ws, np.int64(-1), flags)


@njit
def play_card(ws, c):
    """Play card ``c`` in the loaded position (it must be legal); returns the points this
    credits to the contracting team (the trick's, when ``c`` completes it)."""
    st = ws.st
    pts = ws.pts[st[SolverPos.KQ]]
    leader = st[SolverPos.LEADER]
    played = st[SolverPos.PLAYED]
    seat = (leader + played) % 4
    ws.hands[seat] &= ~(np.int64(1) << c)
    ws.trick[played] = c
    if played < 3:
        st[SolverPos.PLAYED] = played + 1
        return 0
    wcard = ws.trick[0]
    wseat = leader
    tp = 0
    for i in range(4):
        t = ws.trick[i]
        tp += pts[t]
        if i > 0 and beats(t, wcard):
            wcard = t
            wseat = (leader + i) % 4
    won = (wseat & 1) == st[SolverPos.TEAM]
    add = 0
    if won:
        add = tp
        if ws.hands[0] == 0:
            add += LAST_TRICK
            if st[SolverPos.CAPOT]:
                add += capot_bonus(st)
    st[SolverPos.CAPOT] = 1 if (st[SolverPos.CAPOT] and won) else 0
    st[SolverPos.LEADER] = wseat
    st[SolverPos.PLAYED] = 0
    for i in range(4):
        ws.trick[i] = -1
    return add


@njit
def legal_now(ws):
    """Legal cards of the seat to play in the loaded position (solver encoding)."""
    st = ws.st
    played = st[SolverPos.PLAYED]
    seat = (st[SolverPos.LEADER] + played) % 4
    if played == 0:
        return ws.hands[seat]
    wcard = ws.trick[0]
    wseat = st[SolverPos.LEADER]
    for i in range(1, played):
        if beats(ws.trick[i], wcard):
            wcard = ws.trick[i]
            wseat = (st[SolverPos.LEADER] + i) % 4
    partner_win = played >= 2 and wseat == (seat + 2) % 4
    return legal_internal(
        ws.hands[seat], played, wcard, ws.trick[0] >> 3, partner_win, st[SolverPos.PLAY]
    )


@njit
def move_values(ws, cards, flags, out):
    """Exact value of each card of ``cards`` (a mask, solver encoding; legal cards of the seat
    to play) in the loaded position: ``out[c]`` (int64[32]) receives what playing ``c`` and
    best play after it give the contracting team from the position on (the trick in progress
    included; values as :func:`value`). The loaded position is left as it was.

    One table for all: the first card is valued by :func:`value`, each next one by
    :func:`value` from the value before it (its guess). Of a run of equivalent cards (adjacent among
    the cards out, held by the seat, worth 0: ``REPS``) only the highest is searched; the
    others take its value (the search itself plays such cards as one)."""
    saved_hands = ws.hands.copy()
    saved_trick = ws.trick.copy()
    saved_st = ws.st.copy()
    allout = ws.hands[0] | ws.hands[1] | ws.hands[2] | ws.hands[3]
    for i in range(ws.st[SolverPos.PLAYED]):
        allout |= np.int64(1) << ws.trick[i]
    todo = cards
    if flags & F_EQUIV:
        todo = np.int64(0)
        for s in range(4):
            h = (cards >> (8 * s)) & 0xFF
            if h:
                o = (allout >> (8 * s)) & 0xFF
                todo |= np.int64(ws.reps[1 if s == 0 else 0, o * 256 + h]) << (8 * s)
    guess = np.int64(-1)
    m = todo
    while m:
        c = low_index(m)
        m &= m - 1
        v = play_card(ws, c)
        if ws.hands[0] | ws.hands[1] | ws.hands[2] | ws.hands[3]:
            r = value(ws, guess, flags)
            guess = r
            v += r
        out[c] = v
        ws.hands[:] = saved_hands
        ws.trick[:] = saved_trick
        ws.st[:] = saved_st
    m = cards & ~todo
    while m:  # each equivalent card: the value of the lowest searched card above it
        c = low_index(m)
        m &= m - 1
        above = todo & ~((np.int64(2) << c) - 1) & (np.int64(0xFF) << (8 * (c >> 3)))
        out[c] = out[low_index(above)]


@njit
def solve_line(ws, hands, trick, pos, flags, line):
    """Value of a position and a principal variation: ``line`` (int64[32]) receives the cards
    still to be played in order (solver encoding), -1 after the last. At each step the card
    kept is the lowest (internal index) whose value keeps the position's value. Raises when
    no card does (a table holding values of another game than the position's): playing none
    would never empty the hands and write past the line's end."""
    for i in range(line.shape[0]):
        line[i] = -1
    set_position(ws, hands, trick, pos)
    v = value(ws, np.int64(-1), flags)
    target = v
    saved_hands = np.zeros(4, dtype=np.int64)
    saved_trick = np.zeros(4, dtype=np.int64)
    saved_st = np.zeros(POS_LEN, dtype=np.int64)
    step = 0
    while ws.hands[0] | ws.hands[1] | ws.hands[2] | ws.hands[3]:
        legal = legal_now(ws)
        saved_hands[:] = ws.hands
        saved_trick[:] = ws.trick
        saved_st[:] = ws.st
        chosen = -1
        add_chosen = 0
        m = legal
        while m:
            c = low_index(m)
            m &= m - 1
            add = play_card(ws, c)
            rest = target - add
            if ws.hands[0] | ws.hands[1] | ws.hands[2] | ws.hands[3]:
                ok = rest >= 0 and search(ws, rest - 1, rest + 1, flags) == rest
            else:
                ok = rest == 0
            ws.hands[:] = saved_hands
            ws.trick[:] = saved_trick
            ws.st[:] = saved_st
            if ok:
                chosen = c
                add_chosen = add
                break
        if chosen < 0:
            raise RuntimeError("solve_line: no card keeps the value (table and position disagree)")
        if step >= line.shape[0]:
            raise ValueError("solve_line: the line array is shorter than the cards to play")
        play_card(ws, chosen)
        line[step] = chosen
        step += 1
        target -= add_chosen
    return v


@njit
def _solve_chunk(rounds, template, lo, hi, tt_bits, tables, values):
    """Serial worker of :func:`solve_batch`: rounds lo..hi-1 with one workspace."""
    ws = new_workspace(tt_bits, tables[0], tables[1], tables[2], tables[3])
    h = np.zeros(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    pos = template.copy()
    for i in range(lo, hi):
        for p in range(4):
            h[p] = to_internal(rounds.hands[i, p], rounds.trumps[i])
        pos[SolverPos.LEADER] = rounds.leaders[i]
        pos[SolverPos.TEAM] = rounds.teams[i]
        pos[SolverPos.PLAYED] = 0
        pos[SolverPos.CAPOT] = 1
        values[i] = solve_position(ws, h, trick, pos, F_ALL)


@driver(_solve_chunk)
def solve_batch(rounds, template, tt_bits, tables):
    """Exact values of full rounds: int64[n], the contracting team's card points or its capot's
    points. ``rounds``: :data:`Rounds` (hands int64[n, 4] natural masks N E S W; per round the
    trump suit, the first leader and the contracting team); ``template``: a SolverPos array
    giving the rules fields (KQ, PLAY, CAPOT_252; :func:`position` with ``rules``). 64 fixed
    chunks on threads (``core.engine.jit_threads``), one workspace each (its table kept from
    round to round); values never depend on the thread count. ``tables``: TABLES."""
    n = rounds.hands.shape[0]
    values = np.zeros(n, dtype=np.int64)

    def work(ch: int, lo: int, count: int) -> None:
        _solve_chunk(rounds, template, lo, lo + count, tt_bits, tables, values)

    for_spans(n, min(n, 64), work)
    return values


TABLES = (PEXT, CANON, REPS, PTS)

__all__ = [
    "F_ALL",
    "F_ALPHABETA",
    "F_BOUNDS",
    "F_EQUIV",
    "F_FOUR",
    "F_ORDER",
    "F_PLAIN",
    "F_TT",
    "TABLES",
    "Rounds",
    "Workspace",
    "card_to_natural",
    "legal_now",
    "play_card",
    "make_workspace",
    "move_values",
    "position",
    "rules_position",
    "search",
    "set_position",
    "solve_batch",
    "solve_line",
    "solve_position",
    "value",
]
