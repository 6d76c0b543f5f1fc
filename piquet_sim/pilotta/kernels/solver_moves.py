"""The solver's trick rules and move generation, in its encoding (``solver_tt``: internal suit 0
is trumps, a higher bit of a suit beats a lower one).

* :func:`legal_internal`: the legal cards (follow, trump, over-trump; partner exemption,
  optional under-trumping: ``tricks.play_code``);
* :func:`beats`: does a card beat the trick's winning card;
* :func:`gen_moves`: the cards to try at a node, one per run of equivalent cards, ordered by
  rules of thumb (each kept because it cut the nodes of a fixed set of rounds): the table's
  lead first; leads of master cards (worth most first), then low cards to the partner's
  master, then low cards of long suits, leads an opponent can ruff last; followers give
  points to a winning partner, win as the fourth hand with the cheapest winner, win high as
  second or third hand, else play their cheapest card. :func:`order_moves` is its body for
  any caller (the four-trick loops of ``solver_endgame`` too); :func:`order_follow` the same
  order for a following hand (the lead's rules left out: less code at each inlined site).
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import low_index, popcount32
from ...core.engine.jit import njit_inline
from ...core.engine.move_order import insert_by_score
from ..layouts import Frame
from .tricks import EXEMPT_BITS, UNDER_OPTIONAL

F_EQUIV = 4  # one card of each run of equivalent cards
F_ORDER = 16  # move ordering heuristics


@njit_inline
def legal_internal(hand, pos, wcard, led, partner_winning, code):
    """Legal cards of ``hand`` for a trick holding ``pos`` cards led in internal suit ``led``
    and won so far by ``wcard`` (when a trump is in the trick, ``wcard`` is the highest);
    ``code``: the play options (``tricks.play_code``)."""
    if pos == 0:
        return hand
    follow = hand & (np.int64(0xFF) << (8 * led))
    ex = code & EXEMPT_BITS
    free = partner_winning and (ex == 1 or (ex == 2 and led != 0))
    if led == 0:
        if follow == 0 or free:
            return follow if follow != 0 else hand
        over = follow & ~((np.int64(2) << wcard) - 1)
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
        if code & UNDER_OPTIONAL:
            return hand
    return trumps


@njit_inline
def beats(c, w):
    """True when internal card ``c`` beats the trick's winning card ``w``."""
    if (c >> 3) == (w >> 3):
        return c > w
    return (c >> 3) == 0


@njit_inline
def _lead_score(hands, seat, s, r, o, allout, p, n_suit):
    """Order of a lead: masters of their suit (worth most first); then low cards to the
    partner's master; then low cards of long suits; leads an opponent can ruff last."""
    if (o >> (r + 1)) == 0:
        score = 300 + p
    else:
        score = 100 - 8 * p - r + 4 * n_suit
        top = 8 * s + 7
        while not (allout >> top) & 1:
            top -= 1
        if (hands[(seat + 2) % 4] >> top) & 1:
            score = 250 - p
    if s != 0:
        for q in (1, 3):
            opp = hands[(seat + q) % 4]
            if ((opp >> (8 * s)) & 0xFF) == 0 and (opp & 0xFF) != 0:
                score -= 150
    return score


@njit_inline
def _follow_score(c, s, r, p, pos, partner_win, wcard):
    """Order of a card ``c`` (suit ``s``, rank ``r``, ``p`` points) played as the ``pos``-th
    card of a trick won so far by ``wcard``: points to a winning partner; the fourth hand wins
    with its cheapest winner, the second or third high; else the cheapest card."""
    if partner_win:
        if pos == 3 or not beats(c, wcard):
            return 200 + p - (40 if s == 0 else 0)  # points to the partner
        return 100 + p
    if beats(c, wcard):
        return 300 - r if pos == 3 else 250 + r  # last: cheapest winner
    return 100 - 8 * p - r


@njit_inline
def gen_moves(ws, sp, legal, tt_card, flags, pts):
    """Fill ``ws.moves[sp]`` with the cards of ``legal`` to try at the node of frame ``sp``,
    best first (``ws.scores[sp]`` scratch); returns their number."""
    fr = ws.frames[sp]
    return order_moves(
        ws.moves[sp],
        ws.scores[sp],
        ws.hands,
        ws.reps,
        fr[Frame.SEAT],
        fr[Frame.POS],
        fr[Frame.WSEAT],
        fr[Frame.WCARD],
        fr[Frame.OUT],
        legal,
        tt_card,
        flags,
        pts,
    )


@njit_inline
def order_moves(mv, sc, hands, reps, seat, pos, wseat, wcard, out, legal, tt_card, flags, pts):
    """Fill ``mv`` with the cards of ``legal`` to try for ``seat``, the trick holding ``pos``
    cards (``out``, won so far by ``wseat`` with ``wcard``), best first (``sc`` scratch);
    returns their number. The cards already in the trick still count as out (they separate
    runs)."""
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
        n_suit = popcount32((hands[seat] >> (8 * s)) & 0xFF)
        while h:
            r = low_index(h)
            h &= h - 1
            c = 8 * s + r
            score = 0
            if flags & F_ORDER:
                p = pts[c]
                if c == tt_card:
                    score = 1 << 20
                elif pos == 0:
                    score = _lead_score(hands, seat, s, r, o, allout, p, n_suit)
                else:
                    score = _follow_score(c, s, r, p, pos, partner_win, wcard)
            k = insert_by_score(mv, sc, k, c, score)
    return k


@njit_inline
def order_follow(mv, sc, hands, reps, seat, pos, wseat, wcard, out, legal, flags, pts):
    """:func:`order_moves` for a hand following to a trick (``pos`` > 0) with no table move:
    the same order without the lead's rules, less code to compile at each of the three
    following hands of ``solver_endgame.four_tricks``."""
    allout = hands[0] | hands[1] | hands[2] | hands[3] | out
    partner_win = pos >= 2 and wseat == (seat + 2) % 4
    k = 0
    for s in range(4):
        h = (legal >> (8 * s)) & 0xFF
        if h == 0:
            continue
        if flags & F_EQUIV:
            h = reps[1 if s == 0 else 0, ((allout >> (8 * s)) & 0xFF) * 256 + h]
        while h:
            r = low_index(h)
            h &= h - 1
            c = 8 * s + r
            score = 0
            if flags & F_ORDER:
                score = _follow_score(c, s, r, pts[c], pos, partner_win, wcard)
            k = insert_by_score(mv, sc, k, c, score)
    return k
