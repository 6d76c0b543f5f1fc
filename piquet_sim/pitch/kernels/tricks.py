"""The rules of one trick: legal cards, which card wins, what a trick's cards are worth.

Source: ``docs/rules/pitch.md``, "Play" and "The six points". A card is ``suit * 16 + rank``
(rank 0 = two .. 12 = ace); masks are int64 with a suit per 16-bit lane. ``trump`` is 0..3, or
-1 before the pitch (the first card led sets it).
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import popcount64
from ...core.engine.jit import njit, njit_inline

SUIT_BITS = np.int64(0x1FFF)
#: Game points of rank r in nibble r: ten 10 (0xA), jack 1, queen 2, king 3, ace 4.
GAME_NIBBLES = np.int64(0x4321A_0000_0000)
TENS = np.int64(0x0100_0100_0100_0100)
JACKS = TENS << 1
QUEENS = TENS << 2
KINGS = TENS << 3
ACES = TENS << 4
SIX_RANK = 4
JACK_RANK = 9


@njit
def suit_mask(suit):
    """Every card of ``suit`` (0..3)."""
    return SUIT_BITS << (16 * suit)


@njit
def card_game_points(card):
    """Game points of one card (ten 10, ace 4, king 3, queen 2, jack 1, else 0)."""
    return (GAME_NIBBLES >> (4 * (card & 15))) & 15


@njit
def mask_game_points(m):
    """Game points of every card in a mask."""
    return (
        10 * popcount64(m & TENS)
        + popcount64(m & JACKS)
        + 2 * popcount64(m & QUEENS)
        + 3 * popcount64(m & KINGS)
        + 4 * popcount64(m & ACES)
    )


@njit
def legal_plays(hand, first, trump, must_follow, pitch):
    """Cards of ``hand`` that may be played to a trick whose first card is ``first`` (-1: the
    player leads). A lead is free, except the pitch of a round whose trump is given (``pitch``
    and ``trump >= 0``): a trump. A follower plays the suit led or a trump (``must_follow``: the
    suit led only), or anything when void in the suit led."""
    if first < 0:
        if pitch and trump >= 0:
            return hand & suit_mask(trump)
        return hand
    follow = hand & suit_mask(first >> 4)
    if follow == 0:
        return hand
    if must_follow or trump < 0:
        return follow
    return follow | (hand & suit_mask(trump))


@njit
def beats(card, best, trump):
    """True when ``card``, played after ``best`` (the card winning the trick so far), wins."""
    if (card >> 4) == (best >> 4):
        return card > best
    return (card >> 4) == trump


@njit
def trick_bonus(trick_mask, trump, low_card, last):
    """Points the winner of a trick takes besides Game: Jack and Six of trumps among its
    cards, the Low card when it is to be captured (``low_card >= 0``), and Last (``last``)."""
    pts = last
    base = np.int64(16) * trump
    if (trick_mask >> (base + JACK_RANK)) & 1:
        pts += 1
    if (trick_mask >> (base + SIX_RANK)) & 1:
        pts += 1
    if low_card >= 0 and (trick_mask >> low_card) & 1:
        pts += 1
    return pts


@njit_inline
def game_taker(game, n, bidder, tie_to_bidder):
    """Seat scoring Game from the game points per seat (``game[0:n]``): the single most; a
    tie scores nobody (-1) unless ``tie_to_bidder`` and the bidder is among the tied; nobody
    when no game point was taken."""
    best = np.int64(0)
    taker = np.int64(-1)
    ties = 0
    for s in range(n):
        g = game[s]
        if g > best:
            best = g
            taker = s
            ties = 0
        elif g == best and best > 0:
            ties += 1
    if ties == 0:
        return taker
    if tie_to_bidder and game[bidder] == best:
        return np.int64(bidder)
    return np.int64(-1)
