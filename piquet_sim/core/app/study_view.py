"""How a study shows: a match, a tournament and the strategies as text tables, a tournament as
a table file and a heatmap, a match's per-side figures as a chart; every game alike
(:mod:`.study_commands` builds the commands that print them)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from rich.table import Table

from ..engine.stats import Estimate
from ..game.strategy import StrategyBook
from ..study.match import MatchResult, MatchSpec
from ..study.studies import Matrix
from ..study.tournament import Tournament
from .cli import output_console, partial_mark
from .plots import pairwise_heatmap, pyplot, save


def interval(e: Estimate, digits: int = 3) -> str:
    """``+0.412 [+0.120, +0.704]``."""
    return f"{e.mean:+.{digits}f} [{e.lo:+.{digits}f}, {e.hi:+.{digits}f}]"


def print_match(r: MatchResult, spec: MatchSpec, book: StrategyBook, unit: str) -> None:
    """A match as text: who played what, how many deals, A's margin with its interval, the
    game's notes and its per-side figures."""
    out = output_console()
    out.print(
        f"A = {spec.a.name}: {book.summary(spec.a)}\nB = {spec.b.name}: {book.summary(spec.b)}"
    )
    head = f"{r.played:,} {unit}, seed {spec.seed}, {r.seconds:.1f} s"
    if r.partial:
        head += "  " + partial_mark(r.played, r.requested, unit)
    out.print(head)
    out.print(f"A - B: [bold]{interval(r.margin)}[/bold] {r.unit}")
    for note in r.notes:
        out.print(note)
    if r.sides:
        columns = list(r.sides)
        t = Table(title="Each side (95% intervals)", title_justify="left")
        t.add_column("")
        for c in columns:
            t.add_column(c, justify="right")
        labels = [s.label for s in r.sides[columns[0]]]
        for i, label in enumerate(labels):
            t.add_row(label, *(r.sides[c][i].text() for c in columns))
        out.print(t)


def print_strategies(book: StrategyBook, rows: list[tuple[str, str, str]]) -> None:
    """The built-in strategies, then every policy a strategy may name with its parameters'
    defaults and ranges."""
    out = output_console()
    t = Table(title="Built-in strategies", title_justify="left")
    for col in ("name", "policies", "description"):
        t.add_column(col)
    for s in book.builtins.values():
        t.add_row(s.name, book.summary(s), s.description)
    out.print(t)
    p = Table(
        title="Policies a strategy names (file: STAGE = POLICY or [STAGE] policy, params; "
        "inline: POLICY:param=value,…)",
        title_justify="left",
    )
    for col in ("stage", "policy", "parameters: default (range)"):
        p.add_column(col)
    for row in rows:
        p.add_row(*row)
    out.print(p)
    if any(row[1].endswith(" *") for row in rows):
        out.print("* not a strategy's: the advisers' and the oracles' (bid, play, review)")


def policy_params(p) -> str:
    """A policy's parameters: ``name=default (low-high, whole)``, ``-`` for none."""
    if not p.params:
        return "-"
    parts = []
    for i, (name, default) in enumerate(zip(p.params, p.defaults, strict=True)):
        low, high = p.bounds[i] if p.bounds else (float("-inf"), float("inf"))
        span = "any finite" if (low, high) == (float("-inf"), float("inf")) else f"{low:g}-{high:g}"
        whole = ", whole" if name in p.integers else ""
        parts.append(f"{name}={default:g} ({span}{whole})")
    return "\n".join(parts)


def print_tournament(t: Tournament, unit: str, margin_unit: str) -> None:
    """A tournament as text: each match's margin and deals, then the standings."""
    out = output_console()
    out.print(f"{len(t.names)} strategies, {t.n:,} {unit} a match, seed {t.seed}")
    if t.partial:
        out.print(
            f"[bold red](interrupted: partial, {t.played:,} of {t.n * t.pairs:,} {unit} played; "
            "each match shows its own)[/]"
        )
    m = Table(title=f"Matches (A - B: {margin_unit})", title_justify="left")
    for col in ("A", "B", "A - B (95%)", unit):
        m.add_column(col, justify="left" if col in ("A", "B") else "right")
    for r in t.results:
        m.add_row(r.a, r.b, interval(r.margin), f"{r.played:,}" + (" (cut)" if r.partial else ""))
    out.print(m)
    s = Table(title="Standings (mean of its results over its matches)", title_justify="left")
    for col in ("strategy", "mean", "significant wins", "significant losses"):
        s.add_column(col, justify="left" if col == "strategy" else "right")
    for row in t.standings():
        s.add_row(
            row["strategy"],
            f"{row['mean_margin']:+.3f}",
            str(row["significant_wins"]),
            str(row["significant_losses"]),
        )
    out.print(s)


def tournament_frame(t: Tournament) -> pd.DataFrame:
    """One row a match: A, B, deals (or games) played, A's margin, its standard error and 95%
    interval, its p-value against 0 and whether it finished."""
    rows = [
        {
            "a": r.a,
            "b": r.b,
            "played": r.played,
            "margin": r.margin.mean,
            "se": r.margin.se,
            "ci_low": r.margin.lo,
            "ci_high": r.margin.hi,
            "p_value": r.margin.p,
            "complete": not r.partial,
        }
        for r in t.results
    ]
    return pd.DataFrame(
        rows,
        columns=["a", "b", "played", "margin", "se", "ci_low", "ci_high", "p_value", "complete"],
    )


def plot_tournament(t: Tournament, matrix: Matrix, path: str | Path) -> Path:
    """The tournament's heatmap: row over column with each cell's 95% half-width."""
    return pairwise_heatmap(
        t.names,
        np.where(np.eye(len(t.names), dtype=bool), 0.0, t.values),
        np.nan_to_num(t.halves),
        path,
        title=matrix.title.format(n=t.n),
        colorbar=matrix.colorbar,
        xlabel=matrix.xlabel,
        ylabel=matrix.ylabel,
        digits=matrix.digits,
    )


def plot_sides(r: MatchResult, path: str | Path) -> Path:
    """A match's per-side rates side by side, each with its 95% interval (the figure of a
    match whose game draws none of its own)."""
    plt = pyplot()
    columns = list(r.sides)
    labels = [s.label for s in r.sides[columns[0]] if s.rate] if columns else []
    fig, ax = plt.subplots(figsize=(2 + 1.2 * max(len(labels), 1), 4))
    width = 0.8 / max(len(columns), 1)
    for k, c in enumerate(columns):
        stats = [s for s in r.sides[c] if s.rate]
        x = np.arange(len(stats)) + k * width
        values = [s.value for s in stats]
        errs = np.array(
            [[s.value - s.ci95[0], s.ci95[1] - s.value] if s.ci95 else [0, 0] for s in stats]
        ).T.reshape(2, -1)
        ax.bar(x, values, width, yerr=errs, capsize=3, label=c)
    ax.set_xticks(np.arange(len(labels)) + width * (len(columns) - 1) / 2, labels, rotation=20)
    ax.set_ylabel("rate (95% interval)")
    ax.set_title(f"{r.a} v {r.b}: A - B {interval(r.margin)} {r.unit}", fontsize=9)
    ax.legend()
    return save(fig, path)
