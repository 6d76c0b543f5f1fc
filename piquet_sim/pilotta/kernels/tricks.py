"""The rules of one trick on natural card masks: legal cards, the trick winner, card points.

Legal cards (the spec's "Play"): follow suit if able; when trumps are led, a player holding a
trump higher than the highest one in the trick must play one. Unable to follow, a player must
trump if he can, over-trumping the highest trump in the trick when able (else any trump). Unable
to do either, any card. With ``partner_exemption`` a player whose partner is winning the trick
need not trump or over-trump: void in the suit led he may play any card; on a trump lead he
plays any trump.

A trick in progress is described by ``n`` cards played, ``led`` suit, ``top_trump`` (trump
strength 0..7 of the highest trump in it, -1 none) and ``win_power`` (see :func:`card_power`).
"""

from __future__ import annotations

import numpy as np

from ...core.jit import njit_inline
from .tables import ABOVE, POINTS, STRENGTH

SUIT_BITS = np.int64(0xFF)


@njit_inline
def card_points(card, trump, kq):
    """Card points of ``card``; ``kq`` = 1 under trump_kq_points (3, 2)."""
    return POINTS[kq, 1 if (card >> 3) == trump else 0, card & 7]


@njit_inline
def card_power(card, led, trump):
    """How strongly ``card`` bids for a trick led in suit ``led``: 16 + trump strength for a
    trump, its strength in the order for the suit led, -1 for a discard (cannot win)."""
    s = card >> 3
    if s == trump:
        return 16 + STRENGTH[1, card & 7]
    if s == led:
        return STRENGTH[0, card & 7]
    return -1


@njit_inline
def legal_cards(hand, n, led, trump, top_trump, partner_winning, exemption):
    """Mask of the cards of ``hand`` that may be played to a trick holding ``n`` cards."""
    if n == 0:
        return hand
    follow = hand & (SUIT_BITS << (8 * led))
    free = exemption != 0 and partner_winning
    if led == trump:
        if follow == 0 or free:
            return follow if follow != 0 else hand
        over = follow & (ABOVE[1, top_trump if top_trump >= 0 else 8] << (8 * trump))
        return over if over != 0 else follow
    if follow != 0:
        return follow
    if free:
        return hand
    trumps = hand & (SUIT_BITS << (8 * trump))
    if trumps == 0:
        return hand
    if top_trump >= 0:
        over = trumps & (ABOVE[1, top_trump] << (8 * trump))
        if over != 0:
            return over
    return trumps
