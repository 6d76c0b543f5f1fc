"""Pilotta's pieces of ``piquet pilotta solve`` (the core builds the command,
:mod:`piquet_sim.core.app.solve_cli`): the four hands, the position's options, the line's table."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from ...core.app.cli import CardsType
from ...core.app.options import pair_option
from ...core.app.solve_cli import SolveCli
from ..cards import PACK, SEATS, SUITS
from ..rules import Rules
from ..solver import solve
from .common import SEAT, SUIT, TEAM, CardListType

HAND = CardsType(PACK, min_count=0, max_count=8)

HELP = """Solve the play exactly, all four hands seen: value and principal variation.

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

PARAMS = (
    *(click.argument(seat, type=HAND) for seat in ("north", "east", "south", "west")),
    click.option("--trump", type=SUIT, required=True, help="Trump suit (S, H, D, C)."),
    click.option(
        "--leader",
        type=SEAT,
        default="N",
        show_default=True,
        help="Seat that leads the current trick.",
    ),
    click.option(
        "--contract",
        "contract",
        type=TEAM,
        default=None,
        help="Contracting team (NS or EW, or a seat of it) whose points are the value; "
        "default: the leader's team (the contractor leads the first trick).",
    ),
    click.option(
        "--trick",
        "trick",
        type=CardListType(3),
        default=None,
        help="Cards already played to the current trick, in order from the leader "
        "(removed from the hands).",
    ),
    pair_option(
        "--tricks",
        "C:D",
        "Tricks already won by the contracting and the defending team (endgames).",
    ),
    click.option(
        "--points",
        type=click.IntRange(0, 162),
        default=None,
        help="Card points the contracting team has already won (only needed when both "
        "teams have won tricks).",
    ),
)


def _hands(values: dict) -> list[int]:
    return [values[seat] for seat in ("north", "east", "south", "west")]


def _solve_round(values: dict, rules: Rules, notice):
    notice()
    return solve(
        _hands(values),
        values["trump"],
        values["leader"],
        contract=values["contract"],
        trick=values["trick"],
        tricks=values["tricks"],
        points=values["points"],
        rules=rules,
    )


def _hands_by_seat(values: dict, sol) -> dict:
    return {"hands": {SEATS[p]: PACK.format(h) for p, h in enumerate(_hands(values))}}


def _print_line(sol, values: dict, rules: Rules, console: Console) -> None:
    for p, h in enumerate(_hands(values)):
        console.print(f"{SEATS[p]}  {PACK.format(h)}")
    console.print(
        f"Trump {SUITS[values['trump']]}; {sol.contract} contracting. Value ({sol.contract}'s "
        f"card points for the round, best play by both teams): [bold]{sol.value}[/bold]"
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


#: ``piquet pilotta solve`` as Pilotta gives it to the core (``game.py``'s ``solve_ref``).
SOLVE = SolveCli(
    help=HELP,
    params=PARAMS,
    run=_solve_round,
    show=_print_line,
    kernels=lambda values: solve.kernels,
    given=_hands_by_seat,
    bench="piquet_sim.pilotta.bench:full_rounds",
)
