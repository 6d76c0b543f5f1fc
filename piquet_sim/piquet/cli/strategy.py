"""`piquet strategies`, `piquet batch`, `piquet tournament`, `piquet partie`: strategies compared
over mirrored deals and whole parties."""

from __future__ import annotations

import itertools
import time

import click
from rich.table import Table

from ...core.app.cli import (
    SIZE,
    OutputPath,
    backend_options,
    compile_notice,
    echo_json,
    json_option,
    long_command,
    output_console,
    plot_option,
    table_out_option,
)
from ...core.app.cli import RateBar as Bar
from ...core.engine.stats import Z95
from .. import match as M
from .. import partie as P
from ..strategies import REGISTRY, StrategyError, resolve
from .app import cli
from .common import rules_options


class StrategyType(click.ParamType):
    """A built-in strategy name or a path to a .json/.toml strategy file."""

    name = "STRATEGY"

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        try:
            return resolve(value)
        except StrategyError as err:
            self.fail(str(err), param, ctx)


STRATEGY = StrategyType()


def _deals_option(default: int, help_text: str):
    return click.option(
        "--deals", "-n", type=SIZE, default=default, show_default=True, help=help_text
    )


seed_option = click.option(
    "--seed",
    type=click.IntRange(0),
    default=1,
    show_default=True,
    help="Seed of the deal streams (deal i of a seed is always the same deal).",
)
chunk_option = click.option(
    "--chunk",
    type=click.IntRange(1000),
    default=250_000,
    show_default=True,
    help="Deal pairs per chunk (memory stays flat; Ctrl-C stops between chunks).",
)
quiet_option = click.option("--quiet", is_flag=True, help="No progress bar.")


@cli.command("strategies")
@json_option
def strategies_command(as_json: bool) -> None:
    """List the built-in strategies (exchange / declaration / play policies) with a description.

    Any command taking a strategy also takes a path to a .json or .toml file with the keys
    name, description, exchange, declare, play and optional [elder] / [younger] overrides.

    \b
    Example:
      piquet strategies
    """
    if as_json:
        echo_json({name: s.to_dict() for name, s in REGISTRY.items()})
        return
    table = Table(title="Strategies (exchange / declare / play)", title_justify="left")
    table.add_column("name")
    table.add_column("stages")
    table.add_column("description")
    for name, s in REGISTRY.items():
        table.add_row(name, s.summary(), s.description)
    output_console().print(table)


def _pct(est: dict) -> str:
    return f"{100 * est['p']:.2f}%"


@cli.command("batch")
@click.argument("a", type=STRATEGY)
@click.argument("b", type=STRATEGY)
@_deals_option(200_000, "Deals, each played twice with the seats swapped.")
@seed_option
@click.option(
    "--csv",
    "csv_path",
    type=OutputPath(),
    default=None,
    help="Write per-deal rows (deal, A's net as elder, as younger, mean) to this CSV file.",
)
@chunk_option
@quiet_option
@json_option
@backend_options
@rules_options(partie=False)
@long_command
def batch_command(a, b, deals, seed, csv_path, chunk, quiet, as_json, rules, backend) -> None:
    """Head to head: A against B over mirrored deals (each deal played with A elder and with B
    elder on the same cards). Reports A's mean net per deal over B with a 95% interval and a
    significance statement, A's deal win rate, and pique, repique, capot and carte blanche
    rates per side and seat.

    \b
    Example:
      piquet batch greedy sink-sets --deals 1000000 --csv pairs.csv
    """
    writer = _CsvWriter(csv_path) if csv_path else None
    _notice_match([a, b], quiet)
    t0 = time.perf_counter()
    with Bar(deals, "deal pairs", quiet or as_json) as bar:
        result = M.head_to_head(a, b, deals, seed, rules, chunk, bar, writer, backend=backend)
    elapsed = time.perf_counter() - t0
    s = result.summary
    s["seconds"] = round(elapsed, 3)
    if s["interrupted"]:  # only then, so complete runs keep their exact output
        s.update(partial=True, requested_pairs=deals)
    if as_json:
        echo_json(s)
        return
    console = output_console()
    n = s["pairs"]
    head = f"{s['a']} vs {s['b']}: {n:,} mirrored deal pairs ({2 * n:,} deals) in {elapsed:.1f} s"
    head += f", seed {seed}"
    if s["interrupted"]:
        head += f"  [bold red](interrupted: partial, {n:,} of {deals:,} pairs)[/]"
    console.print(head)
    console.print(f"[bold]{s['statement']}[/]")
    wr = s["a_deal_win_rate"]
    console.print(
        f"{s['a']} wins {_pct(wr)} of deals [{100 * wr['ci95'][0]:.2f}, "
        f"{100 * wr['ci95'][1]:.2f}]; ties {_pct(s['deal_tie_rate'])}"
    )
    t = Table(title="By seat (rates per deal; 95% intervals in --json)", title_justify="left")
    t.add_column("")
    cols = [("elder", "a"), ("younger", "b"), ("elder", "b"), ("younger", "a")]
    for seat, side in cols:
        t.add_column(f"{s[side]} as {seat}")
    rows = [
        ("wins the deal", "win"),
        ("pique", "pique"),
        ("repique", "repique"),
        ("capot", "capot"),
        ("carte blanche", "carte_blanche"),
    ]
    for label, key in rows:
        t.add_row(label, *(_pct(s["seats"][seat][side][key]) for seat, side in cols))
    t.add_row(
        "mean points", *(f"{s['seats'][seat][side]['mean_points']:.2f}" for seat, side in cols)
    )
    console.print(t)
    for seat in ("elder", "younger"):
        e = s["seats"][seat]["a_net"]
        console.print(
            f"{s['a']} as {seat}: net {e['mean']:+.3f} ± {Z95 * e['se']:.3f} points per deal"
        )
    if csv_path:
        console.print(f"Per-deal rows written to {csv_path}")


def _notice_match(strategies: list, quiet: bool) -> None:
    """The compiling notice for the kernels of every pair of ``strategies``."""
    kernels = {M.match_kernel(a, b) for a, b in itertools.combinations(strategies, 2)}
    compile_notice(*kernels, quiet=quiet)


class _CsvWriter:
    """Appends each chunk's per-deal rows to a CSV file (header once)."""

    def __init__(self, path: str):
        self.path = path
        self.first = True

    def __call__(self, start, nets) -> None:
        frame = M.nets_frame(start, nets)
        frame.to_csv(self.path, mode="w" if self.first else "a", header=self.first, index=False)
        self.first = False


@cli.command("tournament")
@click.argument("names", nargs=-1, required=True, type=STRATEGY)
@_deals_option(100_000, "Deal pairs per match.")
@seed_option
@plot_option("Write a heatmap of pairwise margins (PNG).")
@table_out_option()
@chunk_option
@quiet_option
@json_option
@backend_options
@rules_options(partie=False)
@long_command
def tournament_command(
    names, deals, seed, plot_path, out_path, chunk, quiet, as_json, rules, backend
) -> None:
    """Round robin: every pair of strategies plays a mirrored match on the same deals. Prints the
    match table (mean net per deal of A over B, 95% interval, p-value) and the standings.

    \b
    Example:
      piquet tournament greedy max random sink-sets --deals 200000 --plot margins.png
    """
    if len(names) < 2:
        raise click.UsageError("a tournament needs at least two strategies")
    if len({s.name for s in names}) != len(names):
        raise click.UsageError("each strategy may appear once in a tournament")
    if out_path and out_path.suffix.lower() == ".parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise click.UsageError("Parquet export needs pyarrow (pip install pyarrow); use .csv")
    total = deals * len(names) * (len(names) - 1) // 2
    _notice_match(list(names), quiet)
    t0 = time.perf_counter()
    with Bar(total, "deal pairs", quiet or as_json) as bar:
        result = M.tournament(list(names), deals, seed, rules, chunk, bar, backend=backend)
    elapsed = time.perf_counter() - t0
    if out_path:
        try:
            M.export_table(result.matches, out_path)
        except ValueError as err:
            raise click.UsageError(str(err)) from None
    if plot_path:
        from ..plots import margins_heatmap

        margins_heatmap(result.names, result.margins, result.half_widths, plot_path)
    played = int(result.matches["pairs"].sum()) if len(result.matches) else 0
    standings = result.standings.dropna(subset=["mean_margin"])
    if as_json:
        data = {
            "matches": result.matches.to_dict(orient="records"),
            "standings": standings.to_dict(orient="records"),
            "interrupted": result.interrupted,
            "seconds": round(elapsed, 3),
            "seed": seed,
            "rules": rules.to_dict(),
        }
        if result.interrupted:  # only then, so complete runs keep their exact output
            data.update(
                partial=True,
                pairs_played=played,
                matches_played=len(result.matches),
                matches_requested=len(names) * (len(names) - 1) // 2,
            )
        echo_json(data)
        return
    console = output_console()
    head = f"{len(names)} strategies, {deals:,} deal pairs per match, {elapsed:.1f} s"
    if result.interrupted:
        head = (
            f"{len(names)} strategies, {played:,} of {total:,} deal pairs played, "
            f"{elapsed:.1f} s  [bold red](interrupted: partial; each match shows its pairs)[/]"
        )
    console.print(head)
    t = Table(title="Matches (A's mean net per deal over B)", title_justify="left")
    for col in ("A", "B", "net/deal", "95% interval", "p", "A wins deals", "pairs"):
        t.add_column(col, justify="left" if col in ("A", "B") else "right")
    for r in result.matches.itertuples():
        t.add_row(
            r.a,
            r.b,
            f"{r.net_per_deal:+.3f}",
            f"[{r.ci_low:+.3f}, {r.ci_high:+.3f}]",
            M.format_p(r.p_value),
            f"{100 * r.a_deal_win_rate:.2f}%",
            f"{int(r.pairs):,}" + ("" if r.complete else " (cut)"),
        )
    console.print(t)
    t = Table(title="Standings", title_justify="left")
    for col in ("strategy", "mean margin", "significant wins", "significant losses"):
        t.add_column(col)
    for r in standings.itertuples():
        t.add_row(
            r.strategy, f"{r.mean_margin:+.3f}", str(r.significant_wins), str(r.significant_losses)
        )
    console.print(t)
    if out_path:
        console.print(f"Match table written to {out_path}")
    if plot_path:
        console.print(f"Heatmap written to {plot_path}")


@cli.command("partie")
@click.argument("a", type=STRATEGY)
@click.argument("b", type=STRATEGY)
@click.option(
    "--parties",
    "-n",
    type=SIZE,
    default=50_000,
    show_default=True,
    help="Partie pairs: each partie is played with A elder first and with B elder first.",
)
@seed_option
@click.option(
    "--chunk",
    type=click.IntRange(100),
    default=20_000,
    show_default=True,
    help="Partie pairs per chunk (memory stays flat; Ctrl-C stops between chunks).",
)
@plot_option("Write the settlement and final-total distributions (PNG).")
@quiet_option
@json_option
@backend_options
@rules_options
@long_command
def partie_command(a, b, parties, seed, chunk, plot_path, quiet, as_json, rules, backend) -> None:
    """Whole parties of A against B under the partie rules (--game, --tie, --blank-partie-bonus):
    P(A wins the partie), P(rubicon) each way, and A's expected settlement per partie with 95%
    intervals (Rubicon settlement: loser under 100 pays winner + loser + 100).

    \b
    Example:
      piquet partie greedy sink-sets --parties 100000 --tie refait_double --plot partie.png
    """
    compile_notice(P.partie_kernel(a, b), quiet=quiet)
    t0 = time.perf_counter()
    with Bar(parties, "partie pairs", quiet or as_json) as bar:
        result = P.parties(a, b, parties, seed, rules, chunk, bar, backend=backend)
    elapsed = time.perf_counter() - t0
    s = result.summary
    s["seconds"] = round(elapsed, 3)
    if s["interrupted"]:
        s.update(partial=True, requested_pairs=parties)
    if plot_path:
        P.plot_parties(result.counts, s, plot_path)
    if as_json:
        echo_json(s)
        return
    console = output_console()
    head = (
        f"{s['a']} vs {s['b']}: {s['parties']:,} parties ({s['pairs']:,} mirrored pairs, "
        f"game {rules.game}, tie {rules.tie}) in {elapsed:.1f} s, seed {seed}"
    )
    if s["interrupted"]:
        head += f"  [bold red](interrupted: partial, {s['pairs']:,} of {parties:,} pairs)[/]"
    console.print(head)
    console.print(f"[bold]{s['statement']}[/]")
    t = Table(title="Partie outcomes (95% intervals)", title_justify="left")
    t.add_column("")
    t.add_column("probability")
    rows = [
        (f"{s['a']} wins", "a_win"),
        (f"{s['b']} wins", "b_win"),
        ("drawn", "draw"),
        (f"{s['a']} rubicons {s['b']}", "a_rubicons_b"),
        (f"{s['b']} rubicons {s['a']}", "b_rubicons_a"),
    ]
    if rules.blank_partie_bonus:
        rows.append(("blank partie", "blank_partie"))
    for label, key in rows:
        e = s[key]
        t.add_row(label, f"{e['p']:.4f} [{e['ci95'][0]:.4f}, {e['ci95'][1]:.4f}]")
    console.print(t)
    st = s["a_settlement"]
    console.print(
        f"{s['a']}'s expected settlement: {st['mean']:+.2f} ± {Z95 * st['se']:.2f} points per "
        f"partie; mean totals {s['mean_totals']['a']:.1f} v {s['mean_totals']['b']:.1f} over "
        f"{s['mean_deals']:.2f} deals"
    )
    for key, label in (
        ("a_elder_first", f"{s['a']} elder first"),
        ("b_elder_first", f"{s['b']} elder first"),
    ):
        e = s["by_first_elder"][key]
        console.print(
            f"  {label}: {s['a']} wins {e['a_win']['p']:.4f}, settles "
            f"{e['a_settlement']['mean']:+.2f} ± {Z95 * e['a_settlement']['se']:.2f}"
        )
    if plot_path:
        console.print(f"Distributions written to {plot_path}")
