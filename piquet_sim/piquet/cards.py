"""Piquet's cards: the 32-card pack of :mod:`piquet_sim.core.engine.cards` and the pip values.

Encoding: card index = suit * 8 + rank, bit ``1 << index`` of a hand mask. Suits: 0 spades,
1 hearts, 2 diamonds, 3 clubs. Ranks: 0 seven, 1 eight, 2 nine, 3 ten, 4 jack, 5 queen, 6 king,
7 ace (low to high, for play, sequences and sets alike). Text forms: see ``core.cards``.
"""

from __future__ import annotations

from ..core.engine.cards import PACK32 as PACK
from ..core.engine.cards import SUIT_NAMES, SUITS, CardError, cards_to_mask

RANKS = PACK.ranks
RANK_NAMES = PACK.rank_names
N_CARDS = PACK.n_cards
FULL_PACK = PACK.full
SUIT_MASK = PACK.suit_mask

#: Pip value of each rank, for comparing points: 7..10 at face, court cards 10, ace 11.
PIPS = (7, 8, 9, 10, 10, 10, 10, 11)

card_index = PACK.card_index
card_name = PACK.card_name
parse_card = PACK.parse_card
parse_card_list = PACK.parse_list
parse_cards = PACK.parse
mask_to_cards = PACK.mask_to_cards
format_cards = PACK.format
format_grouped = PACK.format_grouped
card_names = PACK.card_names
suit_holding = PACK.suit_holding
popcount = PACK.popcount

__all__ = [
    "FULL_PACK",
    "N_CARDS",
    "PACK",
    "PIPS",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "SUIT_MASK",
    "SUIT_NAMES",
    "CardError",
    "card_index",
    "card_name",
    "card_names",
    "cards_to_mask",
    "format_cards",
    "format_grouped",
    "mask_to_cards",
    "parse_card",
    "parse_card_list",
    "parse_cards",
    "popcount",
    "suit_holding",
]
