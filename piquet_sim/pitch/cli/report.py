"""`piquet pitch report`: the bidder's points, bids made by player count and a game match."""

from __future__ import annotations

from pathlib import Path

import click

from ...core.cli import long_command, report_out_option
from ...core.report import render_html, render_markdown
from ..kernels.simulate import simulate_rounds
from ..kernels.table import play_games
from ..report import build
from ..strategies import resolve
from .app import pitch
from .common import PLAYERS, compile_notice


@pitch.command("report")
@click.argument("a", default="cautious")
@click.argument("b", default="threshold")
@report_out_option("Directory for pitch_report.html, pitch_report.md and the PNGs.")
@click.option(
    "--rounds",
    "-n",
    type=click.IntRange(100, 10_000_000),
    default=100_000,
    show_default=True,
    help="Rounds per player count.",
)
@click.option(
    "--players",
    type=PLAYERS,
    default=4,
    show_default=True,
    help="Players for the points section and the games.",
)
@click.option(
    "--games",
    type=click.IntRange(10, 1_000_000),
    default=4000,
    show_default=True,
    help="Games to 12 per side.",
)
@click.option("--seed", type=click.IntRange(0, 2**40), default=1, show_default=True)
@long_command
def report_cmd(a, b, out_dir: Path, rounds: int, players: int, games: int, seed: int) -> None:
    """Write a Pitch Six report: the bidder's points by trump length and top trump, bids made
    by level for 3 to 6 players, and games to 12 between strategies A and B (default cautious
    against threshold), with plots. One HTML file and a Markdown twin; their paths go to stdout.

    \b
    Example:
      piquet pitch report cautious threshold --out report --rounds 200000
    """
    sa, sb = resolve(a), resolve(b)
    compile_notice(simulate_rounds, play_games)
    sections = build(out_dir, rounds, players, sa, sb, games, seed)
    title = f"Pitch Six: bids, points and games ({sa.name} against {sb.name})"
    html_path = out_dir / "pitch_report.html"
    md_path = out_dir / "pitch_report.md"
    html_path.write_text(render_html(title, sections))
    md_path.write_text(render_markdown(title, sections))
    click.echo(html_path)
    click.echo(md_path)
