"""`piquet solve`: the exact value of the play of a deal or an endgame, and its best line."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import CardsType, compile_notice, echo_json, json_option, output_console
from .. import cards as C
from ..cards import PACK
from ..rules import Rules
from ..solver import LEADERS, SolveError, solve
from .app import cli
from .common import rules_options

HAND = CardsType(PACK, min_count=1, max_count=12)


def _pair(text: str | None, what: str) -> tuple[int, int]:
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
            f"expected E:Y (two whole numbers), got {text!r}", param_hint=what
        ) from None
    return a, b


@cli.command("solve")
@click.argument("elder", type=HAND)
@click.argument("younger", type=HAND)
@click.option(
    "--leader",
    type=click.Choice(LEADERS),
    default="elder",
    show_default=True,
    help="Who leads the next trick.",
)
@click.option(
    "--tricks",
    "tricks_text",
    metavar="E:Y",
    default=None,
    help="Tricks already won by elder and younger (count toward cards and capot); "
    "needed when the hands hold fewer than 12 cards.",
)
@click.option(
    "--points",
    "points_text",
    metavar="E:Y",
    default=None,
    help="Points scored so far in the deal (combinations and play), for pique.",
)
@click.option("--repique", is_flag=True, help="A repique was scored: no pique is possible.")
@json_option
@rules_options(partie=False)
def solve_cmd(
    elder: int,
    younger: int,
    leader: str,
    tricks_text: str | None,
    points_text: str | None,
    repique: bool,
    as_json: bool,
    rules: Rules,
) -> None:
    """Solve the play exactly (both hands seen): value, best line, points breakdown.

    Values are elder minus younger under perfect play by both. Hands of fewer than 12 cards
    are endgames: give the tricks already won with --tricks.

    \b
    Example:
      piquet solve "AS KS QS JS TS 9H 8H AD KD AC QC JC" \\
                   "8S 7S AH KH QH JH TH KC TC 9C 8C 7C"
      piquet solve "AS KS 7H" "QS 8H 7D" --tricks 5:4 --leader younger --json
    """
    tricks = _pair(tricks_text, "--tricks")
    points = _pair(points_text, "--points")
    from ..solver import entry_kernels

    compile_notice(*entry_kernels())
    try:
        sol = solve(
            elder,
            younger,
            leader=leader,
            tricks=tricks,
            rules=rules,
            points=points,
            repique=repique,
        )
    except SolveError as err:
        raise click.UsageError(str(err)) from None
    if as_json:
        data = sol.to_dict()
        data["elder"] = C.format_cards(elder)
        data["younger"] = C.format_cards(younger)
        data["tricks_before"] = list(tricks)
        data["rules"] = rules.to_dict()
        echo_json(data)
        return
    console = output_console()
    console.print(f"Elder    {C.format_cards(elder)}")
    console.print(f"Younger  {C.format_cards(younger)}")
    console.print(
        f"Value (elder minus younger, perfect play): [bold]{sol.value:+d}[/bold]"
        f"   play value {sol.play_value:+d}   tricks {sol.elder_tricks}:{sol.younger_tricks}"
    )
    table = Table(title="Principal variation", title_justify="left")
    for col in ("trick", "leader", "lead", "reply", "winner", "elder", "younger"):
        table.add_column(col, justify="right" if col in ("trick", "elder", "younger") else "left")
    first = tricks[0] + tricks[1]
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
