"""`piquet pitch report`: the bidder's points, bids made by player count and a game match."""

from __future__ import annotations

from pathlib import Path

import click

from ...core.app.cli import (
    backend_options,
    deals_option,
    json_option,
    long_command,
    report_out_option,
)
from ...core.app.options import games_option
from ...core.app.report_cli import JSON_HELP, match_settings, run_report
from ...core.app.rules_cli import rules_options
from ..report import build, report_kernels
from ..rules import Rules
from ..strategies import BOOK
from .app import pitch
from .common import TABLE_GAMES, compile_notice, quiet_option, seed_option


@pitch.command("report", epilog=JSON_HELP)
@click.argument("a", default="cautious")
@click.argument("b", default="threshold")
@report_out_option("Directory for pitch_report.html, pitch_report.md and the PNGs.")
@deals_option(100_000, "Rounds per player count.", "--rounds", minimum=100, maximum=10_000_000)
@games_option(4000, 1_000_000, "Games to the target per side.")
@seed_option
@quiet_option
@json_option
@backend_options
@rules_options(Rules, TABLE_GAMES)
@long_command
def report_cmd(
    a, b, out_dir: Path, deals: int, games: int, seed: int, quiet, as_json: bool, rules, backend
) -> None:
    """Write a Pitch Six report: the bidder's points by trump length and top trump (at
    --players), bids made by level for 3 to 6 players, and games to the target between
    strategies A and B (default cautious against threshold; at --players), with plots, under
    the rules options given. One HTML file and a Markdown twin; their paths go to stdout.
    Ctrl-C writes what finished, marked partial, and exits 130. --backend dask runs every
    study on Dask (the same numbers as local).

    \b
    Example:
      piquet pitch report cautious threshold --out report -n 200000
      piquet pitch report -n 20000 --json --backend dask --workers 2
    """
    sa, sb = BOOK.resolve(a), BOOK.resolve(b)
    compile_notice(*report_kernels(), quiet=quiet or as_json)
    run_report(
        out_dir,
        "pitch_report",
        f"Pitch Six: bids, points and games ({sa.name} against {sb.name})",
        lambda: build(
            out_dir, deals, rules.players, sa, sb, games, seed, rules=rules, backend=backend
        ),
        settings=match_settings(sa.name, sb.name, deals, games, seed, rules),
        as_json=as_json,
    )
