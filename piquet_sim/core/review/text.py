"""A review as text: the summary by phase and every decision with its cost."""

from __future__ import annotations

import math
import shutil
import textwrap
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


def _table(
    headers: list[str],
    rows: list[list[str]],
    right: set[int],
    width: int | None = None,
    whole: frozenset[int] = frozenset(),
) -> list[str]:
    """A plain table, columns two spaces apart; when that runs past ``width``, one space apart,
    then the widest text columns (not ``whole``) folded onto continuation lines until it fits."""
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    gap = "  "
    if width is not None and sum(widths) + 2 * (len(widths) - 1) > width:
        gap = " "
        while sum(widths) + len(widths) - 1 > width:
            text = [i for i, w in enumerate(widths) if i not in right | whole and w > 10]
            if not text:
                break
            widths[max(text, key=lambda j: widths[j])] -= 1  # the widest, a letter at a time

    def lines(cells) -> list[str]:
        folded = [
            [c] if i in right | whole else textwrap.wrap(c, w, break_long_words=True) or [""]
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        out = []
        for k in range(max(len(f) for f in folded)):
            parts = []
            for i, (f, w) in enumerate(zip(folded, widths, strict=True)):
                c = f[k] if k < len(f) else ""
                parts.append(c.rjust(w) if i in right else c.ljust(w))
            out.append(gap.join(parts).rstrip())
        return out

    out = lines(headers) + lines(["-" * w for w in widths])
    for r in rows:
        out += lines(r)
    return out


def _wrapped(lines: list[str], width: int | None) -> list[str]:
    """Prose lines folded to ``width`` (continuations indented like their first line)."""
    if width is None:
        return lines
    out = []
    for text in lines:
        lead = text[: len(text) - len(text.lstrip())]
        out += textwrap.wrap(text, width, subsequent_indent=lead + "  ") or [""]
    return out


def render_text(rv: Review, width: int | None = None) -> str:
    """The review as plain text: a header, one row per decision, the summary by phase and the
    costliest decisions; prose folded and tables tightened to ``width`` columns (None: the
    terminal's, 80 when not a terminal)."""
    width = width or shutil.get_terminal_size((80, 24)).columns
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
    out = _wrapped(out, width)
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
    if has_exact and sum(max(len(r[i]) for r in [headers, *rows]) for i in range(9)) + 8 > width:
        headers = headers[:-2] + ["dd (best)"]  # one column for the two: the table fits
        rows = [r[:-2] + [f"{r[-2]} {r[-1]}" if r[-1] != "-" else r[-2]] for r in rows]
    out += _table(headers, rows, {0, 5}, width, whole=frozenset({6}))
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
    if sum(max(len(r[i]) for r in [sh, *srows]) for i in range(len(sh))) + 2 * len(sh) > width:
        short = {"decisions": "n", "as advised": "agree", "dd cost (decisions)": "dd (n)"}
        sh = [short.get(h, h) for h in sh]
    out += _table(sh, srows, {1, 2, 3}, width)
    out.append("")
    if s["costliest"]:
        out.append("Costliest decisions")
        first = len(out)
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
        out[first:] = _wrapped(out[first:], width)
    else:
        out.append("No decision cost anything the advisor could measure.")
    return "\n".join(out) + "\n"
