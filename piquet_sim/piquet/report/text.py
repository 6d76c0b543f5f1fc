"""The report's numbers as text: percentages and points with their intervals."""

from __future__ import annotations

import math

from ..match import format_p


def fmt_pct(p: float, digits: int | None = None) -> str:
    """A probability as percent, two decimals (three under 1%, or ``digits``)."""
    if not math.isfinite(p):
        return "n/a"
    if digits is None:
        digits = 3 if p < 0.01 else 2
    return f"{p * 100:.{digits}f}"


def fmt_pct_ci(est: dict) -> str:
    """``12.34 [12.10, 12.58]``: percent with its 95% interval (``est``: p, ci95), all three
    with the estimate's number of decimals."""
    lo, hi = est["ci95"]
    d = 3 if est["p"] < 0.01 else 2
    return f"{fmt_pct(est['p'], d)} [{fmt_pct(lo, d)}, {fmt_pct(hi, d)}]"


def p_cell(p: float) -> str:
    """A p-value as the CLI prints it, without the "p": ``< 0.0001``, ``< 0.001``, ``0.032``."""
    if not math.isfinite(p):
        return "n/a"
    text = format_p(p)
    return text.removeprefix("p = ").removeprefix("p ")


def fmt_pts(x: float, digits: int = 2) -> str:
    return f"{x:+.{digits}f}" if math.isfinite(x) else "n/a"


def fmt_pts_ci(est: dict, digits: int = 2) -> str:
    """``+1.23 [+0.98, +1.48]``: points with their 95% interval (``est``: mean, ci95)."""
    lo, hi = est["ci95"]
    return f"{fmt_pts(est['mean'], digits)} [{fmt_pts(lo, digits)}, {fmt_pts(hi, digits)}]"
