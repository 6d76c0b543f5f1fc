"""A game as the application sees it: its commands and benchmark workloads, declared once.

Each game package has a ``game.py`` with one :class:`Game` (``GAME``) and, for a game played
as a group, its click group (``GROUP = GAME.click_group()``, on which its command modules
register): its name, the CLI group it lives in
(``None``: the top level, Piquet's), the group's help, its commands (name -> ``"module:attr"``
of the click command, imported only when run) and where its benchmark workloads are. ``piquet
--help`` and ``piquet bench --list`` read these declarations; the application lists the games
once (``piquet_sim/games.py``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import click

from .cli import LazyGroup

Workloads = Mapping[str, Callable[[bool], list[dict]]]


@dataclass(frozen=True)
class Game:
    """One game's declaration (see the module docstring). ``bench`` names a callable returning
    the workloads (``name -> f(quick) -> rows``), imported only when benchmarks run."""

    name: str
    title: str
    group: str | None
    help: str
    commands: Mapping[str, str] = field(default_factory=dict)
    bench: str = ""

    def workloads(self) -> Workloads:
        """The game's benchmark workloads."""
        module, attribute = self.bench.split(":")
        found = getattr(importlib.import_module(module), attribute)
        return found() if callable(found) else found

    @property
    def group_ref(self) -> str:
        """``"module:attribute"`` of the game's click group (``GROUP`` in its ``game.py``)."""
        return f"piquet_sim.{self.name}.game:GROUP"

    def click_group(self) -> click.Group:
        """The game's command group (``piquet <group> …``), each command imported when used."""
        return LazyGroup(
            name=self.group,
            lazy=dict(self.commands),
            help=inspect.cleandoc(self.help),
            context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
        )
