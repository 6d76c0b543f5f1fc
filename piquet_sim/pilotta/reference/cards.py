"""Rank orders and card points written from the rules text, as strings and dicts."""

from __future__ import annotations

from ...core.engine.masks import mask_bits

NATURAL = "789TJQKA"  # rank index order, and the order of sequences
TRUMP_ORDER = "J9ATKQ87"  # high to low
PLAIN_ORDER = "ATKQJ987"
PLAIN_VALUES = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def trump_values(kq: tuple[int, int]) -> dict[str, int]:
    return {"J": 20, "9": 14, "A": 11, "T": 10, "K": kq[0], "Q": kq[1], "8": 0, "7": 0}


def suit(card: int) -> int:
    return card // 8


def rank_char(card: int) -> str:
    return NATURAL[card % 8]


#: Card indices of a mask, ascending (plain Python, the core's).
cards_of = mask_bits


def points(card: int, trump: int, kq: tuple[int, int] = (4, 3)) -> int:
    """Card points of a card with ``trump`` the trump suit."""
    table = trump_values(kq) if suit(card) == trump else PLAIN_VALUES
    return table[rank_char(card)]


#: place of each natural rank index in the order, high to low (0 = highest)
_TRUMP_PLACE = [TRUMP_ORDER.index(ch) for ch in NATURAL]
_PLAIN_PLACE = [PLAIN_ORDER.index(ch) for ch in NATURAL]


def beats(a: int, b: int, trump: int) -> bool:
    """True when card ``a`` ranks above card ``b`` of the same suit, in that suit's order."""
    place = _TRUMP_PLACE if a >> 3 == trump else _PLAIN_PLACE
    return place[a & 7] < place[b & 7]
