"""Pieces shared by Piquet's commands: the 12-card hand parameter and the rules option group.
Game-independent plumbing (JSON, backends, progress) is in ``core.cli``."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ...core.cli import CardsType
from ..cards import PACK
from ..rules import GAMES, LEAD_POINTS, TIE_RULES, Rules, RulesError

HAND12 = CardsType(PACK, count=12)

_RULE_OPTIONS = [
    click.option(
        "--lead-points",
        type=click.Choice(LEAD_POINTS),
        default="every",
        show_default=True,
        help="Which leads and wins score a play point.",
    ),
    click.option(
        "--younger-may-pass/--younger-must-exchange",
        default=False,
        show_default=True,
        help="Whether younger may decline to exchange.",
    ),
    click.option(
        "--carte-rouge/--no-carte-rouge",
        default=False,
        show_default=True,
        help="Score carte rouge (20) for a hand whose every card is in a scoring combination.",
    ),
    click.option(
        "--tie",
        type=click.Choice(TIE_RULES),
        default="two_more_deals",
        show_default=True,
        help="What follows a tied partie.",
    ),
    click.option(
        "--game",
        type=click.Choice(GAMES),
        default="rubicon",
        show_default=True,
        help="Partie form: six deals, piquet au cent, or four deals.",
    ),
    click.option(
        "--blank-partie-bonus/--no-blank-partie-bonus",
        default=False,
        show_default=True,
        help="A player scoring nothing in a partie gives 100 more.",
    ),
]


def rules_options(func: Callable) -> Callable:
    """Add every rules option to a command and pass one ``rules: Rules`` argument instead."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            rules = Rules(
                lead_points=kwargs.pop("lead_points"),
                younger_must_exchange=not kwargs.pop("younger_may_pass"),
                carte_rouge=kwargs.pop("carte_rouge"),
                tie=kwargs.pop("tie"),
                game=kwargs.pop("game"),
                blank_partie_bonus=kwargs.pop("blank_partie_bonus"),
            )
        except RulesError as err:
            raise click.UsageError(str(err)) from None
        return func(*args, rules=rules, **kwargs)

    for option in reversed(_RULE_OPTIONS):
        wrapper = option(wrapper)
    return wrapper
