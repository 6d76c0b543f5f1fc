"""`piquet report`: one self-contained HTML report (and a Markdown twin) of every study."""

from __future__ import annotations

import time

import click

from ...core.app.cli import (
    backend_options,
    compile_notice,
    echo_json,
    json_option,
    long_command,
    quiet_option,
    report_out_option,
    seed_option,
)
from ...core.app.rules_cli import rules_options
from ...core.engine.backend import MAX_DEALS, Cancel
from ...core.game.strategy import StrategyError
from ..report import DEFAULT_DEALS, DEFAULT_STRATEGIES, build_report
from ..rules import Rules
from ..strategies import BOOK
from .app import cli


def _strategies(ctx, param, values: tuple[str, ...]):
    """Comma-separated and/or repeated strategy names or files; default the report's set."""
    names = [n.strip() for v in values for n in v.split(",") if n.strip()]
    if not names:
        names = list(DEFAULT_STRATEGIES)
    try:
        strategies = [BOOK.resolve(n) for n in names]
    except StrategyError as err:
        raise click.BadParameter(str(err), ctx, param) from None
    if len(strategies) < 2:
        raise click.BadParameter("a report needs at least two strategies", ctx, param)
    if len({s.name for s in strategies}) != len(strategies):
        raise click.BadParameter("each strategy may appear once", ctx, param)
    return strategies


@cli.command("report")
@report_out_option("Directory for report.html, report.md, the PNGs, odds.csv and report.json.")
@click.option(
    "--deals",
    "-n",
    type=click.IntRange(100, MAX_DEALS),
    default=DEFAULT_DEALS,
    show_default=True,
    help="Deals per odds study; the exchange study and tournament use half, parties 1/40.",
)
@click.option(
    "--strategies",
    "strategies",
    multiple=True,
    callback=_strategies,
    metavar="NAMES",
    help=f"Comma-separated strategies or .json/.toml files (repeatable); the first is the one "
    f"the odds and exchange sections describe. Default: {','.join(DEFAULT_STRATEGIES)}.",
)
@seed_option("Seed of every study (deal i of a seed is always the same deal).")
@click.option(
    "--sink-hands",
    type=click.IntRange(1, 100_000),
    default=None,
    show_default="not run",
    help="Add the sinking study over this many dealt hands per seat (about a second a hand; a "
    "few hundred give readable intervals).",
)
@click.option(
    "--ladder-solver-deals",
    type=click.IntRange(0, 1_000_000),
    default=0,
    show_default=True,
    help="Add pimc and dd (the exact solver's play) to the ladder, with this many mirrored "
    "pairs per match (0: the ladder ranks random, greedy and heuristic only).",
)
@quiet_option("No progress lines on stderr.")
@json_option
@backend_options
@rules_options(Rules)
@long_command
def report_command(
    out_dir,
    deals,
    strategies,
    seed,
    sink_hands,
    ladder_solver_deals,
    quiet,
    as_json,
    rules: Rules,
    backend,
):
    """Write a strategy report: odds with intervals and exact values, score distributions, the
    value of exchanging k cards, pique/repique/capot rates, tournament and heatmap, parties, the
    play policies' strength ladder, and a how-to-read section. One self-contained HTML file
    (images embedded) plus report.md with the PNGs beside it. Progress goes to stderr; the paths
    written to stdout.

    Ctrl-C cuts the study in flight, skips the rest and writes the report marked partial (exit
    130).

    \b
    Example:
      piquet report --out report --deals 200000 --strategies greedy,max,sink-sets
    """
    from ..report import entry_kernels

    compile_notice(*entry_kernels(strategies), quiet=quiet)
    t0 = time.perf_counter()
    say = None if quiet or as_json else (lambda line: click.echo(line, err=True))
    cancel = Cancel()
    try:
        paths = build_report(
            out_dir,
            deals,
            strategies,
            seed,
            rules,
            backend=backend,
            progress=say,
            sink_hands=sink_hands,
            ladder_solver_deals=ladder_solver_deals,
            cancel=cancel,
        )
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    flat = {k: str(v) for k, v in paths.items() if k != "images" and v is not None}
    flat["images"] = {k: str(v) for k, v in paths["images"].items()}
    partial = cancel.is_set
    if as_json:
        extra = {"partial": True} if partial else {}
        echo_json({**flat, **extra, "seconds": round(time.perf_counter() - t0, 3)})
        return
    click.echo(f"report: {flat['html']}" + ("  (interrupted: partial)" if partial else ""))
    click.echo(f"markdown: {flat['md']}")
