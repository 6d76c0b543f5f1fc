"""`piquet hand` and `piquet compare`: combinations and how declarations score."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import json_option, json_or_console
from ...core.app.rules_cli import ONE_DEAL, rules_options
from .. import cards as C
from ..declarations import CLASSES, SCORE_KEYS, compare_hands, describe_hand
from ..rules import Rules
from .app import cli
from .common import HAND12


@cli.command()
@click.argument("cards", type=HAND12)
@json_option
@rules_options(Rules, ONE_DEAL)
def hand(cards: int, as_json: bool, rules: Rules) -> None:
    """Show a 12-card hand's combinations and what each is worth if it wins its class.

    \b
    Example:
      piquet hand "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
    """
    info = describe_hand(cards)
    console = json_or_console(as_json, info)
    if console is None:
        return
    table = Table(title=f"Hand  {C.format_cards(cards)}", title_justify="left")
    table.add_column("class")
    table.add_column("combination")
    table.add_column("cards")
    table.add_column("points", justify="right")
    point = info["point"]
    suits = " or ".join(point["suits"])
    table.add_row(
        "point",
        f"{point['length']} cards, {point['pips']} pips ({suits})",
        "",
        str(point["points"]),
    )
    for seq in info["sequences"]:
        table.add_row(
            "sequence",
            f"{seq['name']} to the {seq['top']}",
            " ".join(seq["cards"]),
            str(seq["points"]),
        )
    for s in info["sets"]:
        table.add_row("sets", s["name"], " ".join(s["cards"]), str(s["points"]))
    console.print(table)
    if info["carte_blanche"]:
        console.print("Carte blanche: 10 points, scored before anything else.")
    if rules.carte_rouge and info["carte_rouge_eligible"]:
        console.print("Carte rouge possible: every card lies in a combination (+20 if all score).")


@cli.command()
@click.argument("elder", type=HAND12)
@click.argument("younger", type=HAND12)
@json_option
@rules_options(Rules, ONE_DEAL)
def compare(elder: int, younger: int, as_json: bool, rules: Rules) -> None:
    """Compare elder's and younger's declarations class by class (play excluded).

    \b
    Example:
      piquet compare "AS KS QS JS TS 9H 8H AD KD AC QC JC" \\
                     "8S 7S AH KH QH JH TH KC TC 9C 8C 7C"
    """
    if elder & younger:
        raise click.UsageError(f"elder and younger both hold {C.format_cards(elder & younger)}")
    result = compare_hands(elder, younger, rules)
    console = json_or_console(as_json, result)
    if console is None:
        return
    table = Table(title="Declarations (points per player)", title_justify="left")
    table.add_column("class")
    table.add_column("good", justify="center")
    table.add_column("elder", justify="right")
    table.add_column("younger", justify="right")
    winner_of = dict(result["classes"])
    for key in SCORE_KEYS:
        e, y = result["elder"][key], result["younger"][key]
        if key in ("carte_rouge",) and not rules.carte_rouge:
            continue
        good = winner_of.get(key if key != "sets" else "sets", "")
        if key not in CLASSES:
            good = ""
        table.add_row(key.replace("_", " "), good, str(e), str(y))
    table.add_row(
        "total", "", str(result["elder"]["total"]), str(result["younger"]["total"]), style="bold"
    )
    console.print(table)
