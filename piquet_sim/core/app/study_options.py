"""The options of the study commands, one spelling for every game: strategies (built-in
names, files or inline specs, checked while the command line is read), the study's size
(``-n/--deals`` or ``-n/--games``), ``--chunk`` and ``--quiet/-q``; older spellings kept as
options accepted but not shown (:class:`AliasOption`). Click only: cheap to
import for any command."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import click

from ..engine.backend import MAX_DEALS
from ..game.strategy import StrategyBook, StrategyError
from .rules_cli import AliasOption


class StrategyType(click.ParamType):
    """A strategy: a built-in name, a ``.json``/``.toml`` file or an inline spec, checked
    against the game's registry while the command line is read (before any work)."""

    name = "STRATEGY"

    def __init__(self, book: StrategyBook) -> None:
        self.book = book

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        try:
            return self.book.resolve(value)
        except StrategyError as err:
            self.fail(str(err), param, ctx)


def size_option(unit: str, help: str, aliases: Sequence[str] = ()) -> Callable:
    """``-n/--deals`` (or ``-n/--games``; older spellings in ``aliases``, not shown): the size
    of a study, passed as ``deals`` (or ``games``), None when not given (the game's default
    then, known once the strategies are)."""
    flag = "--games" if unit == "games" else "--deals"
    return click.option(
        "-n",
        flag,
        *aliases,
        flag[2:],
        cls=AliasOption,
        type=click.IntRange(1, MAX_DEALS),
        default=None,
        help=help,
    )


def size_of(kwargs: dict) -> int | None:
    """The size a command was given (``deals`` or ``games``), removed from ``kwargs``."""
    deals, games = kwargs.pop("deals", None), kwargs.pop("games", None)
    return deals if deals is not None else games


quiet_flag = click.option("--quiet", "-q", is_flag=True, help="No progress bar or notices.")
chunk_option = click.option(
    "--chunk",
    type=click.IntRange(1, MAX_DEALS),
    default=None,
    help="The most deals (or games) a chunk holds [default: the game's, smaller for slow "
    "players]: memory stays flat, Ctrl-C answers between chunks; the numbers never change.",
)


@dataclass(frozen=True)
class StudyCli:
    """A game's CLI pieces of the study commands: ``rules``, its ``Rules`` class (the commands
    offer its rules options of a deal, and those of whole games where they play them:
    :func:`core.app.rules_cli.study_rules_options`); ``tournament_n``: deals (or games) a
    match of a tournament when not told; ``about``: each match command's first sentences (how
    the game plays the match); ``options``: the game's own options of a command (their values
    go to the match as its ``options``); ``defaults``: the strategies A and B when a command is
    given none; ``aliases``: older spellings of a command's size option (``{"game":
    ("--parties",)}``; ``"batch --out"``: of its ``--out``); ``examples``: each command's help
    examples (``external`` too); ``external_rules``: whether ``external`` takes the game's rules
    options of a deal (False: the game's arena sets its own table)."""

    rules: type
    tournament_n: int
    about: Mapping[str, str] = field(default_factory=dict)
    options: Mapping[str, Sequence[Callable]] = field(default_factory=dict)
    defaults: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)
    examples: Mapping[str, str] = field(default_factory=dict)
    external_rules: bool = True


__all__ = [
    "AliasOption",
    "StrategyType",
    "StudyCli",
    "chunk_option",
    "quiet_flag",
    "size_of",
    "size_option",
]
