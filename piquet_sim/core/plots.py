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
