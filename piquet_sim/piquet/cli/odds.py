"""`piquet odds`: probabilities with 95% intervals over simulated deals."""

from __future__ import annotations

import time

import click
from rich.console import Console
from rich.table import Table

from ...core.app.cli import (
    SIZE,
    RateBar,
    backend_options,
    compile_notice,
    echo_json,
    json_option,
    long_command,
    output_console,
    partial_mark,
    plot_option,
    quiet_option,
    seed_option,
)
from ...core.app.options import chunk_size_option, play_option
from ...core.app.rules_cli import ONE_DEAL, rules_options
from ...core.engine.stats import Z95
from ..odds import DEFAULT_POLICIES, EVENT_ROWS, plot_scores, score_quantiles
from ..odds import odds as run_odds
from ..policies import names as policy_names
from ..rules import Rules
from ..simulation import Policies
from .app import cli


def _fmt(est: dict) -> str:
    """Percent with the 95% interval's half-width (the interval itself is in --json)."""
    lo, hi = est["ci95"]
    half = (hi - lo) / 2 * 100
    digits = 2 if half >= 0.005 or est["p"] == 0 else 3
    return f"{est['p'] * 100:.{digits}f} ±{half:.{digits}f}"


def _exact(est: dict) -> str:
    return f"{est['exact'] * 100:.3f}" if "exact" in est else ""


@cli.command("odds")
@click.option(
    "--deals",
    "-n",
    type=SIZE,
    default=1_000_000,
    show_default=True,
    help="Number of deals to simulate.",
)
@seed_option()
@click.option(
    "--elder-policy",
    type=click.Choice(policy_names("exchange")),
    default=DEFAULT_POLICIES.elder_exchange,
    show_default=True,
    help="Elder's exchange policy.",
)
@click.option(
    "--younger-policy",
    type=click.Choice(policy_names("exchange")),
    default=DEFAULT_POLICIES.younger_exchange,
    show_default=True,
    help="Younger's exchange policy.",
)
@play_option(
    policy_names("play"),
    DEFAULT_POLICIES.elder_play,
    "Play policy of both players (dd sees both hands: an oracle; pimc, pimcw and dd are slow).",
)
@chunk_size_option(500_000)
@plot_option("Write the score distributions to this PNG file.")
@click.option(
    "--score-counts",
    is_flag=True,
    help="Each player's deal totals as counts per point value (JSON key score_counts) and a "
    "table of their quantiles.",
)
@quiet_option("No progress bar.")
@json_option
@backend_options
@rules_options(Rules, ONE_DEAL)
@long_command
def odds_command(
    deals,
    seed,
    elder_policy,
    younger_policy,
    play,
    chunk,
    plot_path,
    score_counts,
    quiet,
    as_json,
    rules: Rules,
    backend,
):
    """Odds of carte blanche, each class, point lengths, sequences, sets, pique, repique, capot
    and the cards, for elder and younger, with 95% intervals. Exact values for the dealt hand
    are shown beside the estimates where combinatorics give them. Both players exchange and
    play by the heuristic policies unless told otherwise (the strongest fast ones; greedy was
    the default in earlier versions).

    \b
    Example:
      piquet odds --deals 10000000 --plot scores.png
      piquet odds --deals 200000 --score-counts
      piquet odds --elder-policy greedy --younger-policy greedy --play greedy
    """
    policies = Policies(
        elder_exchange=elder_policy,
        younger_exchange=younger_policy,
        elder_play=play,
        younger_play=play,
    )
    from ..simulation import records_kernel

    compile_notice(records_kernel(policies), quiet=quiet)
    t0 = time.perf_counter()
    with RateBar(deals, "deals", quiet or as_json) as bar:
        summary, counts = run_odds(
            deals,
            seed,
            policies,
            rules,
            chunk,
            progress=bar,
            backend=backend,
            with_scores=score_counts,
        )
    elapsed = time.perf_counter() - t0
    summary["seconds"] = round(elapsed, 3)
    if summary["interrupted"]:  # only then, so complete runs keep their exact output
        summary.update(partial=True, requested=deals)
    if plot_path:
        plot_scores(counts, plot_path)
    if as_json:
        echo_json(summary)
        return
    _print_tables(summary, elapsed, plot_path)


def _print_tables(s: dict, elapsed: float, plot_path: str | None) -> None:
    console = output_console()
    n = s["deals"]
    head = (
        f"{n:,} deals in {elapsed:.1f} s ({n / max(elapsed, 1e-9):,.0f} deals/s), seed {s['seed']}"
    )
    if s["interrupted"]:
        head += "  " + partial_mark(n, s["requested"], "deals")
    console.print(head)
    if n == 0:
        console.print("No deal finished: nothing to show.")
        return
    console.print(
        "Percent of deals ± half-width of the 95% interval (Wilson); 'exact' is the dealt-hand "
        "value from combinatorics. Full intervals: --json."
    )

    t = Table(title="Deal events", title_justify="left")
    t.add_column("event")
    t.add_column("elder", justify="right")
    t.add_column("younger", justify="right")
    t.add_column("exact", justify="right")
    rows = list(EVENT_ROWS)
    if s["rules"]["carte_rouge"]:
        rows.append(("carte rouge", "carte_rouge"))
    for label, key in rows:
        t.add_row(label, _fmt(s["elder"][key]), _fmt(s["younger"][key]), _exact(s["elder"][key]))
    console.print(t)

    for title, key, labels in (
        ("Point length", "point_length", None),
        ("Best sequence", "best_sequence", None),
        ("Best set (tens and higher)", "best_set", None),
        # "kept" is the hand after the exchange
    ):
        t = Table(title=title, title_justify="left")
        t.add_column("")
        t.add_column("dealt elder", justify="right")
        t.add_column("dealt younger", justify="right")
        t.add_column("exact", justify="right")
        t.add_column("kept elder", justify="right")
        t.add_column("kept younger", justify="right")
        for value in labels or s["elder"]["dealt"][key]:
            de, dy = s["elder"]["dealt"][key][value], s["younger"]["dealt"][key][value]
            fe, fy = s["elder"]["final"][key][value], s["younger"]["final"][key][value]
            t.add_row(str(value), _fmt(de), _fmt(dy), _exact(de), _fmt(fe), _fmt(fy))
        console.print(t)
    if "score_counts" in s["elder"]:
        _print_scores(console, s, n)
    e, y, net = s["elder"]["mean_total"], s["younger"]["mean_total"], s["net"]
    console.print(
        f"Mean deal total: elder {e['mean']:.3f} ± {Z95 * e['se']:.3f}, younger "
        f"{y['mean']:.3f} ± {Z95 * y['se']:.3f}; net (elder − younger) {net['mean']:.3f} ± "
        f"{Z95 * net['se']:.3f} points (sd {net['sd']:.1f})"
    )
    if plot_path:
        console.print(f"Score distributions written to {plot_path}")


def _print_scores(console: Console, s: dict, n: int) -> None:
    """Quantiles of each player's deal total (from ``score_counts``)."""
    t = Table(title="Deal total per player (points; full counts: --json score_counts)")
    t.add_column("")
    for label in ("P(0 points)", "10%", "25%", "median", "75%", "90%", "max"):
        t.add_column(label, justify="right")
    for role in ("elder", "younger"):
        counts = s[role]["score_counts"]
        zero = counts.get("0", 0) / n if n else float("nan")
        top = max((int(v) for v in counts), default=0)
        t.add_row(role, f"{100 * zero:.2f}%", *map(str, score_quantiles(counts)), str(top))
    console.print(t)
