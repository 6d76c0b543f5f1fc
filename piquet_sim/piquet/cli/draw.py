"""`piquet draw`: exact odds of the talon for a given discard."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import CardsType, json_option, json_or_console
from ...core.app.rules_cli import ONE_DEAL, rules_options
from .. import cards as C
from ..cards import PACK
from ..rules import Rules
from ..talon import DrawError, draw_odds
from .app import cli
from .common import HAND12, role_options


def _table(title: str, column: str, rows: dict[str, float]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(column)
    table.add_column("probability", justify="right")
    for name, p in rows.items():
        table.add_row(name, f"{p:.4f}")
    return table


def _check_want(hand: int, discard: int, want: int) -> None:
    """--want names cards that can still be drawn: not kept, not thrown away."""
    if discard & ~hand:
        raise click.UsageError(f"--discard {C.format_cards(discard & ~hand)}: not in the hand")
    if want & discard:
        raise click.UsageError(
            f"--want {C.format_cards(want & discard)}: in your discard, it cannot be drawn back"
        )
    if want & hand:
        raise click.UsageError(
            f"--want {C.format_cards(want & hand)}: already in the hand (kept, not drawn)"
        )


@cli.command()
@click.argument("hand", type=HAND12)
@click.option(
    "--discard",
    type=CardsType(PACK, max_count=12),
    required=True,
    help="Cards to discard (as many are drawn).",
)
@role_options
@click.option(
    "--want",
    type=CardsType(PACK, max_count=20),
    default="",
    help="Cards hoped for: chance of drawing at least / exactly k of them.",
)
@json_option
@rules_options(Rules, ONE_DEAL)
def draw(
    hand: int,
    role: str,
    elder_took: int | None,
    discard: int,
    want: int,
    as_json: bool,
    rules: Rules,
) -> None:
    """Exact odds of the draw after discarding: every draw of the unseen cards is enumerated.

    Elder's odds are exact. Younger's are exact under a uniform prior on his 20 unseen cards,
    i.e. they ignore what elder's exchange tells him.

    \b
    Example:
      piquet draw "AS KS QS 9S 8H 7H AD 9D 8D KC 8C 7C" --discard "8H 7H 9D 8C 7C" --want "JS TS"
    """
    younger = role == "younger"
    _check_want(hand, discard, want)
    try:
        result = draw_odds(hand, discard, role, elder_took, want, rules)
    except DrawError as err:
        raise click.UsageError(str(err)) from None
    console = json_or_console(as_json, result)
    if console is None:
        return
    role = result["role"] + (f" (elder took {result['elder_took']})" if younger else "")
    console.print(
        f"{role}: keep {C.format_cards(hand & ~discard)}, "
        f"draw {result['cards_drawn']} of {result['unseen']} unseen cards: "
        f"{result['draws']:,} draws, {result['prior']}."
    )
    lengths = {f"{k} cards": p for k, p in result["point_length"].items()}
    console.print(_table("Point length", "length", lengths))
    console.print(_table("Best sequence", "sequence", result["best_sequence"]))
    console.print(_table("Best sequence by top card", "sequence", result["best_sequence_by_top"]))
    console.print(_table("Best set", "set", result["best_set"]))
    expected = Table(title="Expected points if each class wins", title_justify="left")
    expected.add_column("class")
    expected.add_column("points", justify="right")
    for name, value in result["expected_points"].items():
        expected.add_row(name, f"{value:.3f}")
    console.print(expected)
    if "carte_rouge_eligible" in result:
        console.print(f"Carte rouge eligible: {result['carte_rouge_eligible']:.4f}")
    if result["want"]:
        w = result["want"]
        table = Table(title=f"Drawing {' '.join(w['cards'])}", title_justify="left")
        table.add_column("k", justify="right")
        table.add_column("exactly k", justify="right")
        table.add_column("at least k", justify="right")
        for k, p in w["exactly"].items():
            at_least = w["at_least"].get(k, 1.0)
            table.add_row(k, f"{p:.4f}", f"{at_least:.4f}")
        console.print(table)
