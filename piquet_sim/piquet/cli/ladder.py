"""`piquet ladder`: every play policy against every other over mirrored deals, with ratings."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from ...core.app.cli import (
    backend_options,
    compile_notice,
    json_option,
    json_or_console,
    long_command,
    quiet_option,
    seed_option,
)
from ...core.app.rules_cli import rules_options
from ...core.study.arena import external_decider, external_specs
from .. import ladder as LD
from .. import match as M
from .. import policies as P
from ..rules import Rules
from ..strategies import play_strategy
from .app import cli


def _policies(value: str) -> list[str]:
    names = [v.strip() for v in value.split(",") if v.strip()]
    known = P.names("play")
    for n in names:
        if n not in known:
            raise click.BadParameter(f"unknown play policy {n!r}; choose from {', '.join(known)}")
    if len(set(names)) < 2:
        raise click.BadParameter("give at least two different play policies")
    return names


def _frame_table(frame, title: str) -> Table:
    """A ladder frame (ratings or external rows) as a rich table, cells as printed."""
    table = Table(title=title, title_justify="left")
    for col in frame.columns:
        table.add_column(col)
    for row in frame.itertuples(index=False):
        table.add_row(*[str(v) for v in row])
    return table


@cli.command("ladder")
@click.option(
    "--policies",
    default=",".join(LD.DEFAULT_POLICIES),
    show_default=True,
    help="Play policies, comma-separated (dd is an oracle: marked, not a player).",
)
@click.option(
    "--deals",
    "-n",
    type=click.IntRange(1),
    default=100_000,
    show_default=True,
    help="Deal pairs per match of fast policies.",
)
@click.option(
    "--solver-deals",
    type=click.IntRange(1),
    default=1_000,
    show_default=True,
    help="Deal pairs per match involving pimc, pimcw or dd (they call the exact solver: slow).",
)
@click.option(
    "--reference",
    default=None,
    show_default=f"{LD.REFERENCE}, or the first policy when {LD.REFERENCE} is not among them",
    help="The policy rated 0; others are rated by their net per deal against it.",
)
@click.option(
    "--exchange",
    type=click.Choice(P.names("exchange")),
    default=LD.EXCHANGE,
    show_default=True,
    help="Both players' exchange policy (the same in every match, so only the play differs).",
)
@click.option(
    "--external",
    default="",
    help="Outside players added as rows marked external, comma-separated, e.g. "
    "ismcts:100,ismcts:1000 (OpenSpiel's IS-MCTS, simulations a move; needs the openspiel extra).",
)
@click.option(
    "--external-deals",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    help="Mirrored deals per match of an external player (played through the position API: slow).",
)
@seed_option("Seed of the deal streams (every match plays the same deals).")
@quiet_option("No progress lines.")
@json_option
@rules_options(Rules)
@backend_options
@long_command
def ladder_command(
    policies,
    deals,
    solver_deals,
    reference,
    exchange,
    external,
    external_deals,
    seed,
    quiet,
    as_json,
    rules,
    backend,
) -> None:
    """Strength ladder of the play policies: every pair plays mirrored deals (heuristic exchange
    unless --exchange says otherwise, every declaration made, so only the play differs).
    Prints each policy's mean net points per deal against the reference (heuristic, or the
    first policy) with a 95% interval, a least-squares points rating over
    all matches and a Bradley-Terry (Elo) fit on deal wins, then the margins between
    neighbours. Points are per deal from each policy's own side. Ctrl-C stops the match in
    flight after its chunk, skips the rest and prints what finished, marked partial (exit 130).

    \b
    Example:
      piquet ladder --deals 200000 --solver-deals 1000
      piquet ladder --policies pimc,pimcw --solver-deals 2000
      piquet ladder --policies random,greedy,heuristic --deals 50000 --json
      piquet ladder --policies heuristic,pimc --external ismcts:100 --external-deals 20
    """
    try:
        names = _policies(policies)
    except click.BadParameter as err:
        raise click.UsageError(str(err)) from None
    reference = LD.reference_of(names, reference)
    if reference not in names:
        raise click.UsageError(f"--reference {reference!r} is not among --policies")
    outside = [external_decider("piquet", spec, seed) for spec in external_specs(external)]
    console = Console(stderr=True)
    progress = None if (quiet or as_json) else (lambda label: console.print(f"match {label}"))
    players = [play_strategy(name, exchange) for name in names]
    kernels = {M.match_kernel(a, b) for i, a in enumerate(players) for b in players[i + 1 :]}
    compile_notice(*kernels, quiet=quiet or as_json)
    result = LD.ladder(
        names,
        deals,
        solver_deals,
        seed,
        reference,
        rules,
        progress,
        backend=backend,
        exchange=exchange,
        external=outside,
        external_deals=external_deals,
    )
    out = json_or_console(as_json, result)
    if out is None:
        return
    title = f"Play-policy ladder (seed {seed}, {result.seconds:.0f} s)" + (
        " - PARTIAL: stopped by Ctrl-C" if result.partial else ""
    )
    out.print(_frame_table(LD.ratings_frame(result), title))
    out.print("Margins (direct matches, 95%): " + LD.margins_text(result))
    if result.external:
        title = f"External players ({result.external_deals} mirrored deals a match)"
        out.print(_frame_table(LD.external_frame(result), title))
