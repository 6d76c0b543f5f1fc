"""Pitch Six as the application sees it: its command group (``piquet pitch …``, each command
imported when used) and its benchmark workloads, declared once
(:func:`piquet_sim.core.app.commands.packaged_game`)."""

from __future__ import annotations

from ..core.app.commands import own_commands, packaged_game

GAME = packaged_game(
    "pitch",
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
    commands=own_commands("hand", "odds", "bid", "report"),
    bench="bench:WORKLOADS",
    study="match:CLI",
)

#: ``piquet pitch``: the commands above, each imported when it runs.
GROUP = GAME.click_group()
