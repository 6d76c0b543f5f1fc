"""`piquet pilotta odds`: how often a hand, a team and the table hold each combination."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import (
    RateBar,
    backend_options,
    echo_json,
    json_option,
    long_command,
    output_console,
    plot_option,
)
from ..odds import DEFAULT_CHUNK, SCOPE_NAMES, SCOPE_TITLES, label, plot
from ..odds import odds as run_odds
from .app import pilotta
from .common import SUIT, quiet_option, seed_option


@pilotta.command("odds")
@click.option(
    "--deals",
    "-n",
    type=click.IntRange(1),
    default=1_000_000,
    show_default=True,
    help="Number of deals to count.",
)
@seed_option
@click.option(
    "--trump",
    type=SUIT,
    default="S",
    show_default=True,
    help="The trump suit named for pilotta and trump counts.",
)
@click.option(
    "--chunk",
    type=click.IntRange(1000),
    default=DEFAULT_CHUNK,
    show_default=True,
    help="Deals per chunk (memory stays flat; Ctrl-C stops between chunks).",
)
@plot_option(
    "Write the odds to this PNG file: each scope's events as bars with their 95% intervals, "
    "the exact values marked (the JSON names it: plot)."
)
@quiet_option
@json_option
@backend_options
@long_command
def odds_cmd(
    deals: int,
    seed: int,
    trump: int,
    chunk: int,
    plot_path: str | None,
    quiet: bool,
    as_json: bool,
    backend,
) -> None:
    """Odds of every combination and of the trumps held, with exact values beside.

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
    with RateBar(deals, "deals", quiet or as_json) as bar:
        result = run_odds(deals, seed, trump, backend, chunk, bar)
    partial = result["deals"] < deals  # Ctrl-C: what finished, marked (then exit 130)
    if partial:
        result.update(partial=True, requested=deals)
    plotted = bool(plot_path) and result["deals"] > 0
    if plotted:
        plot(result, plot_path)
        result["plot"] = str(plot_path)  # only when written: other outputs stay as they were
    if as_json:
        echo_json(result)
        return
    console = output_console()
    n = result["deals"]
    head = f"{n:,} deals, seed {seed}, trump {result['trump']}"
    if partial:
        head += f"  [bold red](interrupted: partial, {n:,} of {deals:,} deals)[/]"
    console.print(head)
    for scope in SCOPE_NAMES:
        table = Table(title=SCOPE_TITLES[scope], title_justify="left")
        table.add_column("event")
        for col in ("estimate %", "95% interval", "count", "exact %"):
            table.add_column(col, justify="right")
        for name, est in result["scopes"][scope].items():
            lo, hi = est["ci95"]
            table.add_row(
                label(name, scope),
                f"{est['p'] * 100:.3f}",
                f"{lo * 100:.3f} - {hi * 100:.3f}",
                f"{est['count']:,}",
                f"{est['exact'] * 100:.3f}",
            )
        console.print(table)
    if plotted:
        click.echo(f"Figure written to {plot_path}")
