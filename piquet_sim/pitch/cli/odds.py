"""`piquet pitch odds`: deal odds for one suit, estimates with exact values beside (the core
runs the command, :mod:`piquet_sim.core.app.odds_cli`)."""

from __future__ import annotations

from collections.abc import Callable

import click

from ...core.app.cli import deals_option
from ...core.app.odds_cli import FRACTION, Odds, OddsCli, odds_command
from ..odds import odds_kernels, odds_table, plot
from .app import pitch
from .common import SUIT, players_option, seed_option

HELP = """Odds of the deal from seat 0's hand, for one suit as trump: the Jack and Six of trumps
in play, my top trump being High, my low trump being Low, trumps in my hand and in play.

Every estimate has its 95% Wilson interval and its count; the exact value (by counting)
is beside it. Deal i of a seed is the same whatever the threads or the backend.

\b
Example:
  piquet pitch odds --players 4
  piquet pitch odds --players 6 -n 1000000 --seed 7 --json
  piquet pitch odds --players 5 --plot odds.png
"""

PARAMS = (
    players_option,
    deals_option(200_000, "Deals to simulate.", "--rounds"),
    seed_option,
    click.option(
        "--trump",
        type=SUIT,
        default="S",
        show_default=True,
        help="The suit the table is about (every suit gives the same odds).",
    ),
)


def _count_odds(values: dict, progress: Callable[[int], None]) -> Odds:
    """Count the deals; one table of every event."""
    v = values
    players = v["rules"].players
    table = odds_table(players, v["deals"], v["seed"], v["trump"], v["backend"], progress)
    return Odds(
        counted=table.rounds,
        data=table.to_dict(),
        head=f"{players} players, {table.rounds:,} deals (seed {v['seed']}), trump "
        f"{table.suit}; my hand is seat 0",
        tables=[(None, table.rows)],
        plot=lambda path: plot(table, path),
    )


ODDS = OddsCli(
    help=HELP,
    params=PARAMS,
    events="the events",
    run=_count_odds,
    style=FRACTION,
    kernels=lambda values: odds_kernels(),
)

#: ``piquet pitch odds``
odds_cmd = odds_command(ODDS)
pitch.add_command(odds_cmd)
