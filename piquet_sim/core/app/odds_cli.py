"""``odds``, for the games that count how often a deal holds each event: estimates with their
95% intervals over simulated deals, the exact values beside.

The core owns the command's flow: the compile notice (when the game names its kernels; quiet
under ``--json`` or ``--quiet``), the progress bar, the count, a run cut by Ctrl-C marked
partial (``partial: true, requested: N``; exit code 130 by :func:`~.cli.long_command`), the
``--plot`` figure (the JSON then names it: ``plot``), and the JSON or the tables: one per scope
of events, with columns estimate, 95% interval, count, (of,) exact. The game gives the pieces
(:class:`OddsCli`): its help text and options, and a run function that counts and returns its
result as :class:`Odds`; the core adds the options every ``odds`` takes (``--plot``,
``--quiet``, ``--json``, the backend's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ..study.rates import EventRate
from .cli import (
    RateBar,
    backend_options,
    compile_notice,
    json_option,
    json_or_console,
    long_command,
    partial_mark,
    plot_option,
    quiet_option,
)


@dataclass(frozen=True)
class RateStyle:
    """How a game's tables write rates: in ``percent`` (times 100, "%" in the estimate and
    exact headers) or as fractions, with ``digits`` decimals, ``dash`` between an interval's
    ends, and whether the table has the "of" column (trials per event)."""

    percent: bool
    digits: int
    dash: str
    of: bool

    def rate(self, p: float) -> str:
        """``p`` as the tables write it."""
        return f"{p * 100 if self.percent else p:.{self.digits}f}"

    def headers(self) -> tuple[str, ...]:
        """The columns after "event"."""
        unit = " %" if self.percent else ""
        of = ("of",) if self.of else ()
        return (f"estimate{unit}", "95% interval", "count", *of, f"exact{unit}")

    def cells(self, row: EventRate) -> tuple[str, ...]:
        """The row's cells after its event."""
        lo, hi = row.ci95
        of = (f"{row.n:,}",) if self.of else ()
        exact = "" if row.exact is None else self.rate(row.exact)
        return (
            self.rate(row.p),
            f"{self.rate(lo)}{self.dash}{self.rate(hi)}",
            f"{row.count:,}",
            *of,
            exact,
        )


#: Percentages to 3 decimals, the interval as "lo - hi", no "of" column.
PERCENT = RateStyle(percent=True, digits=3, dash=" - ", of=False)
#: Fractions to 4 decimals, the interval as "lo-hi", the "of" column.
FRACTION = RateStyle(percent=False, digits=4, dash="-", of=True)


@dataclass(frozen=True)
class Odds:
    """A finished count as the command shows it.

    counted: the deals counted (fewer than requested after a Ctrl-C);
    data: the JSON (the core adds ``partial``, ``requested`` and ``plot`` at its end);
    head: the text output's first line (the core adds the partial mark);
    tables: ``(title, rows)`` per scope of events (None: no title);
    plot: ``plot(path)`` writes the figure.
    """

    counted: int
    data: dict[str, Any]
    head: str
    tables: Sequence[tuple[str | None, Sequence[EventRate]]]
    plot: Callable[[Path], object]


@dataclass(frozen=True)
class OddsCli:
    """A game's pieces of ``odds`` (``values``: the command's options by parameter name, with
    ``deals`` among them).

    help: the ``--help`` text, with copy-pasteable examples;
    params: the game's own click options (``--deals`` among them), in the order ``--help``
        lists them; the core's follow them: ``--plot`` (its bars: ``events``), ``--quiet``,
        ``--json`` and the backend options;
    events: what the ``--plot`` figure's bars are (:func:`odds_plot_option`);
    run: ``run(values, progress) -> Odds``: count, calling ``progress(deals)`` as chunks end;
    style: how its tables write rates;
    kernels: ``kernels(values)``: the numba dispatchers ``run`` calls first (the compile
        notice); None: no notice.
    """

    help: str
    params: Sequence[Callable]
    events: str
    run: Callable[[dict, Callable[[int], None]], Odds]
    style: RateStyle
    kernels: Callable[[dict], tuple] | None = None


def odds_plot_option(events: str) -> Callable:
    """``--plot FILE`` of ``odds``: the figure :func:`show_odds` writes and names in the JSON
    (``plot``), so its help is the core's sentence; the game names only what the bars are
    (``events``)."""
    return plot_option(
        f"Write the odds to this PNG file: {events} as bars with their 95% intervals, the "
        "exact values marked (the JSON names it: plot)."
    )


def show_odds(
    odds: Odds, requested: int, style: RateStyle, plot_path: Path | None, as_json: bool
) -> None:
    """Mark ``odds`` partial when fewer than ``requested`` deals were counted, write its figure
    to ``plot_path`` (when given and a deal was counted), then print its JSON or its tables."""
    data = odds.data
    partial = odds.counted < requested  # Ctrl-C: what finished, marked (then exit 130)
    if partial:
        data.update(partial=True, requested=requested)
    figure = plot_path if odds.counted > 0 else None  # no figure of no deal
    if figure is not None:
        odds.plot(figure)
        data["plot"] = str(figure)  # only when written: other outputs stay as they were
    console = json_or_console(as_json, data)
    if console is None:
        return
    head = odds.head
    if partial:
        head += "  " + partial_mark(odds.counted, requested, "deals")
    console.print(head)
    for title, rows in odds.tables:
        table = Table(title=title, title_justify="left")
        table.add_column("event")
        for col in style.headers():
            table.add_column(col, justify="right")
        for row in rows:
            table.add_row(row.event, *style.cells(row))
        console.print(table)
    if figure is not None:
        click.echo(f"Figure written to {figure}")


def odds_command(pieces: OddsCli) -> click.Command:
    """The ``odds`` command from a game's :class:`OddsCli` (register it on the game's group)."""

    def run(deals: int, plot_path: Path | None, quiet: bool, as_json: bool, **values: Any) -> None:
        values["deals"] = deals
        if pieces.kernels is not None:
            compile_notice(*pieces.kernels(values), quiet=quiet or as_json)
        with RateBar(deals, "deals", quiet or as_json) as bar:
            odds = pieces.run(values, bar)
        show_odds(odds, deals, pieces.style, plot_path, as_json)

    command = long_command(run)
    shared = (
        odds_plot_option(pieces.events),
        quiet_option("No progress bar or notices."),
        json_option,
        backend_options,
    )
    for decorate in reversed((*pieces.params, *shared)):
        command = decorate(command)
    return click.command("odds", help=pieces.help)(command)


__all__ = [
    "FRACTION",
    "PERCENT",
    "EventRate",
    "Odds",
    "OddsCli",
    "RateStyle",
    "odds_command",
    "odds_plot_option",
    "show_odds",
]
