"""Odds tables: probabilities with 95% confidence intervals from streamed simulation records.

Counts are merged exactly across chunks (integers, never averages of averages); every estimate
carries its deal count. Where combinatorics give a value for the dealt hand (before the exchange),
it is reported beside the estimate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core.engine.backend import Cancel, Chunk, LocalBackend, merge_chunks
from ..core.engine.stats import Z95, wilson_interval
from . import exact
from .kernels import layouts as L
from .rules import DEFAULT_RULES, Rules
from .simulation import Policies, simulate

ROLES = ("elder", "younger")
SEQUENCE_NAMES = {
    0: "none",
    3: "tierce",
    4: "quart",
    5: "quint",
    6: "sixieme",
    7: "septieme",
    8: "huitieme",
}
SET_NAMES = {0: "none", 1: "trio", 2: "quatorze"}
SCORE_RANGE = 400  # net scores are histogrammed over [-SCORE_RANGE, SCORE_RANGE]

#: The deal events an odds table shows, each with its label and its key in the summary.
EVENT_ROWS = (
    ("carte blanche", "carte_blanche"),
    ("wins the point", "win_point"),
    ("wins sequences", "win_sequence"),
    ("wins sets", "win_sets"),
    ("pique", "pique"),
    ("repique", "repique"),
    ("capot", "capot"),
    ("wins the cards", "win_cards"),
)


@dataclass
class OddsCounts:
    """Integer counts over simulated deals; ``add`` merges a chunk of records exactly."""

    deals: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    net_hist: np.ndarray = field(default_factory=lambda: np.zeros(2 * SCORE_RANGE + 1, np.int64))
    total_hist: dict[str, np.ndarray] = field(default_factory=dict)
    sums: dict[str, int] = field(default_factory=dict)

    def merge(self, other: OddsCounts) -> None:
        """Add another partial aggregate (exact: integer counts and sums)."""
        self.deals += other.deals
        for key, value in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + value
        for key, value in other.sums.items():
            self.sums[key] = self.sums.get(key, 0) + value
        self.net_hist += other.net_hist
        for role, hist in other.total_hist.items():
            mine = self.total_hist.setdefault(role, np.zeros_like(hist))
            mine += hist

    def _bump(self, name: str, value: int) -> None:
        self.counts[name] = self.counts.get(name, 0) + int(value)

    def add(self, records: np.ndarray) -> None:
        rec = records.astype(np.int64)
        self.deals += len(rec)
        winners = {
            "point": rec[:, L.REC_WIN_POINT],
            "sequence": rec[:, L.REC_WIN_SEQUENCE],
            "sets": rec[:, L.REC_WIN_SETS],
        }
        for role, base, code in (
            ("elder", L.REC_ELDER, L.WIN_ELDER),
            ("younger", L.REC_YOUNGER, L.WIN_YOUNGER),
        ):
            col = lambda f, b=base: rec[:, b + f]  # noqa: E731
            self._bump(f"{role}.carte_blanche", (col(L.RF_CARTE_BLANCHE) > 0).sum())
            for cls, w in winners.items():
                self._bump(f"{role}.win_{cls}", (w == code).sum())
            self._bump(f"{role}.pique", (col(L.RF_PIQUE) > 0).sum())
            self._bump(f"{role}.repique", (col(L.RF_REPIQUE) > 0).sum())
            self._bump(f"{role}.capot", (col(L.RF_CARDS) == 40).sum())
            self._bump(f"{role}.win_cards", (col(L.RF_CARDS) > 0).sum())
            self._bump(f"{role}.carte_rouge", (col(L.RF_CARTE_ROUGE) > 0).sum())
            for stage in ("dealt", "final"):
                offset = L.RF_DEALT_POINT_LEN if stage == "dealt" else L.RF_FINAL_POINT_LEN
                for length, c in enumerate(np.bincount(col(offset), minlength=13)):
                    if c:
                        self._bump(f"{role}.{stage}.point_len.{length}", c)
                for length, c in enumerate(np.bincount(col(offset + 1), minlength=9)):
                    if c:
                        self._bump(f"{role}.{stage}.sequence.{SEQUENCE_NAMES[length]}", c)
                for kind, c in enumerate(np.bincount(col(offset + 2), minlength=3)):
                    if c:
                        self._bump(f"{role}.{stage}.set.{SET_NAMES[kind]}", c)
            total = col(L.RF_TOTAL)
            self.sums[f"{role}.total"] = self.sums.get(f"{role}.total", 0) + int(total.sum())
            self.sums[f"{role}.total_sq"] = self.sums.get(f"{role}.total_sq", 0) + int(
                (total * total).sum()
            )
            hist = self.total_hist.setdefault(role, np.zeros(SCORE_RANGE + 1, np.int64))
            hist += np.bincount(np.clip(total, 0, SCORE_RANGE), minlength=SCORE_RANGE + 1)
        net = np.clip(rec[:, L.REC_NET], -SCORE_RANGE, SCORE_RANGE) + SCORE_RANGE
        self.net_hist += np.bincount(net, minlength=2 * SCORE_RANGE + 1)


def _estimate(successes: int, n: int, exact_value: float | None = None) -> dict:
    p = successes / n if n else float("nan")
    out = {
        "p": p,
        "ci95": list(wilson_interval(successes, n)),
        "count": successes,
        "se": math.sqrt(p * (1 - p) / n) if n else float("nan"),
    }
    if exact_value is not None:
        out["exact"] = exact_value
    return out


def score_counts(c: OddsCounts, role: str) -> dict[str, int]:
    """The role's deal totals (every point he scored in the deal, bonuses included) as
    {points: number of deals}, nonzero counts only, points ascending (totals over
    ``SCORE_RANGE`` are counted at ``SCORE_RANGE``)."""
    hist = c.total_hist.get(role, np.zeros(SCORE_RANGE + 1, np.int64))
    return {str(v): int(k) for v, k in enumerate(hist) if k}


def score_quantiles(counts: dict[str, int], qs=(0.1, 0.25, 0.5, 0.75, 0.9)) -> list[int]:
    """Quantiles of a ``score_counts`` distribution (the smallest total reaching each level)."""
    values = np.array([int(v) for v in counts], dtype=np.int64)
    weights = np.array(list(counts.values()), dtype=np.float64)
    if not len(values):
        return [0 for _ in qs]
    cum = np.cumsum(weights) / weights.sum()
    return [int(values[np.searchsorted(cum, q - 1e-12)]) for q in qs]


def summarize(c: OddsCounts, with_scores: bool = False) -> dict:
    """JSON-ready odds: {"deals", "elder": {...}, "younger": {...}, "net": {...}}; with
    ``with_scores`` each player's block also holds ``score_counts`` (:func:`score_counts`)."""
    n = c.deals
    exact_point = exact.point_length_distribution()
    exact_seq = exact.best_sequence_distribution()
    exact_set = exact.best_set_distribution()
    result: dict = {"deals": n}
    for role in ROLES:
        get = lambda k, r=role: c.counts.get(f"{r}.{k}", 0)  # noqa: E731
        r: dict = {
            "carte_blanche": _estimate(get("carte_blanche"), n, exact.p_carte_blanche()),
            "win_point": _estimate(get("win_point"), n),
            "win_sequence": _estimate(get("win_sequence"), n),
            "win_sets": _estimate(get("win_sets"), n),
            "pique": _estimate(get("pique"), n),
            "repique": _estimate(get("repique"), n),
            "capot": _estimate(get("capot"), n),
            "win_cards": _estimate(get("win_cards"), n),
            "carte_rouge": _estimate(get("carte_rouge"), n),
        }
        for stage in ("dealt", "final"):
            ex = stage == "dealt"
            r[stage] = {
                "point_length": {
                    str(L): _estimate(
                        get(f"{stage}.point_len.{L}"), n, exact_point.get(L, 0.0) if ex else None
                    )
                    for L in range(3, 9)
                },
                "best_sequence": {
                    name: _estimate(
                        get(f"{stage}.sequence.{name}"), n, exact_seq.get(L, 0.0) if ex else None
                    )
                    for L, name in SEQUENCE_NAMES.items()
                },
                "best_set": {
                    name: _estimate(get(f"{stage}.set.{name}"), n, exact_set[name] if ex else None)
                    for name in SET_NAMES.values()
                },
            }
        mean = c.sums.get(f"{role}.total", 0) / n if n else float("nan")
        var = c.sums.get(f"{role}.total_sq", 0) / n - mean * mean if n else float("nan")
        se = math.sqrt(max(var, 0.0) / n) if n else float("nan")
        r["mean_total"] = {"mean": mean, "se": se, "ci95": [mean - Z95 * se, mean + Z95 * se]}
        if with_scores:
            r["score_counts"] = score_counts(c, role)
        result[role] = r
    values = np.arange(-SCORE_RANGE, SCORE_RANGE + 1)
    mean = float((values * c.net_hist).sum() / n) if n else float("nan")
    var = float((values**2 * c.net_hist).sum() / n - mean**2) if n else float("nan")
    se = math.sqrt(max(var, 0.0) / n) if n else float("nan")
    result["net"] = {
        "mean": mean,
        "se": se,
        "ci95": [mean - Z95 * se, mean + Z95 * se],
        "sd": math.sqrt(max(var, 0.0)),
    }
    return result


def odds_chunk(chunk: Chunk, seed: int, policies: Policies, rules: Rules) -> OddsCounts:
    """Counts of one chunk of deals (the unit of work of every backend)."""
    counts = OddsCounts()
    counts.add(simulate(chunk.size, seed, policies, rules, start=chunk.start))
    return counts


#: The stage policies of :func:`odds` and ``piquet odds`` when none are given: the strongest fast
#: ones (heuristic exchange and play for both players; greedy in earlier versions).
DEFAULT_POLICIES = Policies(
    elder_exchange="heuristic",
    younger_exchange="heuristic",
    elder_play="heuristic",
    younger_play="heuristic",
)


def odds(
    deals: int,
    seed: int = 1,
    policies: Policies | None = None,
    rules: Rules = DEFAULT_RULES,
    chunk: int = 500_000,
    progress=None,
    backend=None,
    with_scores: bool = False,
    cancel: Cancel | None = None,
) -> tuple[dict, OddsCounts]:
    """Simulate ``deals`` deals and return (summary dict, raw counts).

    ``backend``: a ``piquet_sim.backend`` backend (default local). Interrupting (Ctrl-C) returns
    what finished; the summary's "deals" says how many, "interrupted" whether cut; so does
    ``cancel`` (a study's token, ``core.engine.backend.Cancel``) once set.
    ``with_scores``: add each player's ``score_counts`` (deal totals, counts per point value).
    ``policies`` default :data:`DEFAULT_POLICIES` (heuristic exchange and play).
    """
    policies = policies or DEFAULT_POLICIES
    backend = backend or LocalBackend()
    counts = OddsCounts()
    args = (seed, policies, rules)
    merge_chunks(counts, odds_chunk, deals, chunk, args, backend, progress=progress, cancel=cancel)
    summary = summarize(counts, with_scores)
    summary["interrupted"] = counts.deals < deals
    summary["seed"] = seed
    summary["policies"] = {k: v for k, v in vars(policies).items() if isinstance(v, str)}
    summary["rules"] = rules.to_dict()
    summary["backend"] = backend.describe()
    return summary, counts


def plot_scores(counts: OddsCounts, path: str, title: str = "") -> None:
    """Score distributions: each player's deal total and the net score (elder minus younger)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = counts.deals
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    x = np.arange(SCORE_RANGE + 1)
    for role, colour in (("elder", "tab:blue"), ("younger", "tab:orange")):
        hist = counts.total_hist.get(role, np.zeros_like(x)) / max(n, 1)
        ax1.step(x, hist, where="mid", label=role, color=colour)
    ax1.set_xlim(0, 130)
    ax1.set_xlabel("points scored in the deal (per player)")
    ax1.set_ylabel("probability")
    ax1.legend()
    ax1.set_title("Deal total by player")
    values = np.arange(-SCORE_RANGE, SCORE_RANGE + 1)
    ax2.step(values, counts.net_hist / max(n, 1), where="mid", color="tab:green")
    ax2.set_xlim(-120, 140)
    ax2.axvline(0, color="grey", lw=0.8)
    ax2.set_xlabel("net score, elder minus younger (points)")
    ax2.set_title("Net deal score")
    fig.suptitle(title or f"Score distributions over {n:,} deals")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
