"""`piquet pitch batch`: two bid policies compared on the same rounds, with a paired interval."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from ...core.cli import RateBar, compile_notice, echo_json, json_option, long_command
from ..batch import compare_bidders, duel_policies
from ..kernels.duel import duel_rounds
from ..rules import Rules
from .app import pitch
from .common import PLAYERS, rules_options


@pitch.command("batch")
@click.option("--a", "spec_a", default="threshold", show_default=True, help="Bid policy A.")
@click.option(
    "--b", "spec_b", default="threshold:margin=1", show_default=True, help="Bid policy B."
)
@click.option("--players", type=PLAYERS, default=4, show_default=True, help="Players at table.")
@click.option("--rounds", type=click.IntRange(1, 100_000_000), default=200_000, show_default=True)
@click.option("--seed", type=click.IntRange(0, 2**40), default=1, show_default=True)
@click.option(
    "--table",
    default="threshold",
    show_default=True,
    help="Bid policy of the other seats.",
)
@click.option(
    "--play",
    type=click.Choice(["heuristic", "random"]),
    default="heuristic",
    show_default=True,
    help="Play policy of every seat.",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@rules_options
@json_option
@long_command
def batch_cmd(
    spec_a, spec_b, players, rounds, seed, table, play, quiet, rule_options, as_json
) -> None:
    """Compare bid policies A and B for one seat on the same rounds.

    Round i: seat i % players (so every seat equally) bids with A, then the same deal is
    replayed with him bidding with B; the others bid with --table, everyone plays --play.
    Perspective: that seat's round score (bidder +bid or -bid, else his points). Policies:
    NAME or NAME:param=value (bid policies: random, pass, threshold[:margin=M],
    parametric[:high=…,margin=…], montecarlo[:worlds=W,margin=M] for A and B only), or a
    built-in strategy's name for its bidder (e.g. fitted). Ctrl-C prints the rounds finished
    (partial).

    \b
    Example:
      piquet pitch batch --a threshold --b threshold:margin=1 --players 4 --rounds 200000
      piquet pitch batch --a montecarlo --b fitted --rounds 20000
      piquet pitch batch --a threshold:margin=-1 --b random --players 6 --json
    """
    rules = Rules(players=players, **rule_options)
    duel_policies(spec_a, spec_b, rounds, table, play)  # bad input: one line, before the bar
    compile_notice(duel_rounds, quiet=quiet or as_json)
    with RateBar(rounds, "rounds", quiet or as_json) as bar:
        duel = compare_bidders(
            spec_a, spec_b, players, rounds, seed, table, play, rules, progress=bar
        )
    if as_json:
        echo_json(duel.to_dict())
        return
    console = Console(width=max(Console().width, 110))
    console.print(
        f"{players} players, {duel.rounds:,} rounds (seed {seed}), others bid {table}, play "
        f"{play}; {duel.seconds:.2f} s. Perspective: the rotating seat's round score."
        + (
            f"  [bold red](interrupted: partial, {duel.rounds:,} of {rounds:,} rounds)[/]"
            if duel.partial
            else ""
        )
    )
    t = Table(title_justify="left")
    for col in ("policy", "score per round, 95%", "P(bidder)", "P(made | bidder)"):
        t.add_column(col, justify="left" if col == "policy" else "right")
    for side in (duel.a, duel.b):
        s = side.score
        t.add_row(
            side.policy,
            f"{s.mean:+.3f} [{s.ci95[0]:+.3f}, {s.ci95[1]:+.3f}]",
            f"{side.p_bidder.mean:.3f}",
            "-" if side.p_made is None else f"{side.p_made.mean:.3f}",
        )
    console.print(t)
    d = duel.difference
    console.print(
        f"A - B: {d['mean']:+.4f} per round [{d['ci95'][0]:+.4f}, {d['ci95'][1]:+.4f}] "
        f"(paired, n = {d['n']:,}, p = {d['p']:.2g})"
    )
