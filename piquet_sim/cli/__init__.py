"""Command-line interface: thin click commands over the library API.

``main`` turns every usage error and bad input into one line on stderr with exit code 2.
"""

from __future__ import annotations

import sys

import click

from ..cards import CardError
from ..rules import RulesError
from . import (  # noqa: F401  (registers commands)
    bench,
    declare,
    discard,  # noqa: F401
    draw,  # noqa: F401
    odds,  # noqa: F401
    report,  # noqa: F401
    sink,  # noqa: F401
    solve,  # noqa: F401
    strategy,  # noqa: F401
)
from .app import cli

__all__ = ["cli", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``piquet`` console script."""
    try:
        code = cli.main(args=argv, prog_name="piquet", standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else cli.get_help(click.Context(cli)))
        code = 0
    except click.UsageError as exc:
        click.echo(f"piquet: error: {exc.format_message()}", err=True)
        code = 2
    except (CardError, RulesError) as exc:
        click.echo(f"piquet: error: {exc}", err=True)
        code = 2
    except click.Abort:
        click.echo("piquet: aborted", err=True)
        code = 130
    except click.ClickException as exc:
        click.echo(f"piquet: error: {exc.format_message()}", err=True)
        code = exc.exit_code
    sys.exit(code if isinstance(code, int) else 0)
