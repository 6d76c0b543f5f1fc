"""Piquet's pieces of ``piquet solve`` (the core builds the command,
:mod:`piquet_sim.core.app.solve_cli`): the two hands, the position's options, the tables."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from ...core.app.cli import CardsType
from ...core.app.options import pair_option
from ...core.app.solve_cli import SolveCli
from .. import cards as C
from ..cards import PACK
from ..rules import Rules
from ..solver import LEADERS, solve

HAND = CardsType(PACK, min_count=1, max_count=12)

HELP = """Solve the play exactly (both hands seen): value, best line, points breakdown.

Values are elder minus younger under perfect play by both. Hands of fewer than 12 cards
are endgames: give the tricks already won with --tricks.

\b
Example:
  piquet solve "AS KS QS JS TS 9H 8H AD KD AC QC JC" \\
               "8S 7S AH KH QH JH TH KC TC 9C 8C 7C"
  piquet solve "AS KS 7H" "QS 8H 7D" --tricks 5:4 --leader younger --json
"""

PARAMS = (
    click.argument("elder", type=HAND),
    click.argument("younger", type=HAND),
    click.option(
        "--leader",
        type=click.Choice(LEADERS),
        default="elder",
        show_default=True,
        help="Who leads the next trick.",
    ),
    pair_option(
        "--tricks",
        "E:Y",
        "Tricks already won by elder and younger (count toward cards and capot); "
        "needed when the hands hold fewer than 12 cards.",
    ),
    pair_option(
        "--points", "E:Y", "Points scored so far in the deal (combinations and play), for pique."
    ),
    click.option("--repique", is_flag=True, help="A repique was scored: no pique is possible."),
)


def _solve_deal(values: dict, rules: Rules, notice):
    notice()
    return solve(**values, rules=rules)


def _hands_given(values: dict, sol) -> dict:
    return {
        "elder": C.format_cards(values["elder"]),
        "younger": C.format_cards(values["younger"]),
        "tricks_before": list(values["tricks"]),
    }


def _print_line_and_points(sol, values: dict, rules: Rules, console: Console) -> None:
    console.print(f"Elder    {C.format_cards(values['elder'])}")
    console.print(f"Younger  {C.format_cards(values['younger'])}")
    console.print(
        f"Value (elder minus younger, perfect play): [bold]{sol.value:+d}[/bold]"
        f"   play value {sol.play_value:+d}   tricks {sol.elder_tricks}:{sol.younger_tricks}"
    )
    table = Table(title="Principal variation", title_justify="left")
    for col in ("trick", "leader", "lead", "reply", "winner", "elder", "younger"):
        table.add_column(col, justify="right" if col in ("trick", "elder", "younger") else "left")
    first = sum(values["tricks"])
    for i, t in enumerate(sol.tricks):
        note = f" pique ({t.pique})" if t.pique else ""
        table.add_row(
            str(first + i + 1),
            t.leader,
            t.lead,
            t.reply,
            t.winner + note,
            str(t.elder_points),
            str(t.younger_points),
        )
    console.print(table)
    bd = Table(title="Points of the line", title_justify="left")
    bd.add_column("kind")
    bd.add_column("elder", justify="right")
    bd.add_column("younger", justify="right")
    for kind in ("leads", "wins", "last_trick", "cards", "pique", "total"):
        bd.add_row(
            kind.replace("_", " "),
            str(sol.breakdown["elder"][kind]),
            str(sol.breakdown["younger"][kind]),
        )
    console.print(bd)


#: ``piquet solve`` as Piquet gives it to the core (``game.py``'s ``solve_ref``).
SOLVE = SolveCli(
    help=HELP,
    params=PARAMS,
    run=_solve_deal,
    show=_print_line_and_points,
    kernels=lambda values: solve.kernels,
    given=_hands_given,
    bench="piquet_sim.piquet.bench.solver:full_deals",
)
