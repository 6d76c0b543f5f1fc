"""`piquet review FILE`: every decision of a played deal with what it cost.

The record (``review.RECORD_FORM``, text or JSON; ``docs/review.md``) is checked against the
rules before any work (one line naming the place, exit 2); each of the player's decisions is
then measured by the advisors with what he could know (``review.review_record``) and printed
as a table, JSON (``--json``) or a page (``--html FILE``). Ctrl-C keeps the decisions measured
so far, marked partial (exit 130).
"""

from __future__ import annotations

from pathlib import Path

import click

from ...core.app import review as R
from ...core.app.cli import json_option, long_command, quiet_option, seed_option
from ..review import QUICK, RECORD_FORM, ReviewSettings
from ..rules import Rules
from .app import cli
from .common import rules_options

#: The --help example (docs/examples/piquet-deal.txt, tested).
EXAMPLE = "piquet review docs/examples/piquet-deal.txt --html review.html"


@cli.command("review")
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--player",
    type=click.Choice(["elder", "younger"]),
    default=None,
    help="Review this player's decisions instead of the record's 'player' (his hand must be "
    "in the record).",
)
@R.review_options(
    ReviewSettings(),
    QUICK,
    page="deal",
    most_worlds=1_000_000,
    quick_help="A rough review in seconds: the heuristic ranks the discards and plays the "
    "declarations' worlds, fewer worlds everywhere.",
)
@seed_option("Seed of every sampled world (the same seed, the same numbers).")
@json_option
@quiet_option("No progress bar or notices on stderr.")
@rules_options(partie=False)
@long_command
def review_command(
    record: Path,
    player: str | None,
    worlds: int | None,
    exact_limit: int | None,
    quick: bool,
    html_path: Path | None,
    seed: int,
    as_json: bool,
    quiet: bool,
    rules: Rules,
) -> None:
    """Review a played deal: each of your decisions (discard, declarations, cards) against what
    the advisors recommend with what you could know, and what it cost in expected net deal
    points (yours minus his) with its 95% interval; with every hand known, also the exact
    double-dummy cost of every card (and of the declarations).

    RECORD is the deal as text or JSON (docs/review.md): the hands dealt (all, or only yours),
    the exchange, the declarations and the tricks. The text form:

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
    CARDS'), his count ('younger took: 3'), who scored each class ('point: younger KC TC 9C
    8C', 'sequence: ...', 'sets: younger QS QH QD').

    \b
    Example:
      piquet review docs/examples/piquet-deal.txt --html review.html
    """
    from .. import review as PR

    rec = PR.read_record(record)
    if player is not None:
        seat = PR.ROLES.index(player)
        if rec.dealt[seat] is None:
            raise click.UsageError(f"the record does not give {player}'s hand")
        R.choose_player(rec, seat)
    settings = R.settings_from(
        ReviewSettings(), QUICK, quick, worlds=worlds, exact_limit=exact_limit, seed=seed
    )
    R.run_command(PR, rec, rules, settings, quiet, as_json, html_path)


__all__ = ["EXAMPLE", "RECORD_FORM", "review_command"]
