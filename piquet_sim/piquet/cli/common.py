"""Pieces shared by Piquet's commands: the 12-card hand parameter and the rules option group.
Game-independent plumbing (JSON, backends, progress) is in ``core.cli``."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ...core.app.cli import CardsType
from ...core.app.cli import rules_options as core_rules_options
from ...core.app.options import GameOptions, SeatName
from ..actions import ROLES
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


PLAY_HELP = """What to play now: every legal card ranked by expected net deal points (yours minus
his), over the worlds consistent with what you saw, each solved double-dummy.

HAND is the cards you hold now; --history is what has happened, in the record grammar of
'review' files, told from your side: your discard and draw, his count, what you saw of the
talon, who scored each class (mine, his with the cards he showed, equal, none; 'sunk,' or
'lesser,' before it when you did so), the tricks as LEAD-REPLY, and 'lead: CARD' when he has
led to you. Each card's value is the mean over those worlds (with its 95% interval when
sampled); the best is named with the reason in one line and its margin over the runner-up
(paired: same worlds). A forced card is answered at once; when the unseen cards leave few
enough worlds (--exact-limit), every one is enumerated: exact.
"""

REVIEW_HELP = """Review a played deal: each of your decisions (discard, declarations, cards)
against what the advisors recommend with what you could know, and what it cost in expected net
deal points (yours minus his) with its 95% interval; with every hand known, also the exact
double-dummy cost of every card (and of the declarations).

RECORD is the deal as text or JSON (docs/review.md): the hands dealt (all, or only yours), the
exchange, the declarations and the tricks. The text form:

\b
  player: elder
  elder: KS JS 9S JH TH AD KD TD 8D AC QC JC
  younger: AS QS KH QH 8H 7H 9D 7D KC TC 9C 8C
  talon: 8S 7S 7C TS 9H JD QD AH
  elder discard: KS 9S TH 8D QC
  younger discard: 8H 7H 7D
  elder declares: all
  tricks: AD-9D AC-8C 7S-QS QH-9H ...

With only your hand: drop the other hand and the talon; give what you drew ('elder took:
CARDS'), his count ('younger took: 3'), who scored each class ('point: younger KC TC 9C 8C',
'sequence: ...', 'sets: younger QS QH QD').

\b
Example:
  piquet review docs/examples/piquet-deal.txt --html review.html
"""


def _rules(scopes: tuple[str, ...]):
    return rules_options(partie="game" in scopes)


#: Piquet's vocabulary for the commands the core builds (``core.app.options``): seats by role,
#: ``--elder``/``--younger`` kept as spellings of ``--seat``.
OPTIONS = GameOptions(
    rules=_rules,
    seat=SeatName(ROLES),
    seat_aliases=("--elder", "--younger"),
    seat_default=0,
    help={"play": PLAY_HELP, "review": REVIEW_HELP},
)
