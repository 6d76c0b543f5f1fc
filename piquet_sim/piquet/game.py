"""Piquet as the application sees it: its commands (the top level of ``piquet``) and its
benchmark workloads, declared once (:func:`piquet_sim.core.app.commands.packaged_game`)."""

from __future__ import annotations

from ..core.app.commands import packaged_game

GAME = packaged_game(
    "piquet",
    title="Piquet",
    group=None,
    help="Piquet: two players, 32 cards; exchange, declarations and twelve tricks.",
    commands={
        "hand": "declare:hand",
        "compare": "declare:compare",
        "discard": "discard:discard_command",
        "draw": "draw:draw",
        "ladder": "ladder:ladder_command",
        "odds": "odds:odds_command",
        "report": "report:report_command",
        "sink": "sink:sink",
        "partie": "strategy:partie_command",
    },
    bench="bench:load_all",
    study="strategy:CLI",
)
