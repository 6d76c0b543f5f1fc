"""Pieces shared by Piquet's commands: the 12-card hand parameter and the rules option group.
Game-independent plumbing (JSON, backends, progress) is in ``core.cli``."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ...core.app.cli import CardsType
from ...core.app.options import GameOptions, OwnOptions, SeatName
from ...core.app.rules_cli import rules_options
from ..actions import ROLES
from ..cards import PACK
from ..rules import Rules

HAND12 = CardsType(PACK, count=12)


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
'lesser,' before it when you did so), the declaration dialogue as spoken ('point calls: elder
five, younger equal, elder 44, younger not good'; the same for 'sequence calls' and 'sets
calls': his calls bound his hand, and a class the calls settle needs no winner), the tricks
as LEAD-REPLY, and 'lead: CARD' when he has led to you. Each card's value is the mean over
those worlds (with its 95% interval when sampled); the best is named with the reason in one
line and its margin over the runner-up (paired: same worlds); cards of equal value go to the
one that more often wins the cards, then the one whose worst world is better. A forced card
is answered at once; when the unseen cards leave few enough worlds (--exact-limit), every one
is enumerated: exact. --declarations sinking also weighs the worlds where he declared less
than he held and says whether they change the card; --score ME:OPP --deal K ranks the cards
by the partie (P(win), or --objective settlement) with the net points beside; --policy names
the card a play policy would play.
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


# ---------------------------------------------------------------------- the partie's score

#: The regular deals of a partie by its form (None: to 100).
PARTIE_DEALS = {"rubicon": 6, "four_deals": 4, "hundred": None}


def check_deal(me: int, opp: int, deal_no: int, rules: Rules) -> None:
    """Refuse a deal number the partie cannot reach with this score: past the partie's last
    deal, or a tie-break deal (two more after a tie: deals 7 and 8 of a Rubicon partie) when
    the score before deal 7 is not tied; under piquet au cent, a partie already won."""
    regular = PARTIE_DEALS[rules.game]
    if regular is None:
        if max(me, opp) >= 100:
            raise click.UsageError(f"--score {me}:{opp}: a partie au cent ends at 100")
        return
    last = regular + (2 if rules.game == "rubicon" else 0)
    if deal_no > last:
        raise click.UsageError(
            f"--deal {deal_no}: a {rules.game} partie has {regular} deals"
            + (" (8 after a tie)" if last > regular else "")
        )
    if deal_no == regular + 1 and me != opp:
        raise click.UsageError(
            f"--deal {deal_no} is only played after a tie; the score {me}:{opp} is not tied"
        )


def partie_goal(objective: str | None, score: str | None, deal_no: int | None, rules: Rules):
    """The ``advisor.PartieGoal`` of --objective/--score/--deal (None: by the deal's points);
    a one-line usage error for a score, deal or combination the partie cannot have."""
    if objective == "deal" or (objective is None and score is None and deal_no is None):
        if score is not None or deal_no is not None:
            raise click.UsageError("--score and --deal go with --objective win or settlement")
        return None
    if score is None or deal_no is None:
        raise click.UsageError("ranking by the partie needs both --score ME:OPP and --deal K")
    try:
        me, opp = (int(x) for x in score.split(":"))
    except ValueError:
        raise click.UsageError(f"--score takes ME:OPP, e.g. 84:61; got {score!r}") from None
    if me < 0 or opp < 0:
        raise click.UsageError(f"--score {score}: partie scores are 0 or more")
    check_deal(me, opp, deal_no, rules)
    from ..advisor import PartieGoal

    return PartieGoal(me, opp, deal_no, objective or "win")


def partie_options(func: Callable) -> Callable:
    """``--objective``, ``--score ME:OPP`` and ``--deal K``: rank by the partie rather than the
    deal (passes ``objective``, ``score``, ``deal_no``; :func:`partie_goal` reads them)."""
    func = click.option(
        "--deal",
        "deal_no",
        type=click.IntRange(1),
        default=None,
        metavar="K",
        help="Which deal of the partie this is (1..6 in a Rubicon partie; 7 and 8 only after a "
        "tie).",
    )(func)
    func = click.option(
        "--score",
        default=None,
        metavar="ME:OPP",
        help="Partie score before this deal, yours then the opponent's (e.g. 84:61).",
    )(func)
    return click.option(
        "--objective",
        type=click.Choice(["deal", "win", "settlement"]),
        default=None,
        help="Rank by net deal points (default), P(win the partie) or expected partie "
        "settlement (the last two need --score and --deal).",
    )(func)


def _own_settings(values: dict) -> dict:
    """The settings of Piquet's own ``play`` and ``review`` options (``ValueSettings.game``,
    JSON-ready): the partie objective with its rules, and how the declarations are read."""
    partie_rules = values["rule_options"]
    try:
        rules = Rules(**partie_rules)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    goal = partie_goal(values["objective"], values["score"], values["deal_no"], rules)
    out: dict = {}
    if goal is not None:
        out["partie"] = {
            "my_score": goal.my_score,
            "opp_score": goal.opp_score,
            "deal": goal.deal,
            "objective": goal.objective,
            "rules": {k: rules.to_dict()[k] for k in partie_rules},
        }
    elif any(v != Rules().to_dict()[k] for k, v in partie_rules.items()):
        raise click.UsageError("--game, --tie and --blank-partie-bonus go with --score and --deal")
    if values["declarations"] != "trust":
        out["declarations"] = values["declarations"]
    return out


DECLARATIONS_HELP = (
    "How his declarations are read: trust (he declared all he held) or sinking (he may have "
    "sunk a combination or called the lesser: those worlds too, weighted by how often players "
    "sink; the advice says when they change the card)."
)


def _own_options() -> OwnOptions:
    """Piquet's own options of ``play`` and ``review``: the partie's score (``--score``,
    ``--deal``, ``--objective`` and the partie's form) and ``--declarations``."""
    decorators = (
        partie_options,
        rules_options(Rules, ("game",), into="rule_options"),
        click.option(
            "--declarations",
            type=click.Choice(["trust", "sinking"]),
            default="trust",
            show_default=True,
            help=DECLARATIONS_HELP,
        ),
    )
    names = ("objective", "score", "deal_no", "rule_options", "declarations")
    return OwnOptions(decorators, names, _own_settings)


#: Piquet's vocabulary for the commands the core builds (``core.app.options``): seats by role,
#: ``--elder``/``--younger`` kept as spellings of ``--seat``.
OPTIONS = GameOptions(
    rules=Rules,
    seat=SeatName(ROLES),
    seat_aliases=("--elder", "--younger"),
    seat_default=0,
    help={"play": PLAY_HELP, "review": REVIEW_HELP},
    own={"play": _own_options(), "review": _own_options()},
)
