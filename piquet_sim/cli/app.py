"""The click group every command registers on."""

from __future__ import annotations

import click

from .. import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="piquet")
def cli() -> None:
    """piquet: analysis for the card game Piquet (exact where possible, Monte Carlo otherwise).

    Cards are typed rank then suit (AS KS 10H 9h t♦ 7C) or grouped by suit (S:AKQ H:T98).

    \b
    Example:
      piquet hand "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
    """
