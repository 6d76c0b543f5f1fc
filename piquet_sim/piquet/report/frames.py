"""The report's tables: the odds as frames and CSV, the sinking study's summary, the versions
and rules in words, and how to read the report."""

from __future__ import annotations

import importlib
import inspect
import platform
import subprocess
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from ... import __version__
from ...core.engine.backend import Cancel
from ...core.engine.stats import mean_ci, wilson_interval
from ..odds import EVENT_ROWS
from ..rules import DEFAULT_RULES, Rules
from .constants import (
    SINKING_FUNCTIONS,
    SINKING_MODULE,
)
from .text import (
    fmt_pct,
    fmt_pct_ci,
    fmt_pts_ci,
)

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


def sinking_table(
    hands: int, seed: int, rules: Rules, log: Callable[[str], None], cancel: Cancel | None = None
):
    """(DataFrame, source) of the sinking study over ``hands`` dealt hands, or (None, reason)
    when ``piquet.sinking`` does not import or offers no batch study. A ``study_table``
    beside the study summarises its rows. ``cancel``: the report's token, for a study that
    takes one."""
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
        offer["cancel"] = cancel
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
    shown = ", ".join(f"{k}={v}" for k, v in kwargs.items() if k not in ("rules", "cancel"))
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
