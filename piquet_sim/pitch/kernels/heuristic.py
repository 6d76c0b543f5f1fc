"""The ``heuristic`` play policy: a card from the player's hand, the trick so far and the cards
played in earlier tricks (no other hand is seen).

* the pitch: the suit :func:`~.bidding.best_suit` names; holding its ace, the next trump below
  the ace (the ace kept for the Jack, the Six or the last trick), else its cheapest card
  (everyone must follow the pitch, so a top trump that a card out can beat, the Jack above
  all, is kept for later rather than thrown under a higher one);
* a lead: a plain card that tops its suit (it may still be trumped); else a defender leads
  his highest plain card, the bidder his cheapest; no trump is led while a plain card is
  held (trumps are kept for the tricks that score);
* a follow: a trick only a trump can win is left to others unless a point is at stake in it
  (the Jack or Six of trumps, or the last trick; game points alone are not): trumps kept
  take the last trick, the Jack and the Six later. Else any card that takes the trick does,
  the lowest (plain before trumps; game points, the Jack or the Six taken in his own trick
  are his); else throw the cheapest card (every player scores for himself, so nothing is
  fed to another's trick).

"Cheapest" is :func:`cost`: plain cards before trumps, low ranks first, game points and the
Jack and Six of trumps kept. Each rule was measured on mirrored deals against the rule it
replaced (``scripts/pitch_heuristic_duel.py``).
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import high_index, low_index
from ...core.engine.jit import njit, njit_inline
from ..layouts import TRICKS, View
from .bidding import best_suit
from .tricks import beats, card_game_points, suit_mask

FULL = np.int64(0x1FFF_1FFF_1FFF_1FFF)
SIX_RANK = 4
JACK_RANK = 9
#: Rank bits of the Jack and the Six (a point to the trick's winner when trumps).
POINT_RANKS = np.int64((1 << JACK_RANK) | (1 << SIX_RANK))


@njit_inline
def cost(card, trump):
    """What throwing ``card`` gives away (lower: throw it first)."""
    rank = card & 15
    c = 8 * card_game_points(card) + rank
    if (card >> 4) == trump:
        c += 200
        if (POINT_RANKS >> rank) & 1:
            c += 200
    return c


@njit_inline
def cheapest(m, trump):
    """The card of a non-empty mask with the least :func:`cost`."""
    best = np.int64(-1)
    best_cost = np.int64(1 << 30)
    while m:
        c = low_index(m)
        m &= m - 1
        k = cost(c, trump)
        if k < best_cost:
            best_cost = k
            best = c
    return best


@njit_inline
def lowest(m, trump):
    """The card of a non-empty mask of the lowest rank, plain cards before trumps."""
    best = np.int64(-1)
    best_key = np.int64(1 << 30)
    while m:
        c = low_index(m)
        m &= m - 1
        k = c & 15
        if (c >> 4) == trump:
            k += 16
        if k < best_key:
            best_key = k
            best = c
    return best


@njit_inline
def highest_rank(m):
    """The card of a non-empty mask with the highest rank (the first suit on ties)."""
    best = np.int64(-1)
    while m:
        c = low_index(m)
        m &= m - 1
        if best < 0 or (c & 15) > (best & 15):
            best = c
    return best


@njit_inline
def top_of_suit(card, unseen):
    """True when no unseen card of ``card``'s suit is higher."""
    return (unseen & suit_mask(card >> 4) & ~((np.int64(2) << card) - 1)) == 0


@njit_inline
def is_master(card, unseen, trump):
    """True when no unseen card can beat ``card`` once played (a trump above every unseen
    trump; a plain card above its unseen suit with no unseen trump)."""
    suit = card >> 4
    higher = unseen & suit_mask(suit) & ~((np.int64(2) << card) - 1)
    if higher:
        return False
    if suit == trump or trump < 0:
        return True
    return (unseen & suit_mask(trump)) == 0


@njit
def heuristic_card(legal, hand, view):
    """The heuristic's card from the legal cards ``legal`` of ``hand``; ``view`` is a View row."""
    trump = view[View.TRUMP]
    seat = view[View.SEAT]
    bidder = view[View.BIDDER]
    first = view[View.FIRST]
    unseen = FULL & ~(view[View.PLAYED] | view[View.TMASK] | hand)
    if first < 0:
        if trump < 0:
            s = best_suit(hand)
            trumps = hand & suit_mask(s)
            top = high_index(trumps)
            if is_master(top, FULL & ~hand, s):
                # holding the ace: pitch the next trump below it, the ace kept to take the
                # Jack, the Six or the last trick later (the others keep their trumps for
                # those, so a fair trump often holds the pitch)
                rest = trumps & ~(np.int64(1) << top)
                return high_index(rest) if rest else top
            # everyone must follow the pitch: a top trump that a card out can beat would
            # only feed a higher one, so pitch low and keep it
            return cheapest(trumps, s)
        plain = legal & ~suit_mask(trump)
        m = plain
        while m:
            c = high_index(m)
            m &= ~suit_mask(c >> 4)
            if top_of_suit(c, unseen):
                return c
        if plain and seat != bidder:
            # a defender leads high: the others keep their trumps for the Jack, the Six and
            # the last trick, so a high card often takes the trick and its game points
            return highest_rank(plain)
        return cheapest(plain if plain else legal, trump)
    best = view[View.BEST]
    tmask = view[View.TMASK]
    winners = np.int64(0)
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        if beats(c, best, trump):
            winners |= np.int64(1) << c
    base = 16 * trump
    # a point is at stake when the trick holds the Jack or the Six of trumps or is the last;
    # game points alone are not worth a trump (measured: spending one on ten game points
    # loses, Game being one point shared over every trick)
    at_stake = (((tmask >> (base + JACK_RANK)) | (tmask >> (base + SIX_RANK))) & 1) == 1
    if view[View.TRICK] == TRICKS - 1:
        at_stake = True
    if (winners & ~suit_mask(trump)) == 0 and not at_stake and (legal & ~winners):
        # only a trump wins this trick: keep it for the last trick, the Jack or the Six
        winners = np.int64(0)
    if winners:
        # everyone scores for himself: any trick worth winning is taken, with the lowest card
        # that takes it now (a plain card before a trump), game points, the Jack and the Six
        # included: taken in his own trick they are his (measured better than keeping them)
        return lowest(winners, trump)
    # not winning: throw the cheapest card, never feeding game points, the Jack or the Six to
    # another player's trick (he is an opponent too)
    return cheapest(legal, trump)
