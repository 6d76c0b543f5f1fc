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

from ...core.cli import OutputPath, compile_notice, json_option, long_command
from ...core.review import ReviewBar, write_outputs
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
@click.option(
    "--worlds",
    type=click.IntRange(1, 100_000),
    default=None,
    help=f"Worlds sampled for a card decision when there are too many to enumerate "
    f"[default: {ReviewSettings.worlds}; {QUICK.worlds} with --quick].",
)
@click.option(
    "--exact-limit",
    type=click.IntRange(0, 1_000_000),
    default=None,
    help=f"Enumerate every world of a card decision when there are at most this many "
    f"[default: {ReviewSettings.exact_limit}; {QUICK.exact_limit} with --quick].",
)
@click.option(
    "--quick",
    is_flag=True,
    help="A rough review in seconds: fewer worlds for the call and the cards.",
)
@click.option(
    "--html",
    "html_path",
    type=OutputPath(suffixes=(".html", ".htm")),
    default=None,
    help="Also write a page showing the round trick by trick with the costs.",
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
    if player is not None:
        if player >= rec.players:
            raise click.UsageError(f"--player must be 0..{rec.players - 1} at {rec.players}")
        if not rec.full and player != rec.player:
            raise click.UsageError("only the record's player can be reviewed without every hand")
        rec.player = player
    given = {"worlds": worlds, "exact_limit": exact_limit, "seed": seed, "others": others}
    base = (QUICK if quick else ReviewSettings()).to_dict()
    settings = ReviewSettings(**{**base, **{k: v for k, v in given.items() if v is not None}})
    tasks, deal, notes = PR.review_tasks(rec, rules, settings)
    compile_notice(*PR.entry_kernels(), quiet=quiet or as_json, expect="a few minutes")
    with ReviewBar(tasks, quiet=quiet) as bar:
        rv = PR.review_from_tasks(rec, rules, settings, tasks, deal, notes, progress=bar)
    write_outputs(rv, as_json, html_path)


__all__ = ["EXAMPLE", "review_cmd"]
