"""`piquet pilotta hand`: the combinations and card points of an 8-card hand."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import CardsType, json_option, json_or_console
from ...core.app.rules_cli import ONE_DEAL, rules_options
from ..api import describe_hand
from ..cards import PACK
from ..rules import Rules
from .app import pilotta
from .common import SUIT


@pilotta.command("hand")
@click.argument("cards", type=CardsType(PACK, count=8))
@click.option("--trump", type=SUIT, default=None, help="Trump suit (default: show every suit).")
@json_option
@rules_options(Rules, ONE_DEAL)
def hand_cmd(cards: int, trump: int | None, as_json: bool, rules: Rules) -> None:
    """Combinations (sequences, fours) and card points of an 8-card hand.

    Values are card points (a sequence of three is 20). Without --trump, card points, trumps
    and pilotta are shown for each possible trump suit.

    \b
    Example:
      piquet pilotta hand "JS 9S AS TH KH QH JH 7C" --trump S
      piquet pilotta hand "S:J9A H:TKQJ C:7" --json
    """
    data = describe_hand(cards, trump, rules)
    console = json_or_console(as_json, data)
    if console is None:
        return
    console.print(f"Hand  {data['hand']}")
    table = Table(title="Combinations", title_justify="left")
    for col in ("kind", "cards", "value", "in trumps"):
        table.add_column(col, justify="right" if col == "value" else "left")
    for c in data["combinations"]:
        table.add_row(c["kind"], c["cards"], str(c["value"]), "yes" if c["in_trumps"] else "")
    console.print(table)
    console.print(f"Combination points: [bold]{data['combination_points']}[/bold]")
    pts = Table(title="With each trump", title_justify="left")
    for col in ("trump", "card points", "trumps held", "pilotta (K+Q)"):
        pts.add_column(col, justify="left" if col == "trump" else "right")
    pil = data["pilotta"]
    for suit, points in data["card_points"].items():
        has = pil[suit] if isinstance(pil, dict) else pil
        pts.add_row(suit, str(points), str(data["trumps"][suit]), "yes" if has else "")
    console.print(pts)
