"""Pilotta as the application sees it: its command group (``piquet pilotta …``, each command
imported when used) and its benchmark workloads, declared once
(:class:`piquet_sim.core.app.commands.Game`)."""

from __future__ import annotations

from ..core.app.commands import EVERY_CORE_COMMAND, Game

_CLI = "piquet_sim.pilotta.cli."

GAME = Game(
    name="pilotta",
    title="Pilotta",
    group="pilotta",
    help="""Pilotta (Cypriot belote): combinations, exact double-dummy play, combination odds,
    bid advice, strategies and games.

    Cards are typed rank then suit (AS KS 10H 9h t♦ 7C) or grouped by suit (S:AKQ H:T98);
    seats are N E S W (playing order), teams NS and EW.

    \b
    Example:
      piquet pilotta hand "JS 9S AS TH KH QD 8C 7C" --trump S
    """,
    commands={
        "hand": _CLI + "hand:hand_cmd",
        "odds": _CLI + "odds:odds_cmd",
        "bid": _CLI + "bid:bid_cmd",
        "report": _CLI + "report:report_cmd",
    },
    bench="piquet_sim.pilotta.bench:WORKLOADS",
    definition_ref="piquet_sim.pilotta.definition:DEFINITION",
    options_ref="piquet_sim.pilotta.cli.common:OPTIONS",
    shared=EVERY_CORE_COMMAND,
    solve_ref=_CLI + "solve:SOLVE",
    study_ref=_CLI + "match:CLI",
)

#: ``piquet pilotta``: the commands above, each imported when it runs.
GROUP = GAME.click_group()
