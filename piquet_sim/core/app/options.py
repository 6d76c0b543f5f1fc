"""A game's command-line vocabulary, for the commands the core builds for every game: its rules
options, its seat parameter and the others' bidding models a position may read calls with.

Each game declares one :class:`GameOptions` (in its ``cli/common.py``); the core's ``play``,
``review`` and study commands take every option from it, so the same option has the same name,
meaning and defaults in every game. The options several games' own commands share (``--play``,
``--others``, ``--auction``, ``--chunk``, a report's ``--games``) are here too, each game giving
its choices, default and help.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import click

from .rules_cli import AliasOption


class SeatName(click.ParamType):
    """A seat by its name (``elder``, ``younger``; any case); converts to its index."""

    name = "SEAT"

    def __init__(self, names: tuple[str, ...]):
        self.names = tuple(names)

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip().lower()
        for i, n in enumerate(self.names):
            if text == n.lower():
                return i
        self.fail(f"{value!r} is not a seat: {', '.join(self.names)}", param, ctx)


class PairType(click.ParamType):
    """Two whole numbers >= 0 joined by a colon, one per side (``5:3``: tricks won by elder and
    younger, by the contracting and the defending team); converts to a tuple. Its metavar names
    the sides (``E:Y``, ``C:D``)."""

    def __init__(self, metavar: str):
        self.name = metavar

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        parts = str(value).split(":")
        try:
            if len(parts) != 2:
                raise ValueError
            pair = int(parts[0]), int(parts[1])
            if min(pair) < 0:
                raise ValueError
        except ValueError:
            # the option named bare, as these commands have always written it
            hint = param.opts[0] if param is not None and param.opts else None
            raise click.BadParameter(
                f"expected {self.name} (two whole numbers), got {value!r}", ctx, param, hint
            ) from None
        return pair


def pair_option(flag: str, sides: str, help: str) -> Callable:
    """``flag SIDES``: a :class:`PairType` named by ``sides`` (``E:Y``, ``C:D``) in ``--help``
    too, (0, 0) when not given: what each side has already won in an endgame."""
    return click.option(flag, type=PairType(sides), metavar=sides, default=(0, 0), help=help)


def play_option(choices: Sequence[str], default: str, help: str) -> Callable:
    """``--play POLICY``: the play policy the seats play the cards by, one of ``choices`` (the
    game's play registry, or the part a command can run), the default shown."""
    return click.option(
        "--play", type=click.Choice(list(choices)), default=default, show_default=True, help=help
    )


def others_option(
    choices: Sequence[str], default: str, help: str, older: tuple[str, ...] = ()
) -> Callable:
    """``--others MODEL``: how the other seats bid (the model their calls are read by), one of
    ``choices``, the default shown, passed as ``others``; ``older``: former spellings, still
    accepted but not shown."""
    return click.option(
        "--others",
        *older,
        "others",
        cls=AliasOption,
        type=click.Choice(list(choices)),
        default=default,
        show_default=True,
        help=help,
    )


def auction_option(help: str, metavar: str | None = None) -> Callable:
    """``--auction CALLS``: the calls made so far, in the game's record grammar (none when not
    given), passed as ``auction`` text for the game to read."""
    return click.option("--auction", default="", metavar=metavar, help=help)


def chunk_size_option(default: int) -> Callable:
    """``--chunk N``: the deals one chunk of a count holds (1,000 or more, the default shown):
    the run's memory stays flat and Ctrl-C is answered between chunks."""
    return click.option(
        "--chunk",
        type=click.IntRange(1000),
        default=default,
        show_default=True,
        help="Deals per chunk (memory stays flat; Ctrl-C stops between chunks).",
    )


def games_option(default: int, most: int, help: str) -> Callable:
    """``--games N``: the whole games a report plays to the target (10 to ``most``, the default
    shown)."""
    return click.option(
        "--games", type=click.IntRange(10, most), default=default, show_default=True, help=help
    )


@dataclass(frozen=True)
class OwnOptions:
    """A game's own options of one command (beside the core's): ``decorators`` (click options),
    the parameter names they pass (``names``), and ``settings(values)``, which turns their
    values by name into the game's settings (``ValueSettings.game``), a click.UsageError (one
    line, exit 2) for a bad combination, before any work."""

    decorators: tuple[Callable, ...]
    names: tuple[str, ...]
    settings: Callable[[dict], dict]

    def take(self, kwargs: dict) -> dict:
        """The game's settings from a command's keyword arguments (its values removed)."""
        return self.settings({n: kwargs.pop(n, None) for n in self.names})


@dataclass(frozen=True)
class GameOptions:
    """A game's CLI vocabulary.

    rules: the game's ``Rules`` class (its rows are the rules options of every command,
        :func:`core.app.rules_cli.rules_options`);
    seat: the seat parameter type (converts to the seat index);
    seat_aliases: extra spellings of the seat as flags, e.g. ``("--elder", "--younger")``:
        each flag sets the seat of its place (hidden, kept for old command lines);
    seat_default: the seat of a position when none is given (None: the seat is required);
    others: the bidding models a position may assume of the others (``--others``; empty: the
        game has no auction) and its default;
    players: the seat numbers depend on ``rules.players`` (a table of 3 to 6);
    help: command -> its ``--help`` text in the game's words, with a copy-pasteable example;
    own: command -> the game's own options of that command (:class:`OwnOptions`).
    """

    rules: type
    seat: click.ParamType
    seat_aliases: tuple[str, ...] = ()
    seat_default: int | None = None
    others: tuple[str, ...] = ()
    others_default: str = ""
    players: bool = False
    help: dict[str, str] | None = None
    own: dict[str, OwnOptions] | None = None

    def own_options(self, command: str) -> OwnOptions | None:
        """The game's own options of ``command`` (None: none)."""
        return (self.own or {}).get(command)

    def seat_option(
        self,
        help_text: str,
        required: bool = True,
        name: str = "--seat",
        extra_names: tuple[str, ...] = (),
    ) -> Callable:
        """``--seat SEAT`` (also spelt ``extra_names``; and the hidden alias flags), passing
        ``seat`` (None when not given and not required)."""

        def decorate(func: Callable) -> Callable:
            aliases = self.seat_aliases

            def seat_from(ctx: click.Context, param: click.Parameter, value):
                # click takes the explicit default=None as a value given, so a required
                # --seat left out arrives here as None: refuse it as click would
                if value is None and param.required:
                    raise click.MissingParameter(ctx=ctx, param=param)
                return value

            for i, flag in reversed(list(enumerate(aliases))):
                func = click.option(
                    flag,
                    f"alias_seat_{i}",
                    is_flag=True,
                    hidden=True,
                    help=f"The same as {name} {flag.lstrip('-')}.",
                )(func)
            return click.option(
                name,
                *extra_names,
                "seat",
                type=self.seat,
                default=None,
                required=required and self.seat_default is None and not aliases,
                callback=seat_from,
                help=help_text,
            )(func)

        return decorate

    def seat_value(self, seat: int | None, flags: dict, default: bool = True) -> int | None:
        """The seat given by ``--seat`` or one alias flag (``flags``: the command's
        ``alias_seat_<i>`` values, removed here), else the game's default seat (with
        ``default``) or None; a usage error when both or two are given."""
        chosen = [i for i in range(len(self.seat_aliases)) if flags.pop(f"alias_seat_{i}", False)]
        if len(chosen) > 1 or (chosen and seat is not None):
            raise click.UsageError("give the seat once")
        if chosen:
            return chosen[0]
        return self.seat_default if seat is None and default else seat


__all__ = [
    "GameOptions",
    "OwnOptions",
    "PairType",
    "SeatName",
    "auction_option",
    "chunk_size_option",
    "games_option",
    "others_option",
    "pair_option",
    "play_option",
]
