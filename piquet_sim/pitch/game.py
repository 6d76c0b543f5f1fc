"""Pitch Six as the application sees it: its command group (``piquet pitch …``, each command
imported when used) and its benchmark workloads, declared once
(:class:`piquet_sim.core.app.commands.Game`)."""

from __future__ import annotations

from ..core.app.commands import EVERY_CORE_COMMAND, Game

_CLI = "piquet_sim.pitch.cli."

GAME = Game(
    name="pitch",
    title="Pitch Six",
    group="pitch",
    help="""Pitch Six (3 to 6 players, each for himself): hands, exact play values, odds, bid
    advice, strategies and games.

    Cards are typed rank then suit (AS KS 10H 6h 2♦) or grouped by suit (S:AK6 H:T2); ranks
    2-9, T/10, J, Q, K, A. Seats are numbered from the dealer's left (seat 0 bids first; the
    dealer is the last seat). Rules: docs/rules/pitch.md.

    \b
    Examples:
      piquet pitch hand "AS JS 6S 2S KH TD" --players 4
      piquet pitch odds --players 5 -n 200000
    """,
    commands={
        "hand": _CLI + "hand:hand_cmd",
        "odds": _CLI + "odds:odds_cmd",
        "bid": _CLI + "bid:bid_cmd",
        "report": _CLI + "report:report_cmd",
    },
    bench="piquet_sim.pitch.bench:WORKLOADS",
    definition_ref="piquet_sim.pitch.definition:DEFINITION",
    options_ref="piquet_sim.pitch.cli.common:OPTIONS",
    shared=EVERY_CORE_COMMAND,
    solve_ref=_CLI + "solve:SOLVE",
    study_ref=_CLI + "match:CLI",
)

#: ``piquet pitch``: the commands above, each imported when it runs.
GROUP = GAME.click_group()
