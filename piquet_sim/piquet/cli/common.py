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

_DEAL_OPTIONS = [
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
]

_PARTIE_OPTIONS = [
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


def rules_options(func: Callable | None = None, *, partie: bool = True) -> Callable:
    """Add the rules options to a command and pass one ``rules: Rules`` argument instead.
    ``partie=False`` offers only the options of a deal (commands about one hand or one deal,
    where the partie form means nothing; the partie fields keep their defaults)."""
    if func is None:
        return functools.partial(rules_options, partie=partie)
    options = _DEAL_OPTIONS + (_PARTIE_OPTIONS if partie else [])

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            fields = dict(
                lead_points=kwargs.pop("lead_points"),
                younger_must_exchange=not kwargs.pop("younger_may_pass"),
                carte_rouge=kwargs.pop("carte_rouge"),
            )
            if partie:
                fields.update(
                    tie=kwargs.pop("tie"),
                    game=kwargs.pop("game"),
                    blank_partie_bonus=kwargs.pop("blank_partie_bonus"),
                )
            rules = Rules(**fields)
        except RulesError as err:
            raise click.UsageError(str(err)) from None
        return func(*args, rules=rules, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def role_options(func: Callable | None = None, *, exchange_if: str | None = None) -> Callable:
    """``--elder/--younger`` and ``--elder-took K``, the same in every command that takes a
    hand's role: elder by default; younger exchanging needs ``--elder-took`` (what elder took
    decides the talon left, so it is never assumed) and elder may not give it. ``exchange_if``
    names the argument whose presence means an exchange (sink's ``--discard``); without it every
    call exchanges. Passes ``role`` ("elder" or "younger") and ``elder_took`` (None for elder)."""
    if func is None:
        return functools.partial(role_options, exchange_if=exchange_if)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        is_elder = kwargs.pop("is_elder")
        elder_took = kwargs.pop("elder_took")
        exchanges = exchange_if is None or kwargs.get(exchange_if) is not None
        if is_elder and elder_took is not None:
            raise click.UsageError("--elder-took needs --younger")
        if not is_elder and elder_took is None and exchanges:
            raise click.UsageError("--younger needs --elder-took K (1 to 5)")
        if not exchanges and elder_took is not None:
            raise click.UsageError(f"--elder-took needs --{exchange_if}")
        return func(*args, role="elder" if is_elder else "younger", elder_took=elder_took, **kwargs)

    wrapper = click.option(
        "--elder-took",
        type=click.IntRange(1, 5),
        default=None,
        metavar="K",
        help="With --younger (required there): how many cards elder exchanged, 1 to 5.",
    )(wrapper)
    return click.option(
        "--elder/--younger",
        "is_elder",
        default=True,
        show_default=True,
        help="Your role in the deal: elder (non-dealer) or younger (dealer).",
    )(wrapper)
