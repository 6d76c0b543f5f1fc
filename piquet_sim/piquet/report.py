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
* the sinking study's table when asked for (``sink_hands``) and ``piquet.sinking`` offers one.

Each study is one function of a :class:`ReportContext` returning its sections, listed in
:data:`STUDIES`; the reproduce section is built last and placed first.

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
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from .. import __version__
from ..core.app.report import Section, render_html, render_markdown
from ..core.engine.backend import Chunk, LocalBackend, run_chunks, stop_requested
from ..core.engine.stats import mean_ci, wilson_interval
from ..core.game.strategy import Strategy
from . import plots
from .kernels import exchange_value as KX
from .kernels import layouts as L
from .kernels.bundles import make_env
from .ladder import ladder, ladder_section, ratings_frame
from .match import format_p, tournament
from .odds import odds
from .partie import parties
from .rules import DEFAULT_RULES, Rules
from .simulation import Policies, solver_bits
from .strategies import BOOK, policies
from .strategies import summary as in_one_line

#: The report's strategies when none are given; the first (the strongest fast strategy,
#: heuristic exchange and play; greedy until issue 37) is the one the odds and exchange sections
#: describe.
DEFAULT_STRATEGIES = ("heuristic", "greedy", "max", "sink-sets", "sink-point", "random")
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
    """Sums of every exchange cell over ``deals`` deals of ``seed`` (see ``exchange_cells``);
    Ctrl-C stops after the chunk in flight (``deals`` of the result says how many finished)."""
    backend = backend or LocalBackend()
    cells = exchange_cells(rules)
    total = ExchangeCounts(cells)
    run_chunks(
        backend,
        exchange_chunk,
        deals,
        chunk,
        (seed, pol, rules, cells),
        lambda _, part: total.merge(part),
        progress,
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


@dataclass
class ReportContext:
    """What every study of a report shares: its inputs, where it writes, and what earlier studies
    left for later ones (``results``), the numbers for report.json (``data``), the images, one
    row per study for the sample-size table (``samples``), and each study's state."""

    out: Path
    deals: int
    strategies: list[Strategy]
    seed: int
    rules: Rules
    backend: object
    log: Callable[[str], None]
    sink_hands: int | None = None
    ladder_solver_deals: int = 0
    results: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    images: dict[str, Path] = field(default_factory=dict)
    samples: list[dict] = field(default_factory=list)
    state: dict[str, str] = field(default_factory=dict)  # study -> complete / partial / not run
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.strategies]

    @property
    def main(self) -> Strategy:
        return self.strategies[0]

    @property
    def n_exchange(self) -> int:
        return max(self.deals // 2, 2)

    @property
    def n_pairs(self) -> int:
        return max(self.deals // 2, 2)

    @property
    def n_parties(self) -> int:
        return max(self.deals // 40, 2)

    def record(
        self, study: str, sample: str, seconds: float, partial: bool, started: bool = True
    ) -> None:
        """One row of the sample-size table; ``partial``: cut short by Ctrl-C; ``started``:
        false when Ctrl-C came before the study did anything ("not run")."""
        state = "not run" if not started else ("partial" if partial else "complete")
        self.state[study] = state
        self.timings[study] = seconds
        note = {"not run": " (interrupted: not run)", "partial": " (interrupted: partial)"}
        self.samples.append(
            {"study": study, "sample": sample + note.get(state, ""), "seconds": f"{seconds:.1f}"}
        )


#: A study runs its work and returns its sections (in report order).
Study = Callable[[ReportContext], list[Section]]


def odds_study(ctx: ReportContext) -> list[Section]:
    """Odds of every strategy playing itself; the first strategy's odds and score sections."""
    summaries: dict[str, dict] = {}
    counts = {}
    for s in ctx.strategies:
        if stop_requested():
            break
        summary, c = odds(ctx.deals, ctx.seed, policies(s, s), ctx.rules, backend=ctx.backend)
        summaries[s.name], counts[s.name] = summary, c
        ctx.log(f"odds: {s.name} playing itself, {summary['deals']:,} deals")
    ctx.results["odds"] = summaries
    main = ctx.main
    if main.name not in summaries or summaries[main.name]["deals"] == 0:
        return [_not_run("odds", f"Odds: {main.name} playing itself")]
    ms, mc = summaries[main.name], counts[main.name]
    partial = any(x["interrupted"] for x in summaries.values()) or len(summaries) < len(
        ctx.strategies
    )
    ctx.data["odds"] = ms
    frames = odds_frames(ms)
    ctx.results["odds_csv"] = ctx.out / "odds.csv"
    odds_csv(ms).to_csv(ctx.results["odds_csv"], index=False)
    ctx.images["scores"] = plots.score_distributions(
        mc.total_hist, mc.net_hist, mc.deals, ctx.out / "scores.png", f"{main.name} playing itself"
    )
    ctx.results["odds_partial"] = partial
    n = ms["deals"]
    sec = Section("odds", f"Odds: {main.name} playing itself")
    sec.text(
        f"Both players use **{main.name}** ({in_one_line(main)}); {n:,} deals. The exact "
        "column is the dealt-hand value from combinatorics." + _cut(ms["interrupted"])
    )
    sec.table(frames["events"], "Deal events, percent of deals [95% interval]")
    sec.table(frames["point"], "Longest suit (point length): dealt and kept hands")
    sec.table(frames["sequence"], "Best sequence: dealt and kept hands")
    sec.table(frames["sets"], "Best set (tens and higher): dealt and kept hands")
    scores = Section("scores", "Score distributions")
    scores.text(
        f"Points per deal, {main.name} playing itself. Elder's advantage is the mean net "
        f"score: {fmt_pts_ci(ms['net'], 2)} points per deal (sd {ms['net']['sd']:.1f})."
    )
    scores.table(frames["totals"], "Mean deal totals [95% interval]")
    scores.image(
        ctx.images["scores"], "Deal totals for elder and younger, and the net score, with 95% bands"
    )
    return [sec, scores]


def rates_study(ctx: ReportContext) -> list[Section]:
    """Pique, repique and capot rates of each strategy playing itself (from the odds study)."""
    summaries = {k: v for k, v in ctx.results.get("odds", {}).items() if v["deals"]}
    if not summaries:
        return [_not_run("rates", "Pique, repique and capot by strategy")]
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
    ctx.data["event_rates"] = {
        n: {r: {e: s[r][e] for e in ("pique", "repique", "capot")} for r in ("elder", "younger")}
        for n, s in summaries.items()
    }
    ctx.images["rates"] = plots.event_rates(rate_plot, ctx.out / "event_rates.png")
    sec = Section("rates", "Pique, repique and capot by strategy")
    sec.text(
        "Each strategy playing itself; the deals column says how many."
        + _cut(ctx.results.get("odds_partial", False))
    )
    sec.table(pd.DataFrame(rate_rows), "Percent of deals [95% interval]")
    sec.image(ctx.images["rates"], "Pique, repique and capot rates by strategy and seat")
    return [sec]


def exchange_section_study(ctx: ReportContext) -> list[Section]:
    """The value of exchanging k cards (elder) and j cards (younger), on common deals."""
    t = time.perf_counter()
    main = ctx.main
    x = exchange_study(ctx.n_exchange, ctx.seed, policies(main, main), ctx.rules, ctx.backend)
    partial = x.deals < ctx.n_exchange
    ctx.record(
        "value of exchanging k cards",
        f"{x.deals:,} deals x {len(x.cells)} exchange settings",
        time.perf_counter() - t,
        partial,
        x.deals > 0,
    )
    if x.deals < 2:
        return [_not_run("exchange", "Value of exchanging k cards")]
    elder_x, younger_x, x_raw = exchange_tables(x, ctx.rules)
    ctx.data["exchange"] = x_raw
    ctx.log(f"exchange value: {len(x.cells)} settings x {x.deals:,} deals")
    ctx.images["exchange"] = plots.exchange_value(
        x_raw["elder"], x_raw["younger"], ctx.out / "exchange_value.png"
    )
    sec = Section("exchange", "Value of exchanging k cards")
    sec.text(
        f"Method: **causal**. The same {x.deals:,} deals are finished once per exchange "
        f"size; a player forced to take k cards throws the k of lowest greedy keep value "
        f"({main.name}'s weights) and draws k; everything after is {main.name}'s play. "
        "Differences are paired on common deals. For younger, elder's take is forced to "
        "k and younger's to j." + _cut(partial)
    )
    sec.table(elder_x, "Elder: net per deal (elder minus younger) when taking exactly k cards")
    sec.table(
        younger_x,
        "Younger: net per deal (younger minus elder) when taking exactly j "
        "cards after elder took k",
    )
    sec.image(ctx.images["exchange"], "Mean net per deal by exchange size, 95% intervals")
    return [sec]


def tournament_study(ctx: ReportContext) -> list[Section]:
    """Round robin on mirrored deals: standings, matches and the heatmap of margins."""
    t = time.perf_counter()
    tour = tournament(ctx.strategies, ctx.n_pairs, ctx.seed, ctx.rules, backend=ctx.backend)
    played = int(tour.matches["pairs"].sum()) if len(tour.matches) else 0
    ctx.record(
        "tournament",
        f"{ctx.n_pairs:,} mirrored deal pairs per match ({played:,} played in all)",
        time.perf_counter() - t,
        tour.partial,
        played > 0,
    )
    if not len(tour.matches) or played == 0:
        return [_not_run("tournament", "Tournament")]
    ctx.log(f"tournament: {len(tour.matches)} matches x {ctx.n_pairs:,} mirrored pairs")
    ctx.images["heatmap"] = plots.margins_heatmap(
        tour.names, tour.margins, tour.half_widths, ctx.out / "tournament_heatmap.png"
    )
    names = ctx.names
    stand = []
    for _, r in tour.standings.dropna(subset=["mean_margin"]).iterrows():
        i = names.index(r["strategy"])
        opp = [j for j in range(len(names)) if j != i and tour.half_widths[i, j] > 0]
        half = float(np.mean(tour.half_widths[i, opp])) if opp else float("nan")
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
            }
        )
    matches = pd.DataFrame(
        [
            {
                "A": r["a"],
                "B": r["b"],
                "A's margin (points/deal)": fmt_pts_ci(
                    {"mean": r["net_per_deal"], "ci95": [r["ci_low"], r["ci_high"]]}, 3
                ),
                "p-value": p_cell(r["p_value"]),
                "A wins the deal (%)": fmt_pct_ci(_rate(r["a_deal_win_rate"], 2 * int(r["pairs"]))),
                "mirrored pairs": f"{int(r['pairs']):,}",
            }
            for _, r in tour.matches.iterrows()
        ]
    )
    ctx.data["tournament"] = {
        "matches": tour.matches.to_dict(orient="records"),
        "standings": tour.standings.to_dict(orient="records"),
    }
    sec = Section("tournament", "Tournament")
    sec.text(
        f"Round robin on mirrored deals: {ctx.n_pairs:,} deal pairs per match, seed {ctx.seed}. "
        "The standings' interval is conservative (the mean of the row's half-widths)."
        + _cut(tour.partial)
    )
    sec.table(pd.DataFrame(stand), "Standings (mean margin over all opponents)")
    sec.table(matches, "Matches (A's view)")
    sec.image(
        ctx.images["heatmap"],
        "Pairwise margins, row minus column, points per deal (± 95% half-width)",
    )
    return [sec]


def parties_study(ctx: ReportContext) -> list[Section]:
    """Mirrored parties of every pairing: outcomes, rubicons and settlement."""
    t = time.perf_counter()
    rows, plot_rows, summaries = [], [], []
    partial = False
    for a, b in itertools.combinations(ctx.strategies, 2):
        if stop_requested():
            partial = True
            break
        ps = parties(a, b, ctx.n_parties, ctx.seed, ctx.rules, backend=ctx.backend).summary
        if ps["pairs"] == 0:
            partial = True
            break
        partial = partial or ps["interrupted"]
        summaries.append(ps)
        st = ps["a_settlement"]
        rows.append(
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
        plot_rows.append(
            {"label": f"{a.name} vs {b.name}", "mean": st["mean"], "lo": st["ci95"][0]}
            | {"hi": st["ci95"][1]}
        )
    sample = f"{2 * ctx.n_parties:,} parties per pairing ({ctx.n_parties:,} mirrored pairs)"
    if partial:
        done = sum(ps["pairs"] for ps in summaries)
        sample += f"; {len(summaries)} pairings, {done:,} mirrored pairs done"
    ctx.record(
        "parties",
        sample,
        time.perf_counter() - t,
        partial,
        bool(rows),
    )
    if not rows:
        return [_not_run("parties", "Parties")]
    ctx.log(f"parties: {len(rows)} pairings x {2 * ctx.n_parties:,} parties")
    ctx.data["parties"] = summaries
    ctx.images["parties"] = plots.partie_settlement(
        plot_rows, ctx.out / "partie_settlement.png", f"Mirrored parties ({ctx.rules.game})"
    )
    sec = Section("parties", "Parties")
    sec.text(
        f"Mirrored parties ({ctx.rules.game}): {2 * ctx.n_parties:,} parties per pairing, half "
        "with each strategy elder in the first deal." + _cut(partial)
    )
    sec.table(pd.DataFrame(rows), "Partie results (A's view) [95% interval]")
    sec.image(
        ctx.images["parties"],
        "A's expected settlement per partie; bars are 95% intervals, written beside each point",
    )
    return [sec]


def sinking_study(ctx: ReportContext) -> list[Section]:
    """Sinking study over ``sink_hands`` dealt hands per seat (not in the default report: it
    plays each hand's choices out, about a second a hand, and needs hundreds of hands for
    intervals worth reading)."""
    sec = Section("sinking", "Sinking study")
    if not ctx.sink_hands:
        sec.text(
            "Not run in this report: the sinking study plays every declaration choice of each "
            "hand out (about a second a hand) and needs a few hundred hands per seat before its "
            "intervals say anything. Add it with `--sink-hands 400`, or study one hand with "
            "`piquet sink HAND`."
        )
        ctx.state["sinking study"] = "not requested"
        return [sec]
    if stop_requested():
        ctx.record("sinking study", f"{ctx.sink_hands:,} dealt hands per seat", 0.0, True, False)
        return [_not_run("sinking", "Sinking study")]
    t = time.perf_counter()
    table, source = _sinking(ctx.sink_hands, ctx.seed, ctx.rules, ctx.log)
    ctx.record(
        "sinking study",
        f"{ctx.sink_hands:,} dealt hands per seat" if table is not None else "not available",
        time.perf_counter() - t,
        stop_requested(),
    )
    ctx.data["sinking"] = {
        "available": table is not None,
        "source": source,
        "table": None if table is None else json.loads(table.to_json(orient="records")),
    }
    ctx.log("sinking study: " + ("included" if table is not None else "not available"))
    if table is not None:
        sec.text(
            f"{ctx.sink_hands:,} dealt hands per seat, each choice played out on common worlds. "
            "Gains are points per deal (player minus opponent) over declaring everything, with "
            "95% intervals over hands."
        )
        sec.table(_float_cells(table), "Sinking study")
    else:
        sec.text(f"The sinking study is not available: {source}.")
    return [sec]


def _timed_odds(ctx: ReportContext) -> list[Section]:
    t = time.perf_counter()
    sections = odds_study(ctx)
    odds_done = ctx.results.get("odds", {})
    done = [v["deals"] for v in odds_done.values()]
    sample = f"{ctx.deals:,} deals per strategy (playing itself)"
    if len(done) < len(ctx.strategies) or any(d < ctx.deals for d in done):
        counts = ", ".join(
            f"{s.name} {odds_done[s.name]['deals'] if s.name in odds_done else 0:,}"
            for s in ctx.strategies
        )
        sample = f"{ctx.deals:,} deals per strategy asked; done: {counts}"
    ctx.record(
        "odds, score distributions, event rates",
        sample,
        time.perf_counter() - t,
        len(done) < len(ctx.strategies) or any(d < ctx.deals for d in done),
        any(done),
    )
    return sections


def ladder_study(ctx: ReportContext) -> list[Section]:
    """The strength ladder of the play policies on mirrored deals (random, greedy, heuristic;
    pimc and dd too when ``ladder_solver_deals`` > 0: they call the solver, so they play that
    many pairs)."""
    if stop_requested():
        ctx.record("ladder", "play policies", 0.0, True, False)
        return [_not_run("ladder", "Strength ladder of the play policies")]
    names = ["random", "greedy", "heuristic"]
    if ctx.ladder_solver_deals:
        names += ["pimc", "pimcw", "dd"]
    t = time.perf_counter()
    result = ladder(names, ctx.n_pairs, ctx.ladder_solver_deals or 1, ctx.seed, rules=ctx.rules)
    pairs = f"{ctx.n_pairs:,} mirrored pairs per match"
    if ctx.ladder_solver_deals:
        pairs += f" ({ctx.ladder_solver_deals:,} with pimc or dd)"
    ctx.record("ladder", pairs, time.perf_counter() - t, stop_requested())
    ctx.data["ladder"] = {
        "ratings": ratings_frame(result).to_dict(orient="records"),
        "matches": result.matches.to_dict(orient="records"),
    }
    ctx.log(f"ladder: {len(result.matches)} matches")
    sec = ladder_section(result)
    if not ctx.ladder_solver_deals:
        sec.text(
            "pimc and dd are left out of the default report (they call the exact solver); "
            "add them with `--ladder-solver-deals 500`, or run `piquet ladder`."
        )
    return [sec]


#: The studies of a report, run in this order; each adds its sections after the previous ones'.
#: Adding a section is one function ``f(ctx) -> list[Section]`` and one entry here.
STUDIES: list[tuple[str, Study]] = [
    ("odds", _timed_odds),
    ("exchange", exchange_section_study),
    ("rates", rates_study),
    ("tournament", tournament_study),
    ("parties", parties_study),
    ("sinking", sinking_study),
    ("ladder", ladder_study),
]


def _cut(partial: bool) -> str:
    """The sentence a study's text ends with when Ctrl-C cut it."""
    if not partial:
        return ""
    return " **Interrupted (Ctrl-C): partial, the counts shown are what finished.**"


def _not_run(key: str, title: str) -> Section:
    sec = Section(key, title)
    sec.text("Not run: the report was interrupted (Ctrl-C) before this study.")
    return sec


def reproduce_section(ctx: ReportContext, elapsed: float, command: str, versions: dict) -> Section:
    """The first section, built last: how to regenerate, the rules, samples and run times,
    strategies and software versions."""
    sec = Section("reproduce", "Reproduce this report")
    head = ""
    if stop_requested() or "partial" in ctx.state.values():
        head = (
            "**This report is partial: it was interrupted (Ctrl-C); the sample table says what "
            "each study finished.** "
        )
    sec.text(
        f"{head}Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} in "
        f"{elapsed:.0f} s on {os.cpu_count()} cores ({numba.get_num_threads()} numba "
        f"threads; backend: {ctx.backend.describe()}). Every study uses seed {ctx.seed}, so "
        f"deal i is the same deal in all of them. To regenerate:\n\n`{command}`"
    )
    sec.table(
        pd.DataFrame([{"option": k, "value": str(v)} for k, v in ctx.rules.to_dict().items()]),
        "Rules options",
    )
    sec.table(pd.DataFrame(ctx.samples), "Sample sizes and run times")
    sec.table(
        pd.DataFrame(
            [
                {
                    "strategy": s.name,
                    "stages (exchange / declare / play)": in_one_line(s),
                    "description": s.description,
                }
                for s in ctx.strategies
            ]
        ),
        "Strategies",
    )
    sec.table(
        pd.DataFrame([{"software": k, "version": v} for k, v in versions.items()]),
        "Software versions",
    )
    return sec


def entry_kernels(strategies: Sequence[str | Strategy] = DEFAULT_STRATEGIES) -> tuple:
    """The kernels :func:`build_report` calls first, the odds of each strategy playing itself
    (for a compile notice on a cold cache: the kernels these strategies actually run, so a warm
    cache says nothing)."""
    from .simulation import records_kernel

    chosen = [BOOK.resolve(s) for s in strategies]
    return tuple(dict.fromkeys(records_kernel(policies(s, s)) for s in chosen))


def build_report(
    out_dir: str | Path,
    deals: int = DEFAULT_DEALS,
    strategies: Sequence[str | Strategy] = DEFAULT_STRATEGIES,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    backend=None,
    progress: Callable[[str], None] | None = None,
    sink_hands: int | None = None,
    ladder_solver_deals: int = 0,
) -> dict:
    """Run every study of :data:`STUDIES` and write ``report.html`` (self-contained),
    ``report.md`` (PNGs beside it), the PNGs, ``odds.csv`` and ``report.json`` (every number)
    into ``out_dir``.

    ``deals``: deals of the odds and event-rate studies; the exchange study uses deals / 2, the
    tournament deals / 2 mirrored pairs per match, the parties deals / 40 mirrored pairs per
    pairing (at least 2 each); the sinking study runs only with ``sink_hands`` dealt hands per
    seat (about a second a hand); the ladder plays deals / 2 mirrored pairs per match of the fast
    play policies, and ``ladder_solver_deals`` pairs with pimc and dd when above 0. The first
    strategy is the one the odds and exchange sections describe (it plays itself).
    ``progress`` receives one line per finished step. A Ctrl-C
    (inside a ``core.backend.StopOnInterrupt`` block, as ``piquet report`` runs) cuts the study
    in flight, skips the rest, and the report says so (``report.json`` ``"partial": true``).
    Returns the paths written: {"html", "md", "json", "odds_csv", "images": {name: path}}.
    """
    t_start = time.perf_counter()
    out = Path(out_dir)
    strats = [BOOK.resolve(s) for s in strategies]
    names = [s.name for s in strats]
    if len(strats) < 2:
        raise ValueError("a report needs at least two strategies (for the tournament)")
    if len(set(names)) != len(names):
        raise ValueError("each strategy may appear once in a report")
    if deals < 2:
        raise ValueError("a report needs at least 2 deals")
    out.mkdir(parents=True, exist_ok=True)
    say = progress or (lambda line: None)

    def log(line: str) -> None:
        say(f"[{time.perf_counter() - t_start:6.1f} s] {line}")

    ctx = ReportContext(
        out,
        deals,
        strats,
        seed,
        rules,
        backend or LocalBackend(),
        log,
        sink_hands,
        ladder_solver_deals,
    )
    sections: list[Section] = [Section("how-to-read", "How to read this report")]
    sections[0].text(HOW_TO_READ)
    for _, study in STUDIES:
        sections += study(ctx)
    elapsed = time.perf_counter() - t_start
    ctx.timings["total"] = elapsed
    command = (
        f"piquet report --out {out_dir} --deals {deals} --seed {seed} "
        f"--strategies {','.join(names)}"
        + (f" --sink-hands {sink_hands}" if sink_hands else "")
        + (f" --ladder-solver-deals {ladder_solver_deals}" if ladder_solver_deals else "")
        + f" {_rules_flags(rules)}"
    ).strip()
    versions = _versions()
    sections.insert(0, reproduce_section(ctx, elapsed, command, versions))

    title = f"Piquet strategy report ({', '.join(names)})"
    paths = {
        "html": out / "report.html",
        "md": out / "report.md",
        "json": out / "report.json",
        "odds_csv": ctx.results.get("odds_csv"),
        "images": ctx.images,
    }
    paths["html"].write_text(render_html(title, sections), encoding="utf-8")
    paths["md"].write_text(render_markdown(title, sections), encoding="utf-8")
    partial = stop_requested() or any(v == "partial" for v in ctx.state.values())
    ctx.data.update(
        command=command,
        seed=seed,
        deals=deals,
        rules=rules.to_dict(),
        strategies=names,
        versions=versions,
        timings=ctx.timings,
        samples={
            "odds": deals,
            "exchange": ctx.n_exchange,
            "tournament_pairs": ctx.n_pairs,
            "partie_pairs": ctx.n_parties,
        },
    )
    if partial:  # only then, so a complete report keeps its exact numbers file
        ctx.data.update(partial=True, studies=ctx.state)
    paths["json"].write_text(
        json.dumps(ctx.data, indent=1, default=_json_default), encoding="utf-8"
    )
    log(f"report written to {paths['html']}" + (" (partial)" if partial else ""))
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
