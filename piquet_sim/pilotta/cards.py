"""Pilotta's cards: the 32-card pack of
:mod:`piquet_sim.core.engine.cards`, seats, and the rank tables.

Encoding (shared with Piquet): card index = suit * 8 + rank, bit ``1 << index`` of a hand mask.
Suits 0 spades, 1 hearts, 2 diamonds, 3 clubs; ranks 0 seven, 1 eight, 2 nine, 3 ten, 4 jack,
5 queen, 6 king, 7 ace (the natural order, used for sequences). Play uses two other orders:

* trump suit, high to low: J 9 A 10 K Q 8 7;
* other suits, high to low: A 10 K Q J 9 8 7.

``*_STRENGTH[rank]`` is a rank's place in its order (0 = lowest, 7 = highest);
``*_POINTS[rank]`` its card points. Seats in playing order: 0 N, 1 E, 2 S, 3 W; team = seat & 1
(0 = North-South, 1 = East-West).
"""

from __future__ import annotations

from ..core.engine.cards import PACK32 as PACK
from ..core.engine.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, CardError, cards_to_mask
from ..core.engine.cards import parse_suit as _parse_suit

SEATS = "NESW"
SEAT_NAMES = ("North", "East", "South", "West")
TEAMS = ("NS", "EW")
N_SEATS = 4
HAND_SIZE = 8
N_TRICKS = 8

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

#: Place of each rank (7 8 9 T J Q K A) in the order of a non-trump suit (A T K Q J 9 8 7).
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)
#: Place of each rank in the trump order (J 9 A T K Q 8 7).
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)
#: Card points of each rank in a non-trump suit (30 a suit).
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)


def trump_points(kq: tuple[int, int] = (4, 3)) -> tuple[int, ...]:
    """Card points of each rank in the trump suit with the king and queen worth ``kq``."""
    return (0, 0, 14, 10, 20, kq[1], kq[0], 11)


def parse_seat(text: str) -> int:
    """Seat index of 'N', 'e', 'South', …; raises CardError (an InputError) otherwise."""
    t = text.strip().upper()
    for i, name in enumerate(SEAT_NAMES):
        if t in (SEATS[i], name.upper()):
            return i
    raise CardError(f"'{text}' is not a seat (N, E, S or W)")


def parse_suit(text: str) -> int:
    """Suit index of 'S', '♥', 'diamonds', …; raises CardError otherwise."""
    return _parse_suit(text, (SUITS, SUIT_NAMES, SUIT_SYMBOLS), "S, H, D or C")


card_name = PACK.card_name
format_cards = PACK.format
parse_cards = PACK.parse
mask_to_cards = PACK.mask_to_cards
suit_holding = PACK.suit_holding
popcount = PACK.popcount

__all__ = [
    "HAND_SIZE",
    "N_SEATS",
    "N_TRICKS",
    "PACK",
    "PLAIN_POINTS",
    "PLAIN_STRENGTH",
    "SEATS",
    "SEAT_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "TEAMS",
    "TRUMP_STRENGTH",
    "CardError",
    "card_name",
    "cards_to_mask",
    "format_cards",
    "mask_to_cards",
    "parse_cards",
    "parse_seat",
    "parse_suit",
    "popcount",
    "suit_holding",
    "trump_points",
]
