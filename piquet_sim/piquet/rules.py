"""Piquet's rules options, declared once as rows (:mod:`piquet_sim.core.game.spec`).

From :data:`SPEC` come the frozen :class:`Rules` (every option with its default, validated),
the kernels' array (``Rules.to_array()``, indexed by :class:`RuleSlot`), the CLI options and the
options table of ``docs/rules/piquet.md``. Adding an option: a row here, and the kernel that
reads ``env.rules[RuleSlot.<NAME>]``.
"""

from __future__ import annotations

from ..core.game.spec import Option, RulesError, RulesSpec

LEAD_POINTS = ("every", "ten_or_higher")
TIE_RULES = ("two_more_deals", "refait_double")
GAMES = ("rubicon", "hundred", "four_deals")

SPEC = RulesSpec(
    "Piquet",
    (
        Option(
            "lead_points",
            "every",
            "Which leads and wins score a play point: every card (1 per card led, 1 for winning "
            "the opponent's lead) or only a card of ten or higher.",
            choices=LEAD_POINTS,
        ),
        Option(
            "younger_must_exchange",
            True,
            "Whether younger must take at least one card (the 1892 laws) or may decline to "
            "exchange.",
            flag="--younger-must-exchange/--younger-may-pass",
        ),
        Option(
            "carte_rouge",
            False,
            "Score carte rouge (20) for a hand whose every card is in a scoring combination.",
        ),
        Option(
            "tie", "two_more_deals", "What follows a tied partie.", choices=TIE_RULES, scope="game"
        ),
        Option(
            "game",
            "rubicon",
            "Partie form: six deals (rubicon), piquet au cent, or four deals (first and last "
            "double).",
            choices=GAMES,
            scope="game",
        ),
        Option(
            "blank_partie_bonus",
            False,
            "A player scoring nothing in a partie gives the opponent 100 more.",
            scope="game",
        ),
    ),
)

#: The slots of the kernels' rules array, one per option (``RuleSlot.CARTE_ROUGE`` …).
RuleSlot = SPEC.slot_enum("RuleSlot", __name__)
Rules = SPEC.rules_class(__name__)
DEFAULT_RULES = Rules()

__all__ = [
    "DEFAULT_RULES",
    "GAMES",
    "LEAD_POINTS",
    "SPEC",
    "TIE_RULES",
    "RuleSlot",
    "Rules",
    "RulesError",
]
