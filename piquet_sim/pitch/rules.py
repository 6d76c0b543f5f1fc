"""Pitch Six's rules options, declared once as rows (:mod:`piquet_sim.core.game.spec`).

From :data:`SPEC` come the frozen :class:`Rules` (every option with its default, validated),
the kernels' int64 array (``Rules.to_array()``, indexed by :class:`RuleSlot`), the CLI options
and the options table of ``docs/rules/pitch.md`` (the rules themselves are described there).
Adding an option: a row here, and the kernel that reads ``rules[RuleSlot.<NAME>]``.
"""

from __future__ import annotations

from ..core.game.spec import Option, RulesError, RulesSpec
from .cards import MAX_PLAYERS, MIN_PLAYERS

LOW_TO = ("holder", "capturer")
GAME_TIE = ("nobody", "bidder")

SPEC = RulesSpec(
    "Pitch Six",
    (
        Option(
            "players",
            4,
            "Players at the table, each for himself.",
            bounds=(MIN_PLAYERS, MAX_PLAYERS),
            scope="table",
        ),
        Option(
            "must_follow",
            False,
            "Whether a player holding the suit led may trump instead (may-trump) or must "
            "follow it.",
            flag="--must-follow/--may-trump",
        ),
        Option(
            "low_to",
            "holder",
            "Who scores Low: the player dealt the lowest trump in play, or the winner of the "
            "trick it falls in.",
            choices=LOW_TO,
        ),
        Option(
            "game_tie",
            "nobody",
            "Who scores Game when players tie for the most game points: nobody, or the bidder "
            "if he is among the tied.",
            choices=GAME_TIE,
        ),
        Option(
            "target",
            12,
            "The total a bidder must reach, having made his bid, to win the game.",
            bounds=(1, 1000),
            scope="game",
        ),
    ),
)

#: The slots of the kernels' rules array, one per option (``RuleSlot.LOW_TO`` …) and ``LEN``.
RuleSlot = SPEC.slot_enum("RuleSlot", __name__)
Rules = SPEC.rules_class(__name__)
DEFAULT_RULES = Rules()

__all__ = ["DEFAULT_RULES", "GAME_TIE", "LOW_TO", "SPEC", "RuleSlot", "Rules", "RulesError"]
