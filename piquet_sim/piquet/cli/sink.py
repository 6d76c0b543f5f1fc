"""`piquet sink`: what sinking each declaration is worth for one hand."""

from __future__ import annotations

import click
from rich import box
from rich.table import Table

from ...core.app.cli import (
    CardsType,
    compile_notice,
    json_option,
    json_or_console,
    long_command,
    seed_option,
)
from ...core.app.options import play_option
from ...core.app.rules_cli import ONE_DEAL, rules_options
from ..cards import PACK
from ..policies import names as policy_names
from ..rules import Rules
from ..sinking import DEFAULT_OPPONENT, PLAYS, SinkError, analyse
from .app import cli
from .common import HAND12, role_options

EXCHANGES = policy_names("exchange")


def _fmt(x: float) -> str:
    return f"{x:+.2f}"


def sink_table(res) -> Table:
    """The choices of a sinking analysis as a table that fits 80 columns: numbers never wrap
    (the interval stays whole), the choice's name wraps instead."""
    title = f"Sinking for {res.role} {res.hand}"
    if res.discard:
        title += f", discarding {res.discard}"
    title += f"; {res.worlds} worlds, play {res.play}"
    if res.interrupted:
        title += f" (interrupted: partial, {res.worlds} of {res.requested} worlds)"
    if res.play == "pimc":
        title += f" ({res.pimc_worlds} per decision)"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("choice", justify="left", overflow="fold", ratio=1)
    for col in ("net", "vs all [95% CI]", "decl", "pique/rep", "play", "conceal"):
        table.add_column(col, justify="right", no_wrap=True)
    for c in res.choices:
        p = c.parts
        gain = (
            ""
            if c.name == "declare all"
            else f"{_fmt(c.gain)} [{c.gain_ci[0]:+.1f}, {c.gain_ci[1]:+.1f}]"
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
    return table


@cli.command()
@click.argument("hand", type=HAND12)
@role_options(exchange_if="discard")
@click.option(
    "--discard",
    type=CardsType(PACK, min_count=1, max_count=8),
    default=None,
    help="Cards discarded: HAND is then the dealt hand (else the hand held at the "
    "declarations, no exchange).",
)
@click.option(
    "--worlds",
    "-n",
    "--deals",
    "worlds",
    type=click.IntRange(2, 100_000),
    default=48,
    show_default=True,
    help="Sampled deals, common to every choice.",
)
@play_option(PLAYS, "pimc", "Play of both sides: pimc (imperfect information), dd or greedy.")
@click.option(
    "--opponent",
    type=click.Choice(EXCHANGES),
    default=DEFAULT_OPPONENT,
    show_default=True,
    help="The opponent's exchange policy (and elder's, modelled in younger's worlds).",
)
@click.option(
    "--pimc-worlds",
    type=click.IntRange(1, 256),
    default=8,
    show_default=True,
    help="Worlds per pimc decision.",
)
@seed_option("Seed of the sampled worlds (same seed, same worlds and numbers).")
@json_option
@rules_options(Rules, ONE_DEAL)
@long_command
def sink(
    hand: int,
    role: str,
    elder_took: int | None,
    discard: int | None,
    worlds: int,
    play: str,
    opponent: str,
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
    compile_notice(*analyse.kernels)
    try:
        res = analyse(
            hand,
            role,
            discard,
            elder_took,
            worlds,
            play,
            pimc_worlds,
            seed,
            rules,
            opponent=opponent,
        )
    except SinkError as err:
        raise click.UsageError(str(err)) from None
    console = json_or_console(as_json, res)
    if console is None:
        return
    table = sink_table(res)
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
