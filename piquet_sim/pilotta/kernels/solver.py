"""Exact double-dummy solver for the play of a Pilotta round.

Value: the contracting team's card points from the current position to the end of the round
(last trick 10 included), or, when that team takes every trick of the round, the rest of its
250 capot: ``250 - total + (points of the cards still out) + 10`` where ``total`` is 162 (160
under trump K 3, Q 2). Points already won before the position are not included (add them), so
table entries are values of the rest of the round and stay valid across positions, solves and
deals. The contracting team maximises; the defenders minimise (they play to hold the
contracting team's points down, not to make their own capot).

Search (one concern per file, after bridge's DDS: rules of a trick here in the solver's
encoding, keys and the transposition table in ``solver_tt.py``):

* fail-soft alpha-beta over every card, the side to move being the team of the seat to play;
  an explicit frame stack (numba cannot cache a recursive function), make / unmake of hands;
* the transposition table at trick starts, keyed on the relative configuration of the cards
  out (``solver_tt``), bounds narrowing the window and stored against the narrowed window;
* equivalent cards (adjacent among the cards out, worth 0 points) tried once;
* move ordering: the table's lead first, then rules of thumb (masters, cheap winners, points
  to a winning partner, low cards otherwise);
* remaining-points bounds cut a trick start before its moves are generated;
* the last trick evaluated directly;
* MTD(f): null-window searches converging on the value, the table keeping what each learnt.

``flags`` switch the techniques off one by one (tests compare the pruned solver with the plain
one and with a brute-force reference).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from ...core.bits import high_index, low_index, popcount32
from ...core.jit import njit, njit_inline, njit_parallel
from ...core.rng import stream_key
from .deal import N_PACK, deal_round
from .solver_tt import (
    CANON,
    DEFAULT_TT_BITS,
    PEXT,
    PTS,
    REPS,
    make_tt,
    position_key,
    to_internal,
    tt_hi,
    tt_lo,
    tt_move,
    tt_probe,
    tt_store,
)

INF = 1000
CAPOT_POINTS = 250
LAST_TRICK = 10

F_ALPHABETA = 1  # cut with the window (off: every node searched with the full window)
F_TT = 2  # transposition table
F_EQUIV = 4  # one card of each run of equivalent cards
F_BOUNDS = 8  # remaining-points bounds
F_ORDER = 16  # move ordering heuristics
F_ALL = 31

# stats
S_NODES = 0
S_TT_CUTS = 1
S_BOUND_CUTS = 2
S_SEARCHES = 3
S_POS_NODES = 4  # 4..7: nodes by position in the trick (moves generated)
S_CUT_FIRST = 8  # 8..11: cutoffs on the first move, by position
S_CUT_LATER = 12  # 12..15: cutoffs on a later move
S_ALL_NODES = 16  # 16..19: nodes that tried every move without a cut
S_BY_NLEFT = 20  # 20..28: nodes entered, by tricks left
S_LEN = 29

# root state (``st``)
ST_LEADER = 0  # seat leading the current trick
ST_PLAYED = 1  # cards already in the current trick (0..3), in ``trick[0 ..]``
ST_TEAM = 2  # contracting team (0 NS, 1 EW)
ST_CAPOT = 3  # 1: the contracting team has won every trick of the round so far
ST_KQ = 4  # 1: trump K 3, Q 2
ST_EXEMPT = 5  # 1: partner_exemption
ST_LEN = 6

# frame fields
FR_SEAT = 0
FR_POS = 1  # cards already in the trick before this node's move
FR_WSEAT = 2  # seat winning the trick so far (-1 at a trick start)
FR_WCARD = 3  # its card
FR_TPTS = 4  # card points in the trick so far
FR_OUT = 5  # mask of the cards in the trick so far
FR_CAPOT = 6
FR_NLEFT = 7  # tricks left, the current one included
FR_A = 8
FR_B = 9
FR_A0 = 10  # the window after the table narrowed it (what stored bounds are flagged against)
FR_B0 = 11
FR_BEST = 12
FR_BM = 13  # best move
FR_N = 14  # moves generated
FR_I = 15  # next move to try
FR_CARD = 16  # move being searched
FR_ADD = 17  # points credited between this node and the child being searched
FR_MAX = 18  # 1: the contracting team moves
FR_K1 = 19
FR_K2 = 20
FR_LED = 21  # internal suit led (-1 at a trick start)
FR_R = 22  # card points still in the hands
FR_LEN = 23
MAX_DEPTH = 34

Workspace = namedtuple(
    "Workspace", "tt pext canon reps pts hands trick st frames moves scores stats"
)


def make_workspace(tt_bits: int = DEFAULT_TT_BITS) -> Workspace:
    """A solver workspace (one per thread): the table (``2 ** tt_bits`` rows of 32 bytes), the
    shared lookup tables, and the search's scratch arrays."""
    return Workspace(
        make_tt(tt_bits),
        PEXT,
        CANON,
        REPS,
        PTS,
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(ST_LEN, dtype=np.int64),
        np.zeros((MAX_DEPTH, FR_LEN), dtype=np.int64),
        np.zeros((MAX_DEPTH, 8), dtype=np.int64),
        np.zeros((MAX_DEPTH, 8), dtype=np.int64),
        np.zeros(S_LEN, dtype=np.int64),
    )


@njit
def new_workspace(tt_bits, pext, canon, reps, pts):
    """:func:`make_workspace` inside a kernel (per-thread workspaces of a parallel driver)."""
    tt = np.zeros((np.int64(1) << max(tt_bits, 1), 4), dtype=np.int64)
    for i in range(tt.shape[0]):
        tt[i, 0] = -1
    return Workspace(
        tt,
        pext,
        canon,
        reps,
        pts,
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(ST_LEN, dtype=np.int64),
        np.zeros((MAX_DEPTH, FR_LEN), dtype=np.int64),
        np.zeros((MAX_DEPTH, 8), dtype=np.int64),
        np.zeros((MAX_DEPTH, 8), dtype=np.int64),
        np.zeros(S_LEN, dtype=np.int64),
    )


@njit_inline
def legal_internal(hand, pos, wcard, led, partner_winning, exempt):
    """Legal cards of ``hand`` (solver encoding, trumps = bits 0..7) for a trick holding ``pos``
    cards led in internal suit ``led``, won so far by ``wcard``."""
    if pos == 0:
        return hand
    follow = hand & (np.int64(0xFF) << (8 * led))
    free = exempt != 0 and partner_winning
    if led == 0:
        if follow == 0 or free:
            return follow if follow != 0 else hand
        over = follow & ~((np.int64(2) << wcard) - 1)  # the winner is the highest trump
        return over if over != 0 else follow
    if follow != 0:
        return follow
    if free:
        return hand
    trumps = hand & 0xFF
    if trumps == 0:
        return hand
    if wcard < 8:
        over = trumps & ~((np.int64(2) << wcard) - 1)
        if over != 0:
            return over
    return trumps


@njit_inline
def beats(c, w):
    """True when internal card ``c`` beats the trick's winning card ``w``."""
    if (c >> 3) == (w >> 3):
        return c > w
    return (c >> 3) == 0


@njit
def set_position(ws, hands, trick, played, leader, team, capot, kq, exempt):
    """Load a position (hands int64[4] and trick cards in the solver's encoding)."""
    for p in range(4):
        ws.hands[p] = hands[p]
        ws.trick[p] = trick[p] if p < played else -1
    ws.st[ST_LEADER] = leader
    ws.st[ST_PLAYED] = played
    ws.st[ST_TEAM] = team
    ws.st[ST_CAPOT] = capot
    ws.st[ST_KQ] = kq
    ws.st[ST_EXEMPT] = exempt


@njit_inline
def _gen_moves(ws, sp, legal, seat, pos, wseat, wcard, out, tt_card, flags):
    """Fill ``moves[sp]`` with the cards to try, best first; returns their number."""
    hands = ws.hands
    reps = ws.reps
    pts = ws.pts[ws.st[ST_KQ]]
    mv = ws.moves
    sc = ws.scores
    allout = hands[0] | hands[1] | hands[2] | hands[3] | out
    partner_win = pos >= 2 and wseat == (seat + 2) % 4
    k = 0
    for s in range(4):
        h = (legal >> (8 * s)) & 0xFF
        if h == 0:
            continue
        o = (allout >> (8 * s)) & 0xFF
        if flags & F_EQUIV:
            h = reps[1 if s == 0 else 0, o * 256 + h]
        while h:
            r = low_index(h)
            h &= h - 1
            c = 8 * s + r
            score = 0
            if flags & F_ORDER:
                p = pts[c]
                if pos == 0:
                    master = (o >> (r + 1)) == 0
                    if master:
                        score = 300 + p
                    else:
                        score = 100 - 8 * p - r
                elif partner_win and not (pos == 3 or not beats(c, wcard)):
                    score = 100 + p
                elif partner_win:
                    score = 200 + p - (40 if s == 0 else 0)
                elif beats(c, wcard):
                    if pos == 3:
                        score = 300 + p - r
                    else:
                        score = 250 + r
                else:
                    score = 100 - 8 * p - r
                if c == tt_card:
                    score = 1 << 20
            j = k
            while j > 0 and sc[sp, j - 1] < score:
                mv[sp, j] = mv[sp, j - 1]
                sc[sp, j] = sc[sp, j - 1]
                j -= 1
            mv[sp, j] = c
            sc[sp, j] = score
            k += 1
    return k


@njit
def _last_trick(ws, leader, team, capot, bonus):
    """Value of the last trick (one card in each hand, ``leader`` to lead)."""
    hands = ws.hands
    pts = ws.pts[ws.st[ST_KQ]]
    wc = low_index(hands[leader])
    ws_ = leader
    total = pts[wc]
    for i in range(1, 4):
        p = (leader + i) % 4
        c = low_index(hands[p])
        total += pts[c]
        if beats(c, wc):
            wc = c
            ws_ = p
    if (ws_ & 1) == team:
        v = total + LAST_TRICK
        if capot:
            v += bonus
        return v
    return 0


@njit_inline
def _bounds(hands, leader, team, capot, bonus, pts, r_pts):
    """(lower, upper) bounds of a trick start's value (``r_pts``: points of the cards out).

    The highest trump out wins the trick it is played in, and so does each next trump its
    holder holds in an unbroken run below it: those points go to the holder's team (and a
    defender holding it rules the capot out). With no trump out, the leader can cash his
    unbroken runs from the top of each suit, keeping the lead."""
    lo = 0
    hi = r_pts + LAST_TRICK + (bonus if capot else 0)
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    o = rem & 0xFF
    if o:
        top = high_index(o)
        holder = 0
        while not (hands[holder] >> top) & 1:
            holder += 1
        h = hands[holder]
        run = 0
        r = top
        while r >= 0:
            if (o >> r) & 1:
                if not (h >> r) & 1:
                    break
                run += pts[r]
            r -= 1
        if (holder & 1) == team:
            lo = run
        else:
            hi = r_pts + LAST_TRICK - run
        return lo, hi
    h = hands[leader]
    cash = 0
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
            r -= 1
        if r >= 0 and (hs & ((np.int64(2) << r) - 1)) != 0:
            all_cards = False
    if all_cards:
        cash += LAST_TRICK
        if capot and (leader & 1) == team:
            cash += bonus
    if (leader & 1) == team:
        lo = cash
    else:
        hi = r_pts + LAST_TRICK - cash
    return lo, hi


@njit
def _two_tricks(hands, leader, team, capot, bonus, pts, exempt, a, b):
    """Value of the last two tricks (two cards in each hand, ``leader`` to lead), fail-soft in
    (a, b): the whole tree (at most 16 ways to play the first trick) without frames."""
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
                    w3 = w2
                    s3 = s2
                    if beats(c3, w2):
                        w3 = c3
                        s3 = p3
                    v = 0
                    won = (s3 & 1) == team
                    if won:
                        v = pts[c0] + pts[c1] + pts[c2] + pts[c3]
                    # the last trick: the remaining card of each hand, s3 to lead
                    d0 = h0 & ~(np.int64(1) << c0)
                    d1 = h1 & ~(np.int64(1) << c1)
                    d2 = h2 & ~(np.int64(1) << c2)
                    d3 = h3 & ~(np.int64(1) << c3)
                    k = (s3 - leader) % 4
                    lc = d0 if k == 0 else (d1 if k == 1 else (d2 if k == 2 else d3))
                    wc = low_index(lc)
                    ws_ = s3
                    for i in range(1, 4):
                        j = (k + i) % 4
                        dc = low_index(d0 if j == 0 else (d1 if j == 1 else (d2 if j == 2 else d3)))
                        if beats(dc, wc):
                            wc = dc
                            ws_ = (leader + j) % 4
                    if (ws_ & 1) == team:
                        v += pts[low_index(d0)] + pts[low_index(d1)] + pts[low_index(d2)]
                        v += pts[low_index(d3)] + LAST_TRICK
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


@njit
def search(ws, alpha, beta, flags):
    """Fail-soft alpha-beta value of the loaded position (the rest of the round's points of the
    contracting team, see the module docstring) within (alpha, beta)."""
    hands = ws.hands
    fr = ws.frames
    mv = ws.moves
    st = ws.st
    stats = ws.stats
    tt = ws.tt
    team = st[ST_TEAM]
    kq = st[ST_KQ]
    pts = ws.pts[kq]
    exempt = st[ST_EXEMPT]
    bonus = CAPOT_POINTS - (160 if kq else 162)
    ab = flags & F_ALPHABETA
    stats[S_SEARCHES] += 1
    # root frame
    leader = st[ST_LEADER]
    played = st[ST_PLAYED]
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
    seat = (leader + played) % 4
    fr[0, FR_SEAT] = seat
    fr[0, FR_POS] = played
    fr[0, FR_WSEAT] = wseat
    fr[0, FR_WCARD] = wcard
    fr[0, FR_TPTS] = tpts
    fr[0, FR_OUT] = out
    fr[0, FR_LED] = ws.trick[0] >> 3 if played > 0 else -1
    r_pts = 0
    for p in range(4):
        m = hands[p]
        while m:
            r_pts += pts[low_index(m)]
            m &= m - 1
    fr[0, FR_R] = r_pts
    fr[0, FR_CAPOT] = st[ST_CAPOT]
    fr[0, FR_NLEFT] = popcount32(hands[seat])
    fr[0, FR_A] = alpha
    fr[0, FR_B] = beta
    sp = 0
    mode = 0  # 0 enter node sp, 1 next move of sp, 2 return ret to the parent
    ret = np.int64(0)
    while True:
        if mode == 0:
            stats[S_NODES] += 1
            seat = fr[sp, FR_SEAT]
            pos = fr[sp, FR_POS]
            nleft = fr[sp, FR_NLEFT]
            stats[S_BY_NLEFT + nleft] += 1
            capot = fr[sp, FR_CAPOT]
            a = fr[sp, FR_A]
            b = fr[sp, FR_B]
            if not ab:
                a = -INF
                b = INF
            tt_card = -1
            if pos == 0:
                if nleft == 0:
                    ret = 0
                    mode = 2
                    continue
                if nleft == 1:
                    ret = _last_trick(ws, seat, team, capot, bonus)
                    mode = 2
                    continue
                if nleft == 2:
                    ret = _two_tricks(hands, seat, team, capot, bonus, pts, exempt, a, b)
                    mode = 2
                    continue
                if flags & F_TT:
                    k1, k2 = position_key(
                        hands[0], hands[1], hands[2], hands[3], seat, capot, team, kq,
                        ws.pext, ws.canon,
                    )  # fmt: skip
                    fr[sp, FR_K1] = k1
                    fr[sp, FR_K2] = k2
                    data = tt_probe(tt, k1, k2)
                    if data >= 0:
                        lo = tt_lo(data)
                        hi = tt_hi(data)
                        if lo == hi or (ab and lo >= b):
                            stats[S_TT_CUTS] += 1
                            ret = lo
                            mode = 2
                            continue
                        if ab and hi <= a:
                            stats[S_TT_CUTS] += 1
                            ret = hi
                            mode = 2
                            continue
                        if ab:
                            if lo > a:
                                a = lo
                            if hi < b:
                                b = hi
                        code = tt_move(data)
                        if code >= 0:
                            s = code >> 3
                            o = ((hands[0] | hands[1] | hands[2] | hands[3]) >> (8 * s)) & 0xFF
                            idx = code & 7
                            while idx > 0 and o:
                                o &= o - 1
                                idx -= 1
                            if o:
                                tt_card = 8 * s + low_index(o)
                if ab and flags & F_BOUNDS:
                    lo, hi = _bounds(hands, seat, team, capot, bonus, pts, fr[sp, FR_R])
                    if hi <= a:
                        stats[S_BOUND_CUTS] += 1
                        ret = hi
                        mode = 2
                        continue
                    if lo >= b:
                        stats[S_BOUND_CUTS] += 1
                        ret = lo
                        mode = 2
                        continue
            wseat = fr[sp, FR_WSEAT]
            wcard = fr[sp, FR_WCARD]
            partner_win = pos >= 2 and wseat == (seat + 2) % 4
            legal = legal_internal(hands[seat], pos, wcard, fr[sp, FR_LED], partner_win, exempt)
            k = _gen_moves(ws, sp, legal, seat, pos, wseat, wcard, fr[sp, FR_OUT], tt_card, flags)
            fr[sp, FR_MAX] = 1 if (seat & 1) == team else 0
            stats[S_POS_NODES + pos] += 1
            fr[sp, FR_A] = a
            fr[sp, FR_B] = b
            fr[sp, FR_A0] = a
            fr[sp, FR_B0] = b
            fr[sp, FR_BEST] = -INF if fr[sp, FR_MAX] else INF
            fr[sp, FR_BM] = -1
            fr[sp, FR_N] = k
            fr[sp, FR_I] = 0
            mode = 1
        elif mode == 1:
            i = fr[sp, FR_I]
            if i >= fr[sp, FR_N]:
                if i == fr[sp, FR_N]:
                    stats[S_ALL_NODES + fr[sp, FR_POS]] += 1
                best = fr[sp, FR_BEST]
                if fr[sp, FR_POS] == 0 and flags & F_TT:
                    bm = fr[sp, FR_BM]
                    code = -1
                    if bm >= 0:
                        s = bm >> 3
                        o = ((hands[0] | hands[1] | hands[2] | hands[3]) >> (8 * s)) & 0xFF
                        code = 8 * s + popcount32(o & ((np.int64(1) << (bm & 7)) - 1))
                    k1 = fr[sp, FR_K1]
                    k2 = fr[sp, FR_K2]
                    n = fr[sp, FR_NLEFT]
                    if best <= fr[sp, FR_A0]:
                        tt_store(tt, k1, k2, 0, best, code, n)
                    elif best >= fr[sp, FR_B0]:
                        tt_store(tt, k1, k2, best, 511, code, n)
                    else:
                        tt_store(tt, k1, k2, best, best, code, n)
                ret = best
                mode = 2
                continue
            fr[sp, FR_I] = i + 1
            c = mv[sp, i]
            fr[sp, FR_CARD] = c
            seat = fr[sp, FR_SEAT]
            pos = fr[sp, FR_POS]
            hands[seat] &= ~(np.int64(1) << c)
            wseat = fr[sp, FR_WSEAT]
            wcard = fr[sp, FR_WCARD]
            if pos == 0 or beats(c, wcard):
                wseat = seat
                wcard = c
            tp = fr[sp, FR_TPTS] + pts[c]
            s1 = sp + 1
            if pos < 3:
                fr[sp, FR_ADD] = 0
                fr[s1, FR_SEAT] = (seat + 1) % 4
                fr[s1, FR_POS] = pos + 1
                fr[s1, FR_WSEAT] = wseat
                fr[s1, FR_WCARD] = wcard
                fr[s1, FR_TPTS] = tp
                fr[s1, FR_OUT] = fr[sp, FR_OUT] | (np.int64(1) << c)
                fr[s1, FR_LED] = c >> 3 if pos == 0 else fr[sp, FR_LED]
                fr[s1, FR_R] = fr[sp, FR_R] - pts[c]
                fr[s1, FR_CAPOT] = fr[sp, FR_CAPOT]
                fr[s1, FR_NLEFT] = fr[sp, FR_NLEFT]
                fr[s1, FR_A] = fr[sp, FR_A]
                fr[s1, FR_B] = fr[sp, FR_B]
            else:
                nleft = fr[sp, FR_NLEFT]
                won = (wseat & 1) == team
                add = 0
                if won:
                    add = tp
                    if nleft == 1:
                        add += LAST_TRICK
                        if fr[sp, FR_CAPOT]:
                            add += bonus
                fr[sp, FR_ADD] = add
                fr[s1, FR_SEAT] = wseat
                fr[s1, FR_POS] = 0
                fr[s1, FR_WSEAT] = -1
                fr[s1, FR_WCARD] = -1
                fr[s1, FR_TPTS] = 0
                fr[s1, FR_OUT] = 0
                fr[s1, FR_LED] = -1
                fr[s1, FR_R] = fr[sp, FR_R] - pts[c]
                fr[s1, FR_CAPOT] = 1 if (fr[sp, FR_CAPOT] and won) else 0
                fr[s1, FR_NLEFT] = nleft - 1
                fr[s1, FR_A] = fr[sp, FR_A] - add
                fr[s1, FR_B] = fr[sp, FR_B] - add
            sp = s1
            mode = 0
        else:
            if sp == 0:
                return ret
            sp -= 1
            c = fr[sp, FR_CARD]
            hands[fr[sp, FR_SEAT]] |= np.int64(1) << c
            v = ret + fr[sp, FR_ADD]
            if fr[sp, FR_MAX]:
                if v > fr[sp, FR_BEST]:
                    fr[sp, FR_BEST] = v
                    fr[sp, FR_BM] = c
                    if v > fr[sp, FR_A]:
                        fr[sp, FR_A] = v
                    if ab and v >= fr[sp, FR_B]:
                        if fr[sp, FR_I] == 1:
                            stats[S_CUT_FIRST + fr[sp, FR_POS]] += 1
                        else:
                            stats[S_CUT_LATER + fr[sp, FR_POS]] += 1
                        fr[sp, FR_I] = fr[sp, FR_N] + 1
            else:
                if v < fr[sp, FR_BEST]:
                    fr[sp, FR_BEST] = v
                    fr[sp, FR_BM] = c
                    if v < fr[sp, FR_B]:
                        fr[sp, FR_B] = v
                    if ab and v <= fr[sp, FR_A]:
                        if fr[sp, FR_I] == 1:
                            stats[S_CUT_FIRST + fr[sp, FR_POS]] += 1
                        else:
                            stats[S_CUT_LATER + fr[sp, FR_POS]] += 1
                        fr[sp, FR_I] = fr[sp, FR_N] + 1
            mode = 1


@njit
def mtdf(ws, guess, flags):
    """Exact value of the loaded position by MTD(f): null-window searches converging from
    ``guess`` (the table keeps what each pass learnt). Without alpha-beta or without the table,
    one full-window search."""
    if not flags & F_ALPHABETA or not flags & F_TT:
        return search(ws, -INF, INF, flags)
    lo = -INF
    hi = INF
    g = guess
    while lo < hi:
        b = g + 1 if g == lo else g
        g = search(ws, b - 1, b, flags)
        if g < b:
            hi = g
        else:
            lo = g
    return g


@njit
def solve_position(ws, hands, trick, played, leader, team, capot, kq, exempt, flags):
    """Exact rest-of-round value of a position given in the solver's encoding."""
    set_position(ws, hands, trick, played, leader, team, capot, kq, exempt)
    return mtdf(ws, 81, flags)
