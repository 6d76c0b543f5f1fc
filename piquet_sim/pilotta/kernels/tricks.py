"""The rules of one trick on natural card masks: legal cards, the trick winner, card points.

Legal cards (the spec's "Play"): follow suit if able; when trumps are led, a player holding a
trump higher than the highest one in the trick must play one. Unable to follow, a player must
trump if he can, over-trumping the highest trump in the trick when able (else any trump). Unable
to do either, any card. With ``partner_exemption`` a player whose partner is winning the trick
need not trump or over-trump: void in the suit led he may play any card; on a trump lead he
plays any trump (``always``), or over-trumps as anyone (``plain_leads``). With ``under_trump =
optional`` a player void in the plain suit led who cannot beat the trump in the trick may play
any card. The legal-card functions take these options as one small int, :func:`play_code`.

A trick in progress is described by ``n`` cards played, ``led`` suit, ``top_trump`` (trump
strength 0..7 of the highest trump in it, -1 none) and ``win_power`` (see :func:`card_power`).
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit_inline
from ..rules import RuleSlot
from .tables import ABOVE, POINTS, STRENGTH

SUIT_BITS = np.int64(0xFF)
#: Bits of :func:`play_code`: the partner exemption (0 never, 1 always, 2 on plain-suit leads),
#: and under-trumping optional.
EXEMPT_BITS = 3
UNDER_OPTIONAL = 4


@njit_inline
def play_code(rules):
    """The rules options that decide which cards are legal, as one int: the partner exemption
    (its slot: 0 never, 1 always, 2 plain-suit leads) | ``UNDER_OPTIONAL`` when under-trumping
    is optional. 0 under the default rules."""
    return rules[RuleSlot.PARTNER_EXEMPTION] | (rules[RuleSlot.UNDER_TRUMP] << 2)


@njit_inline
def exempt_now(code, partner_winning, led, trump):
    """True when the partner exemption frees the player (his partner wins the trick, and the
    exemption applies to this lead)."""
    ex = code & EXEMPT_BITS
    return partner_winning and (ex == 1 or (ex == 2 and led != trump))


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
def legal_cards(hand, n, led, trump, top_trump, partner_winning, code):
    """Mask of the cards of ``hand`` that may be played to a trick holding ``n`` cards
    (``code``: :func:`play_code`)."""
    if n == 0:
        return hand
    follow = hand & (SUIT_BITS << (8 * led))
    free = exempt_now(code, partner_winning, led, trump)
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
        if code & UNDER_OPTIONAL:
            return hand
    return trumps


@njit_inline
def trick_state(trick, n, trump):
    """(led suit, top trump strength, winning position, winning power) of the first ``n``
    cards of ``trick`` (card indices in playing order); (-1, -1, -1, -1) when empty."""
    if n == 0:
        return -1, -1, -1, -1
    led = trick[0] >> 3
    top = -1
    win = 0
    power = -1
    for i in range(n):
        c = trick[i]
        pw = card_power(c, led, trump)
        if pw > power:
            power = pw
            win = i
        if (c >> 3) == trump and STRENGTH[1, c & 7] > top:
            top = STRENGTH[1, c & 7]
    return led, top, win, power


@njit_inline
def legal_in_trick(hand, trick, n, trump, code):
    """Legal cards of ``hand`` for the player after the first ``n`` cards of ``trick`` (card
    indices in playing order; his partner played position n - 2); ``code``: :func:`play_code`."""
    led, top, win, _ = trick_state(trick, n, trump)
    return legal_cards(hand, n, led, trump, top, n >= 2 and win == n - 2, code)


@njit_inline
def trick_winner_pos(trick, trump):
    """Position (0..3) in ``trick`` of the card that wins a complete trick."""
    _, _, win, _ = trick_state(trick, 4, trump)
    return win
