"""A game as the application sees it: its commands and benchmark workloads, declared once.

Each game package has a ``game.py`` with one :class:`Game` (``GAME``) and, for a game played
as a group, its click group (``GROUP = GAME.click_group()``, on which its command modules
register): its name, the CLI group it lives in (``None``: the top level, Piquet's), the
group's help, its own commands (name -> ``"module:attr"`` of the click command, imported only
when run), the core's commands it takes (``shared``: each built by the core from the game's
definition and CLI options, :data:`CORE_COMMANDS`) and where its benchmark workloads are. A game
package laid out as the games are declares it with :func:`packaged_game`, which names the
modules that layout fixes.
``piquet --help`` and ``piquet bench --list`` read these declarations; the application lists
the games once (``piquet_sim/games.py``).
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import click

from .cli import LazyGroup

Workloads = Mapping[str, Callable[[bool], list[dict]]]

#: The commands the core builds for any game from its definition (``f(game) -> Command``).
CORE_COMMANDS = {
    "play": "piquet_sim.core.app.play:play_command",
    "review": "piquet_sim.core.app.review:review_command",
    "strategies": "piquet_sim.core.app.study_commands:strategies_for",
    "batch": "piquet_sim.core.app.study_commands:batch_for",
    "tournament": "piquet_sim.core.app.study_commands:tournament_for",
    "game": "piquet_sim.core.app.study_commands:game_for",
    "external": "piquet_sim.core.app.external_cli:external_for",
    "solve": "piquet_sim.core.app.solve_cli:solve_command",
}

#: The study commands (every game with studies takes them; ``game`` when it plays whole games).
STUDY_COMMANDS = ("strategies", "batch", "tournament", "game")

#: Every command the core builds: a game whose studies seat an outside player takes them all.
EVERY_CORE_COMMAND = ("play", "review", *STUDY_COMMANDS, "external")


def _import(ref: str) -> object:
    module, attribute = ref.split(":")
    return getattr(importlib.import_module(module), attribute)


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
    #: ``"module:attr"`` of the game's :class:`~piquet_sim.core.game.definition.GameDefinition`
    definition_ref: str = ""
    #: ``"module:attr"`` of the game's CLI options (:class:`~.options.GameOptions`)
    options_ref: str = ""
    #: the core's commands the game takes, by name (:data:`CORE_COMMANDS`)
    shared: tuple[str, ...] = ()
    #: ``"module:attr"`` of the CLI pieces of its study commands
    #: (:class:`~.study_options.StudyCli`; empty: the core's defaults)
    study_ref: str = ""
    #: ``"module:attr"`` of the game's pieces of ``solve`` (:class:`~.solve_cli.SolveCli`), the
    #: core's command it then takes; empty: the game has no exact solver command
    solve_ref: str = ""

    def definition(self):
        """The game's definition (imported when first asked for)."""
        return _import(self.definition_ref)

    def options(self):
        """The game's CLI options: rules options, the seat parameter, the others' models."""
        return _import(self.options_ref)

    def study_cli(self):
        """The CLI pieces of the game's study commands (None: the core's defaults)."""
        return _import(self.study_ref) if self.study_ref else None

    def solve_cli(self):
        """The game's pieces of ``solve`` (None: it has none)."""
        return _import(self.solve_ref) if self.solve_ref else None

    def lazy_commands(self) -> dict:
        """Every command of the game: its own (``"module:attr"``) and the core's it takes (a
        function building the command for this game when first used)."""
        out: dict = dict(self.commands)
        # a game with an exact solver takes ``solve`` by declaring its pieces
        for name in (*self.shared, *(("solve",) if self.solve_ref else ())):
            out[name] = functools.partial(_build_shared, CORE_COMMANDS[name], self)
        return out

    def workloads(self) -> Workloads:
        """The game's benchmark workloads: those every game gets from its definition
        (``core.app.bench.definition_workloads``), then its own."""
        from .bench import definition_workloads

        module, attribute = self.bench.split(":")
        found = getattr(importlib.import_module(module), attribute)
        own = found() if callable(found) else found
        return {**(definition_workloads(self) if self.definition_ref else {}), **own}

    @property
    def group_ref(self) -> str:
        """``"module:attribute"`` of the game's click group (``GROUP`` in its ``game.py``)."""
        return f"piquet_sim.{self.name}.game:GROUP"

    def click_group(self) -> click.Group:
        """The game's command group (``piquet <group> …``), each command imported when used."""
        return LazyGroup(
            name=self.group,
            lazy=self.lazy_commands(),
            help=inspect.cleandoc(self.help),
            context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
        )


def packaged_game(
    name: str,
    *,
    title: str,
    group: str | None,
    help: str,
    commands: Mapping[str, str],
    bench: str,
    study: str,
    solve: str = "solve:SOLVE",
) -> Game:
    """The declaration of a game packaged as the games are (``piquet_sim.<name>``, laid out as
    ARCHITECTURE.md's "Inside a game" says): its definition is ``definition.py``'s
    ``DEFINITION``, its CLI vocabulary ``cli/common.py``'s ``OPTIONS``, and it takes every
    core command. ``commands`` (its own), ``study`` (its study pieces) and ``solve`` (its
    pieces of ``solve``) are ``"module:attr"`` inside its ``cli`` package; ``bench`` inside
    the game's package."""
    package = f"piquet_sim.{name}"
    cli = f"{package}.cli"
    return Game(
        name=name,
        title=title,
        group=group,
        help=help,
        commands={command: f"{cli}.{ref}" for command, ref in commands.items()},
        bench=f"{package}.{bench}",
        definition_ref=f"{package}.definition:DEFINITION",
        options_ref=f"{cli}.common:OPTIONS",
        shared=EVERY_CORE_COMMAND,
        solve_ref=f"{cli}.{solve}",
        study_ref=f"{cli}.{study}",
    )


def own_commands(*names: str) -> dict[str, str]:
    """A game's own commands each in its module of the same name, as ``<name>_cmd``
    (``hand`` -> ``"hand:hand_cmd"``), for :func:`packaged_game`'s ``commands``."""
    return {name: f"{name}:{name}_cmd" for name in names}


def _build_shared(ref: str, game: Game) -> click.Command:
    """The core command ``ref`` built for ``game``."""
    return _import(ref)(game)
