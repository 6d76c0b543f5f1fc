"""The whole report: every study in turn under one Ctrl-C, written as HTML, Markdown and JSON."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ...core.app.report import Section, render_html, render_markdown
from ...core.engine.backend import Cancel, LocalBackend
from ...core.game.strategy import Strategy
from ..rules import DEFAULT_RULES, Rules
from ..strategies import BOOK, policies
from .constants import (
    DEFAULT_DEALS,
    DEFAULT_STRATEGIES,
)
from .frames import (
    HOW_TO_READ,
    _rules_flags,
    _versions,
)
from .studies import (
    STUDIES,
    ReportContext,
    reproduce_section,
)


def entry_kernels(strategies: Sequence[str | Strategy] = DEFAULT_STRATEGIES) -> tuple:
    """The kernels :func:`build_report` calls first, the odds of each strategy playing itself
    (for a compile notice on a cold cache: the kernels these strategies actually run, so a warm
    cache says nothing)."""
    from ..simulation import records_kernel

    chosen = [BOOK.resolve(s) for s in strategies]
    return tuple(dict.fromkeys(records_kernel(policies(s, s)) for s in chosen))


def build_report(
    out_dir: str | Path,
    deals: int = DEFAULT_DEALS,
    strategies: Sequence[str | Strategy] = DEFAULT_STRATEGIES,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    backend=None,
    progress: Callable[[str], None] | None = None,
    sink_hands: int | None = None,
    ladder_solver_deals: int = 0,
    cancel: Cancel | None = None,
) -> dict:
    """Run every study of :data:`STUDIES` and write ``report.html`` (self-contained),
    ``report.md`` (PNGs beside it), the PNGs, ``odds.csv`` and ``report.json`` (every number)
    into ``out_dir``.

    ``deals``: deals of the odds and event-rate studies; the exchange study uses deals / 2, the
    tournament deals / 2 mirrored pairs per match, the parties deals / 40 mirrored pairs per
    pairing (at least 2 each); the sinking study runs only with ``sink_hands`` dealt hands per
    seat (about a second a hand); the ladder plays deals / 2 mirrored pairs per match of the fast
    play policies, and ``ladder_solver_deals`` pairs with pimc and dd when above 0. The first
    strategy is the one the odds and exchange sections describe (it plays itself).
    ``progress`` receives one line per finished step. A Ctrl-C, or ``cancel`` (the report's
    token, ``core.engine.backend.Cancel``: a Ctrl-C during any study sets it) once set, cuts
    the study in flight, skips the rest, and the report says so (``report.json``
    ``"partial": true``).
    Returns the paths written: {"html", "md", "json", "odds_csv", "images": {name: path}}.
    """
    t_start = time.perf_counter()
    out = Path(out_dir)
    strats = [BOOK.resolve(s) for s in strategies]
    names = [s.name for s in strats]
    if len(strats) < 2:
        raise ValueError("a report needs at least two strategies (for the tournament)")
    if len(set(names)) != len(names):
        raise ValueError("each strategy may appear once in a report")
    if deals < 2:
        raise ValueError("a report needs at least 2 deals")
    out.mkdir(parents=True, exist_ok=True)
    say = progress or (lambda line: None)

    def log(line: str) -> None:
        say(f"[{time.perf_counter() - t_start:6.1f} s] {line}")

    ctx = ReportContext(
        out,
        deals,
        strats,
        seed,
        rules,
        backend or LocalBackend(),
        log,
        sink_hands,
        ladder_solver_deals,
        cancel=cancel or Cancel(),
    )
    sections: list[Section] = [Section("how-to-read", "How to read this report")]
    sections[0].text(HOW_TO_READ)
    for _, study in STUDIES:
        sections += study(ctx)
    elapsed = time.perf_counter() - t_start
    ctx.timings["total"] = elapsed
    command = (
        f"piquet report --out {out_dir} --deals {deals} --seed {seed} "
        f"--strategies {','.join(names)}"
        + (f" --sink-hands {sink_hands}" if sink_hands else "")
        + (f" --ladder-solver-deals {ladder_solver_deals}" if ladder_solver_deals else "")
        + f" {_rules_flags(rules)}"
    ).strip()
    versions = _versions()
    sections.insert(0, reproduce_section(ctx, elapsed, command, versions))

    title = f"Piquet strategy report ({', '.join(names)})"
    paths = {
        "html": out / "report.html",
        "md": out / "report.md",
        "json": out / "report.json",
        "odds_csv": ctx.results.get("odds_csv"),
        "images": ctx.images,
    }
    paths["html"].write_text(render_html(title, sections), encoding="utf-8")
    paths["md"].write_text(render_markdown(title, sections), encoding="utf-8")
    partial = ctx.cancel.is_set or any(v == "partial" for v in ctx.state.values())
    ctx.data.update(
        command=command,
        seed=seed,
        deals=deals,
        rules=rules.to_dict(),
        strategies=names,
        versions=versions,
        timings=ctx.timings,
        samples={
            "odds": deals,
            "exchange": ctx.n_exchange,
            "tournament_pairs": ctx.n_pairs,
            "partie_pairs": ctx.n_parties,
        },
    )
    if partial:  # only then, so a complete report keeps its exact numbers file
        ctx.data.update(partial=True, studies=ctx.state)
    paths["json"].write_text(
        json.dumps(ctx.data, indent=1, default=_json_default), encoding="utf-8"
    )
    log(f"report written to {paths['html']}" + (" (partial)" if partial else ""))
    return paths


def _json_default(v):
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, Path):
        return str(v)
    return str(v)


if __name__ == "__main__":  # pragma: no cover
    build_report(sys.argv[1] if len(sys.argv) > 1 else "report", 2000, progress=print)
