"""The rules options of ``RULES.md`` as one frozen object, and the integer array kernels take.

Source: ``shared/RULES.md`` (written from several rule books; where they disagree the default is
named and the others are options). Kernels never see this dataclass: they take
``Rules.to_array()``, an ``int32`` array indexed by the ``R_*`` constants below.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from ..core.errors import InputError
from .kernels import layouts as L

LEAD_POINTS = ("every", "ten_or_higher")
TIE_RULES = ("two_more_deals", "refait_double")
GAMES = ("rubicon", "hundred", "four_deals")

# Index of each option in the kernels' rules array.


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise RulesError(f"{name} must be one of {', '.join(choices)}; got {value!r}")


class RulesError(InputError):
    """An unknown or invalid rules option."""


@dataclass(frozen=True)
class Rules:
    """Every rules option of RULES.md with its default.

    lead_points: "every" (1 per card led, 1 for winning the opponent's lead) or "ten_or_higher"
        (a lead or a win scores only with a card of ten or higher).
    younger_must_exchange: younger must take at least one card (1892 laws); False lets him pass.
    carte_rouge: 20 more to a player all 12 of whose cards belong to combinations scoring for him.
    tie: after a tied partie, "two_more_deals" (a tie after those is a draw) or "refait_double".
    game: "rubicon" (6 deals), "hundred" (piquet au cent) or "four_deals" (first and last double).
    blank_partie_bonus: a player scoring nothing in a partie gives the opponent 100 more.
    """

    lead_points: str = "every"
    younger_must_exchange: bool = True
    carte_rouge: bool = False
    tie: str = "two_more_deals"
    game: str = "rubicon"
    blank_partie_bonus: bool = False

    def __post_init__(self) -> None:
        _check_choice("lead_points", self.lead_points, LEAD_POINTS)
        _check_choice("tie", self.tie, TIE_RULES)
        _check_choice("game", self.game, GAMES)
        for name in ("younger_must_exchange", "carte_rouge", "blank_partie_bonus"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, got {getattr(self, name)!r}")

    def to_array(self) -> np.ndarray:
        """The int32 array form the kernels take (indices ``R_*``)."""
        arr = np.zeros(L.RULE_LEN, dtype=np.int32)
        arr[L.RULE_LEAD_TEN_OR_HIGHER] = self.lead_points == "ten_or_higher"
        arr[L.RULE_YOUNGER_MUST_EXCHANGE] = self.younger_must_exchange
        arr[L.RULE_CARTE_ROUGE] = self.carte_rouge
        arr[L.RULE_TIE] = TIE_RULES.index(self.tie)
        arr[L.RULE_GAME] = GAMES.index(self.game)
        arr[L.RULE_BLANK_PARTIE_BONUS] = self.blank_partie_bonus
        return arr

    @classmethod
    def from_array(cls, arr: np.ndarray) -> Rules:
        """Inverse of :meth:`to_array`; raises RulesError on an array no Rules produces."""
        arr = np.asarray(arr)
        if arr.shape != (L.RULE_LEN,):
            raise RulesError(f"a rules array has {L.RULE_LEN} entries, got shape {arr.shape}")
        limits = {
            L.RULE_LEAD_TEN_OR_HIGHER: 2,
            L.RULE_YOUNGER_MUST_EXCHANGE: 2,
            L.RULE_CARTE_ROUGE: 2,
            L.RULE_TIE: len(TIE_RULES),
            L.RULE_GAME: len(GAMES),
            L.RULE_BLANK_PARTIE_BONUS: 2,
        }
        for index, limit in limits.items():
            if not 0 <= int(arr[index]) < limit:
                raise RulesError(
                    f"rules array entry {index} is {int(arr[index])}, not 0..{limit - 1}"
                )
        return cls(
            lead_points=LEAD_POINTS[int(arr[L.RULE_LEAD_TEN_OR_HIGHER])],
            younger_must_exchange=bool(arr[L.RULE_YOUNGER_MUST_EXCHANGE]),
            carte_rouge=bool(arr[L.RULE_CARTE_ROUGE]),
            tie=TIE_RULES[int(arr[L.RULE_TIE])],
            game=GAMES[int(arr[L.RULE_GAME])],
            blank_partie_bonus=bool(arr[L.RULE_BLANK_PARTIE_BONUS]),
        )

    def to_dict(self) -> dict:
        """Plain dict of the options (for JSON and reports)."""
        return asdict(self)

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


DEFAULT_RULES = Rules()
