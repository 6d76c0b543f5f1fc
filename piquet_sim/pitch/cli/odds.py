"""`piquet pitch odds`: deal odds for one suit, estimates with exact values beside."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from ...core.cli import RateBar, backend_options, echo_json, json_option, long_command
from ..kernels.odds import odds_counts
from ..odds import odds_table
from .app import pitch
from .common import PLAYERS, SUIT, compile_notice


@pitch.command("odds")
@click.option("--players", type=PLAYERS, default=4, show_default=True, help="Players at table.")
@click.option(
    "--rounds",
    type=click.IntRange(1),
    default=200_000,
    show_default=True,
    help="Deals to simulate.",
)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@click.option(
    "--trump",
    type=SUIT,
    default="S",
    show_default=True,
    help="The suit the table is about (every suit gives the same odds).",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@backend_options
@json_option
@long_command
def odds_cmd(players, rounds, seed, trump, quiet, backend, as_json) -> None:
    """Odds of the deal from seat 0's hand, for one suit as trump: the Jack and Six of trumps
    in play, my top trump being High, my low trump being Low, trumps in my hand and in play.

    Every estimate has its 95% Wilson interval and its count; the exact value (by counting)
    is beside it. Deal i of a seed is the same whatever the threads or the backend.

    \b
    Example:
      piquet pitch odds --players 4
      piquet pitch odds --players 6 --rounds 1000000 --seed 7 --json
    """
    compile_notice(odds_counts, quiet=quiet or as_json)
    with RateBar(rounds, "deals", quiet or as_json) as bar:
        table = odds_table(players, rounds, seed, trump, backend, bar)
    partial = table.rounds < rounds  # Ctrl-C: what finished, marked (then exit 130)
    if as_json:
        data = table.to_dict()
        if partial:
            data.update(partial=True, requested=rounds)
        echo_json(data)
        return
    console = Console()
    console.print(
        f"{players} players, {table.rounds:,} deals (seed {seed}), trump "
        f"{table.suit}; my hand is seat 0"
        + (
            f"  [bold red](interrupted: partial, {table.rounds:,} of {rounds:,} deals)[/]"
            if partial
            else ""
        )
    )
    t = Table(title_justify="left")
    for col in ("event", "estimate", "95% interval", "count", "of", "exact"):
        t.add_column(col, justify="left" if col == "event" else "right")
    for r in table.rows:
        t.add_row(
            r.event,
            f"{r.p:.4f}",
            f"{r.ci95[0]:.4f}-{r.ci95[1]:.4f}",
            f"{r.count:,}",
            f"{r.n:,}",
            "" if r.exact is None else f"{r.exact:.4f}",
        )
    console.print(t)
