"""Matplotlib figures for reports, drawn for print: labelled axes with units, 95% intervals drawn.

Every helper takes plain numbers (dicts and DataFrames built by ``report.py``), writes one PNG and
returns its path. The Agg backend is selected on import of each helper, so no display is needed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core.app.plots import pairwise_heatmap, pyplot, save
from ..core.engine.stats import wilson_band

COLOURS = {"elder": "tab:blue", "younger": "tab:orange", "net": "tab:green"}


def score_distributions(
    total_hist: dict[str, np.ndarray], net_hist: np.ndarray, n: int, path: str | Path, title: str
) -> Path:
    """Per-player deal totals (elder, younger) and the net score, as probabilities per point with
    shaded 95% intervals; dashed lines mark the means."""
    plt = pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    for role in ("elder", "younger"):
        hist = total_hist[role]
        x = np.arange(hist.size)
        lo, hi = wilson_band(hist, n)
        ax1.step(x, hist / n, where="mid", color=COLOURS[role], label=role, lw=1)
        ax1.fill_between(x, lo, hi, step="mid", color=COLOURS[role], alpha=0.25, lw=0)
        mean = float((x * hist).sum() / n)
        ax1.axvline(mean, color=COLOURS[role], ls="--", lw=0.8)
    ax1.set_xlim(0, 130)
    ax1.set_xlabel("points the player scores in the deal")
    ax1.set_ylabel("probability per point value")
    ax1.set_title("Deal total by player (dashed: mean)")
    ax1.legend()
    half = (net_hist.size - 1) // 2
    v = np.arange(-half, half + 1)
    lo, hi = wilson_band(net_hist, n)
    ax2.step(v, net_hist / n, where="mid", color=COLOURS["net"], lw=1)
    ax2.fill_between(v, lo, hi, step="mid", color=COLOURS["net"], alpha=0.25, lw=0)
    ax2.axvline(0, color="grey", lw=0.8)
    ax2.axvline(float((v * net_hist).sum() / n), color=COLOURS["net"], ls="--", lw=0.8)
    ax2.set_xlim(-120, 140)
    ax2.set_xlabel("net score, elder minus younger (points)")
    ax2.set_ylabel("probability per point value")
    ax2.set_title("Net deal score (dashed: mean)")
    fig.suptitle(f"{title} — {n:,} deals, shaded bands: 95% intervals", fontsize=10)
    return save(fig, path)


def exchange_value(elder: list[dict], younger: list[dict], path: str | Path) -> Path:
    """Left: elder's mean net per deal when forced to take k cards (error bars: 95%), the
    policy's own value as a band. Right: younger's mean net when forced to take j cards, one line
    per elder's k. Rows: {"k", "mean", "lo", "hi"} (elder; a row with k None is the policy) and
    {"elder_k", "j", "mean", "lo", "hi"} (younger)."""
    plt = pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    forced = [r for r in elder if r["k"] is not None]
    ks = np.array([r["k"] for r in forced])
    m = np.array([r["mean"] for r in forced])
    err = np.array([[r["mean"] - r["lo"] for r in forced], [r["hi"] - r["mean"] for r in forced]])
    ax1.errorbar(
        ks, m, yerr=err, fmt="o-", color=COLOURS["elder"], capsize=4, label="elder takes exactly k"
    )
    for r in elder:
        if r["k"] is None:
            ax1.axhspan(r["lo"], r["hi"], color="grey", alpha=0.3, label="elder's own policy")
            ax1.axhline(r["mean"], color="grey", lw=0.8)
    ax1.set_xticks(ks)
    ax1.set_xlabel("cards elder takes, k (younger exchanges by his policy)")
    ax1.set_ylabel("elder's net per deal (points)")
    ax1.set_title("Elder: value of taking k cards")
    ax1.legend(fontsize=8)
    cmap = plt.get_cmap("viridis")
    elder_ks = sorted({r["elder_k"] for r in younger})
    for i, k in enumerate(elder_ks):
        rows = [r for r in younger if r["elder_k"] == k]
        j = np.array([r["j"] for r in rows])
        mm = np.array([r["mean"] for r in rows])
        e = np.array([[r["mean"] - r["lo"] for r in rows], [r["hi"] - r["mean"] for r in rows]])
        colour = cmap(i / max(len(elder_ks) - 1, 1))
        ax2.errorbar(
            j + (i - 2) * 0.04,
            mm,
            yerr=e,
            fmt="o-",
            capsize=3,
            ms=4,
            color=colour,
            label=f"elder took {k}",
        )
    ax2.set_xlabel("cards younger takes, j")
    ax2.set_ylabel("younger's net per deal (points)")
    ax2.set_title("Younger: value of taking j cards")
    ax2.legend(fontsize=8)
    fig.suptitle("Same deals in every setting; error bars: 95% intervals", fontsize=10)
    return save(fig, path)


def event_rates(rows: list[dict], path: str | Path) -> Path:
    """Grouped bars: pique, repique and capot rates (percent of deals) by strategy and seat, with
    95% interval whiskers. Rows: {"strategy", "event", "role", "p", "lo", "hi"}."""
    plt = pyplot()
    events = ("pique", "repique", "capot")
    names = list(dict.fromkeys(r["strategy"] for r in rows))
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.6))
    x = np.arange(len(names))
    for ax, event in zip(axes, events, strict=True):
        for off, role in ((-0.2, "elder"), (0.2, "younger")):
            sel = {r["strategy"]: r for r in rows if r["event"] == event and r["role"] == role}
            p = np.array([sel[s]["p"] for s in names]) * 100
            lo = np.array([sel[s]["lo"] for s in names]) * 100
            hi = np.array([sel[s]["hi"] for s in names]) * 100
            ax.bar(
                x + off,
                p,
                width=0.4,
                color=COLOURS[role],
                label=role,
                yerr=np.clip([p - lo, hi - p], 0, None),
                capsize=3,
            )
        ax.set_xticks(x, names, rotation=30, ha="right")
        ax.set_ylabel("percent of deals")
        ax.set_title(event)
    axes[0].legend(fontsize=8)
    fig.suptitle("Both players use the strategy; whiskers: 95% intervals", fontsize=10)
    return save(fig, path)


def partie_settlement(rows: list[dict], path: str | Path, title: str = "Mirrored parties") -> Path:
    """A's expected settlement per partie against B (points) with 95% intervals, one line per
    pairing. Rows: {"label", "mean", "lo", "hi"}."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.42 * len(rows)))
    y = np.arange(len(rows))[::-1]
    m = np.array([r["mean"] for r in rows])
    err = np.array([[r["mean"] - r["lo"] for r in rows], [r["hi"] - r["mean"] for r in rows]])
    ax.errorbar(m, y, xerr=err, fmt="o", color="tab:purple", capsize=4, ms=4)
    ax.axvline(0, color="grey", lw=0.8)
    for yi, r in zip(y, rows, strict=True):  # the interval in words: bars may be too short to see
        ax.annotate(
            f"{r['mean']:+.1f} [{r['lo']:+.1f}, {r['hi']:+.1f}]",
            (r["hi"], yi),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    lo, hi = min(0.0, *(r["lo"] for r in rows)), max(0.0, *(r["hi"] for r in rows))
    span = max(hi - lo, 1.0)
    ax.set_xlim(lo - 0.1 * span, hi + 0.6 * span)  # room for the labels on the right
    ax.set_yticks(y, [r["label"] for r in rows])
    ax.set_xlabel("A's expected settlement per partie (points; negative: B gains)")
    ax.set_title(f"{title}: mean and 95% interval")
    return save(fig, path)


def margins_heatmap(
    names: list[str], margins: np.ndarray, halves: np.ndarray, path: str | Path, title: str = ""
) -> Path:
    """Heatmap of pairwise margins (row over column, points per deal) with the 95% half-width
    in each cell; a pair never played (half-width 0 off the diagonal) is marked so."""
    played = (halves > 0) | np.eye(len(names), dtype=bool)
    return pairwise_heatmap(
        names,
        np.where(played, margins, np.nan),
        halves,
        path,
        title=title or "Pairwise margins (mirrored deals, 95% half-widths)",
        colorbar="mean net per deal, row minus column (points)",
    )
