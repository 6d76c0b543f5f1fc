"""Pilotta as the application sees it: its command group (``piquet pilotta …``, each command
imported when used) and its benchmark workloads, declared once
(:func:`piquet_sim.core.app.commands.packaged_game`)."""

from __future__ import annotations

from ..core.app.commands import own_commands, packaged_game

GAME = packaged_game(
    "pilotta",
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
    commands=own_commands("hand", "odds", "bid", "report"),
    bench="bench:WORKLOADS",
    study="match:CLI",
)

#: ``piquet pilotta``: the commands above, each imported when it runs.
GROUP = GAME.click_group()
