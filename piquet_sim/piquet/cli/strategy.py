"""Piquet's study commands: the CLI pieces the core builds `strategies`, `batch`,
`tournament`, `game` and `external` from (``core.app.study_commands``,
``core.app.external_cli``) and ``partie`` (``game`` under its older name)."""

from __future__ import annotations

from ...core.app.study_commands import match_command
from ...core.app.study_options import StudyCli
from ..rules import Rules
from ..studies import STUDIES

CLI = StudyCli(
    rules=Rules,
    tournament_n=100_000,
    about={
        "batch": "Head to head: A against B over mirrored deals (each deal played with A "
        "elder and with B elder on the same cards): A's mean net per deal over B, A's deal win "
        "rate, and pique, repique, capot and carte blanche rates per side and seat.",
        "game": "Whole parties of A against B under the partie rules (--game, --tie, "
        "--blank-partie-bonus), each played with A elder first and with B elder first on the "
        "same deals: P(A wins the partie), P(rubicon) each way, and A's expected settlement "
        "per partie (Rubicon settlement: loser under 100 pays winner + loser + 100).",
    },
    aliases={"game": ("--parties",), "partie": ("--parties",), "batch --out": ("--csv",)},
    examples={
        "batch": "      piquet batch greedy sink-sets --deals 1000000 --out pairs.csv\n"
        "      piquet batch heuristic pimcw:worlds=8 -n 500",
        "game": "      piquet game greedy sink-sets -n 100000 --tie refait_double --plot p.png",
        "partie": "      piquet partie greedy sink-sets -n 100000 --tie refait_double",
        "tournament": "      piquet tournament greedy max random sink-sets -n 200000 "
        "--plot margins.png",
        "external": "      piquet external ismcts:100 --against heuristic,pimc -n 20\n"
        "      piquet external ismcts:1000 --against pimc -n 10 --json",
    },
)

partie_command = match_command("partie", STUDIES, STUDIES.game_kind, CLI, True, CLI.about["game"])
__all__ = ["CLI", "partie_command"]
