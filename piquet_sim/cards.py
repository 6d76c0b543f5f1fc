"""Cards as bits of a 32-bit mask, and the text forms users type.

Encoding (stated once, used everywhere): card index = suit * 8 + rank, bit ``1 << index`` of a
hand mask. Suits: 0 spades, 1 hearts, 2 diamonds, 3 clubs. Ranks: 0 seven, 1 eight, 2 nine,
3 ten, 4 jack, 5 queen, 6 king, 7 ace (low to high, for play, sequences and sets alike).

Text forms accepted by :func:`parse_cards`:

* card by card, rank then suit, any case, separated by spaces and/or commas:
  ``AS KS 10H 9h t♦ 7C``; ranks ``A K Q J T 10 9 8 7``, suits ``S H D C`` or ``♠ ♥ ♦ ♣``;
* suit-grouped: a suit, a colon, then ranks: ``S:AKQ H:T98 D:10 C:``.

Canonical output (:func:`format_cards`): cards by suit S H D C, high rank first, ``AS KS TH``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = "789TJQKA"  # index = rank number
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")

N_CARDS = 32
FULL_PACK = (1 << N_CARDS) - 1
SUIT_MASK = 0xFF  # one suit's holding, before shifting by suit * 8

#: Pip value of each rank, for comparing points: 7..10 at face, court cards 10, ace 11.
PIPS = (7, 8, 9, 10, 10, 10, 10, 11)

_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_RANK_OF_TEXT = {c: i for i, c in enumerate(RANKS)} | {"10": 3}
_GROUP_RE = re.compile(r"^([SHDC♠♥♦♣]):(.*)$")
_CARD_RE = re.compile(r"^(10|[789TJQKA])([SHDC♠♥♦♣])$")
# Variation selectors many keyboards put after a suit symbol ("♥️" is U+2665 U+FE0F).
_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")


class CardError(ValueError):
    """Bad card text or an impossible set of cards; the message names the bad token."""


def card_index(suit: int, rank: int) -> int:
    """Card index (0..31) of a suit (0..3) and rank (0 seven .. 7 ace)."""
    return suit * 8 + rank


def card_name(index: int) -> str:
    """Canonical two-character name of a card index, e.g. 31 -> 'AC'."""
    if not 0 <= index < N_CARDS:
        raise CardError(f"card index {index} is out of range 0..31")
    return RANKS[index % 8] + SUITS[index // 8]


def parse_card(token: str) -> int:
    """Card index of one token such as 'QH', '10s', 'T♦'."""
    match = _CARD_RE.match(token.translate(_VARIATION_SELECTORS).strip().upper())
    if match is None:
        raise CardError(f"'{token}' is not a card")
    return card_index(_SUIT_OF_CHAR[match.group(2)], _RANK_OF_TEXT[match.group(1)])


def _grouped_ranks(token: str, ranks_text: str) -> list[int]:
    ranks: list[int] = []
    i = 0
    text = ranks_text.upper()
    if text == "-":
        return ranks
    while i < len(text):
        if text.startswith("10", i):
            ranks.append(3)
            i += 2
        elif text[i] in _RANK_OF_TEXT:
            ranks.append(_RANK_OF_TEXT[text[i]])
            i += 1
        else:
            raise CardError(f"'{text[i]}' in '{token}' is not a rank")
    return ranks


def parse_card_list(text: str | Iterable[str]) -> list[int]:
    """Card indices in the order typed; accepts every text form above. Raises CardError."""
    if not isinstance(text, str):
        text = " ".join(text)
    text = text.translate(_VARIATION_SELECTORS)
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    cards: list[int] = []
    for token in tokens:
        group = _GROUP_RE.match(token.upper())
        if group is not None:
            suit = _SUIT_OF_CHAR[group.group(1)]
            cards.extend(card_index(suit, r) for r in _grouped_ranks(token, group.group(2)))
        else:
            cards.append(parse_card(token))
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"duplicate card {card_name(card)}")
        seen.add(card)
    return cards


def parse_cards(text: str | Iterable[str], count: int | None = None) -> int:
    """Hand mask of a text; with ``count``, require exactly that many cards. Raises CardError."""
    cards = parse_card_list(text)
    if count is not None and len(cards) != count:
        raise CardError(f"a hand needs {count} cards, got {len(cards)}")
    return cards_to_mask(cards)


def cards_to_mask(cards: Iterable[int]) -> int:
    """Mask with the bit of every card index set."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def mask_to_cards(mask: int) -> list[int]:
    """Card indices of a mask, in canonical order (suits S H D C, high rank first)."""
    mask = int(mask) & FULL_PACK
    return [
        card_index(s, r) for s in range(4) for r in range(7, -1, -1) if mask >> card_index(s, r) & 1
    ]


def format_cards(mask: int) -> str:
    """Canonical text of a mask: 'AS KS TH 7C'."""
    return " ".join(card_name(c) for c in mask_to_cards(mask))


def format_grouped(mask: int) -> str:
    """Suit-grouped text of a mask: 'S:AK H:T D:- C:7'."""
    mask = int(mask)
    parts = []
    for s in range(4):
        ranks = "".join(RANKS[r] for r in range(7, -1, -1) if mask >> card_index(s, r) & 1)
        parts.append(f"{SUITS[s]}:{ranks or '-'}")
    return " ".join(parts)


def card_names(mask: int) -> list[str]:
    """List of canonical card names of a mask, canonical order."""
    return [card_name(c) for c in mask_to_cards(mask)]


def popcount(mask: int) -> int:
    """Number of cards in a mask."""
    return bin(int(mask) & FULL_PACK).count("1")


def suit_holding(mask: int, suit: int) -> int:
    """8-bit holding of one suit (bit r = rank r)."""
    return (int(mask) >> (suit * 8)) & SUIT_MASK
