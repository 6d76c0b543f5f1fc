"""`piquet sink`: what sinking each declaration is worth for one hand."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from ...core.cli import CardsType, echo_json, json_option
from ..cards import PACK
from ..rules import Rules
from ..sinking import PLAYS, SinkError, analyse
from .app import cli
from .common import HAND12, rules_options


def _fmt(x: float) -> str:
    return f"{x:+.2f}"


@cli.command()
@click.argument("hand", type=HAND12)
@click.option("--elder/--younger", "is_elder", default=True, help="The player's role.")
@click.option(
    "--discard",
    type=CardsType(PACK, min_count=1, max_count=8),
    default=None,
    help="Cards discarded: HAND is then the dealt hand (else the hand held at the "
    "declarations, no exchange).",
)
@click.option(
    "--elder-took",
    type=click.IntRange(1, 5),
    default=None,
    help="Younger with --discard: how many cards elder took.",
)
@click.option(
    "--worlds",
    type=click.IntRange(2, 100_000),
    default=48,
    show_default=True,
    help="Sampled deals, common to every choice.",
)
@click.option(
    "--play",
    type=click.Choice(list(PLAYS)),
    default="pimc",
    show_default=True,
    help="Play of both sides: pimc (imperfect information), dd or greedy.",
)
@click.option(
    "--pimc-worlds",
    type=click.IntRange(1, 256),
    default=8,
    show_default=True,
    help="Worlds per pimc decision.",
)
@click.option("--seed", type=int, default=1, show_default=True)
@json_option
@rules_options
def sink(
    hand: int,
    is_elder: bool,
    discard: int | None,
    elder_took: int | None,
    worlds: int,
    play: str,
    pimc_worlds: int,
    seed: int,
    as_json: bool,
    rules: Rules,
) -> None:
    """Compare declaring everything with sinking the point, the sequences, the sets or
    declaring a lesser combination: expected net deal score (you minus the opponent) with 95%
    intervals on common sampled worlds, and where the difference comes from.

    \b
    Example:
      piquet sink "AS KS QS JS TS 9H 8H 7H AD KD AC QC" --worlds 64
      piquet sink "AS KS QS JS 9H 8H 7H AD KD AC QC JC" --younger \\
                  --discard "9H 8H" --elder-took 5
    """
    try:
        res = analyse(
            hand,
            "elder" if is_elder else "younger",
            discard,
            elder_took,
            worlds,
            play,
            pimc_worlds,
            seed,
            rules,
        )
    except SinkError as err:
        raise click.UsageError(str(err)) from None
    if as_json:
        echo_json(res.to_dict())
        return
    console = Console()
    title = f"Sinking for {res.role} {res.hand}"
    if res.discard:
        title += f", discarding {res.discard}"
    title += f"; {res.worlds} worlds, play {res.play}"
    if res.play == "pimc":
        title += f" ({res.pimc_worlds} per decision)"
    table = Table(title=title, title_justify="left")
    for col in ("choice", "net", "vs all (95% CI)", "decl", "pique/rep", "play", "conceal"):
        table.add_column(col, justify="left" if col == "choice" else "right")
    for c in res.choices:
        p = c.parts
        gain = (
            ""
            if c.name == "declare all"
            else (f"{_fmt(c.gain)} ({c.gain_ci[0]:.1f}..{c.gain_ci[1]:.1f})")
        )
        table.add_row(
            c.name,
            f"{c.net:.2f}",
            gain,
            _fmt(p["declarations"]),
            _fmt(p["pique"] + p["repique"]),
            _fmt(p["play"]),
            _fmt(p["concealment"]),
        )
    console.print(table)
    best = res.best
    if len(res.choices) > 1:
        console.print(
            f"Best: [bold]{best.name}[/bold], by {res.margin:.2f} points over "
            f"{res.choices[1].name} (95% CI {res.margin_ci[0]:.2f} .. {res.margin_ci[1]:.2f})."
        )
    else:
        console.print("Only 'declare all' applies to this hand.")
    console.print(
        f"Points are yours minus the opponent's for the deal; differences are paired. "
        f"Concealment = play change not seen under double-dummy play. {res.seconds:.1f} s."
    )
