"""Pitch's cards: the 52-card pack of :mod:`piquet_sim.core.engine.cards` and the game-point values.

Encoding: card index = suit * 16 + rank, bit ``1 << index`` of a hand mask (uint64 in arrays,
int64 in kernels). Suits: 0 spades, 1 hearts, 2 diamonds, 3 clubs. Ranks: 0 two, 1 three, ...,
4 six, ..., 8 ten, 9 jack, 10 queen, 11 king, 12 ace (low to high; ace high in every suit).
Text forms: see ``core.cards`` (ranks 2-9, T/10, J, Q, K, A; suits S H D C or symbols).
"""

from __future__ import annotations

import numpy as np

from ..core.engine.cards import PACK52 as PACK
from ..core.engine.cards import (
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    WHITE_SUIT_SYMBOLS,
    CardError,
    cards_to_mask,
)
from ..core.engine.cards import parse_suit as _parse_suit

RANKS = PACK.ranks
N_CARDS = PACK.n_cards
STRIDE = PACK.stride
FULL_PACK = PACK.full
SUIT_MASK = PACK.suit_mask  # 13 bits: one suit's holding before shifting

HAND_SIZE = 6  # cards per player, six tricks per round
MIN_PLAYERS = 3
MAX_PLAYERS = 6

SIX_RANK = 4
TEN_RANK = 8
JACK_RANK = 9
QUEEN_RANK = 10
KING_RANK = 11
ACE_RANK = 12

#: Game points of each rank (for the point "Game"): ten 10, ace 4, king 3, queen 2, jack 1.
GAME_POINTS = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
#: The same by card index (64 entries, 0 for unused bits), for kernels.
GAME_POINTS_BY_CARD = np.array(
    [GAME_POINTS[i % STRIDE] if i % STRIDE < 13 else 0 for i in range(64)], dtype=np.int64
)
#: Total game points in the pack (4 suits x 20).
PACK_GAME_POINTS = 4 * sum(GAME_POINTS)

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


def suit_cards(suit: int) -> int:
    """Mask of every card of ``suit`` (0..3)."""
    return SUIT_MASK << (suit * STRIDE)


def game_points(mask: int) -> int:
    """Game points held in a mask (ten 10, ace 4, king 3, queen 2, jack 1)."""
    return sum(GAME_POINTS[c % STRIDE] for c in mask_to_cards(mask))


def parse_suit(text: str) -> int:
    """Suit index of ``S``/``H``/``D``/``C`` or a suit symbol, any case. Raises CardError."""
    return _parse_suit(text, (SUITS, SUIT_SYMBOLS, WHITE_SUIT_SYMBOLS), "S H D C or a suit symbol")


__all__ = [
    "ACE_RANK",
    "FULL_PACK",
    "GAME_POINTS",
    "GAME_POINTS_BY_CARD",
    "HAND_SIZE",
    "JACK_RANK",
    "KING_RANK",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "N_CARDS",
    "PACK",
    "PACK_GAME_POINTS",
    "QUEEN_RANK",
    "RANKS",
    "SIX_RANK",
    "STRIDE",
    "SUITS",
    "SUIT_MASK",
    "SUIT_NAMES",
    "TEN_RANK",
    "CardError",
    "card_index",
    "card_name",
    "card_names",
    "cards_to_mask",
    "format_cards",
    "format_grouped",
    "game_points",
    "mask_to_cards",
    "parse_card",
    "parse_card_list",
    "parse_cards",
    "parse_suit",
    "popcount",
    "suit_cards",
    "suit_holding",
]
