"""The click group Piquet's commands register on; ``piquet_sim.cli`` lifts them to the top level."""

from __future__ import annotations

import click


@click.group()
def commands() -> None:
    """Piquet's commands (registered here, shown at the top level of ``piquet``)."""


#: The decorator every Piquet command module uses: ``@cli.command()``.
cli = commands
