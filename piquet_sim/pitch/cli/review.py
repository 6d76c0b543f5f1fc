"""`piquet pitch review FILE`: every decision of a played round with what it cost.

The record (``review.RECORD_FORM``, text or JSON; ``docs/review.md``) is checked against the
rules before any work (one line naming the place, exit 2); each of the player's decisions is
then measured with what he could know (``review.review_record``) and printed as a table, JSON
(``--json``) or a page (``--html FILE``). Ctrl-C keeps the decisions measured so far, marked
partial (exit 130). The player count is the record's.
"""

from __future__ import annotations

from pathlib import Path

import click

from ...core.app import review as R
from ...core.app.cli import json_option, long_command
from ..policies import table_bidders
from ..review import QUICK, ReviewSettings
from .app import pitch
from .common import quiet_option, rules_options, seed_option

#: The --help example (docs/examples/pitch-round.txt, tested).
EXAMPLE = "piquet pitch review docs/examples/pitch-round.txt --html review.html"


@pitch.command("review")
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--player",
    type=click.IntRange(0, 5),
    default=None,
    help="Review this seat's decisions instead of the record's 'player' (every hand known).",
)
@click.option(
    "--others",
    type=click.Choice(table_bidders()),
    default=ReviewSettings.others,
    show_default=True,
    help="How the others are taken to bid: worlds where their calls would differ are left out.",
)
@R.review_options(
    ReviewSettings(),
    QUICK,
    page="round",
    most_worlds=100_000,
    quick_help="A rough review in seconds: fewer worlds for the call and the cards.",
)
@seed_option
@json_option
@quiet_option
@rules_options(players=False)
@long_command
def review_cmd(
    record: Path,
    player: int | None,
    others: str,
    worlds: int | None,
    exact_limit: int | None,
    quick: bool,
    html_path: Path | None,
    seed: int,
    as_json: bool,
    quiet: bool,
    rules,
) -> None:
    """Review a played round: each of your decisions (your call, your cards, the pitch
    included) against what the advisors recommend with what you could know, and what it cost
    with its 95% interval: the call in your score change for the round (the bid advisor), a
    card in your side's points (every legal card over the worlds consistent with what you saw,
    each solved by the paranoid search); with every hand known, also the exact cost of every
    card (the search on the true deal).

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
    from .. import review as PR

    rec = PR.read_record(record)
    if player is not None and player >= rec.players:
        raise click.UsageError(f"--player must be 0..{rec.players - 1} at {rec.players}")
    R.choose_player(rec, player)
    settings = R.settings_from(
        ReviewSettings(),
        QUICK,
        quick,
        worlds=worlds,
        exact_limit=exact_limit,
        seed=seed,
        others=others,
    )
    R.run_command(PR, rec, rules, settings, quiet, as_json, html_path)


__all__ = ["EXAMPLE", "review_cmd"]
