"""The CLI pieces of Pilotta's study commands (`strategies`, `batch`, `tournament`,
`game`, `external`): its rules options, help sentences and examples; the core builds the commands
(``core.app.study_commands``)."""

from __future__ import annotations

from ...core.app.study_options import StudyCli
from ..rules import Rules

CLI = StudyCli(
    rules=Rules,
    tournament_n=50_000,
    about={
        "batch": "Strategy A against B on mirrored deals (each deal played with A North-South "
        "and with A East-West): A's game points minus B's per round, and how often each side "
        "bids, makes, is set, makes a capot, holds the pilotta, scores the combinations.",
        "game": "Whole games to 351 (--target) of A against B, each game number played twice "
        "on the same deals, A North-South then East-West (North deals first): P(A wins) with "
        "its 95% interval, and rounds per game.",
    },
    examples={
        "batch": "      piquet pilotta batch bold cautious -n 200000\n"
        "      piquet pilotta batch pimc heuristic -n 100\n"
        "      piquet pilotta batch heuristic threshold:base=40",
        "game": "      piquet pilotta game bold heuristic --games 20000 --target 501",
        "tournament": "      piquet pilotta tournament heuristic bold cautious -n 50000 "
        "--plot results.png",
        "external": "      piquet pilotta external colver:ismcts:10 "
        "--against random,heuristic,pimc -n 20\n"
        "      piquet pilotta external ismcts:100,colver:heuristic --against heuristic -n 40 "
        "--json",
    },
    external_rules=False,  # the arena plays colver's table: the contree preset
)
