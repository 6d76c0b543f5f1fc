"""Pieces shared by Pitch's commands: the scopes of its rules options (the number of players
is a rules row of the table), the seed and quiet options every command spells alike, the suit
and per-seat list parameters, the core's compile notice (its estimate the running command's
measured one), and the game's vocabulary for the commands the core builds (:data:`OPTIONS`:
``play``, ``review``)."""

from __future__ import annotations

from collections.abc import Callable

import click

from ...core.app.cli import SuitType
from ...core.app.cli import quiet_option as core_quiet_option
from ...core.app.cli import seed_option as core_seed_option
from ...core.app.compile import compile_notice
from ...core.app.options import GameOptions
from ...core.app.rules_cli import WHOLE_GAMES, rules_options
from ..cards import parse_suit
from ..policies import table_bidders
from ..rules import SPEC, Rules

#: The rules options of a command playing whole games: the number of players first
#: (``core.app.rules_cli.rules_options``).
TABLE_GAMES = ("table", *WHOLE_GAMES)
#: The number of players, as the rules row bounds it.
PLAYERS = click.IntRange(*SPEC.by_name["players"].bounds)


def players_option(func: Callable) -> Callable:
    """Only ``--players`` (commands about a deal's cards, which neither play nor score):
    passes ``rules`` with the other options at their defaults."""
    return rules_options(Rules, ("table",))(func)


seed_option = core_seed_option(
    "Seed of the random streams (round i of a seed is always the same round)."
)
quiet_option = core_quiet_option("No progress bar or notices.")

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


PLAY_HELP = """What to play now: every legal card ranked by your side's expected points over the
worlds consistent with what you saw, each solved by the paranoid search.

HAND is the cards you hold now and --seat your seat (0 is the dealer's left and calls first,
players-1 the dealer); --history is what has happened, in the record grammar of 'review' files
(the auction from seat 0, the tricks so far from their leaders, the last one unfinished; the
number of players is --players). Your side is you when you are the bidder (your points in the
round), else the defenders against him (the round's points he does not take), as the pimc
player sees it. Worlds keep your cards, the cards played, the voids shown and the calls (the
others taken to bid with --others). Each card's value is the mean over the worlds (with its 95%
interval when sampled) beside P(the bidder makes his bid); the best is named with a reason and
its paired margin over the runner-up. A forced card is answered at once; when few worlds remain
(--exact-limit) every one is enumerated: exact.
"""

REVIEW_HELP = """Review a played round: each of your decisions (your call, your cards, the pitch
included) against what the advisors recommend with what you could know, and what it cost with
its 95% interval: the call in your score change for the round (the bid advisor), a card in your
side's points (every legal card over the worlds consistent with what you saw, each solved by
the paranoid search); with every hand known, also the exact cost of every card (the search on
the true deal). The number of players is the record's.

RECORD is the round as text or JSON (docs/review.md):

\b
  players: 4
  player: 1
  0: AS 7S KD 4D 3C 2H
  1: ... (every seat, or only yours)
  auction: pass 3 pass pass
  tricks: AC 7C 4C KC / 7D QD QC JD / ...

\b
Example:
  piquet pitch review docs/examples/pitch-round.txt --html review.html
"""


#: Pitch's vocabulary for the commands the core builds (``core.app.options``): seats are
#: numbers, their count the rules' ``players`` (``--players`` in play; review reads the record's).
OPTIONS = GameOptions(
    rules=Rules,
    seat=click.IntRange(0, SPEC.by_name["players"].bounds[1] - 1),
    others=table_bidders(),
    others_default="threshold",
    players=True,
    help={"play": PLAY_HELP, "review": REVIEW_HELP},
)

__all__ = [
    "OPTIONS",
    "SUIT",
    "TABLE_GAMES",
    "compile_notice",
    "players_option",
    "quiet_option",
]
