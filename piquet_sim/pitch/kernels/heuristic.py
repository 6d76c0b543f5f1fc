"""The ``heuristic`` play policy: a card from the player's hand, the trick so far and the cards
played in earlier tricks (no other hand is seen).

* the pitch: the ace of the suit :func:`~.bidding.best_suit` names, else its cheapest card
  (everyone must follow the pitch, so a top trump that a card out can beat, the Jack above
  all, is kept for later rather than thrown under a higher one);
* a lead: a trump that is master (higher than every trump not seen) while trumps may be out,
  else a plain card that tops its suit (it may still be trumped), else the cheapest card;
* a follow: a trick only a trump can win is left to others unless its stake (the Jack or Six
  of trumps, ten game points, or the last trick) is worth a trump: trumps kept take the last
  trick, the Jack and the Six later. Else win with the cheapest card sure to win (the last to
  play, or a master); else, when the trick is worth that stake, or he is the bidder, or (a
  defender) the bidder is winning it, with the cheapest winning card; a defender who cannot
  win while a fellow defender takes the trick safely gives him the Jack or Six of trumps or
  his best game points; else throw the cheapest card.

"Cheapest" is :func:`cost`: plain cards before trumps, low ranks first, game points and the
Jack and Six of trumps kept.
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
#: A trick's stake (game points) for holding the Jack or the Six of trumps, or for being the
#: last: a trick of this stake or more is worth contesting, and worth a trump.
POINT_STAKE = 10


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
def richest(m, trump):
    """The card of a non-empty mask worth most to the trick's winner (Jack or Six of trumps,
    then game points)."""
    best = np.int64(-1)
    best_v = np.int64(-1)
    while m:
        c = low_index(m)
        m &= m - 1
        rank = c & 15
        v = card_game_points(c)
        if (c >> 4) == trump and (POINT_RANKS >> rank) & 1:
            v += 20
        if v > best_v:
            best_v = v
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
                return top
            # everyone must follow the pitch: a top trump that a card out can beat would
            # only feed a higher one, so pitch low and keep it
            return cheapest(trumps, s)
        trumps = legal & suit_mask(trump)
        if trumps:
            top = high_index(trumps)
            if (unseen & suit_mask(trump)) and is_master(top, unseen, trump):
                return top
        plain = legal & ~suit_mask(trump)
        m = plain
        while m:
            c = high_index(m)
            m &= ~suit_mask(c >> 4)
            if top_of_suit(c, unseen):
                return c
        return cheapest(plain if plain else legal, trump)
    best = view[View.BEST]
    wseat = view[View.WSEAT]
    tmask = view[View.TMASK]
    last_to_play = view[View.IN_TRICK] == view[View.PLAYERS] - 1
    winners = np.int64(0)
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        if beats(c, best, trump):
            winners |= np.int64(1) << c
    base = 16 * trump
    stake = 0
    for c in (base + JACK_RANK, base + SIX_RANK):
        if (tmask >> c) & 1:
            stake += POINT_STAKE
    m = tmask
    while m:
        c = low_index(m)
        m &= m - 1
        stake += card_game_points(c)
    if view[View.TRICK] == TRICKS - 1:
        stake += POINT_STAKE
    defender = seat != bidder
    if (winners & ~suit_mask(trump)) == 0 and stake < POINT_STAKE and (legal & ~winners):
        # only a trump wins this cheap trick: keep it for the last trick, the Jack or the Six
        winners = np.int64(0)
    if winners:
        sure = np.int64(0)
        if last_to_play:
            sure = winners
        else:
            m = winners
            while m:
                c = low_index(m)
                m &= m - 1
                if is_master(c, unseen, trump):
                    sure |= np.int64(1) << c
        if sure:
            return cheapest(sure, trump)
        if stake >= POINT_STAKE or seat == bidder or (defender and wseat == bidder):
            return cheapest(winners, trump)
    rest = legal & ~winners
    if defender and wseat != bidder and (last_to_play or is_master(best, unseen, trump)):
        # a fellow defender takes the trick: give him the Jack, the Six or game points
        return richest(rest if rest else legal, trump)
    return cheapest(rest if rest else legal, trump)
