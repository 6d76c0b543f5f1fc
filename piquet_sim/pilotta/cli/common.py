"""Pieces Pilotta's commands share: the suit, seat and team parameters, the rules options
(every row of ``rules.SPEC``) and the seed option. Game-independent plumbing (cards, JSON,
backends, progress) is in ``core.cli``."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ...core.app.cli import SuitType
from ...core.app.cli import quiet_option as core_quiet_option
from ...core.app.cli import rules_options as core_rules_options
from ...core.app.cli import seed_option as core_seed_option
from ...core.app.options import GameOptions
from ...core.app.study_options import StrategyType, respelt
from ...core.engine.cards import CardError
from ..cards import PACK, TEAMS, parse_seat, parse_suit
from ..rules import PRESETS, SPEC, Rules
from ..strategies import BOOK


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
STRATEGY = StrategyType(BOOK)
SEAT = SeatType()
TEAM = TeamType()


_EXEMPTION = SPEC.by_name["partner_exemption"]


def _exemption_option() -> click.Option:
    """``--partner-exemption [never|always|plain_leads]``: the row's choice, which may also be
    given bare (always), as when it was a bool flag."""
    return click.Option(
        ["--partner-exemption", "partner_exemption"],
        type=click.Choice(_EXEMPTION.texts),
        default=_EXEMPTION.text(_EXEMPTION.default),
        is_flag=False,
        flag_value=_EXEMPTION.text(True),
        show_default=True,
        help=_EXEMPTION.help,
    )


def rules_options(func: Callable | None = None, *, game: bool = False) -> Callable:
    """Add the rules options (every row of ``rules.SPEC`` of the deal scope, and with
    ``game=True`` those of whole games too: ``--target``, ``--game-target`` its older spelling;
    :func:`core.cli.rules_options`)
    and ``--preset`` to a command and pass one ``rules: Rules`` argument instead. Options not
    offered keep their defaults, or the preset's values; an option typed beside ``--preset``
    wins over the preset. ``--partner-exemption`` alone means always and
    ``--no-partner-exemption`` never (its spellings when it was a bool)."""
    if func is None:
        return functools.partial(rules_options, game=game)
    scopes = ("deal", "game") if game else ("deal",)
    add_rules = core_rules_options(Rules, scopes)
    if game:
        add_rules = respelt(add_rules, "game_target", "--target", "--game-target")
    inner = add_rules(func)
    params = inner.__click_params__
    for i, param in enumerate(params):
        if param.name == "partner_exemption":
            params[i] = _exemption_option()
    offered = SPEC.cli_options(scopes)

    @functools.wraps(inner)
    def wrapper(*args, preset: str, no_partner_exemption: bool, **kwargs):
        ctx = click.get_current_context()
        given = {
            o.name
            for o in offered
            if ctx.get_parameter_source(o.name) is not click.core.ParameterSource.DEFAULT
        }
        if no_partner_exemption:
            if "partner_exemption" in given:
                raise click.UsageError("--partner-exemption and --no-partner-exemption conflict")
            kwargs["partner_exemption"] = _EXEMPTION.text(False)
            given.add("partner_exemption")
        for option in offered:
            if option.name in PRESETS[preset] and option.name not in given:
                value = PRESETS[preset][option.name]
                kwargs[option.name] = option.text(value) if option.kind == "choice" else value
        return inner(*args, **kwargs)

    wrapper = click.option(
        "--no-partner-exemption",
        "no_partner_exemption",
        is_flag=True,
        help="The partner exemption never applies (the same as --partner-exemption never).",
    )(wrapper)
    return click.option(
        "--preset",
        type=click.Choice(tuple(PRESETS)),
        default="pilotta",
        show_default=True,
        help="Start from a named set of rules options: pilotta (the defaults) or contree "
        "(Belote Contree's card play: --partner-exemption plain_leads --under-trump optional "
        "--capot-points 252 --first-lead after_dealer); options typed beside it win.",
    )(wrapper)


#: The seed option of every sampling command (the core's: bounded to the kernels' 64-bit seeds).
seed_option = core_seed_option()
quiet_option = core_quiet_option("No progress bar or notices.")


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


PLAY_HELP = """What to play now: every legal card ranked by your team's expected card points for the
round, over the worlds consistent with what you saw, each solved double-dummy.

HAND is the cards you hold now; --history is what has happened, in the record grammar of
'review' files (the dealer, the auction or the contract, the cards each seat showed, the
tricks so far, the last one unfinished). A world deals the unseen cards to the other seats so
that every card played was legal (voids, failures to trump or over-trump), the combinations
announced are in their owners' hands and nothing else is, and the calls fit the --others
bidder. Each card's value is the mean over those worlds (card points with the last trick; a
capot counts its points), with its 95% interval when sampled, and the share of worlds in which
the contract is made; the best is named with the reason in one line and its margin over the
runner-up (paired: same worlds). A forced card is answered at once; when few worlds are left
(--exact-limit) every one is enumerated: exact.
"""

REVIEW_HELP = """Review a played round: each of your decisions (calls, cards) against what the
advisors recommend with what you could know, and what it cost with its 95% interval: a call in
the round's game points (your team's minus the opponents', the bid advisor), a card in your
team's card points (every legal card over the worlds consistent with what you saw, each solved
double-dummy); with every hand known, also the exact double-dummy cost of every card.

RECORD is the round as text or JSON (docs/review.md):

\b
  player: N
  dealer: E
  N: KS AH TH 8H 8D KC JC 8C
  E: ... (S, W: every hand, or only yours)
  auction: S:80D W:90S N:pass E:pass ...
  declared: E QD JD TD, S 9S 9H 9D 9C   (with only your hand)
  tricks: 7D KD 8D TD, TC 7C 8S 8C, ...

\b
Example:
  piquet pilotta review docs/examples/pilotta-round.txt --html review.html
"""


def _rules(scopes: tuple[str, ...]):
    return rules_options(game="game" in scopes)


#: Pilotta's vocabulary for the commands the core builds (``core.app.options``).
OPTIONS = GameOptions(
    rules=_rules,
    seat=SEAT,
    others=("threshold", "random"),
    others_default="threshold",
    help={"play": PLAY_HELP, "review": REVIEW_HELP},
)
