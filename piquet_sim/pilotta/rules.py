"""Pilotta's rules options as one frozen object, and the int32 array kernels take.

Source: the project's Pilotta spec (rules as implemented: ``docs/rules/pilotta.md``). Kernels
never see the dataclass: they take ``Rules.to_array()`` indexed by :class:`layouts.Rule`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from ..core.errors import InputError
from .layouts import Rule

TRUMP_KQ_CHOICES = ((4, 3), (3, 2))
EQUAL_DECLARATIONS = ("first_in_order", "nobody")
FIRST_LEADS = ("contractor", "after_dealer")


class RulesError(InputError):
    """An unknown or invalid Pilotta rules option."""


def _check_choice(name: str, value: object, choices: tuple) -> None:
    if value not in choices:
        shown = ", ".join(str(c) for c in choices)
        raise RulesError(f"{name} must be one of {shown}; got {value!r}")


@dataclass(frozen=True)
class Rules:
    """Every option of the Pilotta spec, with its default.

    trump_kq_points: (king, queen) card points in trumps: (4, 3) makes the pack's 162, (3, 2)
        is the rules text's literal values (160 in all).
    pass_is_final: a player who has passed may not bid again (default: he may).
    equal_declarations: when the best combinations of both teams are exactly equal,
        "first_in_order" (the first in playing order from the first leader scores) or "nobody".
    first_lead: "contractor" (the highest bidder leads to the first trick) or "after_dealer".
    partner_exemption: a player whose partner is winning the trick need not trump or over-trump.
    contract_on_card_points_only: only step-1 card points count toward the bid.
    failed_contract_loses_declarations: a failed contract gives the contractors' combinations to
        the opponents (pilotta always stays with its holder's team).
    game_target: game points that win a game (the spec's 351).
    """

    trump_kq_points: tuple[int, int] = (4, 3)
    pass_is_final: bool = False
    equal_declarations: str = "first_in_order"
    first_lead: str = "contractor"
    partner_exemption: bool = False
    contract_on_card_points_only: bool = False
    failed_contract_loses_declarations: bool = True
    game_target: int = 351

    def __post_init__(self) -> None:
        kq = self.trump_kq_points
        if isinstance(kq, list):
            object.__setattr__(self, "trump_kq_points", tuple(kq))
        _check_choice("trump_kq_points", self.trump_kq_points, TRUMP_KQ_CHOICES)
        _check_choice("equal_declarations", self.equal_declarations, EQUAL_DECLARATIONS)
        _check_choice("first_lead", self.first_lead, FIRST_LEADS)
        for name in (
            "pass_is_final",
            "partner_exemption",
            "contract_on_card_points_only",
            "failed_contract_loses_declarations",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, got {getattr(self, name)!r}")
        t = self.game_target
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 10_000:
            raise RulesError(f"game_target must be a whole number 1..10000, got {t!r}")

    @property
    def total_points(self) -> int:
        """Card points in the pack plus the last trick: 162 (or 160 with K 3, Q 2)."""
        return 162 if self.trump_kq_points == (4, 3) else 160

    def to_array(self) -> np.ndarray:
        """The int32 array form the kernels take (indices :class:`layouts.Rule`)."""
        arr = np.zeros(Rule.LEN, dtype=np.int32)
        arr[Rule.KQ_LITERAL] = self.trump_kq_points == (3, 2)
        arr[Rule.PASS_IS_FINAL] = self.pass_is_final
        arr[Rule.EQUAL_NOBODY] = self.equal_declarations == "nobody"
        arr[Rule.LEAD_AFTER_DEALER] = self.first_lead == "after_dealer"
        arr[Rule.PARTNER_EXEMPTION] = self.partner_exemption
        arr[Rule.CONTRACT_CARDS_ONLY] = self.contract_on_card_points_only
        arr[Rule.FAILED_LOSES_DECL] = self.failed_contract_loses_declarations
        arr[Rule.GAME_TARGET] = self.game_target
        return arr

    @classmethod
    def from_array(cls, arr: np.ndarray) -> Rules:
        """Inverse of :meth:`to_array`; raises RulesError on an array no Rules produces."""
        arr = np.asarray(arr)
        if arr.shape != (Rule.LEN,):
            raise RulesError(f"a rules array has {int(Rule.LEN)} entries, got shape {arr.shape}")
        for index in Rule:
            if index in (Rule.LEN, Rule.GAME_TARGET):
                continue
            if int(arr[index]) not in (0, 1):
                raise RulesError(f"rules array entry {index.name} is {int(arr[index])}, not 0/1")
        return cls(
            trump_kq_points=TRUMP_KQ_CHOICES[int(arr[Rule.KQ_LITERAL])],
            pass_is_final=bool(arr[Rule.PASS_IS_FINAL]),
            equal_declarations=EQUAL_DECLARATIONS[int(arr[Rule.EQUAL_NOBODY])],
            first_lead=FIRST_LEADS[int(arr[Rule.LEAD_AFTER_DEALER])],
            partner_exemption=bool(arr[Rule.PARTNER_EXEMPTION]),
            contract_on_card_points_only=bool(arr[Rule.CONTRACT_CARDS_ONLY]),
            failed_contract_loses_declarations=bool(arr[Rule.FAILED_LOSES_DECL]),
            game_target=int(arr[Rule.GAME_TARGET]),
        )

    def to_dict(self) -> dict:
        """Plain dict of the options (for JSON)."""
        d = asdict(self)
        d["trump_kq_points"] = list(self.trump_kq_points)
        return d

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


DEFAULT_RULES = Rules()
