"""Pieces shared by Pitch's commands: the rules options, suit and per-seat list parameters."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ...core.cli import COMPILING, SuitType, kernels_cold
from ..cards import MAX_PLAYERS, MIN_PLAYERS, parse_suit
from ..rules import GAME_TIE, LOW_TO

PLAYERS = click.IntRange(MIN_PLAYERS, MAX_PLAYERS)

#: The search plays' notice: their kernels take minutes to compile.
SEARCH_COMPILING = (
    "compiling the search kernels, first run only (about 5 CPU-minutes; later runs start at once)"
)


def compile_notice(*dispatchers, search: bool = False, quiet: bool = False) -> bool:
    """On stderr, say that kernels are compiling when any of ``dispatchers`` is cold (the
    search plays' longer notice when ``search``); returns whether they were cold."""
    cold = kernels_cold(*dispatchers)
    if cold and not quiet:
        click.echo(SEARCH_COMPILING if search else COMPILING, err=True)
    return cold


SUIT = SuitType(parse_suit)


class SeatListType(click.ParamType):
    """Whole numbers >= 0 separated by colons, one per seat: ``0:10:3:0``."""

    name = "N:N:…"

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        try:
            out = [int(x) for x in value.split(":")]
            if any(x < 0 for x in out):
                raise ValueError
        except ValueError:
            self.fail(f"expected whole numbers >= 0 separated by ':', got {value!r}", param, ctx)
        return out


class ScoresType(click.ParamType):
    """Whole numbers (negative allowed) separated by colons, one per seat: ``9:-3:10:7``."""

    name = "S:S:…"

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        try:
            return [int(x) for x in value.split(":")]
        except ValueError:
            self.fail(f"expected whole numbers separated by ':', got {value!r}", param, ctx)


_RULE_OPTIONS = [
    click.option(
        "--must-follow/--may-trump",
        default=False,
        show_default=True,
        help="Whether a player holding the suit led may trump instead (may-trump) or must "
        "follow it.",
    ),
    click.option(
        "--low-to",
        type=click.Choice(LOW_TO),
        default="holder",
        show_default=True,
        help="Who scores Low: the player dealt the lowest trump in play, or the winner of "
        "the trick it falls in.",
    ),
    click.option(
        "--game-tie",
        type=click.Choice(GAME_TIE),
        default="nobody",
        show_default=True,
        help="Who scores Game when players tie for the most game points.",
    ),
]


def rules_options(func: Callable) -> Callable:
    """Add the play rules options; pass ``rule_options`` (a dict of Rules fields)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        options = {
            "must_follow": kwargs.pop("must_follow"),
            "low_to": kwargs.pop("low_to"),
            "game_tie": kwargs.pop("game_tie"),
        }
        return func(*args, rule_options=options, **kwargs)

    for option in reversed(_RULE_OPTIONS):
        wrapper = option(wrapper)
    return wrapper
