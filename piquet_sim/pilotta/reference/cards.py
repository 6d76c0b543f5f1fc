"""Rank orders and card points written from the rules text, as strings and dicts."""

from __future__ import annotations

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


def cards_of(mask: int) -> list[int]:
    """Card indices of a mask, ascending."""
    return [c for c in range(32) if mask >> c & 1]


def points(card: int, trump: int, kq: tuple[int, int] = (4, 3)) -> int:
    """Card points of a card with ``trump`` the trump suit."""
    table = trump_values(kq) if suit(card) == trump else PLAIN_VALUES
    return table[rank_char(card)]


def beats(a: int, b: int, trump: int) -> bool:
    """True when card ``a`` ranks above card ``b`` of the same suit, in that suit's order."""
    order = TRUMP_ORDER if suit(a) == trump else PLAIN_ORDER
    return order.index(rank_char(a)) < order.index(rank_char(b))
