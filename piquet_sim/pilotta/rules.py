"""Pilotta's rules options, declared once as rows (:mod:`piquet_sim.core.spec`).

Source: the project's Pilotta spec (rules as implemented: ``docs/rules/pilotta.md``). From
:data:`SPEC` come the frozen :class:`Rules` (every option with its default, validated), the
kernels' int64 array (``Rules.to_array()``, indexed by :class:`RuleSlot`), the CLI options and
the options table of the rules document. Adding an option: a row here, and the kernel that reads
``rules[RuleSlot.<NAME>]``. Kernels never see the dataclass.
"""

from __future__ import annotations

from ..core.spec import Option, RulesError, RulesSpec

TRUMP_KQ_CHOICES = ((4, 3), (3, 2))
EQUAL_DECLARATIONS = ("first_in_order", "nobody")
FIRST_LEADS = ("contractor", "after_dealer")

# Row order is the array's slot order (kept from the former int32 array, so every slot holds the
# same number as before: trump_kq_points 1 = (3, 2), equal_declarations 1 = nobody, …).
SPEC = RulesSpec(
    "Pilotta",
    (
        Option(
            "trump_kq_points",
            (4, 3),
            "Card points of the king and queen of trumps: 4,3 makes the pack's 162; 3,2 is the "
            "rules text's literal values (160 in all).",
            choices=TRUMP_KQ_CHOICES,
            labels=("4,3", "3,2"),
            flag="--trump-kq",
        ),
        Option(
            "pass_is_final",
            False,
            "A player who has passed may not bid again (default: he may).",
        ),
        Option(
            "equal_declarations",
            "first_in_order",
            "When the best combinations of both teams are exactly equal: the first in playing "
            "order from the first leader scores, or nobody does.",
            choices=EQUAL_DECLARATIONS,
        ),
        Option(
            "first_lead",
            "contractor",
            "Who leads to the first trick: the contractor (the highest bidder) or the player "
            "after the dealer.",
            choices=FIRST_LEADS,
        ),
        Option(
            "partner_exemption",
            False,
            "A player whose partner is winning the trick need not trump or over-trump.",
        ),
        Option(
            "contract_on_card_points_only",
            False,
            "Only card points (step 1, last trick included) count toward the bid.",
        ),
        Option(
            "failed_contract_loses_declarations",
            True,
            "A failed contract gives the contractors' combinations to the opponents (the pilotta "
            "always stays with its holder's team).",
        ),
        Option(
            "game_target",
            351,
            "Game points that win a game.",
            bounds=(1, 10_000),
            scope="game",
        ),
    ),
)


def _total_points(self) -> int:
    """Card points in the pack plus the last trick: 162 (or 160 with K 3, Q 2)."""
    return 162 if self.trump_kq_points == (4, 3) else 160


def _kq_literal(self) -> int:
    """1 when the trump K and Q score 3 and 2 (the kernels' ``kq`` flag), else 0."""
    return int(self.trump_kq_points == (3, 2))


#: The slots of the kernels' rules array, one per option (``RuleSlot.PARTNER_EXEMPTION`` …).
RuleSlot = SPEC.slot_enum("RuleSlot", __name__)
Rules = SPEC.rules_class(
    __name__, {"total_points": property(_total_points), "kq_literal": property(_kq_literal)}
)
DEFAULT_RULES = Rules()

__all__ = [
    "DEFAULT_RULES",
    "EQUAL_DECLARATIONS",
    "FIRST_LEADS",
    "SPEC",
    "TRUMP_KQ_CHOICES",
    "RuleSlot",
    "Rules",
    "RulesError",
]
