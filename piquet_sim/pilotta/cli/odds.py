"""`piquet pilotta odds`: how often a hand, a team and the table hold each combination (the
core runs the command, :mod:`piquet_sim.core.app.odds_cli`)."""

from __future__ import annotations

from collections.abc import Callable

import click

from ...core.app.cli import deals_option
from ...core.app.odds_cli import PERCENT, EventRate, Odds, OddsCli, odds_command
from ...core.app.options import chunk_size_option
from ..odds import DEFAULT_CHUNK, SCOPE_NAMES, SCOPE_TITLES, label, odds_kernels, plot
from ..odds import odds as run_odds
from .app import pilotta
from .common import SUIT, seed_option

HELP = """Odds of every combination and of the trumps held, with exact values beside.

Hand = North's hand, team = North-South (either partner), table = any of the four hands.
Estimates are percentages with their 95% interval (Wilson) over the deals counted; the
exact column is the combinatorial value (every event here has one). Sequences: the longest
one held; trumps: held by the hand, by the team together, and the most in one hand.

\b
Example:
  piquet pilotta odds --deals 200000 --trump H
  piquet pilotta odds -n 100000 --json
  piquet pilotta odds -n 200000 --plot odds.png
"""

PARAMS = (
    deals_option(1_000_000, "Number of deals to count."),
    seed_option,
    click.option(
        "--trump",
        type=SUIT,
        default="S",
        show_default=True,
        help="The trump suit named for pilotta and trump counts.",
    ),
    chunk_size_option(DEFAULT_CHUNK),
)


def _count_odds(values: dict, progress: Callable[[int], None]) -> Odds:
    """Count the deals; one table per scope (hand, team, table)."""
    v = values
    result = run_odds(v["deals"], v["seed"], v["trump"], v["backend"], v["chunk"], progress)
    tables = [
        (
            SCOPE_TITLES[scope],
            [
                EventRate(
                    label(name, scope), e["p"], tuple(e["ci95"]), e["count"], exact=e["exact"]
                )
                for name, e in result["scopes"][scope].items()
            ],
        )
        for scope in SCOPE_NAMES
    ]
    return Odds(
        counted=result["deals"],
        data=result,
        head=f"{result['deals']:,} deals, seed {v['seed']}, trump {result['trump']}",
        tables=tables,
        plot=lambda path: plot(result, path),
    )


ODDS = OddsCli(
    help=HELP,
    params=PARAMS,
    events="each scope's events",
    run=_count_odds,
    style=PERCENT,
    kernels=lambda values: odds_kernels(),
)

#: ``piquet pilotta odds``
odds_cmd = odds_command(ODDS)
pilotta.add_command(odds_cmd)
