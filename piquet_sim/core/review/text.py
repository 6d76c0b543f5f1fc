"""A review as text: the summary by phase and every decision with its cost."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..engine.stats import Estimate

if TYPE_CHECKING:
    from .result import Review


def fmt_cost(e: Estimate | None) -> str:
    """A cost as printed: ``+1.25``, ``0``, or ``-`` when not measured."""
    if e is None or not math.isfinite(e.mean):
        return "-"
    if e.mean == 0 and e.se == 0:
        return "0"
    return f"{e.mean:+.2f}"


def fmt_interval(e: Estimate | None) -> str:
    """A 95% interval: ``[+0.1, +2.4]``; ``±0`` without sampling error (every world
    counted)."""
    if e is None or not math.isfinite(e.mean):
        return ""
    if e.se == 0:
        return "±0"
    if not math.isfinite(e.lo):
        return "(one world)"
    return f"[{e.lo:+.2f}, {e.hi:+.2f}]"


def fmt_exact(x: float | None) -> str:
    if x is None:
        return "-"
    return "0" if x == 0 else f"{x:+g}"


def _table(headers: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]

    def line(cells):
        parts = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return [line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def render_text(rv: Review) -> str:
    """The review as plain text: a header, one row per decision, the summary by phase and the
    costliest decisions."""
    has_exact = any(d.exact_cost is not None for d in rv.decisions)
    out = [f"{rv.title}: {rv.player}'s decisions"]
    state = f"{len(rv.decisions)} of {rv.total} decisions reviewed"
    if rv.partial:
        state += " (PARTIAL: stopped by Ctrl-C)"
    if rv.phase_units:
        out.append(f"{state} in {rv.seconds:.1f} s. {rv.unit}.")
    else:
        out.append(f"{state} in {rv.seconds:.1f} s. Unit: {rv.unit}.")
    out.append(
        "Cost: the advised option's value minus that of what was done, over the worlds the "
        "player could not tell apart (95% interval; ±0: every such world counted)"
        + ("; dd cost: on the true deal, every hand known (double-dummy)." if has_exact else ".")
    )
    out += [f"Note: {n}" for n in rv.notes]
    out.append("")
    headers = ["#", "phase", "where", "done", "advised", "cost", "95% interval"]
    if has_exact:
        headers += ["dd cost", "dd best"]
    rows = []
    for d in rv.decisions:
        best = "(forced)" if d.forced else (d.best or "-")
        if d.agrees and not d.forced:
            best = "= " + best
        interval = "" if d.agrees else fmt_interval(d.cost)
        row = [str(d.index), d.phase, d.place, d.done, best, fmt_cost(d.cost), interval]
        if d.partial:
            row[6] += " partial"
        if has_exact:
            row += [fmt_exact(d.exact_cost), d.exact_best or "-"]
        rows.append(row)
    out += _table(headers, rows, {0, 5})
    out.append("")
    s = rv.summary()
    out.append("Points lost by phase")
    srows = []
    for ph, v in s["phases"].items():
        c = v["cost"]
        interval = "±0" if c["se"] == 0 else f"[{c['ci95'][0]:+.2f}, {c['ci95'][1]:+.2f}]"
        row = [ph, str(v["decisions"]), f"{v['agree']}", f"{c['mean']:+.2f}", interval]
        if has_exact:
            ex = v["exact_cost"]
            row.append("-" if ex is None else f"{ex:+g} ({v['exact_decisions']})")
        if rv.phase_units:
            row.append(v["unit"])
        srows.append(row)
    sh = ["phase", "decisions", "as advised", "points lost", "95% interval"]
    if has_exact:
        sh.append("dd cost (decisions)")
    if rv.phase_units:
        sh.append("unit")
    out += _table(sh, srows, {1, 2, 3})
    out.append("")
    if s["costliest"]:
        out.append("Costliest decisions")
        for c in s["costliest"]:
            e = c["cost"]
            lo, hi = e["ci95"]
            interval = "±0" if e["se"] == 0 else f"[{lo:+.2f}, {hi:+.2f}]"
            ex = "" if c["exact_cost"] is None else f"; dd {fmt_exact(c['exact_cost'])}"
            unit = f" {c['unit']}" if rv.phase_units else ""
            out.append(
                f"  #{c['index']} {c['place']}: {c['done']} (advised {c['best']}), "
                f"{e['mean']:+.2f}{unit} {interval}{ex}"
            )
    else:
        out.append("No decision cost anything the advisor could measure.")
    return "\n".join(out) + "\n"
