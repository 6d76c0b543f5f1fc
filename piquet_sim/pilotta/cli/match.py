"""`piquet pilotta batch | tournament | game | strategies`: strategies against each other."""

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
    plot_option,
    table_out_option,
)
from .. import match
from ..policies import REGISTRY as POLICIES
from ..rules import Rules
from ..strategies import REGISTRY
from .app import pilotta
from .common import STRATEGY, quiet_option, rules_options, seed_option

#: Sizes a study holds in memory (every round record, or every game's row).
DEALS = click.IntRange(1, 10**8)
GAMES = click.IntRange(1, 10**7)


def _ci(d: dict, fmt: str = "+.2f") -> str:
    return f"{d['mean']:{fmt}} (95% {d['ci95'][0]:{fmt}} .. {d['ci95'][1]:{fmt}})"


def _pct(d: dict) -> str:
    return f"{d['p'] * 100:.1f}% ({d['ci95'][0] * 100:.1f}-{d['ci95'][1] * 100:.1f})"


def _stopped(r: dict, what: str, per: int = 1) -> str:
    """The mark of a run stopped by Ctrl-C (empty when it finished)."""
    if not r.get("partial"):
        return ""
    return f"  [bold red](interrupted: partial, {r[what]:,} of {per * r['requested']:,} {what})[/]"


@pilotta.command("strategies")
@json_option
def strategies_cmd(as_json: bool) -> None:
    """List the built-in strategies (bidding, declarations, play), then every policy a strategy
    file may name, with its parameters' defaults and ranges (the policy registry).

    \b
    Example:
      piquet pilotta strategies
    """
    if as_json:
        echo_json({k: s.to_dict() for k, s in REGISTRY.items()})
        return
    con = output_console()
    t = Table(title="Built-in strategies")
    for col in ("name", "policies", "description"):
        t.add_column(col)
    for s in REGISTRY.values():
        t.add_row(s.name, s.summary(), s.description)
    con.print(t)
    p = Table(
        title="Policies (strategy files: auction = {policy, params}, declare, play, play_params)"
    )
    for col in ("stage", "policy", "parameters: default [range]", "description"):
        p.add_column(col)
    for row in POLICIES:
        params = ", ".join(
            f"{n}={d} [{lo}..{hi}]"
            for n, d, (lo, hi) in zip(row.params, row.defaults, row.bounds, strict=True)
        )
        p.add_row(row.stage, row.name, params, row.description)
    con.print(p)


@pilotta.command("batch")
@click.argument("a", type=STRATEGY)
@click.argument("b", type=STRATEGY)
@click.option(
    "--deals",
    "-n",
    type=DEALS,
    default=None,
    help="Mirrored deals, each played with A North-South and with A East-West [default: "
    "100,000; 200 when a side plays pimc, 5,000 with the Monte Carlo bidder].",
)
@seed_option
@quiet_option
@json_option
@backend_options
@rules_options
@long_command
def batch_cmd(
    a,
    b,
    deals: int | None,
    seed: int,
    quiet: bool,
    as_json: bool,
    backend,
    rules: Rules,
) -> None:
    """Strategy A against B on mirrored deals (each deal played with A North-South and with A
    East-West): A's game points minus B's per round with its 95% interval, and how often each
    side bids, makes, is set, makes a capot, holds the pilotta, scores the combinations.
    Ctrl-C prints the deals finished (partial) and exits 130.

    A and B are built-in names (piquet pilotta strategies) or .json/.toml strategy files.

    \b
    Example:
      piquet pilotta batch bold cautious --deals 200000
      piquet pilotta batch pimc heuristic --deals 100
    """
    sa, sb = a, b
    if deals is None:
        slow = [s for s in (sa, sb) if s.is_slow()]
        deals = 100_000 if not slow else 200 if any(s.play == "pimc" for s in slow) else 5_000
    compile_notice(*match.entry_kernels(sa, sb), quiet=as_json)
    with RateBar(deals, "deals", quiet or as_json) as bar:
        r = match.batch(sa, sb, deals, seed, rules, backend, bar)
    if as_json:
        echo_json(r)
        return
    con = output_console()
    con.print(f"A = {r['a']}: {r['a_summary']}\nB = {r['b']}: {r['b_summary']}")
    con.print(
        f"{r['deals']:,} deals x 2 seatings, seed {seed}. Perspective: {r['perspective']}."
        + _stopped(r, "deals")
    )
    con.print(f"A - B per round: [bold]{_ci(r['a_minus_b'])}[/bold] game points")
    con.print(f"  A sitting NS: {_ci(r['a_ns'])}; A sitting EW: {_ci(r['a_ew'])}")
    con.print(f"Thrown in (all four passed): {_pct(r['thrown_in'])}")
    t = Table(title="Per round of each side (both seatings), 95% intervals")
    for col in (
        "",
        "contracts",
        "made (of its contracts)",
        "mean bid",
        "capots",
        "pilotta",
        "combinations",
        "game points",
    ):
        t.add_column(col, justify="right")
    for key in ("a", "b"):
        s = r["stats"][key]
        t.add_row(
            f"{key.upper()} {r[key]}",
            _pct(s["contracts"]),
            _pct(s["made"]),
            f"{s['mean_bid']:.1f}",
            _pct(s["capots"]),
            _pct(s["pilotta"]),
            _pct(s["combinations"]),
            _ci(s["game_points"], ".2f"),
        )
    con.print(t)


@pilotta.command("tournament")
@click.argument("names", nargs=-1, type=STRATEGY)
@click.option(
    "--deals",
    "-n",
    type=DEALS,
    default=50_000,
    show_default=True,
    help="Mirrored deals per pair of strategies.",
)
@seed_option
@plot_option("Write a heatmap of the pairwise results (PNG).")
@table_out_option()
@quiet_option
@json_option
@backend_options
@rules_options
@long_command
def tournament_cmd(
    names,
    deals: int,
    seed: int,
    plot_path,
    out_path,
    quiet: bool,
    as_json: bool,
    backend,
    rules: Rules,
) -> None:
    """Every pair of strategies in mirrored batches on the same deals (default: every
    built-in except the slow ones, pimc play and the Monte Carlo bidder). Each row: A's game
    points minus B's per round, 95% interval.

    \b
    Example:
      piquet pilotta tournament heuristic bold cautious --deals 50000 --plot results.png
    """
    strategies = list(names) or [s for s in REGISTRY.values() if not s.is_slow()]
    if len(strategies) < 2:
        raise click.UsageError("a tournament needs at least two strategies")
    if len({s.name for s in strategies}) != len(strategies):
        raise click.UsageError("each strategy may appear once in a tournament")
    if out_path and out_path.suffix.lower() == ".parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise click.UsageError("Parquet export needs pyarrow (pip install pyarrow); use .csv")
    compile_notice(*match.entry_kernels(*strategies), quiet=as_json)
    total = deals * len(strategies) * (len(strategies) - 1) // 2
    with RateBar(total, "deals", quiet or as_json) as bar:
        r = match.tournament(strategies, deals, seed, rules, backend, bar)
    if out_path:
        match.export_table(match.pairs_frame(r), out_path)
    if plot_path and r["pairs"]:
        match.plot_margins(r, plot_path)
    if as_json:
        echo_json(r)
        return
    con = output_console()
    if r.get("partial"):
        con.print(
            f"[bold red](interrupted: partial, {len(r['pairs'])} of {r['pairs_requested']} "
            "matches; the last may have fewer deals)[/]"
        )
    t = Table(title=f"Matches ({deals:,} mirrored deals each, seed {seed})")
    for col in ("A", "B", "A - B game points per round (95%)"):
        t.add_column(col)
    for p in r["pairs"]:
        t.add_row(p["a"], p["b"], _ci(p["a_minus_b"]))
    con.print(t)
    s = Table(title="Standing: mean result per round over its matches")
    s.add_column("strategy")
    s.add_column("mean", justify="right")
    for row in r["table"]:
        s.add_row(row["strategy"], f"{row['mean']:+.2f}")
    con.print(s)
    for path, what in ((out_path, "Match table"), (plot_path, "Heatmap")):
        if path:
            con.print(f"{what} written to {path}")


@pilotta.command("game")
@click.argument("a", type=STRATEGY)
@click.argument("b", type=STRATEGY)
@click.option(
    "--games",
    "-n",
    type=GAMES,
    default=20_000,
    show_default=True,
    help="Games, each played with A North-South and with A East-West on the same deals.",
)
@seed_option
@quiet_option
@json_option
@backend_options
@rules_options(game=True)
@long_command
def game_cmd(
    a, b, games: int, seed: int, quiet: bool, as_json: bool, backend, rules: Rules
) -> None:
    """Whole games to 351 (--game-target): P(A wins) with its 95% interval, and rounds per
    game. Each game number is played twice on the same deals, A North-South then East-West
    (North deals first). Ctrl-C prints the games finished (partial) and exits 130.

    \b
    Example:
      piquet pilotta game bold heuristic --games 20000
    """
    sa, sb = a, b
    if any(s.play == "pimc" for s in (sa, sb)):
        raise click.UsageError("pimc play is too slow for whole games: use it in batch, or in bid")
    compile_notice(*match.entry_kernels(sa, sb, games=True), quiet=as_json)
    with RateBar(games, "games", quiet or as_json) as bar:
        r = match.game(sa, sb, games, seed, rules, backend, bar)
    if as_json:
        echo_json(r)
        return
    con = output_console()
    con.print(
        f"A = {r['a']}, B = {r['b']}: {r['games']:,} games to {r['target']}, seed {seed}"
        + _stopped(r, "games", 2)
    )
    con.print(f"P(A wins): [bold]{_pct(r['p_a_wins'])}[/bold]")
    con.print(f"  A sitting NS: {_pct(r['p_a_wins_ns'])}; EW: {_pct(r['p_a_wins_ew'])}")
    con.print(f"  paired (same deals, both seatings): {_ci(r['paired_wins'], '.3f')}")
    con.print(f"Rounds per game: {_ci(r['rounds'], '.2f')}")
    con.print(f"A's final margin (game points): {_ci(r['a_final_margin'], '+.1f')}")
    if r["unfinished"]:
        con.print(f"[yellow]{r['unfinished']} games hit the round limit unfinished[/yellow]")
