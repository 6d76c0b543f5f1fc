"""The report's exchange section: how much each exchange size is worth, by seat, from
mirrored deals counted chunk by chunk (:class:`ExchangeCounts`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd

from ...core.engine.backend import Cancel, Chunk, merge_chunks
from ...core.engine.stats import mean_ci, wilson_interval
from ..kernels import exchange_value as KX
from ..kernels import layouts as L
from ..kernels.bundles import make_env
from ..rules import DEFAULT_RULES, Rules
from ..simulation import Policies, solver_bits
from .constants import (
    ELDER_MAX,
    TALON,
)
from .text import (
    fmt_pct_ci,
    fmt_pts_ci,
)


@dataclass
class ExchangeCounts:
    """Integer sums over deals of the exchange-value cells, merged exactly across chunks.

    ``sums[c]``: sum of the net (elder minus younger) in cell c; ``cross[c, d]``: sum of
    net_c * net_d (so any paired difference has an exact variance); ``e_took[k]``: deals where
    elder's policy took k (cell 0), with ``e_took_net``/``e_took_net_sq`` their net sums;
    ``y_took[c, j]``: deals of cell c where younger took j."""

    cells: list[tuple[int, int]]
    deals: int = 0
    sums: np.ndarray = None  # type: ignore[assignment]
    cross: np.ndarray = None  # type: ignore[assignment]
    e_took: np.ndarray = field(default_factory=lambda: np.zeros(TALON + 1, np.int64))
    e_took_net: np.ndarray = field(default_factory=lambda: np.zeros(TALON + 1, np.int64))
    e_took_net_sq: np.ndarray = field(default_factory=lambda: np.zeros(TALON + 1, np.int64))
    y_took: np.ndarray = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        c = len(self.cells)
        if self.sums is None:
            self.sums = np.zeros(c, np.int64)
            self.cross = np.zeros((c, c), np.int64)
            self.y_took = np.zeros((c, TALON + 1), np.int64)

    def add(self, rows: np.ndarray) -> None:
        net = rows[:, :, L.XV_NET].astype(np.int64)
        self.deals += len(net)
        self.sums += net.sum(axis=0)
        self.cross += net.T @ net
        took = rows[:, 0, L.XV_E_TOOK].astype(np.int64)
        self.e_took += np.bincount(took, minlength=TALON + 1)
        self.e_took_net += np.bincount(took, weights=net[:, 0], minlength=TALON + 1).astype(
            np.int64
        )
        self.e_took_net_sq += np.bincount(took, weights=net[:, 0] ** 2, minlength=TALON + 1).astype(
            np.int64
        )
        for c in range(len(self.cells)):
            self.y_took[c] += np.bincount(rows[:, c, L.XV_Y_TOOK], minlength=TALON + 1)

    def merge(self, other: ExchangeCounts) -> None:
        self.deals += other.deals
        for name in ("sums", "cross", "e_took", "e_took_net", "e_took_net_sq", "y_took"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def cell(self, e: int, y: int) -> int:
        return self.cells.index((e, y))

    def mean(self, c: int, sign: int = 1) -> dict:
        """Mean net of cell c (sign -1: younger's view) with its 95% interval."""
        return mean_ci(sign * float(self.sums[c]), float(self.cross[c, c]), self.deals)

    def diff(self, c: int, d: int, sign: int = 1) -> dict:
        """Paired mean of net_c - net_d on the common deals (sign -1: younger's view)."""
        total = float(self.sums[c] - self.sums[d])
        sq = float(self.cross[c, c] - 2 * self.cross[c, d] + self.cross[d, d])
        return mean_ci(sign * total, sq, self.deals)


def exchange_cells(rules: Rules) -> list[tuple[int, int]]:
    """Cells (elder's take, younger's take; -1 = the seat's policy): the policy baseline, elder
    forced k = 1..5 against younger's policy, then younger forced j for every legal j after k."""
    lo = 1 if rules.younger_must_exchange else 0
    cells = [(-1, -1)] + [(k, -1) for k in range(1, ELDER_MAX + 1)]
    cells += [(k, j) for k in range(1, ELDER_MAX + 1) for j in range(lo, TALON - k + 1)]
    return cells


def exchange_chunk(
    chunk: Chunk, seed: int, pol: Policies, rules: Rules, cells: list[tuple[int, int]]
) -> ExchangeCounts:
    """Exchange-value sums of one chunk of deals (the unit of work of every backend)."""
    e = np.array([c[0] for c in cells], np.int64)
    y = np.array([c[1] for c in cells], np.int64)
    rows = KX.exchange_values(
        seed,
        chunk.start,
        chunk.size,
        e,
        y,
        pol.stages(),
        make_env(rules.to_array()),
        4 * numba.get_num_threads(),
        solver_bits(pol.uses_solver),
    )
    counts = ExchangeCounts(cells)
    counts.add(rows)
    return counts


def exchange_study(
    deals: int,
    seed: int,
    pol: Policies,
    rules: Rules = DEFAULT_RULES,
    backend=None,
    chunk: int = 50_000,
    progress: Callable[[int], None] | None = None,
    cancel: Cancel | None = None,
) -> ExchangeCounts:
    """Sums of every exchange cell over ``deals`` deals of ``seed`` (see ``exchange_cells``);
    Ctrl-C, or ``cancel`` (a study's token) once set, stops after the chunk in flight
    (``deals`` of the result says how many finished)."""
    cells = exchange_cells(rules)
    total = ExchangeCounts(cells)
    args = (seed, pol, rules, cells)
    merge_chunks(
        total, exchange_chunk, deals, chunk, args, backend, progress=progress, cancel=cancel
    )
    return total


def exchange_tables(x: ExchangeCounts, rules: Rules) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """(elder table, younger table, raw numbers) of an exchange study."""
    n = x.deals
    base = x.cell(-1, -1)
    elder_rows, elder_raw = [], []
    for k in range(1, ELDER_MAX + 1):
        c = x.cell(k, -1)
        m = x.mean(c)
        vs = x.diff(c, base)
        step = x.diff(c, x.cell(k - 1, -1)) if k > 1 else None
        chose = {"p": x.e_took[k] / n, "ci95": list(wilson_interval(int(x.e_took[k]), n))}
        cond = mean_ci(float(x.e_took_net[k]), float(x.e_took_net_sq[k]), int(x.e_took[k]))
        elder_rows.append(
            {
                "elder takes k": str(k),
                "elder's net (points/deal)": fmt_pts_ci(m),
                "worth of card k (vs k-1)": fmt_pts_ci(step) if step else "",
                "vs own policy": fmt_pts_ci(vs),
                "policy takes k (%)": fmt_pct_ci(chose),
                "net when the policy took k (observed)": (
                    fmt_pts_ci(cond) if x.e_took[k] > 1 else "n/a"
                ),
                "deals": f"{n:,}",
            }
        )
        elder_raw.append(
            {
                "k": k,
                "mean": m["mean"],
                "lo": m["ci95"][0],
                "hi": m["ci95"][1],
                "step": step,
                "vs_policy": vs,
                "policy_share": chose["p"],
                "conditional": cond,
                "conditional_n": int(x.e_took[k]),
            }
        )
    m = x.mean(base)
    mean_took = float((np.arange(TALON + 1) * x.e_took).sum() / n)
    elder_rows.append(
        {
            "elder takes k": f"own policy (mean {mean_took:.2f})",
            "elder's net (points/deal)": fmt_pts_ci(m),
            "deals": f"{n:,}",
        }
    )
    elder_raw.append({"k": None, "mean": m["mean"], "lo": m["ci95"][0], "hi": m["ci95"][1]})
    elder = pd.DataFrame(elder_rows).fillna("")

    younger_rows, younger_raw = [], []
    lo_j = 1 if rules.younger_must_exchange else 0
    for k in range(1, ELDER_MAX + 1):
        pol_cell = x.cell(k, -1)
        for j in range(lo_j, TALON - k + 1):
            c = x.cell(k, j)
            my = x.mean(c, sign=-1)
            step = x.diff(c, x.cell(k, j - 1), sign=-1) if j > lo_j else None
            vs = x.diff(c, pol_cell, sign=-1)
            share = {
                "p": x.y_took[pol_cell, j] / n,
                "ci95": list(wilson_interval(int(x.y_took[pol_cell, j]), n)),
            }
            younger_rows.append(
                {
                    "elder took k": str(k),
                    "younger takes j": str(j),
                    "younger's net (points/deal)": fmt_pts_ci(my),
                    "worth of card j (vs j-1)": fmt_pts_ci(step) if step else "",
                    "vs own policy": fmt_pts_ci(vs),
                    "policy takes j (%)": fmt_pct_ci(share),
                    "deals": f"{n:,}",
                }
            )
            younger_raw.append(
                {
                    "elder_k": k,
                    "j": j,
                    "mean": my["mean"],
                    "lo": my["ci95"][0],
                    "hi": my["ci95"][1],
                    "step": step,
                    "vs_policy": vs,
                    "policy_share": share["p"],
                }
            )
    raw = {
        "deals": n,
        "elder": elder_raw,
        "younger": younger_raw,
        "method": "causal: same deals, forced exchange sizes (greedy keep values)",
    }
    return elder, pd.DataFrame(younger_rows), raw


def _rate(p: float, n: int) -> dict:
    """A rate given as a proportion of n, with its Wilson interval."""
    k = round(p * n)
    return {"p": p, "ci95": list(wilson_interval(k, n)), "count": k}
