"""Pieces Pilotta's commands share: the suit and seat parameters and the rules options.
Game-independent plumbing (cards, JSON, backends, progress) is in ``core.cli``."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ...core.cards import CardError
from ...core.cli import SuitType
from ..cards import PACK, TEAMS, parse_seat, parse_suit
from ..rules import Rules, RulesError


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


SUIT = SuitType(parse_suit)
SEAT = SeatType()
TEAM = TeamType()

_RULE_OPTIONS = [
    click.option(
        "--trump-kq",
        type=click.Choice(["4,3", "3,2"]),
        default="4,3",
        show_default=True,
        help="Card points of the king and queen of trumps (3,2: the rules text, 160 in all).",
    ),
    click.option(
        "--partner-exemption/--no-partner-exemption",
        default=False,
        show_default=True,
        help="A player whose partner wins the trick need not trump or over-trump.",
    ),
]


def rules_options(func: Callable) -> Callable:
    """Add the rules options that change play and card points; pass ``rules: Rules``."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        kq = tuple(int(x) for x in kwargs.pop("trump_kq").split(","))
        try:
            rules = Rules(trump_kq_points=kq, partner_exemption=kwargs.pop("partner_exemption"))
        except RulesError as err:
            raise click.UsageError(str(err)) from None
        return func(*args, rules=rules, **kwargs)

    for option in reversed(_RULE_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


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
