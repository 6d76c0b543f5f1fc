"""`piquet pitch batch`: two bid policies compared on the same rounds, with a paired interval."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import (
    RateBar,
    backend_options,
    compile_notice,
    echo_json,
    json_option,
    long_command,
    output_console,
)
from ..batch import batch_kernels, compare_bidders, duel_policies
from ..policies import names
from .app import pitch
from .common import deals_option, quiet_option, rules_options, seed_option


@pitch.command("batch")
@click.argument("spec_a", metavar="A", default="threshold")
@click.argument("spec_b", metavar="B", default="threshold:margin=1")
@deals_option(200_000, "Rounds, each played with A and with B.")
@seed_option
@click.option(
    "--table",
    default="threshold",
    show_default=True,
    help="Bid policy of the other seats (not montecarlo: it bids for one seat).",
)
@click.option(
    "--play",
    type=click.Choice(names("play", needs_solver=False)),
    default="heuristic",
    show_default=True,
    help="Play policy of every seat.",
)
@quiet_option
@rules_options
@json_option
@backend_options
@long_command
def batch_cmd(spec_a, spec_b, deals, seed, table, play, quiet, as_json, backend, rules) -> None:
    """Compare bid policies A and B (default threshold against threshold:margin=1) for one
    seat on the same rounds.

    Round i: seat i % players (so every seat equally) bids with A, then the same deal is
    replayed with him bidding with B; the others bid with --table, everyone plays --play.
    Perspective: that seat's round score (bidder +bid or -bid, else his points). Policies:
    NAME or NAME:param=value (bid policies: random, pass, threshold[:margin=M],
    parametric[:high=…,margin=…], montecarlo[:worlds=W,margin=M] for A and B only), or a
    strategy (a built-in name such as fitted, or a file) for its bidder. Parameters are
    checked before any round (finite, in range). Ctrl-C prints the rounds finished (partial).

    \b
    Example:
      piquet pitch batch threshold threshold:margin=1 --players 4 -n 200000
      piquet pitch batch montecarlo fitted -n 20000
      piquet pitch batch threshold:margin=-1 random --players 6 --json
    """
    players = rules.players
    duel_policies(spec_a, spec_b, deals, table, play)  # bad input: one line, before the bar
    compile_notice(*batch_kernels(), quiet=quiet or as_json)
    with RateBar(deals, "rounds", quiet or as_json) as bar:
        duel = compare_bidders(
            spec_a, spec_b, players, deals, seed, table, play, rules, bar, backend
        )
    if as_json:
        echo_json(duel.to_dict())
        return
    console = output_console()
    console.print(
        f"{players} players, {duel.rounds:,} rounds (seed {seed}), others bid {table}, play "
        f"{play}; {duel.seconds:.2f} s. Perspective: the rotating seat's round score."
        + (
            f"  [bold red](interrupted: partial, {duel.rounds:,} of {deals:,} rounds)[/]"
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
