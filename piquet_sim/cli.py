"""The ``piquet`` console script: Piquet's commands at the top level, the other games as groups.

``main`` turns every usage error and bad input into one line on stderr with exit code 2.
"""

from __future__ import annotations

import click

from . import __version__
from .bench_cli import bench_command
from .core.cli import run_main
from .pilotta.cli import pilotta
from .piquet.cli import commands as piquet_commands
from .pitch.cli import pitch


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="piquet")
def cli() -> None:
    """piquet: analysis for Piquet (commands below) and, as groups, Pilotta and Pitch Six;
    exact where possible, Monte Carlo otherwise.

    Cards are typed rank then suit (AS KS 10H 9h t♦ 7C) or grouped by suit (S:AKQ H:T98).

    \b
    Example:
      piquet hand "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
    """


for _name, _command in piquet_commands.commands.items():
    cli.add_command(_command, _name)
cli.add_command(pilotta)
cli.add_command(pitch)
cli.add_command(bench_command)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``piquet`` console script."""
    run_main(cli, argv, "piquet")


__all__ = ["cli", "main"]
