"""The ``piquet`` console script: Piquet's commands at the top level, the other games as groups.

``main`` turns every usage error and bad input into one line on stderr with exit code 2. Each
command's module is imported when that command runs (``LazyGroup``): ``piquet discard`` does not
import Pilotta, Pitch or the report code.
"""

from __future__ import annotations

import click

from . import __version__
from .core.app.cli import LazyGroup, run_main
from .games import games
from .piquet.game import GAME as PIQUET

#: Command name -> "module:attribute" of the click command: Piquet's commands (its game
#: declaration, ``piquet/game.py``), each other game's group (``<game>/game.py``) and ``bench``.
COMMANDS = {
    **PIQUET.lazy_commands(),
    **{game.group: game.group_ref for game in games() if game.group},
    "bench": "piquet_sim.bench_cli:bench_command",
    "warm": "piquet_sim.warm_cli:warm_command",
}


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="piquet")
def cli() -> None:
    """piquet: analysis for Piquet (commands below) and, as groups, Pilotta and Pitch Six;
    exact where possible, Monte Carlo otherwise.

    Cards are typed rank then suit (AS KS 10H 9h t♦ 7C) or grouped by suit (S:AKQ H:T98).

    \b
    Example:
      piquet hand "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
    """


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``piquet`` console script."""
    run_main(cli, argv, "piquet")


__all__ = ["cli", "main"]

if __name__ == "__main__":  # ``python -m piquet_sim.cli`` as well as ``python -m piquet_sim``
    main()
