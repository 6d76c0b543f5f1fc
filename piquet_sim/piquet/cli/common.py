"""Pieces shared by Piquet's commands: the 12-card hand parameter and the rules option group.
Game-independent plumbing (JSON, backends, progress) is in ``core.cli``."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ...core.app.cli import CardsType
from ...core.app.cli import rules_options as core_rules_options
from ..cards import PACK
from ..rules import Rules

HAND12 = CardsType(PACK, count=12)


def rules_options(func: Callable | None = None, *, partie: bool = True) -> Callable:
    """Add the rules options (every row of ``rules.SPEC``, :func:`core.cli.rules_options`) to a
    command and pass one ``rules: Rules`` argument instead. ``partie=False`` offers only the
    options of a deal (commands about one hand or one deal, where the partie form means nothing;
    the partie fields keep their defaults)."""
    if func is None:
        return functools.partial(rules_options, partie=partie)
    return core_rules_options(Rules, ("deal", "game") if partie else ("deal",))(func)


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
