"""`piquet pilotta review FILE`: every decision of a played round with what it cost.

The record (``review.RECORD_FORM``, text or JSON; ``docs/review.md``) is checked against the
rules before any work (one line naming the place, exit 2); each of the player's decisions is
then measured with what he could know (``review.review_record``) and printed as a table, JSON
(``--json``) or a page (``--html FILE``). Ctrl-C keeps the decisions measured so far, marked
partial (exit 130).
"""

from __future__ import annotations

from pathlib import Path

import click

from ...core.app import review as R
from ...core.app.cli import json_option, long_command
from ..review import QUICK, ReviewSettings
from ..rules import Rules
from .app import pilotta
from .common import SEAT, quiet_option, rules_options, seed_option

#: The --help example (docs/examples/pilotta-round.txt, tested).
EXAMPLE = "piquet pilotta review docs/examples/pilotta-round.txt --html review.html"


@pilotta.command("review")
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--player",
    type=SEAT,
    default=None,
    help="Review this seat's decisions instead of the record's 'player' (every hand known).",
)
@click.option(
    "--prior",
    type=click.Choice(("threshold", "random")),
    default=ReviewSettings.prior,
    show_default=True,
    help="The others' bidding policy the worlds fit their calls to (random: the calls say "
    "nothing of the hands).",
)
@R.review_options(
    ReviewSettings(),
    QUICK,
    page="round",
    most_worlds=100_000,
    quick_help="A rough review in seconds: fewer worlds for the calls and the cards.",
    max_seconds=True,
)
@seed_option
@json_option
@quiet_option
@rules_options
@long_command
def review_cmd(
    record: Path,
    player: int | None,
    prior: str,
    worlds: int | None,
    exact_limit: int | None,
    max_seconds: float | None,
    quick: bool,
    html_path: Path | None,
    seed: int,
    as_json: bool,
    quiet: bool,
    rules: Rules,
) -> None:
    """Review a played round: each of your decisions (calls, cards) against what the advisors
    recommend with what you could know, and what it cost with its 95% interval: a call in the
    round's game points (your team's minus the opponents', the bid advisor), a card in your
    team's card points (every legal card over the worlds consistent with what you saw, each
    solved double-dummy); with every hand known, also the exact double-dummy cost of every
    card.

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
    from .. import review as PR

    rec = PR.read_record(record, rules)
    R.choose_player(rec, player)
    settings = R.settings_from(
        ReviewSettings(),
        QUICK,
        quick,
        worlds=worlds,
        exact_limit=exact_limit,
        max_seconds=max_seconds,
        seed=seed,
        prior=prior,
    )
    R.run_command(PR, rec, rules, settings, quiet, as_json, html_path)


__all__ = ["EXAMPLE", "review_cmd"]
