"""`piquet pilotta report`: contracts, points, combinations, a match and one bid advice."""

from __future__ import annotations

from pathlib import Path

import click

from ...core.app.cli import (
    backend_options,
    compile_notice,
    json_option,
    long_command,
    quiet_option,
    report_out_option,
)
from ...core.app.options import games_option
from ...core.app.report_cli import JSON_HELP, match_settings, run_report
from ...core.app.rules_cli import rules_options
from ..report import MAX_DEALS, build, check_deals, entry_kernels
from ..rules import Rules
from .app import pilotta
from .common import STRATEGY, seed_option


@pilotta.command("report", epilog=JSON_HELP)
@click.argument("a", type=STRATEGY, default="bold")
@click.argument("b", type=STRATEGY, default="heuristic")
@report_out_option("Directory for pilotta_report.html, pilotta_report.md and the PNGs.")
@click.option(
    "--deals",
    "-n",
    type=click.IntRange(100),
    default=100_000,
    show_default=True,
    help=f"Mirrored deals of the contract figures and the match (at most {MAX_DEALS:,}: the "
    "report holds every round in memory).",
)
@games_option(5000, 10**7, "Games to the target (--target), each in both seatings.")
@seed_option
@quiet_option("Nothing on stderr (the first run's compile notice).")
@json_option
@backend_options
@rules_options(Rules)
@long_command
def report_cmd(
    a,
    b,
    out_dir: Path,
    deals: int,
    games: int,
    seed: int,
    quiet: bool,
    as_json: bool,
    rules: Rules,
    backend,
) -> None:
    """Write a Pilotta report for strategies A and B (default bold against heuristic): how
    often each contract is bid and made, points distributions, capots, pilotta and
    combinations by side, a mirrored match, games to 351 and one bid advice, with plots. One
    HTML file (images embedded) and a Markdown twin; their paths go to stdout. Ctrl-C writes
    what finished, marked partial, and exits 130.

    --backend dask runs the rounds, the match and the games on Dask (the same numbers as
    local); the bid advice (a few thousand worlds) always runs here.

    \b
    Example:
      piquet pilotta report bold cautious --out report --deals 200000
      piquet pilotta report -n 20000 --json --backend dask --workers 2
    """
    sa, sb = a, b
    if any(s.policy("play") == "pimc" for s in (sa, sb)):
        raise click.UsageError("pimc play is too slow for whole games: use it in batch, or in bid")
    check_deals(deals)  # before the compile notice: refused sizes do no work
    compile_notice(*entry_kernels(sa, sb), quiet=quiet or as_json)
    run_report(
        out_dir,
        "pilotta_report",
        f"Pilotta: {sa.name} against {sb.name}",
        lambda: build(sa, sb, out_dir, deals, games, seed=seed, rules=rules, backend=backend),
        settings=match_settings(sa.name, sb.name, deals, games, seed, rules),
        as_json=as_json,
    )
