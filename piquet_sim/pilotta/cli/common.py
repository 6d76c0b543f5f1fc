"""Pieces Pilotta's commands share: the suit, seat and team parameters and the seed option.
The rules options are the core's, from ``rules.SPEC`` (``core.app.rules_cli``); other
game-independent plumbing (cards, JSON, backends, progress) is in ``core.app.cli``."""

from __future__ import annotations

import click

from ...core.app.cli import ParsedType, SuitType
from ...core.app.cli import quiet_option as core_quiet_option
from ...core.app.cli import seed_option as core_seed_option
from ...core.app.options import GameOptions
from ...core.app.study_options import StrategyType
from ...core.engine.cards import CardError
from ..cards import PACK, TEAMS, parse_seat, parse_suit
from ..rules import Rules
from ..strategies import BOOK


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
#: A seat: N E S W (or North …); converts to 0..3.
SEAT = ParsedType("SEAT", parse_seat)
TEAM = TeamType()


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


#: Pilotta's vocabulary for the commands the core builds (``core.app.options``).
OPTIONS = GameOptions(
    rules=Rules,
    seat=SEAT,
    others=("threshold", "random"),
    others_default="threshold",
    help={"play": PLAY_HELP, "review": REVIEW_HELP},
)
