"""Packs of cards as bitmasks, and the text forms users type, for every game of the project.

A pack is ``n_ranks`` ranks in four suits. A card is bit ``suit * stride + rank`` of a mask:

* the 32-card pack (Piquet, Pilotta): ranks 7 8 9 T J Q K A (rank 0 = seven .. 7 = ace),
  ``stride`` 8, so a hand fits in 32 bits (``uint32`` in arrays);
* the 52-card pack (Pitch): ranks 2 .. 9 T J Q K A (rank 0 = two .. 12 = ace), ``stride`` 16, so
  a suit's holding is one 16-bit lane and a hand fits in 64 bits (``uint64`` in arrays).

Suits are 0 spades, 1 hearts, 2 diamonds, 3 clubs. Ranks are numbered low to high in the pack's
natural order; a game that ranks cards differently in play (trumps) does so with its own tables.
Kernels hold masks in int64 registers (52 bits fit; numba turns mixed int64/uint64 arithmetic
into floats, so kernels never mix them).

Text forms accepted by :meth:`Pack.parse_list` (any case, separated by spaces and/or commas):

* card by card, rank then suit: ``AS KS 10H 9h t♦ 7C``; ten as ``T`` or ``10``; suits ``S H D C``,
  ``♠ ♥ ♦ ♣`` or the white symbols ``♤ ♡ ♢ ♧`` (an emoji variation selector after a symbol is
  ignored);
* suit-grouped: a suit, a colon, then ranks: ``S:AKQ H:T98 D:10 C:`` (``-`` or nothing for a void).

Canonical output (:meth:`Pack.format`): cards by suit S H D C, high rank first, ``AS KS TH 7C``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .errors import InputError

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
WHITE_SUIT_SYMBOLS = "♤♡♢♧"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
# Variation selectors many keyboards put after a suit symbol ("♥️" is U+2665 U+FE0F).
_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")
_SUIT_CLASS = "SHDC" + SUIT_SYMBOLS + WHITE_SUIT_SYMBOLS
_SUIT_OF_CHAR = {c: i % 4 for i, c in enumerate(_SUIT_CLASS)}
_GROUP_RE = re.compile(rf"^([{_SUIT_CLASS}]):(.*)$")


class CardError(InputError):
    """Bad card text or an impossible set of cards; the message names the bad token."""


class Pack:
    """One pack's encoding, parsing and formatting (see the module docstring).

    ``ranks``: one character per rank, low to high (``"789TJQKA"``); ``stride``: bits per suit
    in a mask (8 or 16); ``rank_names``: spoken names, low to high."""

    def __init__(self, ranks: str, stride: int, rank_names: tuple[str, ...]):
        self.ranks = ranks
        self.n_ranks = len(ranks)
        self.stride = stride
        self.rank_names = rank_names
        self.n_cards = 4 * self.n_ranks
        self.suit_mask = (1 << self.n_ranks) - 1  # one suit's holding, before shifting
        self.full = sum(self.suit_mask << (s * stride) for s in range(4))
        self.ten = ranks.index("T")
        self._rank_of_text = {c: i for i, c in enumerate(ranks)} | {"10": self.ten}
        rank_class = "".join(c for c in ranks if c != "T")
        self._card_re = re.compile(rf"^(10|[{rank_class}T])([{_SUIT_CLASS}])$")

    # ------------------------------------------------------------------ encoding
    def card_index(self, suit: int, rank: int) -> int:
        """Bit index of a suit (0..3) and rank (0 = lowest)."""
        return suit * self.stride + rank

    def suit_of(self, index: int) -> int:
        return index // self.stride

    def rank_of(self, index: int) -> int:
        return index % self.stride

    def is_card(self, index: int) -> bool:
        """Whether ``index`` is the bit of a card of this pack."""
        return 0 <= index < 4 * self.stride and index % self.stride < self.n_ranks

    def card_name(self, index: int) -> str:
        """Canonical two-character name of a card index, e.g. 'AC'."""
        if not self.is_card(index):
            raise CardError(f"card index {index} is out of range for a {self.n_cards}-card pack")
        return self.ranks[index % self.stride] + SUITS[index // self.stride]

    # ------------------------------------------------------------------ parsing
    def parse_card(self, token: str) -> int:
        """Card index of one token such as 'QH', '10s', 'T♦'."""
        match = self._card_re.match(token.translate(_VARIATION_SELECTORS).strip().upper())
        if match is None:
            raise CardError(f"'{token}' is not a card")
        return self.card_index(_SUIT_OF_CHAR[match.group(2)], self._rank_of_text[match.group(1)])

    def _grouped_ranks(self, token: str, ranks_text: str) -> list[int]:
        ranks: list[int] = []
        text = ranks_text.upper()
        if text == "-":
            return ranks
        i = 0
        while i < len(text):
            if text.startswith("10", i):
                ranks.append(self.ten)
                i += 2
            elif text[i] in self._rank_of_text:
                ranks.append(self._rank_of_text[text[i]])
                i += 1
            else:
                raise CardError(f"'{text[i]}' in '{token}' is not a rank")
        return ranks

    def parse_list(self, text: str | Iterable[str]) -> list[int]:
        """Card indices in the order typed; accepts every text form. Raises CardError."""
        if not isinstance(text, str):
            text = " ".join(text)
        text = text.translate(_VARIATION_SELECTORS)
        tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
        cards: list[int] = []
        for token in tokens:
            group = _GROUP_RE.match(token.upper())
            if group is not None:
                suit = _SUIT_OF_CHAR[group.group(1)]
                ranks = self._grouped_ranks(token, group.group(2))
                cards.extend(self.card_index(suit, r) for r in ranks)
            else:
                cards.append(self.parse_card(token))
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"duplicate card {self.card_name(card)}")
            seen.add(card)
        return cards

    def parse(self, text: str | Iterable[str], count: int | None = None) -> int:
        """Mask of a text; with ``count``, exactly that many cards. Raises CardError."""
        cards = self.parse_list(text)
        if count is not None and len(cards) != count:
            raise CardError(f"a hand needs {count} cards, got {len(cards)}")
        return cards_to_mask(cards)

    # ------------------------------------------------------------------ formatting
    def mask_to_cards(self, mask: int) -> list[int]:
        """Card indices of a mask, canonical order (suits S H D C, high rank first)."""
        mask = int(mask) & self.full
        return [
            self.card_index(s, r)
            for s in range(4)
            for r in range(self.n_ranks - 1, -1, -1)
            if mask >> self.card_index(s, r) & 1
        ]

    def format(self, mask: int) -> str:
        """Canonical text of a mask: 'AS KS TH 7C'."""
        return " ".join(self.card_name(c) for c in self.mask_to_cards(mask))

    def format_grouped(self, mask: int) -> str:
        """Suit-grouped text of a mask: 'S:AK H:T D:- C:7'."""
        parts = []
        for s in range(4):
            h = self.suit_holding(mask, s)
            ranks = "".join(self.ranks[r] for r in range(self.n_ranks - 1, -1, -1) if h >> r & 1)
            parts.append(f"{SUITS[s]}:{ranks or '-'}")
        return " ".join(parts)

    def card_names(self, mask: int) -> list[str]:
        """Canonical card names of a mask, canonical order."""
        return [self.card_name(c) for c in self.mask_to_cards(mask)]

    def suit_holding(self, mask: int, suit: int) -> int:
        """One suit's holding (bit r = rank r)."""
        return (int(mask) >> (suit * self.stride)) & self.suit_mask

    def popcount(self, mask: int) -> int:
        """Number of cards in a mask."""
        return bin(int(mask) & self.full).count("1")


def parse_suit(text: str, spellings: Iterable[Sequence[str]], expected: str) -> int:
    """Suit index (0 spades .. 3 clubs) of ``text``, one of ``spellings`` (each names the four
    suits in order: ``SUITS``, ``SUIT_SYMBOLS``, ``SUIT_NAMES`` …) in any case, an emoji
    variation selector ignored; a CardError saying ``expected`` (the spellings a game takes)
    otherwise."""
    wanted = text.strip().translate(_VARIATION_SELECTORS).upper()
    for suit in range(4):
        if any(wanted == names[suit].upper() for names in spellings):
            return suit
    raise CardError(f"'{text}' is not a suit ({expected})")


def cards_to_mask(cards: Iterable[int]) -> int:
    """Mask with the bit of every card index set."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


#: Piquet's and Pilotta's pack: 7 8 9 T J Q K A, a suit per byte.
PACK32 = Pack("789TJQKA", 8, ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"))

#: The full pack (Pitch): 2 .. A, a suit per 16-bit lane.
PACK52 = Pack(
    "23456789TJQKA",
    16,
    (
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "jack",
        "queen",
        "king",
        "ace",
    ),
)
