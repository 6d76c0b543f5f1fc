"""Piquet as the application sees it: its commands (the top level of ``piquet``) and its
benchmark workloads, declared once (:class:`piquet_sim.core.app.commands.Game`)."""

from __future__ import annotations

from ..core.app.commands import EVERY_CORE_COMMAND, Game

_CLI = "piquet_sim.piquet.cli."

GAME = Game(
    name="piquet",
    title="Piquet",
    group=None,
    help="Piquet: two players, 32 cards; exchange, declarations and twelve tricks.",
    commands={
        "hand": _CLI + "declare:hand",
        "compare": _CLI + "declare:compare",
        "discard": _CLI + "discard:discard_command",
        "draw": _CLI + "draw:draw",
        "ladder": _CLI + "ladder:ladder_command",
        "odds": _CLI + "odds:odds_command",
        "report": _CLI + "report:report_command",
        "sink": _CLI + "sink:sink",
        "partie": _CLI + "strategy:partie_command",
    },
    bench="piquet_sim.piquet.bench:load_all",
    definition_ref="piquet_sim.piquet.definition:DEFINITION",
    options_ref="piquet_sim.piquet.cli.common:OPTIONS",
    shared=EVERY_CORE_COMMAND,
    solve_ref=_CLI + "solve:SOLVE",
    study_ref=_CLI + "strategy:CLI",
)
