"""Matplotlib plumbing for every game's figures: the Agg backend (no display), one house style,
and saving at a modest DPI so committed example PNGs stay small."""

from __future__ import annotations

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
