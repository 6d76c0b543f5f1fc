"""What both searches do at a node: which points are still live, which cards are worth trying
(one of each run of equivalent cards, best first), making and unmaking a move.

Values are per seat, packed four bits a seat with seat 0 in the highest nibble (bits 20..23):
``points << shift(seat)``; adding two packed vectors adds seat by seat (a seat's points in a
round never exceed 6). The search state lives in :data:`SearchWork`; a ply is one row of
``frames`` (:class:`~..layouts.Frame`).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.bits import high_index, low_index, popcount64
from ...core.engine.jit import njit, njit_inline, njit_no_refcount
from ...core.engine.move_order import insert_by_score
from ..layouts import SEATS, TRICKS, Ctx, Endgame, Frame, SearchStat
from .search_tt import DEFAULT_TT_BITS, key_a, key_b, make_tt, tt_probe, tt_store
from .tricks import beats, card_game_points, legal_plays, mask_game_points, suit_mask, trick_bonus

#: The search loops allocate nothing: with numba's reference counting every helper handed the
#: workspace tuple would count each of its twelve arrays (the caller keeps them alive).
njit_search = njit_no_refcount

MAX_PLY = SEATS * TRICKS + 2
MAX_MOVES = 16
#: words of a line table entry: two key words, the plies with one legal card (a bit per node
#: of the first trick's tree) and one record per line (2 ** SEATS at most)
LINE_WORDS = 3 + (1 << SEATS)
#: Ranks two to nine of every suit: cards worth no game point.
PLAIN = np.int64(0x00FF_00FF_00FF_00FF)
ALL_RANKS = np.int64(0x1FFF_1FFF_1FFF_1FFF)
SIX_RANK = 4
JACK_RANK = 9

# search techniques (Ctx.FLAGS), switched off one by one in tests
F_TT = 1  # transposition table
F_EQUIV = 2  # one card of each run of equivalent cards
F_PRUNE = 4  # max^n: shallow and immediate pruning; paranoid: alpha-beta windows and bounds
F_ORDER = 8  # move ordering (table move first, then heuristics)
F_SPEC = 64  # max^n: speculative pruning (two plies up, searched again when needed)
F_LINES = 128  # the last two tricks' lines kept per position regardless of Game's state
F_ALL = 15 | F_SPEC | F_LINES
#: max^n tie rule (not a technique): set, a player indifferent between cards (equal own
#: points) takes the full order of :func:`pref_key`; clear (default), the first card in the
#: static order of :func:`static_key`
F_TIE_FULL = 16
#: tests only (not a technique): moves in the reverse of the static order, no table move
#: first, so every cut must hold whatever order the moves come in
F_REVERSE = 32

#: Per-thread search state: table, stack frames, move lists and their scores, current hands
#: and game-point totals per seat, counters, the generation counter and the search constants.
SearchWork = namedtuple(
    "SearchWork",
    [
        "tt",
        "frames",
        "moves",
        "scores",
        "hands",
        "game",
        "stats",
        "gen",
        "ctx",
        "root",
        "owner",
        "eg",
        "lines",
    ],
)


#: the line table has 2 ** LINE_BITS_BELOW fewer entries than the table, and 2 ** LINE_BITS_MIN
#: at least
LINE_BITS_BELOW = 4
LINE_BITS_MIN = 6


def line_bits(tt_bits: int) -> int:
    """Size (log2 entries) of the line table that goes with a table of ``2 ** tt_bits``."""
    return max(tt_bits - LINE_BITS_BELOW, LINE_BITS_MIN)


def make_work(tt_bits: int = DEFAULT_TT_BITS) -> SearchWork:
    """A fresh workspace with a table of ``2 ** tt_bits`` entries (32 bytes each) and a line
    table of ``2 ** line_bits(tt_bits)`` entries (536 bytes each)."""
    return SearchWork(
        make_tt(tt_bits),
        np.zeros((MAX_PLY, Frame.LEN), dtype=np.int64),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SearchStat.LEN, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(Ctx.LEN, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(64, dtype=np.int64),
        np.zeros((SEATS, Endgame.LEN), dtype=np.int64),
        make_lines(line_bits(tt_bits)),
    )


def make_lines(bits: int) -> np.ndarray:
    """An empty line table of ``2 ** bits`` entries (see :func:`stored_two_tricks`)."""
    return np.full((1 << bits, LINE_WORDS), -1, dtype=np.int64)


@njit
def new_work(tt_bits):
    """:func:`make_work` inside a kernel (one per thread of a parallel driver)."""
    return SearchWork(
        np.full((np.int64(1) << tt_bits) * 4, -1, dtype=np.int64),
        np.zeros((MAX_PLY, Frame.LEN), dtype=np.int64),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SearchStat.LEN, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(Ctx.LEN, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(64, dtype=np.int64),
        np.zeros((SEATS, Endgame.LEN), dtype=np.int64),
        np.full(
            (np.int64(1) << max(tt_bits - LINE_BITS_BELOW, LINE_BITS_MIN), LINE_WORDS),
            -1,
            dtype=np.int64,
        ),
    )


@njit
def shift(seat):
    """Bit offset of a seat's nibble in a packed vector (seat 0 highest)."""
    return 4 * (5 - seat)


@njit
def seat_add(seat, j, n):
    """``(seat + j) % n`` for ``0 <= seat, j < n`` without a division (hot in the search)."""
    s = seat + j
    return s - n if s >= n else s


@njit
def nibble(v, seat):
    """Points of ``seat`` in packed vector ``v``."""
    return (v >> shift(seat)) & 15


@njit
def nibble_sum(v):
    """Total points in a packed vector."""
    return ((v * 0x111111) >> 20) & 15


@njit
def pref_key(v, mover, bidder):
    """Preference of ``mover`` for outcome ``v`` (larger is preferred; a total order on
    vectors): his own points; then, for a defender, fewer points for the bidder; then fewer
    points in all; then the vector smaller in seat order (seat 0 first)."""
    k = nibble(v, mover) << 36
    if mover != bidder:
        k |= (15 - nibble(v, bidder)) << 32
    k |= (15 - nibble_sum(v)) << 28
    return k | (0xFFFFFF - v)


@njit
def static_key(c, first, best, trump):
    """Place (0..255, smaller first) of card ``c`` in the static move order of a position,
    given the trick's first card and winning card so far (-1 at a lead) and the trump (-1
    before the pitch). A lead: trumps, then the other suits, each suit in suit order, high
    cards first. A follow: cards that take the lead in the same suit as the winning card, then
    trumps that take it, then the others (trumps last), each suit in suit order, low cards
    first. Only suits and the order of ranks within a suit count, so equivalent cards sit
    together and positions with the same canonical cards order their cards alike."""
    suit = c >> 4
    r = c & 15
    if first < 0:
        return (0 if suit == trump else 64) + 16 * suit + 15 - r
    if beats(c, best, trump):
        return (0 if suit == (best >> 4) else 64) + 16 * suit + r
    return (192 if suit == trump else 128) + 16 * suit + r


@njit
def tie_key(v, mover, bidder, full, skey):
    """Preference of ``mover`` for outcome ``v`` reached by a card of static key ``skey``
    (larger is preferred). ``full``: :func:`pref_key`; else his own points, then the card
    first in the static order."""
    if full:
        return pref_key(v, mover, bidder)
    return (nibble(v, mover) << 8) | (255 - skey)


@njit
def tighten(ub, lb, ub2, lb2, n, seat):
    """Bounds ``ub``/``lb`` narrowed by a table entry's (``ub2``/``lb2``): the mover's
    (``seat``) lower bound and everyone else's upper bounds, the only ones a cut proves (see
    ``maxn``). The mover's upper bound and the others' lower bounds stay those of
    :func:`point_bounds`, which hold for every outcome below the node, not only for its value."""
    for s in range(n):
        sh = shift(s)
        if s == seat:
            lo = (lb >> sh) & 15
            lo2 = (lb2 >> sh) & 15
            if lo2 > lo:
                lb += (lo2 - lo) << sh
        else:
            u = (ub >> sh) & 15
            u2 = (ub2 >> sh) & 15
            if u2 < u:
                ub -= (u - u2) << sh
    return ub, lb


@njit_inline
def in_hands(hands, n):
    """Every card still in a hand."""
    out = np.int64(0)
    for s in range(n):
        out |= hands[s]
    return out


@njit
def live_points(out, trump, low, glive):
    """Most points still to be decided (all seats together) when ``out`` holds every card
    still in hand or in the trick: Last, Game while live, the Jack and Six of trumps while out,
    the Low card while it may be captured. Before the pitch: 6."""
    if trump < 0:
        return np.int64(6)
    base = 16 * trump
    return (
        1
        + glive
        + ((out >> (base + JACK_RANK)) & 1)
        + ((out >> (base + SIX_RANK)) & 1)
        + (((out >> low) & 1) if low >= 0 else 0)
    )


@njit
def plain_cards(trump, low, glive):
    """Cards whose only use is to win or lose a trick: ranks two to nine (every rank once
    Game is settled), less the Jack and Six of trumps and the Low card still to capture."""
    plain = PLAIN if glive else ALL_RANKS
    if trump >= 0:
        plain &= ~(np.int64(1) << (16 * trump + SIX_RANK))
        plain &= ~(np.int64(1) << (16 * trump + JACK_RANK))
    if low >= 0:
        plain &= ~(np.int64(1) << low)
    return plain


@njit_inline
def canonical(work, out, plain):
    """The cards ``out`` with every plain card replaced by the lowest card its holder was
    dealt (``work.root``) that keeps the order of the suit's cards still out: positions with
    the same canonical cards have the same value."""
    canon = out & ~plain  # those stay; only the plain cards are visited, in card order
    last_c = np.int64(-1)  # the plain card visited last and where it went
    last_d = np.int64(-1)
    m = out & plain
    while m:
        c = low_index(m)
        m &= m - 1
        # where the card below it in its suit went (a plain one: the last visited)
        below = out & suit_mask(c >> 4) & ((np.int64(1) << c) - 1)
        if below == 0:
            prev = (c & ~15) - 1  # -1 below suit 0's first card: no shift by -1
        else:
            p = high_index(below)
            prev = last_d if p == last_c else p
        cand = work.root[work.owner[c]] & plain & ~((np.int64(1) << (prev + 1)) - 1)
        d = low_index(cand)
        canon |= np.int64(1) << d
        last_c = c
        last_d = d
    return canon


@njit
def representatives(legal, out, plain):
    """One card of each run of equivalent cards in ``legal``: cards of ``plain`` (see
    :func:`plain_cards`) with no card of ``out`` (cards in hand or in the trick) between them.
    The highest card of a run stands for it."""
    cand = legal & plain
    keep = legal & ~plain
    m = cand
    while m:
        c = low_index(m)
        m &= m - 1
        above = (out & suit_mask(c >> 4)) >> (c + 1)
        if above == 0 or ((cand >> (c + 1 + low_index(above))) & 1) == 0:
            keep |= np.int64(1) << c
    return keep


@njit
def spread(seats):
    """Packed vector with one point for each seat in the bit set ``seats``."""
    v = np.int64(0)
    m = seats
    while m:
        v += np.int64(1) << shift(low_index(m))
        m &= m - 1
    return v


@njit_inline
def _trump_point(fr, hands, sp, out, card, n, seats):
    """(seats that may capture trump ``card`` as a bit set, seat sure to capture it or -1),
    ``card`` still out: the winner of its trick plays a trump at least as high, so he holds
    one now or is winning the trick in progress (the card may fall in it)."""
    tm = suit_mask(card >> 4)
    geq = tm & ~((np.int64(1) << card) - 1)
    above = geq & ~(np.int64(1) << card)
    cand = np.int64(0)
    sure = np.int64(-1)
    if fr[sp, Frame.K] > 0:
        cand |= np.int64(1) << fr[sp, Frame.WSEAT]
    if (fr[sp, Frame.TMASK] >> card) & 1:
        w = fr[sp, Frame.WSEAT]
        best = fr[sp, Frame.BEST]
        if (best >> 4) == (card >> 4):
            # the trick's winner keeps it unless a seat still to play holds a higher trump
            higher = tm & ~((np.int64(2) << best) - 1)
            threat = np.int64(0)
            seat = fr[sp, Frame.SEAT]
            for j in range(n - fr[sp, Frame.K]):
                threat |= hands[seat_add(seat, j, n)] & higher
            if threat == 0:
                sure = w
    for s in range(n):
        h = hands[s]
        if h & geq:
            cand |= np.int64(1) << s
            if (h >> card) & 1 and (out & above & ~h) == 0:
                sure = np.int64(s)  # he holds it and every trump above it still out
    return cand & seats, sure


@njit_inline
def point_bounds(fr, ctx, hands, game, sp, out, smax):
    """(most points, fewest points) each seat can take from ply ``sp`` on, packed per seat,
    whatever anyone plays: a point counts for the seats that might still win it (Jack, Six and
    a Low to capture only for those holding a trump at least as high, or winning the trick it
    lies in; Game only for those who can still pass everyone; Last only for trump holders
    when a hand holds nothing but trumps); the fewest are the points a seat holds for sure
    (a trump point held with every higher trump still out). Before the pitch: ``smax`` for
    everyone, 0. The arrays are the search state's (frames, ctx, hands, game)."""
    n = ctx[Ctx.PLAYERS]
    trump = fr[sp, Frame.TRUMP]
    seats = (np.int64(1) << n) - 1
    if trump < 0:
        ub = np.int64(0)
        for s in range(n):
            ub |= smax << shift(s)
        return ub, np.int64(0)
    tm = suit_mask(trump)
    ub = np.int64(0)
    lb = np.int64(0)
    base = 16 * trump
    k = fr[sp, Frame.K]
    for i in range(3):
        if i == 0:
            card = base + JACK_RANK
        elif i == 1:
            card = base + SIX_RANK
        else:
            card = fr[sp, Frame.LOW]
            if card < 0:
                continue
        if (out >> card) & 1 == 0:
            continue
        cand, sure = _trump_point(fr, hands, sp, out, card, n, seats)
        if sure >= 0:
            lb += np.int64(1) << shift(sure)
            ub += np.int64(1) << shift(sure)
            continue
        ub += spread(cand)
    # Last
    last = seats
    for s in range(n):
        h = hands[s]
        if h != 0 and (h & ~tm) == 0:
            if (out & tm & ~h) == 0:  # he plays a trump to the last trick, nobody else has one
                lb += np.int64(1) << shift(s)
                last = np.int64(1) << s
                break
            last = np.int64(0)
            for t in range(n):
                if hands[t] & tm:
                    last |= np.int64(1) << t
            if k > 0:
                last |= np.int64(1) << fr[sp, Frame.WSEAT]
            break
    ub += spread(last)
    # Game
    if fr[sp, Frame.GLIVE]:
        rem = mask_game_points(out)
        tie = ctx[Ctx.TIE_BIDDER]
        bidder = ctx[Ctx.BIDDER]
        for s in range(n):
            top = np.int64(0)
            for t in range(n):
                if t != s and game[t] > top:
                    top = game[t]
            g = game[s] + rem
            if g > top or (tie and s == bidder and g == top and g > 0):
                ub += np.int64(1) << shift(s)
    return ub, lb


@njit_inline
def game_top_two(game, n, w1, g1, w2, g2):
    """(highest game total, its seat, second highest) of the totals ``game`` of seats 0..n-1
    with ``g1`` more to seat ``w1`` and ``g2`` more to seat ``w2`` (-1: nobody)."""
    top = np.int64(-1)
    arg = np.int64(-1)
    second = np.int64(-1)
    for s in range(n):
        g = game[s]
        if s == w1:
            g += g1
        if s == w2:
            g += g2
        if g > top:
            second = top
            top = g
            arg = s
        elif g > second:
            second = g
    return top, arg, second


@njit
def game_taker(top, arg, second, bidder_total, bidder, tie_bidder):
    """Seat scoring Game once no game point is left (:func:`game_top_two`'s figures and the
    bidder's total), or -1: nobody took a game point, or a tie not given to the bidder."""
    if top == 0:
        return np.int64(-1)
    if top > second:
        return arg
    if tie_bidder and bidder_total == top:
        return np.int64(bidder)
    return np.int64(-1)


@njit_inline
def game_decided(game, n, remaining, bidder, tie_bidder):
    """(1, seat scoring Game or -1) when Game can no longer change: no game point left in
    hand, or the leader ahead of everyone by more than what is left; else (0, -1)."""
    top, arg, second = game_top_two(game, n, -1, 0, -1, 0)
    if remaining == 0:
        return 1, game_taker(top, arg, second, game[bidder], bidder, tie_bidder)
    if top - second > remaining:
        return 1, arg
    return 0, np.int64(-1)


@njit_inline
def generate(work, sp, tt_move):
    """Fill ``moves[sp]`` with the cards to try at ply ``sp``, best first; returns the count.
    With F_ORDER: the table move ``tt_move`` first, then max^n under the static-order tie
    rule the static order (:func:`static_key`), else heuristics; without, card order; with
    F_REVERSE, the reverse static order."""
    fr = work.frames
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    flags = ctx[Ctx.FLAGS]
    seat = fr[sp, Frame.SEAT]
    trump = fr[sp, Frame.TRUMP]
    best = fr[sp, Frame.BEST]
    first = fr[sp, Frame.FIRST]
    hand = work.hands[seat]
    legal = legal_plays(hand, first, trump, ctx[Ctx.MUST_FOLLOW], fr[sp, Frame.PITCH])
    if flags & F_EQUIV and trump >= 0:
        out = in_hands(work.hands, n) | fr[sp, Frame.TMASK]
        legal = representatives(
            legal, out, plain_cards(trump, fr[sp, Frame.LOW], fr[sp, Frame.GLIVE])
        )
    moves = work.moves[sp]
    scores = work.scores[sp]
    # max^n under the static-order tie rule searches in that order (the table move first)
    static = ctx[Ctx.PARANOID] == 0 and not flags & F_TIE_FULL
    k = 0
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        sc = np.int64(0)
        if flags & F_REVERSE:
            sc = static_key(c, first, best, trump)
        elif flags & F_ORDER and static:
            sc = 1000 if c == tt_move else 255 - static_key(c, first, best, trump)
        elif flags & F_ORDER:
            r = c & 15
            is_trump = (c >> 4) == trump
            if c == tt_move:
                sc = np.int64(1000)
            elif first < 0:
                sc = 100 + r + (30 if is_trump else 0)  # high trumps, then high cards
            elif beats(c, best, trump):
                sc = 300 - r - (20 if is_trump and (first >> 4) != trump else 0)
            else:
                sc = 200 - 2 * card_game_points(c) - r - (20 if is_trump else 0)
        k = insert_by_score(moves, scores, k, c, sc)
    return k


@njit
def low_trump(out, trump):
    """Lowest trump among ``out`` (-1 when none)."""
    t = out & suit_mask(trump)
    if t == 0:
        return np.int64(-1)
    return low_index(t)


@njit_inline
def pitch_gain(work, sp, trump, tmask):
    """(points decided when trump becomes known: High and, to the holder, Low, packed; the
    Low card still to be captured or -1). ``tmask`` holds the trick's cards (already out of
    the hands); their players are found from the trick's leader."""
    ctx = work.ctx
    out = in_hands(work.hands, ctx[Ctx.PLAYERS]) | tmask
    trumps = out & suit_mask(trump)
    hi = high_index(trumps)
    lo = low_index(trumps)
    gain = np.int64(1) << shift(holder(work, sp, hi))
    low_card = np.int64(-1)
    if ctx[Ctx.LOW_CAPT]:
        low_card = lo
    else:
        gain += np.int64(1) << shift(holder(work, sp, lo))
    return gain, low_card


@njit_inline
def holder(work, sp, card):
    """Seat holding ``card`` or having played it to the trick in progress at ply ``sp``."""
    n = work.ctx[Ctx.PLAYERS]
    for s in range(n):
        if (work.hands[s] >> card) & 1:
            return np.int64(s)
    # played to the current trick: plies sp-k .. sp of the trick, one per seat
    fr = work.frames
    k = fr[sp, Frame.K]
    for j in range(k + 1):
        p = sp - k + j
        if fr[p, Frame.CUR] == card:
            return fr[p, Frame.SEAT]
    return np.int64(-1)


@njit_inline
def make_move(work, sp, c, paranoid):
    """Play card ``c`` at ply ``sp``: set up ply ``sp + 1`` and return the points the move
    decided (packed): High/Low at the pitch, and when it completes a trick, the trick's Jack,
    Six, Low, Last and Game if it is now decided. ``paranoid``: a constant, the search's."""
    fr = work.frames
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    seat = fr[sp, Frame.SEAT]
    k = fr[sp, Frame.K]
    bit = np.int64(1) << c
    work.hands[seat] &= ~bit
    fr[sp, Frame.CUR] = c
    tmask = fr[sp, Frame.TMASK] | bit
    trump = fr[sp, Frame.TRUMP]
    low = fr[sp, Frame.LOW]
    gain = np.int64(0)
    if trump < 0:
        trump = c >> 4
        gain, low = pitch_gain(work, sp, trump, tmask)
    first = fr[sp, Frame.FIRST]
    best = fr[sp, Frame.BEST]
    wseat = fr[sp, Frame.WSEAT]
    if first < 0:
        first = c
    if best < 0 or beats(c, best, trump):
        best = c
        wseat = seat
    c1 = sp + 1
    fr[c1, Frame.TRUMP] = trump
    fr[c1, Frame.LOW] = low
    glive = fr[sp, Frame.GLIVE]
    fr[sp, Frame.GWIN] = -1
    fr[sp, Frame.CLOSED] = 0
    if k + 1 < n:
        fr[c1, Frame.SEAT] = seat_add(seat, 1, n)
        fr[c1, Frame.K] = k + 1
        fr[c1, Frame.FIRST] = first
        fr[c1, Frame.BEST] = best
        fr[c1, Frame.WSEAT] = wseat
        fr[c1, Frame.TMASK] = tmask
        fr[c1, Frame.PITCH] = fr[sp, Frame.PITCH]
        fr[c1, Frame.GLIVE] = glive
        return gain
    # the trick is complete
    last = 1 if work.hands[seat] == 0 else 0
    gp = mask_game_points(tmask)
    work.game[wseat] += gp
    fr[sp, Frame.GWIN] = wseat
    fr[sp, Frame.GPTS] = gp
    gain += trick_bonus(tmask, trump, low, last) << shift(wseat)
    if glive:
        remaining = mask_game_points(in_hands(work.hands, n))
        decided, taker = game_decided(work.game, n, remaining, ctx[Ctx.BIDDER], ctx[Ctx.TIE_BIDDER])
        if decided:
            glive = 0
            if taker >= 0:
                gain += np.int64(1) << shift(taker)
    left = popcount64(work.hands[wseat])
    if left == 1:
        gain += last_trick(work, wseat, trump, low, glive)
        fr[sp, Frame.CLOSED] = 1
        return gain
    if left == 2:
        if paranoid:
            gain += paranoid_two_tricks(work, wseat, trump, low, glive)
        else:
            gain += stored_two_tricks(work, wseat, trump, low, glive)
        fr[sp, Frame.CLOSED] = 1
        return gain
    fr[c1, Frame.SEAT] = wseat
    fr[c1, Frame.K] = 0
    fr[c1, Frame.FIRST] = -1
    fr[c1, Frame.BEST] = -1
    fr[c1, Frame.WSEAT] = -1
    fr[c1, Frame.TMASK] = 0
    fr[c1, Frame.PITCH] = 0
    fr[c1, Frame.GLIVE] = glive
    return gain


@njit_inline
def last_trick(work, leader, trump, low, glive):
    """Points of the last trick, when every player holds one card (no choice is left): the
    trick's Jack, Six, Low and Last to its winner, and Game while live. Hands are left as
    they are."""
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    best = np.int64(-1)
    w = np.int64(-1)
    tmask = np.int64(0)
    for j in range(n):
        s = seat_add(leader, j, n)
        c = low_index(work.hands[s])
        tmask |= np.int64(1) << c
        if best < 0 or beats(c, best, trump):
            best = c
            w = s
    gain = trick_bonus(tmask, trump, low, 1) << shift(w)
    if glive:
        gp = mask_game_points(tmask)
        work.game[w] += gp
        _, taker = game_decided(work.game, n, 0, ctx[Ctx.BIDDER], ctx[Ctx.TIE_BIDDER])
        work.game[w] -= gp
        if taker >= 0:
            gain += np.int64(1) << shift(taker)
    return gain


@njit_inline
def _eg_options(work, j, seat, first, trump):
    """Fill row ``j`` of the endgame table with ``seat``'s legal cards (at most two)."""
    eg = work.eg
    legal = legal_plays(work.hands[seat], first, trump, work.ctx[Ctx.MUST_FOLLOW], 0)
    eg[j, Endgame.SEAT] = seat
    eg[j, Endgame.NOPT] = 0
    eg[j, Endgame.PICK] = 0
    while legal:
        eg[j, Endgame.OPT + eg[j, Endgame.NOPT]] = low_index(legal)
        eg[j, Endgame.NOPT] += 1
        legal &= legal - 1
    paranoid = work.ctx[Ctx.PARANOID]
    eg[j, Endgame.VAL] = -1
    if paranoid and seat != work.ctx[Ctx.BIDDER]:
        eg[j, Endgame.VAL] = 99
    eg[j, Endgame.VKEY] = -1


@njit_inline
def two_tricks(work, leader, trump, low, glive, paranoid):
    """Value of the last two tricks when every player holds two cards and ``leader`` leads:
    the players choose in the first (at most two options each, so at most 2 ** n lines), the
    last is forced. Max^n: the packed vector; paranoid (a constant): the bidder's points,
    packed in his nibble. Hands and game totals are left as they were."""
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    bidder = ctx[Ctx.BIDDER]
    full = ctx[Ctx.FLAGS] & F_TIE_FULL
    eg = work.eg
    hands = work.hands
    work.stats[SearchStat.NODES] += 1
    eg[0, Endgame.BEST] = -1
    eg[0, Endgame.WSEAT] = -1
    eg[0, Endgame.TMASK] = 0
    eg[0, Endgame.FIRST] = -1
    _eg_options(work, 0, leader, -1, trump)
    j = 0
    while True:
        if eg[j, Endgame.PICK] < eg[j, Endgame.NOPT]:
            c = eg[j, Endgame.OPT + eg[j, Endgame.PICK]]
            eg[j, Endgame.PICK] += 1
            eg[j, Endgame.CUR] = c
            seat = eg[j, Endgame.SEAT]
            hands[seat] &= ~(np.int64(1) << c)
            best = eg[j, Endgame.BEST]
            wseat = eg[j, Endgame.WSEAT]
            first = eg[j, Endgame.FIRST]
            if first < 0:
                first = c
            if best < 0 or beats(c, best, trump):
                best = c
                wseat = seat
            tmask = eg[j, Endgame.TMASK] | (np.int64(1) << c)
            if j + 1 < n:
                j += 1
                eg[j, Endgame.BEST] = best
                eg[j, Endgame.WSEAT] = wseat
                eg[j, Endgame.TMASK] = tmask
                eg[j, Endgame.FIRST] = first
                _eg_options(work, j, seat_add(seat, 1, n), first, trump)
                continue
            # the first trick is complete: score it and the forced last trick
            gp = mask_game_points(tmask)
            work.game[wseat] += gp
            v = trick_bonus(tmask, trump, low, 0) << shift(wseat)
            live = glive
            if glive:
                remaining = mask_game_points(in_hands(hands, n))
                decided, taker = game_decided(work.game, n, remaining, bidder, ctx[Ctx.TIE_BIDDER])
                if decided:
                    live = 0
                    if taker >= 0:
                        v += np.int64(1) << shift(taker)
            v += last_trick(work, wseat, trump, low, live)
            work.game[wseat] -= gp
            hands[seat] |= np.int64(1) << c
            if paranoid:
                v = nibble(v, bidder)
        else:
            v = eg[j, Endgame.VAL]  # row j is done: its value goes up to row j - 1
            if j == 0:
                return v << shift(bidder) if paranoid else v
            j -= 1
            hands[eg[j, Endgame.SEAT]] |= np.int64(1) << eg[j, Endgame.CUR]
        # row j takes outcome v
        mover = eg[j, Endgame.SEAT]
        if paranoid:
            if mover == bidder:
                if v > eg[j, Endgame.VAL]:
                    eg[j, Endgame.VAL] = v
            elif v < eg[j, Endgame.VAL]:
                eg[j, Endgame.VAL] = v
        else:
            skey = static_key(eg[j, Endgame.CUR], eg[j, Endgame.FIRST], eg[j, Endgame.BEST], trump)
            key = tie_key(v, mover, bidder, full, skey)
            if key > eg[j, Endgame.VKEY]:
                eg[j, Endgame.VKEY] = key
                eg[j, Endgame.VAL] = v


@njit_inline
def build_lines(work, leader, trump, low, glive, row):
    """Fill ``work.lines[row, 2:]`` and return the value under the current game totals (as
    :func:`eval_lines`, each line folded as it is built): the nodes with one legal card, then
    the outcome of every line of the last two tricks (``leader`` to lead, every player holding
    two cards): line ``L`` has the player at ply ``j`` of the first trick play his card number
    bit ``n - 1 - j`` of ``L`` among his legal cards in the static order (:func:`static_key`;
    for a player with one legal card, bit 1 names no line and is never built or read). A
    record is the points besides Game (packed), the first trick's winner and game points, the
    last's (bits 24, 27, 34, 37): Game's state is applied when the lines are read. Reading
    the lines counts a node, as the two-trick search did; building them does not: the table
    outlives deals, and node counts should not depend on what was searched before."""
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    mf = ctx[Ctx.MUST_FOLLOW]
    hands = work.hands
    eg = work.eg
    single = np.int64(0)
    line = np.int64(0)
    start = np.int64(0)  # first ply played again: the plies before it are the last line's
    while True:
        first = np.int64(-1)
        best = np.int64(-1)
        w1 = np.int64(-1)
        t1 = np.int64(0)
        if start > 0:  # the trick's state before ply ``start``, kept when it was played
            first = eg[start, Endgame.FIRST]
            best = eg[start, Endgame.BEST]
            w1 = eg[start, Endgame.WSEAT]
            t1 = eg[start, Endgame.TMASK]
        for j in range(start, n):
            eg[j, Endgame.FIRST] = first
            eg[j, Endgame.BEST] = best
            eg[j, Endgame.WSEAT] = w1
            eg[j, Endgame.TMASK] = t1
            seat = seat_add(leader, j, n)
            legal = legal_plays(hands[seat], first, trump, mf, 0)
            c = low_index(legal)
            if legal & (legal - 1):
                c2 = high_index(legal)
                if static_key(c2, first, best, trump) < static_key(c, first, best, trump):
                    c, c2 = c2, c
                if (line >> (n - 1 - j)) & 1:
                    c = c2
            else:  # one legal card: node (ply j, the picks before it) has one child
                single |= np.int64(1) << ((1 << j) - 1 + (line >> (n - j)))
            if first < 0:
                first = c
            if best < 0 or beats(c, best, trump):
                best = c
                w1 = seat
            t1 |= np.int64(1) << c
        best = np.int64(-1)
        w2 = np.int64(-1)
        t2 = np.int64(0)
        for j in range(n):
            seat = seat_add(w1, j, n)
            c = low_index(hands[seat] & ~t1)
            if best < 0 or beats(c, best, trump):
                best = c
                w2 = seat
            t2 |= np.int64(1) << c
        rec = (
            (trick_bonus(t1, trump, low, 0) << shift(w1))
            + (trick_bonus(t2, trump, low, 1) << shift(w2))
            | (w1 << 24)
            | (mask_game_points(t1) << 27)
            | (w2 << 34)
            | (mask_game_points(t2) << 37)
        )
        work.lines[row, 3 + line] = rec
        nxt, v, done = fold_line(work, line, rec, single, leader, glive)
        if done:
            break
        # the next line changes the pick at one ply (its bit set, the later ones cleared)
        start = n - 1 - high_index(nxt ^ line)
        line = nxt
    work.lines[row, 2] = single
    return v


@njit_inline
def line_game_taker(game, n, rec, bidder, tie_bidder):
    """Seat scoring Game at the end of a line of record ``rec`` (see :func:`build_lines`) from
    the game totals before it, or -1 (as :func:`game_decided` with nothing left)."""
    w1 = (rec >> 24) & 7
    w2 = (rec >> 34) & 7
    g1 = (rec >> 27) & 127
    g2 = (rec >> 37) & 127
    top, arg, second = game_top_two(game, n, w1, g1, w2, g2)
    tb = np.int64(0)
    if 0 <= bidder < n:
        tb = game[bidder] + (g1 if bidder == w1 else 0) + (g2 if bidder == w2 else 0)
    return game_taker(top, arg, second, tb, bidder, tie_bidder)


@njit_inline
def fold_line(work, line, rec, single, leader, glive):
    """Take line ``line`` (record ``rec``) into the value of the last two tricks, the lines
    being taken in order: each ply's two choices are compared as soon as both are known
    (``eg[j, VAL]`` holds the first), the second choice of a player with one legal card
    (``single``, see :func:`build_lines`) skipped. Returns (next line, value so far, done)."""
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    bidder = ctx[Ctx.BIDDER]
    paranoid = ctx[Ctx.PARANOID]
    eg = work.eg
    v = rec & 0xFFFFFF
    if glive:
        taker = line_game_taker(work.game, n, rec, bidder, ctx[Ctx.TIE_BIDDER])
        if taker >= 0:
            v += np.int64(1) << shift(taker)
    if paranoid:
        v = nibble(v, bidder)
    full = ctx[Ctx.FLAGS] & F_TIE_FULL
    j = n - 1
    while j >= 0:
        b = np.int64(1) << (n - 1 - j)
        if line & b == 0:
            if (single >> ((1 << j) - 1 + (line >> (n - j)))) & 1:
                j -= 1  # one legal card: no second choice to compare
                continue
            eg[j, Endgame.VAL] = v  # the first choice at ply j: on to the second
            return (line | b) & ~(b - 1), v, False
        a = eg[j, Endgame.VAL]
        mover = seat_add(leader, j, n)
        if paranoid:
            v = max(v, a) if mover == bidder else min(v, a)
        elif full:
            if pref_key(v, mover, bidder) <= pref_key(a, mover, bidder):
                v = a
        elif nibble(v, mover) <= nibble(a, mover):
            v = a  # on a tie, the card first in the static order
        j -= 1
    return line, (v << shift(bidder) if paranoid else v), True


@njit_inline
def eval_lines(work, leader, glive, row):
    """Value of the last two tricks (as :func:`two_tricks`) from the lines stored in row
    ``row`` of the line table and the current game totals (:func:`fold_line`)."""
    lines = work.lines
    single = lines[row, 2]
    line = np.int64(0)
    while True:
        line, v, done = fold_line(work, line, lines[row, 3 + line], single, leader, glive)
        if done:
            return v


@njit_inline
def line_key(work, canon, leader, trump, low, glive):
    """Key (two words) of the last two tricks' lines: every seat's two cards among the
    canonical cards ``canon`` (12 bits a seat, seats 0-2 in the first word above bit 17, 3-5 in
    the second), the leader, trump, Game live, the Low card to capture, the follow rule and the
    player count; it names the lines exactly, whatever the deal or the search."""
    ctx = work.ctx
    n = ctx[Ctx.PLAYERS]
    la = (
        np.int64(leader)
        | (np.int64(trump) << 3)
        | (np.int64(glive) << 5)
        | (np.int64(low + 1) << 6)
        | (np.int64(ctx[Ctx.MUST_FOLLOW]) << 13)
        | (np.int64(n) << 14)
    )
    lb = np.int64(0)
    for s in range(n):
        h = canon & work.root[s]
        code = (np.int64(low_index(h)) << 6) | high_index(h)
        if s < 3:
            la |= code << (17 + 12 * s)
        else:
            lb |= code << (12 * (s - 3))
    return la, lb


@njit
def _line_row(la, lb, bits):
    h = np.uint64(la) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(lb) * np.uint64(
        0xC2B2AE3D27D4EB4F
    )
    h ^= h >> np.uint64(29)
    return np.int64(h >> np.uint64(64 - bits))


@njit_search
def stored_two_tricks(work, leader, trump, low, glive):
    """:func:`two_tricks` of max^n through the table (:func:`table_two_tricks`) and, with
    F_LINES, the line table: the outcome of every line of the two tricks, kept per cards and
    leader whatever the game totals (:func:`build_lines`, :func:`eval_lines`). A separate
    kernel (not inlined): its work outweighs a call."""
    return table_two_tricks(work, leader, trump, low, glive, False)


@njit_search
def paranoid_two_tricks(work, leader, trump, low, glive):
    """:func:`two_tricks` of the paranoid search through the table (:func:`table_two_tricks`),
    without the line table: its rounds are small and meet few hands again; there the lines
    cost more than they saved at the median (4 players, 200 rounds: 1.02 vs 0.97 ms in a
    same-run A/B, 5% less in total). A kernel of its own, not the max^n one with the mode
    read at run time: the paranoid commands then compile neither the lines nor max^n's tie
    rules."""
    return table_two_tricks(work, leader, trump, low, glive, True)


@njit_inline
def table_two_tricks(work, leader, trump, low, glive, paranoid):
    """:func:`two_tricks` through the table (exact entries; an entry that is only a bound,
    stored by a search rooted here, is recomputed) and, in max^n (``paranoid`` a constant,
    False) with F_LINES, the line table. :func:`two_tricks` and the table's store have one
    call site each: numba compiles an inlined function again at every site."""
    ctx = work.ctx
    flags = ctx[Ctx.FLAGS]
    stored = flags & F_TT
    n = ctx[Ctx.PLAYERS]
    bidder = ctx[Ctx.BIDDER]
    canon = np.int64(0)
    ka = np.int64(0)
    kb = np.int64(0)
    if stored:
        out = in_hands(work.hands, n)
        canon = out
        if flags & F_EQUIV:
            canon = canonical(work, out, plain_cards(trump, low, glive))
        ka = key_a(canon, leader, trump, glive, table_mode(ctx))
        kb = key_b(work.game, n, mask_game_points(out) if glive else 0, glive, ctx[Ctx.GEN])
        data = tt_probe(work.tt, ka, kb)
        if data >= 0:
            if not paranoid:
                if (data & 0xFFFFFF) == ((data >> 24) & 0xFFFFFF):
                    work.stats[SearchStat.TT_HITS] += 1
                    return data & 0xFFFFFF
            elif (data & 15) == ((data >> 4) & 15):
                work.stats[SearchStat.TT_HITS] += 1
                return (data & 15) << shift(bidder)
    if not paranoid and stored and flags & F_LINES:
        la, lb = line_key(work, canon, leader, trump, low, glive)
        lines = work.lines
        row = _line_row(la, lb, low_index(np.int64(lines.shape[0])))
        work.stats[SearchStat.LINE_READS] += 1
        work.stats[SearchStat.NODES] += 1  # as a two-trick search (where it would have run)
        if lines[row, 0] != la or lines[row, 1] != lb:
            work.stats[SearchStat.LINE_BUILDS] += 1
            v = build_lines(work, leader, trump, low, glive, row)
            lines[row, 0] = la
            lines[row, 1] = lb
        else:
            v = eval_lines(work, leader, glive, row)
    else:
        v = two_tricks(work, leader, trump, low, glive, paranoid)
    if not stored:
        return v
    work.stats[SearchStat.TT_STORES] += 1
    if paranoid:
        b = nibble(v, bidder)
        entry = b | (b << 4)
    else:
        entry = v | (v << 24)  # exact: upper bound = lower bound
    tt_store(work.tt, ka, kb, entry, 2)
    return v


@njit_inline
def table_mode(ctx):
    """The search mode in table keys: 1 paranoid, 2 max^n under the full-order tie rule, 0
    max^n under the static-order rule (values differ between them)."""
    if ctx[Ctx.PARANOID]:
        return np.int64(1)
    return np.int64(2) if ctx[Ctx.FLAGS] & F_TIE_FULL else np.int64(0)


@njit_inline
def unmake_move(work, sp):
    """Undo :func:`make_move` at ply ``sp``."""
    fr = work.frames
    c = fr[sp, Frame.CUR]
    work.hands[fr[sp, Frame.SEAT]] |= np.int64(1) << c
    w = fr[sp, Frame.GWIN]
    if w >= 0:
        work.game[w] -= fr[sp, Frame.GPTS]


@njit_inline
def node_setup(work, sp):
    """Common entry of a node: count it; return (cards out incl. the trick, live points)."""
    fr = work.frames
    n = work.ctx[Ctx.PLAYERS]
    work.stats[SearchStat.NODES] += 1
    out = in_hands(work.hands, n) | fr[sp, Frame.TMASK]
    smax = live_points(out, fr[sp, Frame.TRUMP], fr[sp, Frame.LOW], fr[sp, Frame.GLIVE])
    fr[sp, Frame.SMAX] = smax
    return out, smax


@njit_inline
def tricks_left(work, sp):
    """Tricks still to play, counting the one in progress (the mover has not played to it)."""
    return popcount64(work.hands[work.frames[sp, Frame.SEAT]])
