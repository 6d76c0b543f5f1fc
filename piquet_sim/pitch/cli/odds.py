"""`piquet pitch odds`: deal odds for one suit, estimates with exact values beside."""

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
from ...core.engine.backend import MAX_DEALS
from ..odds import odds_kernels, odds_table, plot
from .app import pitch
from .common import SUIT, compile_notice, deals_option, players_option, quiet_option, seed_option


@pitch.command("odds")
@players_option
@deals_option(200_000, "Deals to simulate.", high=MAX_DEALS)
@seed_option
@click.option(
    "--trump",
    type=SUIT,
    default="S",
    show_default=True,
    help="The suit the table is about (every suit gives the same odds).",
)
@plot_option(
    "Write the odds to this PNG file: the events as bars with their 95% intervals, the exact "
    "values marked (the JSON names it: plot)."
)
@quiet_option
@backend_options
@json_option
@long_command
def odds_cmd(rules, deals, seed, trump, plot_path, quiet, backend, as_json) -> None:
    """Odds of the deal from seat 0's hand, for one suit as trump: the Jack and Six of trumps
    in play, my top trump being High, my low trump being Low, trumps in my hand and in play.

    Every estimate has its 95% Wilson interval and its count; the exact value (by counting)
    is beside it. Deal i of a seed is the same whatever the threads or the backend.

    \b
    Example:
      piquet pitch odds --players 4
      piquet pitch odds --players 6 -n 1000000 --seed 7 --json
      piquet pitch odds --players 5 --plot odds.png
    """
    players = rules.players
    compile_notice(*odds_kernels(), quiet=quiet or as_json)
    with RateBar(deals, "deals", quiet or as_json) as bar:
        table = odds_table(players, deals, seed, trump, backend, bar)
    partial = table.rounds < deals  # Ctrl-C: what finished, marked (then exit 130)
    plotted = bool(plot_path) and table.rounds > 0
    if plotted:
        plot(table, plot_path)
    if as_json:
        data = table.to_dict()
        if partial:
            data.update(partial=True, requested=deals)
        if plotted:  # only when written: other outputs stay as they were
            data["plot"] = str(plot_path)
        echo_json(data)
        return
    console = output_console()
    console.print(
        f"{players} players, {table.rounds:,} deals (seed {seed}), trump "
        f"{table.suit}; my hand is seat 0"
        + (
            f"  [bold red](interrupted: partial, {table.rounds:,} of {deals:,} deals)[/]"
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
    if plotted:
        click.echo(f"Figure written to {plot_path}")
