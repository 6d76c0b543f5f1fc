"""Play for the partie, not the deal: a card valued by the partie's expected result.

The score before the deal and the deal's number turn each world's outcome of the deal (each
player's deal points when the play follows the card's double-dummy line to the end,
``card_values.line_outcomes``) into the partie's value there: P(winning the partie) or the
expected settlement, by the partie tables ``discard --score`` ranks exchanges with
(``partie.partie_value``: the Rubicon at 100, the form of the partie, the later deals played
greedily by both). The card's value is the mean over the worlds; its net deal points stay beside.

Perspective: the player to act (his P(win), his settlement: positive when he gains).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .actions import ROLES
from .advisor import PartieGoal
from .rules import Rules

#: The objective's unit, for the player to act (``play``) or reviewed (``review``).
UNITS = {"win": "P(win the partie)", "settlement": "partie settlement (points, + he gains)"}


@dataclass(frozen=True)
class PlayGoal:
    """The partie objective of ``play`` and ``review``: the score and deal (``partie``) and
    the rules with the partie's form (``rules``)."""

    partie: PartieGoal
    rules: Rules

    @classmethod
    def of(cls, given: Mapping, rules: Rules) -> PlayGoal:
        """From a command's settings: {my_score, opp_score, deal, objective, rules: the
        partie's form}, on the deal's ``rules``."""
        partie = PartieGoal(
            given["my_score"], given["opp_score"], given["deal"], given["objective"]
        )
        return cls(partie, dataclasses.replace(rules, **dict(given.get("rules", {}))))

    @property
    def unit(self) -> str:
        return UNITS[self.partie.objective]

    @property
    def note(self) -> str:
        p = self.partie
        return (
            f"valued by the partie ({p.objective}) from {p.my_score}:{p.opp_score} before deal "
            f"{p.deal}, each world's deal ended on its double-dummy line"
        )

    def world_values(self, state, seat: int, lines: np.ndarray) -> np.ndarray:
        """The partie's value in each world for the side to act: ``lines`` (int64[worlds, 3],
        his and the opponent's points still to come, his tricks) added to the deal's points so
        far, through the partie tables."""
        points = state.returns()
        mine = points[seat] + lines[:, 0]
        his = points[1 - seat] + lines[:, 1]
        value = self.partie.value_function(ROLES[seat], self.rules)
        return np.asarray(value(mine.astype(np.int64), his.astype(np.int64)), dtype=np.float64)


def play_goal(game_settings: Mapping, rules: Rules) -> PlayGoal | None:
    """The partie objective of a command's own settings (``cli.common``'s ``partie``: the
    score, the deal, the objective and the partie's form), None to value net deal points."""
    given = game_settings.get("partie")
    return PlayGoal.of(given, rules) if given else None


__all__ = ["UNITS", "PlayGoal", "play_goal"]
