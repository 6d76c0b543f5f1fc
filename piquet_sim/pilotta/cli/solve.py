"""`piquet pilotta solve`: the exact double-dummy value of a round (or its end) and best line."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import CardsType, compile_notice, echo_json, json_option, output_console
from ..cards import PACK, SEATS, SUITS
from ..rules import Rules
from ..solver import SolveError, entry_kernels, solve
from .app import pilotta
from .common import SEAT, SUIT, TEAM, CardListType, rules_options

HAND = CardsType(PACK, min_count=0, max_count=8)


def _pair(text: str | None) -> tuple[int, int]:
    if text is None:
        return (0, 0)
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        a, b = int(parts[0]), int(parts[1])
        if a < 0 or b < 0:
            raise ValueError
    except ValueError:
        raise click.BadParameter(
            f"expected C:D (two whole numbers), got {text!r}", param_hint="--tricks"
        ) from None
    return a, b


@pilotta.command("solve")
@click.argument("north", type=HAND)
@click.argument("east", type=HAND)
@click.argument("south", type=HAND)
@click.argument("west", type=HAND)
@click.option("--trump", type=SUIT, required=True, help="Trump suit (S, H, D, C).")
@click.option(
    "--leader", type=SEAT, default="N", show_default=True, help="Seat that leads the current trick."
)
@click.option(
    "--contract",
    "contract",
    type=TEAM,
    default=None,
    help="Contracting team (NS or EW, or a seat of it) whose points are the value; "
    "default: the leader's team (the contractor leads the first trick).",
)
@click.option(
    "--trick",
    "trick",
    type=CardListType(3),
    default=None,
    help="Cards already played to the current trick, in order from the leader "
    "(removed from the hands).",
)
@click.option(
    "--tricks",
    "tricks_text",
    metavar="C:D",
    default=None,
    help="Tricks already won by the contracting and the defending team (endgames).",
)
@click.option(
    "--points",
    type=click.IntRange(0, 162),
    default=None,
    help="Card points the contracting team has already won (only needed when both "
    "teams have won tricks).",
)
@json_option
@rules_options
def solve_cmd(
    north: int,
    east: int,
    south: int,
    west: int,
    trump: int,
    leader: int,
    contract: int | None,
    trick: list[int] | None,
    tricks_text: str | None,
    points: int | None,
    as_json: bool,
    rules: Rules,
) -> None:
    """Solve the play exactly, all four hands seen: value and principal variation.

    The value is the contracting team's card points for the round (last trick 10 included;
    250 when it takes all eight tricks) under best play by both teams; the defenders play to
    keep it down. Hands of fewer than 8 cards are an endgame: give --tricks (and --points
    when both teams have won tricks).

    \b
    Example:
      piquet pilotta solve "KS 9S 8S TH 8H KD 9D 8D" "QS JS 7S 7H TD AC TC 8C" \\
          "AS TS QH JH 7D QC 9C 7C" "AH KH 9H AD QD JD KC JC" --trump C --leader W
      piquet pilotta solve "JS AH" "9S KH" "AS QH" "TS 7H" --trump S --tricks 3:3 \\
          --points 40 --json
    """
    compile_notice(*entry_kernels(), quiet=as_json)
    try:
        sol = solve(
            [north, east, south, west],
            trump,
            leader,
            contract=contract,
            trick=trick,
            tricks=_pair(tricks_text),
            points=points,
            rules=rules,
        )
    except SolveError as err:
        raise click.UsageError(str(err)) from None
    if as_json:
        data = sol.to_dict()
        data["hands"] = {SEATS[p]: PACK.format(h) for p, h in enumerate((north, east, south, west))}
        data["rules"] = rules.to_dict()
        echo_json(data)
        return
    console = output_console()
    for p, h in enumerate((north, east, south, west)):
        console.print(f"{SEATS[p]}  {PACK.format(h)}")
    console.print(
        f"Trump {SUITS[trump]}; {sol.contract} contracting. Value ({sol.contract}'s card points "
        f"for the round, best play by both teams): [bold]{sol.value}[/bold]"
        + (f" ({sol.points_before} already won, {sol.rest} to come)" if sol.points_before else "")
    )
    table = Table(title="Principal variation", title_justify="left")
    for col in ("trick", "leader", "N", "E", "S", "W", "winner", "points", sol.contract):
        table.add_column(
            col, justify="right" if col in ("trick", "points", sol.contract) else "left"
        )
    first = 8 - len(sol.tricks)
    for i, t in enumerate(sol.tricks):
        by_seat = {}
        lead = SEATS.index(t.leader)
        for k, card in enumerate(t.cards):
            by_seat[SEATS[(lead + k) % 4]] = card
        table.add_row(
            str(first + i + 1),
            t.leader,
            *(by_seat.get(s, "") for s in SEATS),
            t.winner,
            str(t.points),
            str(t.to_contract),
        )
    console.print(table)
