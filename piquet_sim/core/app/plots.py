"""Matplotlib plumbing for every game's figures: the Agg backend (no display), one house style,
and saving at a modest DPI so committed example PNGs stay small."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DPI = 100


def pyplot():
    """matplotlib.pyplot with the Agg backend and the house style."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "font.size": 10,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    return plt


def save(fig, path: str | Path) -> Path:
    """Lay out, write the PNG, close the figure; returns the path."""
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return Path(path)


def pairwise_heatmap(
    names: list[str],
    values,
    halves,
    path: str | Path,
    *,
    title: str,
    colorbar: str,
    xlabel: str = "opponent",
    ylabel: str = "strategy",
    digits: int = 2,
) -> Path:
    """A tournament's pairwise results: ``values[i, j]`` (row over column; NaN: not played)
    with its 95% half-width ``halves[i, j]`` in each cell, a diverging colour scale centred on
    0, and white lines between the cells. Returns the path written."""
    import numpy as np

    values = np.asarray(values, dtype=float)
    plt = pyplot()
    k = len(names)
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * k, 1.2 + 1.1 * k))
    ax.grid(False)
    finite = np.isfinite(values)
    bound = max(float(np.abs(values[finite]).max()) if finite.any() else 0.0, 1e-9)
    im = ax.imshow(values, cmap="RdBu", vmin=-bound, vmax=bound)
    for i in range(k):
        for j in range(k):
            if i == j:
                label = "-"
            elif not finite[i, j]:
                label = "not played"
            else:
                label = f"{values[i, j]:+.{digits}f}\n±{halves[i, j]:.{digits}f}"
            dark = bool(finite[i, j]) and abs(values[i, j]) > 0.6 * bound
            color = "white" if dark else "black"
            ax.text(j, i, label, ha="center", va="center", fontsize=8, color=color)
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=2)
    ax.tick_params(which="minor", length=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.colorbar(im, ax=ax, label=colorbar)
    ax.set_title(title)
    return save(fig, path)


@dataclass(frozen=True)
class Rate:
    """One bar of :func:`rate_panels`: an estimated rate ``p`` with its 95% interval ``ci95``
    and, where combinatorics give it, the ``exact`` value (NaN ``p``: no trial, no bar)."""

    label: str
    p: float
    ci95: tuple[float, float]
    exact: float | None = None


def _percent(p: float) -> str:
    """A rate in percent with three significant digits (0.0123, 4.56, 78.9)."""
    return f"{100 * p:.3g}%"


def rate_panels(
    panels: Sequence[tuple[str, Sequence[Rate]]],
    path: str | Path,
    *,
    title: str,
    across: bool = False,
) -> Path:
    """Rates as horizontal bars in percent, each with its 95% interval as an error bar, its
    value written beside it and the exact value (where given) as a black tick: the shape of
    an odds table at a glance, and whether each estimate's interval holds the exact value.
    One panel per ``(title, rows)``: stacked (heights by their rows) or side by side
    (``across``). Returns the path written."""
    import numpy as np

    plt = pyplot()
    most = max((len(rows) for _, rows in panels), default=1)
    if across:
        fig, axes = plt.subplots(
            1, len(panels), figsize=(5.2 * len(panels), 1.4 + 0.26 * most), squeeze=False
        )
    else:
        heights = [max(len(rows), 1) for _, rows in panels]
        fig, axes = plt.subplots(
            len(panels),
            1,
            figsize=(9, 0.9 * len(panels) + 0.26 * sum(heights)),
            squeeze=False,
            gridspec_kw={"height_ratios": heights},
        )
    exact_shown = False
    for ax, (name, rows) in zip(axes.flat, panels, strict=True):
        y = np.arange(len(rows))
        p = np.array([r.p for r in rows], dtype=float)
        lo = np.array([r.ci95[0] for r in rows], dtype=float)
        hi = np.array([r.ci95[1] for r in rows], dtype=float)
        seen = np.isfinite(p)
        shown = np.where(seen, p, 0.0)
        err = np.vstack([np.clip(shown - lo, 0, None), np.clip(hi - shown, 0, None)])
        err[:, ~seen] = 0.0
        ax.barh(y, 100 * shown, xerr=100 * err, color="#4477aa", capsize=2, height=0.7)
        exact = [(i, r.exact) for i, r in enumerate(rows) if r.exact is not None]
        if exact:
            ax.scatter(
                [100 * e for _, e in exact],
                [i for i, _ in exact],
                marker="|",
                s=160,
                color="black",
                zorder=3,
                label=None if exact_shown else "exact",
            )
            exact_shown = True
        top = max([*(100 * hi[seen]), *(100 * e for _, e in exact), 1e-9])
        for i, r in enumerate(rows):
            text = _percent(r.p) if seen[i] else "no trial"
            right = 100 * hi[i] if seen[i] else 0.0
            ax.text(right + 0.01 * top, i, " " + text, va="center", fontsize=7)
        ax.set_xlim(0, top * 1.18)
        ax.set_yticks(y, [r.label for r in rows], fontsize=8)
        ax.invert_yaxis()  # the first row on top, as in the table
        ax.set_xlabel("% (95% interval)")
        ax.set_title(name, fontsize=10, loc="left")
    if exact_shown:
        fig.legend(loc="upper right", fontsize=8)
    fig.suptitle(title)
    return save(fig, path)
