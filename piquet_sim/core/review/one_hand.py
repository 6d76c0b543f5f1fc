"""The reviewed player's card decisions in a one-hand record (his own cards and the tricks as
he saw them): a walk of the tricks written once for every game whose tricks go round the table
from the last trick's winner.

Each decision is checked as ``play`` checks a position (the game's ``position_at`` builds the
record up to that card and raises :class:`InputError` when no deal fits it), so a faulty record
is one line naming the trick.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..engine.errors import InputError
from ..game.definition import CardDecision
from ..game.position import State
from ..game.record import record_error

R = TypeVar("R")


@dataclass(frozen=True)
class OneHandCard(Generic[R]):
    """One card of the reviewed player: its trick (from 1), the cards before his in that trick,
    his card, and the record up to it (what ``play`` would be given)."""

    trick: int
    before: list[int]
    card: int
    upto: R


@dataclass(frozen=True)
class TrickWalk:
    """How the tricks of a one-hand record go round: the seat reviewed and what he was dealt,
    the table's size, the first trick's leader, a full trick's winner ``winner(cards, leader)``,
    and how the page names the seat and a card in a fault."""

    seat: int
    hand: int
    players: int
    leader: int
    winner: Callable[[list[int], int], int]
    who: str
    card_name: Callable[[int], str]


def one_hand_cards(
    tricks: Sequence[Sequence[int]],
    walk: TrickWalk,
    place: str,
    position_at: Callable[[list[list[int]], int], R],
) -> list[OneHandCard[R]]:
    """Every card the reviewed player played in ``tricks``, in order.

    ``position_at(tricks before, hand now)`` returns the record up to his card, raising
    :class:`InputError` when it breaks the rules; a card he does not hold or such a fault is a
    ``RecordError`` at ``place`` naming the trick."""
    out: list[OneHandCard[R]] = []
    hand, leader, n = walk.hand, walk.leader, walk.players
    for i, cards in enumerate(tricks, 1):
        for j, c in enumerate(cards):
            if (leader + j) % n != walk.seat:
                continue
            if not hand >> c & 1:
                raise record_error(
                    place, f"trick {i}: you ({walk.who}) do not hold {walk.card_name(c)}"
                )
            before = [list(t) for t in tricks[: i - 1]] + ([list(cards[:j])] if j else [])
            try:
                upto = position_at(before, hand)
            except InputError as err:
                raise record_error(place, f"trick {i}: {err}") from None
            out.append(OneHandCard(i, list(cards[:j]), c, upto))
            hand &= ~(1 << c)
        if len(cards) == n:
            leader = walk.winner(list(cards), leader)
    return out


def one_hand_decisions(
    cards: Sequence[OneHandCard[R]],
    position_of: Callable[[R], State],
    card_name: Callable[[int], str],
) -> list[CardDecision]:
    """The review's decisions of ``cards`` (:func:`one_hand_cards`), none exact (one hand is
    known), each position built afresh from its record by ``position_of``."""
    return [
        CardDecision(
            ("card", d.trick),
            d.trick,
            [card_name(c) for c in d.before],
            d.card,
            functools.partial(position_of, d.upto),
            False,
        )
        for d in cards
    ]


__all__ = ["OneHandCard", "TrickWalk", "one_hand_cards", "one_hand_decisions"]
