"""The ``heuristic`` play policy: a card from the player's hand, its legal cards and what the
table has shown (:class:`layouts.View`: cards played, voids shown, the trick, who contracts).

"Out" cards are those neither played nor in the player's hand. A card is **master** when no
out card of its suit is stronger. A plain suit is **dangerous** when an opponent has shown a
void in it and has not shown a void in trumps. Keys compare as tuples, smallest first.

Lead:

1. contracting team, trumps out, not both opponents shown void in trumps, holding trumps:
   lead the highest trump when it is master, else the lowest trump when holding three or more;
2. else cash the master plain card worth most points (at least 1) in a suit not dangerous
   (ties: lower suit);
3. else the lowest card (in its order) of the plain suit whose lowest card is worth fewest
   points, then the longest, then the lower suit; only trumps: the lowest trump.

Follow (``dump`` = the legal card of key (is trump, points, strength) smallest):

* partner winning: when the trick is safe (we play last, or the partner's card is master and,
  if it is plain, no trump is in the trick and the last player has not shown a void in the
  suit led without a void in trumps) play the legal non-trump worth most points (ties: lowest
  strength), the lowest trump if only trumps are legal; not safe: ``dump``;
* else, when some legal card wins the trick: last to play, the winner of key (is trump,
  points, strength) smallest; second or third, the lowest master winner (a trump, or plain in
  a suit led that is not dangerous), else the lowest winning trump when only trumps are legal,
  else ``dump``;
* else ``dump``.
"""

from __future__ import annotations

from ...core.engine.bits import low_index
from ...core.engine.jit import njit, njit_inline
from ..layouts import View
from .tables import ABOVE, STRENGTH
from .tricks import SUIT_BITS, card_points, card_power

FULL = 0xFFFFFFFF


@njit
def _st(card, trump):
    return STRENGTH[1 if (card >> 3) == trump else 0, card & 7]


@njit
def is_master(card, out, trump):
    """No out card of ``card``'s suit is stronger."""
    s = card >> 3
    o = (out >> (8 * s)) & SUIT_BITS
    t = 1 if s == trump else 0
    return (o & ABOVE[t, STRENGTH[t, card & 7]]) == 0


@njit
def _void(voids, seat, suit):
    return (voids >> (4 * seat + suit)) & 1


@njit
def dangerous(voids, seat, suit, trump):
    """An opponent of ``seat`` has shown a void in ``suit`` and none in trumps."""
    for o in ((seat + 1) % 4, (seat + 3) % 4):
        if _void(voids, o, suit) and not _void(voids, o, trump):
            return True
    return False


@njit
def _dump(legal, trump, kq):
    best = -1
    bk = 0
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        k = (((c >> 3) == trump) * 64 + card_points(c, trump, kq)) * 16 + _st(c, trump)
        if best < 0 or k < bk:
            best = c
            bk = k
    return best


@njit
def _lowest(mask, trump):
    best = -1
    m = mask
    while m:
        c = low_index(m)
        m &= m - 1
        if best < 0 or _st(c, trump) < _st(best, trump):
            best = c
    return best


@njit
def _highest(mask, trump):
    best = -1
    m = mask
    while m:
        c = low_index(m)
        m &= m - 1
        if best < 0 or _st(c, trump) > _st(best, trump):
            best = c
    return best


@njit_inline
def heuristic_lead(hand, view):
    trump = view[View.TRUMP]
    kq = view[View.KQ]
    seat = view[View.SEAT]
    voids = view[View.VOIDS]
    out = FULL & ~view[View.PLAYED] & ~hand
    tmask = SUIT_BITS << (8 * trump)
    mine_t = hand & tmask
    if (seat & 1) == view[View.C_TEAM] and mine_t != 0 and (out & tmask) != 0:
        both_void = _void(voids, (seat + 1) % 4, trump) and _void(voids, (seat + 3) % 4, trump)
        if not both_void:
            top = _highest(mine_t, trump)
            if is_master(top, out, trump):
                return top
            n = 0
            m = mine_t
            while m:
                m &= m - 1
                n += 1
            if n >= 3:
                return _lowest(mine_t, trump)
    best = -1
    best_pts = 0
    for s in range(4):
        if s == trump or dangerous(voids, seat, s, trump):
            continue
        h = hand & (SUIT_BITS << (8 * s))
        if h == 0:
            continue
        c = _highest(h, trump)
        pts = card_points(c, trump, kq)
        if pts > best_pts and is_master(c, out, trump):
            best = c
            best_pts = pts
    if best >= 0:
        return best
    pick = -1
    pk = 0
    for s in range(4):
        if s == trump:
            continue
        h = hand & (SUIT_BITS << (8 * s))
        if h == 0:
            continue
        c = _lowest(h, trump)
        n = 0
        m = h
        while m:
            m &= m - 1
            n += 1
        k = card_points(c, trump, kq) * 16 + (8 - n)
        if pick < 0 or k < pk:
            pick = c
            pk = k
    if pick >= 0:
        return pick
    return _lowest(mine_t, trump)


@njit_inline
def heuristic_follow(hand, legal, view):
    trump = view[View.TRUMP]
    kq = view[View.KQ]
    seat = view[View.SEAT]
    pos = view[View.POS]
    led = view[View.LED]
    voids = view[View.VOIDS]
    win_power = view[View.WIN_POWER]
    out = FULL & ~view[View.PLAYED] & ~hand
    tmask = SUIT_BITS << (8 * trump)
    plain_legal = legal & ~tmask
    if pos >= 2 and view[View.WIN_SEAT] == (seat + 2) % 4:
        safe = pos == 3
        if not safe:
            # the partner's card: strongest of the suit that wins (power -> card)
            if win_power >= 16:
                wcard = 8 * trump + _rank_of(win_power - 16, 1)
                safe = is_master(wcard, out, trump)
            else:
                wcard = 8 * led + _rank_of(win_power, 0)
                last = (seat + 1) % 4
                threat = _void(voids, last, led) and not _void(voids, last, trump)
                safe = view[View.TOP_TRUMP] < 0 and not threat and is_master(wcard, out, trump)
        if not safe:
            return _dump(legal, trump, kq)
        if plain_legal == 0:
            return _lowest(legal, trump)
        best = -1
        bk = 0
        m = plain_legal
        while m:
            c = low_index(m)
            m &= m - 1
            k = -card_points(c, trump, kq) * 16 + _st(c, trump)
            if best < 0 or k < bk:
                best = c
                bk = k
        return best
    winners = 0
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        if card_power(c, led, trump) > win_power:
            winners |= 1 << c
    if winners == 0:
        return _dump(legal, trump, kq)
    if pos == 3:
        return _dump(winners, trump, kq)
    masters = 0
    m = winners
    while m:
        c = low_index(m)
        m &= m - 1
        if is_master(c, out, trump) and (
            (c >> 3) == trump or not dangerous(voids, seat, led, trump)
        ):
            masters |= 1 << c
    if masters != 0:
        return _lowest(masters, trump)
    if plain_legal == 0:
        return _lowest(winners, trump)
    return _dump(legal, trump, kq)


@njit
def _rank_of(strength, t):
    for r in range(8):
        if STRENGTH[t, r] == strength:
            return r
    return 0


@njit_inline
def heuristic_card(hand, legal, view):
    """The heuristic policy's card (see the module docstring)."""
    if view[View.POS] == 0:
        return heuristic_lead(hand, view)
    return heuristic_follow(hand, legal, view)
