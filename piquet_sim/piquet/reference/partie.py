"""Plain-Python partie and Rubicon settlement, written from docs/rules/piquet.md "The partie"
(tests only).

``play_partie`` takes each deal's raw points for the two players in order and returns the
finished partie; ``settle`` is the Rubicon settlement alone. The choices where docs/rules/piquet.md
is
silent are the same as ``kernels.partie`` documents: piquet au cent stops after 40 deals at
most; a tie after the two extra deals is a draw under either tie rule; the Rubicon formula
settles every partie form.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..rules import DEFAULT_RULES, Rules

HUNDRED_MAX_DEALS = 40


def settle(winner: int, loser: int, blank_partie_bonus: bool = False) -> int:
    """What the winner of a partie gains: (winner − loser) + 100 if the loser reached 100,
    else winner + loser + 100; plus 100 if the bonus rule is on and the loser scored nothing."""
    if winner <= loser:
        raise ValueError("the winner must have the higher total")
    gain = winner - loser + 100 if loser >= 100 else winner + loser + 100
    if blank_partie_bonus and loser == 0:
        gain += 100
    return gain


@dataclass(frozen=True)
class Partie:
    """A finished partie, first player's view: totals, deals, winner (1, -1, 0) and settlement."""

    first: int
    second: int
    deals: int
    winner: int
    settlement: int
    rubicon: bool


def play_partie(deal_points: Iterable[tuple[int, int]], rules: Rules = DEFAULT_RULES) -> Partie:
    """Play a partie from each deal's raw points (first player's, second player's), in order.

    Raises ``ValueError`` if the points run out before the partie ends."""
    points = iter(deal_points)
    first = second = 0
    deals = 0

    def take(multiplier: int) -> None:
        nonlocal first, second, deals
        try:
            a, b = next(points)
        except StopIteration:
            raise ValueError("the deal points ran out before the partie ended") from None
        first += multiplier * a
        second += multiplier * b
        deals += 1

    if rules.game == "rubicon":
        for _ in range(6):
            take(1)
    elif rules.game == "four_deals":
        for k in range(4):
            take(2 if k in (0, 3) else 1)
    else:  # hundred: until someone has 100 after a deal
        while first < 100 and second < 100 and deals < HUNDRED_MAX_DEALS:
            take(1)
    if first == second:
        for _ in range(2):
            take(2 if rules.tie == "refait_double" else 1)
    if first == second:
        return Partie(first, second, deals, 0, 0, False)
    if first > second:
        gain = settle(first, second, rules.blank_partie_bonus)
        return Partie(first, second, deals, 1, gain, second < 100)
    gain = settle(second, first, rules.blank_partie_bonus)
    return Partie(first, second, deals, -1, -gain, first < 100)
