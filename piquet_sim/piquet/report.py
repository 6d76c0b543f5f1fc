"""Strategy reports: one self-contained HTML file (images embedded) and a Markdown twin.

:func:`build_report` runs every study on one seed, so deal i is the same deal in all of them:

* odds of the first strategy playing itself (``odds.odds``), with exact dealt-hand values;
* score distributions (elder, younger, net);
* the value of exchanging k cards: the same deals finished with elder forced to take k = 1..5
  (greedy keep values choose which k), and younger forced to take j after elder's k
  (``kernels.exchange_value``; paired differences on common deals);
* pique, repique and capot rates by strategy (each strategy playing itself);
* a round-robin tournament on mirrored deals (``match.tournament``) and its heatmap;
* mirrored Rubicon parties of every pairing (``partie.parties``);
* the sinking study's table when ``piquet_sim.sinking`` offers one.

Percentages are of deals (or parties); points are per deal unless a table says per partie. Every
estimate is printed as ``value [95% interval low, high]`` beside its sample count.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from .. import __version__
from ..core.backend import Chunk, LocalBackend, chunks
from ..core.report import Section, render_html, render_markdown
from ..core.stats import mean_ci, wilson_interval
from . import plots
from .kernels import exchange_value as KX
from .kernels import layouts as L
from .kernels.bundles import make_env
from .match import plot_margins, tournament
from .odds import odds
from .partie import parties
from .rules import DEFAULT_RULES, Rules
from .simulation import Policies, solver_bits
from .strategies import Strategy, policies, resolve

DEFAULT_STRATEGIES = ("greedy", "max", "sink-sets", "sink-point", "random")
DEFAULT_DEALS = 200_000
ELDER_MAX = 5
TALON = 8
#: Names a batch study of ``piquet_sim.sinking`` may go by (the first one found is used).
SINKING_MODULE = f"{__package__}.sinking"
SINKING_FUNCTIONS = ("batch_study", "sinking_study", "study", "batch")

# ----------------------------------------------------------------------------- formatting


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


def fmt_pts(x: float, digits: int = 2) -> str:
    return f"{x:+.{digits}f}" if math.isfinite(x) else "n/a"


def fmt_pts_ci(est: dict, digits: int = 2) -> str:
    """``+1.23 [+0.98, +1.48]``: points with their 95% interval (``est``: mean, ci95)."""
    lo, hi = est["ci95"]
    return f"{fmt_pts(est['mean'], digits)} [{fmt_pts(lo, digits)}, {fmt_pts(hi, digits)}]"


# ----------------------------------------------------------------------------- exchange value


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
) -> ExchangeCounts:
    """Sums of every exchange cell over ``deals`` deals of ``seed`` (see ``exchange_cells``)."""
    backend = backend or LocalBackend()
    cells = exchange_cells(rules)
    total = ExchangeCounts(cells)
    for _, part in backend.map_unordered(
        exchange_chunk, chunks(deals, chunk), seed, pol, rules, cells
    ):
        total.merge(part)
        if progress is not None:
            progress(part.deals)
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


# ----------------------------------------------------------------------------- sections


HOW_TO_READ = """\
- Every estimate is printed as `value [low, high]`: the value and its 95% confidence interval. \
Percentages are of deals (or of parties in the partie table); intervals of percentages are \
Wilson intervals, intervals of means are normal intervals from the sample's spread. Each table \
says how many deals or parties it rests on.
- **Elder** deals second and exchanges first (up to five cards); **younger** deals and \
exchanges second (up to all that elder left). A net score is elder's points minus younger's \
(or, where a column says so, younger's minus elder's).
- **Exact** columns are combinatorial values for the dealt 12-card hand, before the exchange; \
the estimate beside them is the simulated frequency, so the two should agree within the \
interval. Rows for the kept hand (after the exchange) have no exact value.
- **Value of exchanging k cards**: the same deals are finished once for every exchange size; \
the cards thrown are the k of lowest greedy keep value. "worth of card k" is the paired \
difference between taking k and k − 1 cards on the same deals (luck of the cards cancels, so \
these intervals are narrow). The "observed" column is what you get by merely grouping deals \
by what the policy chose: it mixes the value of the exchange with the hands that led to the \
choice, and is shown only as a contrast.
- **Tournament**: every pair of strategies plays the same deals twice, each seat once \
(mirrored deals); the margin is the row strategy's points minus the column's per deal. A \
margin whose interval excludes 0 is a significant win or loss.
- **Parties** are six-deal Rubicon parties (or the partie form the rules options choose), \
mirrored the same way. "Settlement" is the points A gains from B per partie (game bonus and \
rubicon included); P(rubicon) is the chance the loser fails to reach 100.
- Re-running with the command in "Reproduce this report" gives the same numbers: deal i of a \
seed is always the same deal, whatever the backend or thread count."""


def _versions() -> dict:
    from importlib import metadata

    import matplotlib

    out = {
        "piquet_sim": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pd.__version__,
        "matplotlib": matplotlib.__version__,
        "click": metadata.version("click"),
    }
    try:
        root = Path(__file__).resolve().parent.parent
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
        )
        if commit.returncode == 0:
            out["git commit"] = commit.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return out


def _rules_flags(rules: Rules) -> str:
    d = DEFAULT_RULES
    flags = []
    if rules.lead_points != d.lead_points:
        flags.append(f"--lead-points {rules.lead_points}")
    if rules.younger_must_exchange != d.younger_must_exchange:
        flags.append("--younger-may-pass")
    if rules.carte_rouge:
        flags.append("--carte-rouge")
    if rules.tie != d.tie:
        flags.append(f"--tie {rules.tie}")
    if rules.game != d.game:
        flags.append(f"--game {rules.game}")
    if rules.blank_partie_bonus:
        flags.append("--blank-partie-bonus")
    return " ".join(flags)


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


def odds_frames(s: dict) -> dict[str, pd.DataFrame]:
    """Report tables of an odds summary: events, point length, sequence, sets, mean totals."""
    n = s["deals"]
    rows = list(EVENT_ROWS) + (
        [("carte rouge", "carte_rouge")] if s["rules"]["carte_rouge"] else []
    )
    events = pd.DataFrame(
        [
            {
                "event": label,
                "elder (%)": fmt_pct_ci(s["elder"][key]),
                "younger (%)": fmt_pct_ci(s["younger"][key]),
                "exact, dealt hand (%)": fmt_pct(s["elder"][key]["exact"])
                if "exact" in s["elder"][key]
                else "",
                "deals": f"{n:,}",
            }
            for label, key in rows
        ]
    )
    out = {"events": events}
    for name, key in (
        ("point", "point_length"),
        ("sequence", "best_sequence"),
        ("sets", "best_set"),
    ):
        recs = []
        for value in s["elder"]["dealt"][key]:
            de, dy = s["elder"]["dealt"][key][value], s["younger"]["dealt"][key][value]
            fe, fy = s["elder"]["final"][key][value], s["younger"]["final"][key][value]
            recs.append(
                {
                    key.replace("_", " "): value,
                    "dealt, elder (%)": fmt_pct_ci(de),
                    "dealt, younger (%)": fmt_pct_ci(dy),
                    "exact (%)": fmt_pct(de["exact"]),
                    "kept, elder (%)": fmt_pct_ci(fe),
                    "kept, younger (%)": fmt_pct_ci(fy),
                    "deals": f"{n:,}",
                }
            )
        out[name] = pd.DataFrame(recs)
    e, y, net = s["elder"]["mean_total"], s["younger"]["mean_total"], s["net"]
    out["totals"] = pd.DataFrame(
        [
            {
                "quantity": "elder's deal total",
                "mean (points)": fmt_pts_ci(e, 3),
                "deals": f"{n:,}",
            },
            {
                "quantity": "younger's deal total",
                "mean (points)": fmt_pts_ci(y, 3),
                "deals": f"{n:,}",
            },
            {
                "quantity": "net, elder minus younger",
                "mean (points)": fmt_pts_ci(net, 3),
                "deals": f"{n:,}",
            },
        ]
    )
    return out


def odds_csv(s: dict) -> pd.DataFrame:
    """Long table of every probability in an odds summary: role, stage, group, value, p, CI,
    count, deals, exact (blank where unknown)."""
    recs = []
    for role in ("elder", "younger"):
        for _, key in EVENT_ROWS + (("carte rouge", "carte_rouge"),):
            est = s[role][key]
            recs.append(("event", role, "", key, est))
        for stage in ("dealt", "final"):
            for group, values in s[role][stage].items():
                for value, est in values.items():
                    recs.append((group, role, stage, value, est))
    return pd.DataFrame(
        [
            {
                "group": g,
                "role": r,
                "stage": st,
                "value": v,
                "p": e["p"],
                "ci_low": e["ci95"][0],
                "ci_high": e["ci95"][1],
                "count": e["count"],
                "deals": s["deals"],
                "exact": e.get("exact", ""),
            }
            for g, r, st, v, e in recs
        ]
    )


def _sinking(hands: int, seed: int, rules: Rules, log: Callable[[str], None]):
    """(DataFrame, source) of the sinking study over ``hands`` dealt hands, or (None, reason)
    when ``piquet.sinking`` does not import or offers no batch study. A ``study_table``
    beside the study summarises its rows."""
    try:
        mod = importlib.import_module(SINKING_MODULE)
    except Exception as err:  # noqa: BLE001 - any failure means "not available"
        return None, f"{SINKING_MODULE} does not import ({type(err).__name__}: {err})"
    fn = next((getattr(mod, n) for n in SINKING_FUNCTIONS if callable(getattr(mod, n, None))), None)
    if fn is None:
        return None, f"{SINKING_MODULE} offers none of {', '.join(SINKING_FUNCTIONS)}"
    source = f"{SINKING_MODULE}.{fn.__name__}"
    try:
        params = inspect.signature(fn).parameters
        offer = {"n_hands": hands, "hands": hands, "n": hands, "seed": seed, "rules": rules}
        kwargs = {k: v for k, v in offer.items() if k in params}
        note = ""
        result = fn(**kwargs)
        summarise = getattr(mod, "study_table", None)
        if isinstance(result, pd.DataFrame) and set(result.columns) >= SINK_ROW_COLUMNS:
            result = sinking_summary(result)
            note = "; per-hand rows summarised here, 95% intervals over hands"
        elif callable(summarise) and isinstance(result, pd.DataFrame):
            result = summarise(result)
            note = "; summarised by study_table"
        table = _as_frame(result)
    except Exception as err:  # noqa: BLE001 - the report goes on without the section
        log(f"sinking study failed: {type(err).__name__}: {err}")
        return None, f"{source} failed ({type(err).__name__}: {err})"
    if table is None:
        return None, f"{source} returned no table"
    shown = ", ".join(f"{k}={v}" for k, v in kwargs.items() if k != "rules")
    return table, f"{source}({shown}){note}"


SINK_ROW_COLUMNS = {"role", "choice", "gain"}


def sinking_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per-hand rows of a sinking study (role, choice, gain in points per deal over declaring
    all) as one line per (role, choice): hands, mean gain [95% interval over hands], share of
    hands where the choice beats declaring all [Wilson interval]."""
    out = []
    for (role, choice), g in rows.groupby(["role", "choice"], sort=True):
        gain = g["gain"].to_numpy(dtype=float)
        n = len(gain)
        est = mean_ci(float(gain.sum()), float((gain * gain).sum()), n)
        better = int((gain > 0).sum())
        out.append(
            {
                "seat": role,
                "choice": choice,
                "hands": n,
                "gain over declaring all (points/deal)": fmt_pts_ci(est),
                "hands where it beats declaring all (%)": fmt_pct_ci(
                    {"p": better / n, "ci95": list(wilson_interval(better, n))}
                ),
            }
        )
    return pd.DataFrame(out)


def _as_frame(result) -> pd.DataFrame | None:
    if isinstance(result, pd.DataFrame):
        return result
    for attr in ("table", "frame", "df"):
        value = getattr(result, attr, None)
        if isinstance(value, pd.DataFrame):
            return value
        if callable(value):
            value = value()
            if isinstance(value, pd.DataFrame):
                return value
    if isinstance(result, dict):
        for key in ("table", "rows"):
            if key in result:
                return pd.DataFrame(result[key])
    if isinstance(result, list) and result and isinstance(result[0], dict):
        return pd.DataFrame(result)
    return None


def _float_cells(df: pd.DataFrame) -> pd.DataFrame:
    """Round float columns for display (4 significant decimals)."""
    out = df.copy()
    for c in out.columns:
        if pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].map(lambda v: f"{v:.4g}")
    return out


# ----------------------------------------------------------------------------- the report


def build_report(
    out_dir: str | Path,
    deals: int = DEFAULT_DEALS,
    strategies: Sequence[str | Strategy] = DEFAULT_STRATEGIES,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    backend=None,
    progress: Callable[[str], None] | None = None,
    sink_hands: int | None = None,
) -> dict:
    """Run every study and write ``report.html`` (self-contained), ``report.md`` (PNGs beside
    it), the PNGs, ``odds.csv`` and ``report.json`` (every number) into ``out_dir``.

    ``deals``: deals of the odds and event-rate studies; the exchange study uses deals / 2, the
    tournament deals / 2 mirrored pairs per match, the parties deals / 40 mirrored pairs per
    pairing (at least 2 each); the sinking study (when available) ``sink_hands`` dealt hands
    (default deals / 20000, at least 4; it plays each hand's choices out, about a second a
    hand). The first strategy is the one the odds and exchange sections describe (it plays
    itself). ``progress`` receives one line per finished step. Returns the
    paths written: {"html", "md", "json", "odds_csv", "images": {name: path}}.
    """
    t_start = time.perf_counter()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    strats = [resolve(s) for s in strategies]
    names = [s.name for s in strats]
    if len(strats) < 2:
        raise ValueError("a report needs at least two strategies (for the tournament)")
    if len(set(names)) != len(names):
        raise ValueError("each strategy may appear once in a report")
    if deals < 2:
        raise ValueError("a report needs at least 2 deals")
    backend = backend or LocalBackend()
    say = progress or (lambda line: None)

    def log(line: str) -> None:
        say(f"[{time.perf_counter() - t_start:6.1f} s] {line}")

    n_exchange = max(deals // 2, 2)
    n_pairs = max(deals // 2, 2)
    n_parties = max(deals // 40, 2)
    if sink_hands is None:
        sink_hands = max(deals // 20_000, 4)
    main = strats[0]
    timings: dict[str, float] = {}
    data: dict = {}
    images: dict[str, Path] = {}

    # --- odds and event rates (each strategy playing itself)
    t = time.perf_counter()
    summaries: dict[str, dict] = {}
    main_counts = None
    for s in strats:
        summary, counts = odds(deals, seed, policies(s, s), rules, backend=backend)
        summaries[s.name] = summary
        if s is main:
            main_counts = counts
        log(f"odds: {s.name} playing itself, {summary['deals']:,} deals")
    timings["odds and event rates"] = time.perf_counter() - t
    main_summary = summaries[main.name]
    data["odds"] = main_summary
    frames = odds_frames(main_summary)
    odds_csv_path = out / "odds.csv"
    odds_csv(main_summary).to_csv(odds_csv_path, index=False)
    images["scores"] = plots.score_distributions(
        main_counts.total_hist,
        main_counts.net_hist,
        main_counts.deals,
        out / "scores.png",
        f"{main.name} playing itself",
    )

    rate_rows, rate_plot = [], []
    for name, s in summaries.items():
        row = {"strategy": name}
        for event in ("pique", "repique", "capot"):
            for role in ("elder", "younger"):
                est = s[role][event]
                row[f"{event}, {role} (%)"] = fmt_pct_ci(est)
                rate_plot.append(
                    {
                        "strategy": name,
                        "event": event,
                        "role": role,
                        "p": est["p"],
                        "lo": est["ci95"][0],
                        "hi": est["ci95"][1],
                    }
                )
        row["deals"] = f"{s['deals']:,}"
        rate_rows.append(row)
    rates = pd.DataFrame(rate_rows)
    data["event_rates"] = {
        n: {r: {e: s[r][e] for e in ("pique", "repique", "capot")} for r in ("elder", "younger")}
        for n, s in summaries.items()
    }
    images["rates"] = plots.event_rates(rate_plot, out / "event_rates.png")

    # --- value of exchanging k cards
    t = time.perf_counter()
    x = exchange_study(n_exchange, seed, policies(main, main), rules, backend)
    elder_x, younger_x, x_raw = exchange_tables(x, rules)
    data["exchange"] = x_raw
    timings["exchange value"] = time.perf_counter() - t
    log(f"exchange value: {len(x.cells)} settings x {x.deals:,} deals")
    images["exchange"] = plots.exchange_value(
        x_raw["elder"], x_raw["younger"], out / "exchange_value.png"
    )

    # --- tournament
    t = time.perf_counter()
    tour = tournament(strats, n_pairs, seed, rules)
    timings["tournament"] = time.perf_counter() - t
    log(f"tournament: {len(tour.matches)} matches x {n_pairs:,} mirrored pairs")
    images["heatmap"] = out / "tournament_heatmap.png"
    plot_margins(tour, images["heatmap"])
    stand = []
    for _, r in tour.standings.iterrows():
        i = names.index(r["strategy"])
        opp = [j for j in range(len(names)) if j != i]
        half = float(np.mean(tour.half_widths[i, opp]))  # sd of a mean <= mean of the sds
        stand.append(
            {
                "strategy": r["strategy"],
                "mean margin (points/deal)": fmt_pts_ci(
                    {
                        "mean": r["mean_margin"],
                        "ci95": [r["mean_margin"] - half, r["mean_margin"] + half],
                    },
                    3,
                ),
                "significant wins": int(r["significant_wins"]),
                "significant losses": int(r["significant_losses"]),
                "matches": int(r["matches"]),
                "pairs per match": f"{n_pairs:,}",
            }
        )
    standings = pd.DataFrame(stand)
    matches = pd.DataFrame(
        [
            {
                "A": r["a"],
                "B": r["b"],
                "A's margin (points/deal)": fmt_pts_ci(
                    {"mean": r["net_per_deal"], "ci95": [r["ci_low"], r["ci_high"]]}, 3
                ),
                "p-value": f"{r['p_value']:.2g}",
                "A wins the deal (%)": fmt_pct_ci(_rate(r["a_deal_win_rate"], 2 * int(r["pairs"]))),
                "mirrored pairs": f"{int(r['pairs']):,}",
            }
            for _, r in tour.matches.iterrows()
        ]
    )
    data["tournament"] = {
        "matches": tour.matches.to_dict(orient="records"),
        "standings": tour.standings.to_dict(orient="records"),
    }

    # --- parties
    t = time.perf_counter()
    partie_rows, partie_plot, partie_data = [], [], []
    for a, b in itertools.combinations(strats, 2):
        ps = parties(a, b, n_parties, seed, rules).summary
        partie_data.append(ps)
        st = ps["a_settlement"]
        partie_rows.append(
            {
                "A": a.name,
                "B": b.name,
                "A wins (%)": fmt_pct_ci(ps["a_win"]),
                "draw (%)": fmt_pct_ci(ps["draw"]),
                "rubicon, either way (%)": fmt_pct_ci(ps["rubicon"]),
                "A rubicons B (%)": fmt_pct_ci(ps["a_rubicons_b"]),
                "B rubicons A (%)": fmt_pct_ci(ps["b_rubicons_a"]),
                "A's settlement (points/partie)": fmt_pts_ci(st, 1),
                "deals per partie": f"{ps['mean_deals']:.2f}",
                "parties": f"{ps['parties']:,}",
            }
        )
        partie_plot.append(
            {
                "label": f"{a.name} vs {b.name}",
                "mean": st["mean"],
                "lo": st["ci95"][0],
                "hi": st["ci95"][1],
            }
        )
    timings["parties"] = time.perf_counter() - t
    log(f"parties: {len(partie_rows)} pairings x {2 * n_parties:,} parties")
    partie_table = pd.DataFrame(partie_rows)
    data["parties"] = partie_data
    images["parties"] = plots.partie_settlement(
        partie_plot, out / "partie_settlement.png", f"Mirrored parties ({rules.game})"
    )

    # --- sinking study
    t = time.perf_counter()
    sink_table, sink_source = _sinking(sink_hands, seed, rules, log)
    timings["sinking study"] = time.perf_counter() - t
    data["sinking"] = {
        "available": sink_table is not None,
        "source": sink_source,
        "table": None if sink_table is None else json.loads(sink_table.to_json(orient="records")),
    }
    log("sinking study: " + ("included" if sink_table is not None else "not available"))

    # --- assemble
    elapsed = time.perf_counter() - t_start
    timings["total"] = elapsed
    strategy_args = ",".join(names)
    command = (
        f"piquet report --out {out_dir} --deals {deals} --seed {seed} "
        f"--strategies {strategy_args} {_rules_flags(rules)}"
    ).strip()
    versions = _versions()
    sections: list[Section] = []

    sec = Section("reproduce", "Reproduce this report")
    sec.text(
        f"Generated {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} in "
        f"{elapsed:.0f} s on {os.cpu_count()} cores ({numba.get_num_threads()} numba "
        f"threads; backend: {backend.describe()}). Every study uses seed {seed}, so deal i "
        f"is the same deal in all of them. To regenerate:\n\n`{command}`"
    )
    sec.table(
        pd.DataFrame([{"option": k, "value": str(v)} for k, v in rules.to_dict().items()]),
        "Rules options",
    )
    sec.table(
        pd.DataFrame(
            [
                {
                    "study": "odds, score distributions, event rates",
                    "sample": f"{deals:,} deals per strategy (playing itself)",
                    "seconds": f"{timings['odds and event rates']:.1f}",
                },
                {
                    "study": "value of exchanging k cards",
                    "sample": f"{x.deals:,} deals x {len(x.cells)} exchange settings",
                    "seconds": f"{timings['exchange value']:.1f}",
                },
                {
                    "study": "tournament",
                    "sample": f"{n_pairs:,} mirrored deal pairs per match",
                    "seconds": f"{timings['tournament']:.1f}",
                },
                {
                    "study": "parties",
                    "sample": f"{2 * n_parties:,} parties per pairing "
                    f"({n_parties:,} mirrored pairs)",
                    "seconds": f"{timings['parties']:.1f}",
                },
                {
                    "study": "sinking",
                    "sample": f"{sink_hands:,} dealt hands per seat"
                    if sink_table is not None
                    else "not run",
                    "seconds": f"{timings['sinking study']:.1f}",
                },
            ]
        ),
        "Sample sizes and run times",
    )
    sec.table(
        pd.DataFrame(
            [
                {
                    "strategy": s.name,
                    "stages (exchange / declare / play)": s.summary(),
                    "description": s.description,
                }
                for s in strats
            ]
        ),
        "Strategies",
    )
    sec.table(
        pd.DataFrame([{"software": k, "version": v} for k, v in versions.items()]),
        "Software versions",
    )
    sections.append(sec)

    sec = Section("how-to-read", "How to read this report")
    sec.text(HOW_TO_READ)
    sections.append(sec)

    sec = Section("odds", f"Odds: {main.name} playing itself")
    sec.text(
        f"Both players use **{main.name}** ({main.summary()}); {deals:,} deals. The exact "
        "column is the dealt-hand value from combinatorics."
    )
    sec.table(frames["events"], "Deal events, percent of deals [95% interval]")
    sec.table(frames["point"], "Longest suit (point length): dealt and kept hands")
    sec.table(frames["sequence"], "Best sequence: dealt and kept hands")
    sec.table(frames["sets"], "Best set (tens and higher): dealt and kept hands")
    sections.append(sec)

    sec = Section("scores", "Score distributions")
    sec.text(
        f"Points per deal, {main.name} playing itself. Elder's advantage is the mean net "
        f"score: {fmt_pts_ci(main_summary['net'], 2)} points per deal "
        f"(sd {main_summary['net']['sd']:.1f})."
    )
    sec.table(frames["totals"], "Mean deal totals [95% interval]")
    sec.image(
        images["scores"], "Deal totals for elder and younger, and the net score, with 95% bands"
    )
    sections.append(sec)

    sec = Section("exchange", "Value of exchanging k cards")
    sec.text(
        f"Method: **causal**. The same {x.deals:,} deals are finished once per exchange "
        f"size; a player forced to take k cards throws the k of lowest greedy keep value "
        f"({main.name}'s weights) and draws k; everything after is {main.name}'s play. "
        "Differences are paired on common deals. For younger, elder's take is forced to "
        "k and younger's to j."
    )
    sec.table(elder_x, "Elder: net per deal (elder minus younger) when taking exactly k cards")
    sec.table(
        younger_x,
        "Younger: net per deal (younger minus elder) when taking exactly j "
        "cards after elder took k",
    )
    sec.image(images["exchange"], "Mean net per deal by exchange size, 95% intervals")
    sections.append(sec)

    sec = Section("rates", "Pique, repique and capot by strategy")
    sec.text(f"Each strategy playing itself, {deals:,} deals each.")
    sec.table(rates, "Percent of deals [95% interval]")
    sec.image(images["rates"], "Pique, repique and capot rates by strategy and seat")
    sections.append(sec)

    sec = Section("tournament", "Tournament")
    sec.text(
        f"Round robin on mirrored deals: {n_pairs:,} deal pairs per match, seed {seed}. The "
        "standings' interval is conservative (the mean of the row's half-widths)."
    )
    sec.table(standings, "Standings (mean margin over all opponents)")
    sec.table(matches, "Matches (A's view)")
    sec.image(
        images["heatmap"], "Pairwise margins, row minus column, points per deal (± 95% half-width)"
    )
    sections.append(sec)

    sec = Section("parties", "Parties")
    sec.text(
        f"Mirrored parties ({rules.game}): {2 * n_parties:,} parties per pairing, half "
        "with each strategy elder in the first deal."
    )
    sec.table(partie_table, "Partie results (A's view) [95% interval]")
    sec.image(images["parties"], "A's expected settlement per partie, 95% intervals")
    sections.append(sec)

    sec = Section("sinking", "Sinking study")
    if sink_table is not None:
        sec.text(
            f"From {sink_source}. Gains are points per deal (player minus opponent) "
            "over declaring everything."
        )
        sec.table(_float_cells(sink_table), "Sinking study")
    else:
        sec.text(f"The sinking study is not available yet: {sink_source}.")
    sections.append(sec)

    title = f"Piquet strategy report ({', '.join(names)})"
    paths = {
        "html": out / "report.html",
        "md": out / "report.md",
        "json": out / "report.json",
        "odds_csv": odds_csv_path,
        "images": images,
    }
    paths["html"].write_text(render_html(title, sections), encoding="utf-8")
    paths["md"].write_text(render_markdown(title, sections), encoding="utf-8")
    data.update(
        command=command,
        seed=seed,
        deals=deals,
        rules=rules.to_dict(),
        strategies=names,
        versions=versions,
        timings=timings,
        samples={
            "odds": deals,
            "exchange": x.deals,
            "tournament_pairs": n_pairs,
            "partie_pairs": n_parties,
        },
    )
    paths["json"].write_text(json.dumps(data, indent=1, default=_json_default), encoding="utf-8")
    log(f"report written to {paths['html']}")
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
