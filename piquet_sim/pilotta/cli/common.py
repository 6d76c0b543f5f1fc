"""Pieces Pilotta's commands share: the suit, seat and team parameters, the rules options
(every row of ``rules.SPEC``) and the seed option. Game-independent plumbing (cards, JSON,
backends, progress) is in ``core.cli``."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ...core.cards import CardError
from ...core.cli import SuitType
from ...core.cli import rules_options as core_rules_options
from ..cards import PACK, TEAMS, parse_seat, parse_suit
from ..rules import Rules
from ..strategies import StrategyError, resolve


class SeatType(click.ParamType):
    """A seat: N E S W (or North …); converts to 0..3."""

    name = "SEAT"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            return parse_seat(value)
        except CardError as err:
            self.fail(str(err), param, ctx)


class TeamType(click.ParamType):
    """A team, NS or EW, or a seat of it (N, E, S, W); converts to 0 (NS) or 1 (EW)."""

    name = "TEAM"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = value.strip().upper()
        if text in TEAMS:
            return TEAMS.index(text)
        if text in ("SN", "WE"):
            return 0 if text == "SN" else 1
        try:
            return parse_seat(text) & 1
        except CardError:
            self.fail(f"'{value}' is not a team (NS or EW) or a seat", param, ctx)


class StrategyType(click.ParamType):
    """A built-in strategy name or a .json/.toml strategy file, checked against the policy
    registry while the command line is read (before any work or backend starts)."""

    name = "STRATEGY"

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        try:
            return resolve(value)
        except StrategyError as err:
            self.fail(str(err), param, ctx)


SUIT = SuitType(parse_suit)
STRATEGY = StrategyType()
SEAT = SeatType()
TEAM = TeamType()


def rules_options(func: Callable | None = None, *, game: bool = False) -> Callable:
    """Add the rules options (every row of ``rules.SPEC`` of the deal scope, and with
    ``game=True`` those of whole games too: ``--game-target``; :func:`core.cli.rules_options`)
    to a command and pass one ``rules: Rules`` argument instead. Options not offered keep their
    defaults."""
    if func is None:
        return functools.partial(rules_options, game=game)
    return core_rules_options(Rules, ("deal", "game") if game else ("deal",))(func)


#: The seed option of every sampling command.
seed_option = click.option(
    "--seed",
    type=click.IntRange(0),
    default=1,
    show_default=True,
    help="Seed of the deal streams (deal i of a seed is always the same deal).",
)
quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress bar.")


class CardListType(click.ParamType):
    """Cards in the order typed (a trick in progress): a list of card indices."""

    name = "CARDS"

    def __init__(self, max_count: int):
        self.max_count = max_count

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        try:
            cards = PACK.parse_list(value)
        except CardError as err:
            self.fail(str(err), param, ctx)
        if len(cards) > self.max_count:
            self.fail(f"at most {self.max_count} cards, got {len(cards)}", param, ctx)
        return cards
