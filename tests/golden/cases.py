"""Golden outputs: fixed-seed runs of every Piquet command and the main kernels, captured before
the engine refactor, so a test can hold the refactor to "not one number changes".

Each case is a function returning a JSON-able dict. CLI cases run ``piquet … --json`` in process;
kernel cases hash whole record arrays (sha256 of the bytes, plus column sums to show where a
difference lies). Volatile fields (timings, versions) are dropped. Regenerate with
``PIQUET_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py`` only when a change of numbers is
intended, and say so in the commit message.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout

import numpy as np

VOLATILE = {"seconds", "elapsed", "rate", "versions", "commit", "deals_per_s", "time", "timings"}

HAND_E = "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
HAND_Y = "AH KH 9H 7H QS TS 8S JD 9D 8C 7C KC"
CMP_E = "AS KS QS JS TS 9H 8H AD KD AC QC JC"
CMP_Y = "8S 7S AH KH QH JH TH KC TC 9C 8C 7C"


def _strip(x):
    if isinstance(x, dict):
        return {k: _strip(v) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [_strip(v) for v in x]
    return x


def run_cli(*args: str) -> dict:
    """``piquet ARGS`` in process; its stdout parsed as JSON, volatile keys dropped."""
    from piquet_sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code
    if code != 0:
        raise AssertionError(f"piquet {' '.join(args)} exited {code}: {err.getvalue()}")
    return _strip(json.loads(out.getvalue()))


def compact_advice(d: dict) -> dict:
    """An advice JSON with the best 30 candidates in full and every candidate as (discard,
    samples, EV to 9 decimals): the whole ranking is held without megabytes of golden file."""
    cands = d.pop("candidates")
    d["top"] = cands[:30]
    d["ranking"] = [
        [" ".join(c["discard"]), c["samples"], None if c["ev"] is None else round(c["ev"], 9)]
        for c in cands
    ]
    return d


def digest(arr: np.ndarray) -> dict:
    """sha256 of an array's bytes (C order, its own dtype) and its column sums."""
    a = np.ascontiguousarray(arr)
    sums = a.reshape(a.shape[0], -1).astype(np.int64).sum(axis=0).tolist() if a.size else []
    return {
        "shape": list(a.shape),
        "dtype": str(a.dtype),
        "sha256": hashlib.sha256(a.tobytes()).hexdigest(),
        "column_sums": sums,
    }


CLI_CASES: dict[str, tuple[str, ...]] = {
    "compare": ("compare", CMP_E, CMP_Y, "--json"),
    "compare_rouge": ("compare", CMP_E, CMP_Y, "--json", "--carte-rouge"),
    "hand": ("hand", HAND_E, "--json"),
    # greedy exchange and play were the odds defaults before the heuristic: named since
    "odds_greedy": (
        "odds",
        "--deals",
        "20000",
        "--seed",
        "7",
        "--elder-policy",
        "greedy",
        "--younger-policy",
        "greedy",
        "--play",
        "greedy",
        "--json",
        "--quiet",
    ),
    "odds_random_ten": (
        "odds",
        "--deals",
        "5000",
        "--seed",
        "3",
        "--play",
        "random",
        "--elder-policy",
        "random",
        "--younger-policy",
        "max",
        "--lead-points",
        "ten_or_higher",
        "--json",
        "--quiet",
    ),
    "odds_dd": (
        "odds",
        "--deals",
        "200",
        "--seed",
        "5",
        "--play",
        "dd",
        "--elder-policy",
        "greedy",
        "--younger-policy",
        "greedy",
        "--json",
        "--quiet",
    ),
    "batch": (
        "batch",
        "greedy",
        "sink-sets",
        "--deals",
        "5000",
        "--seed",
        "3",
        "--json",
        "--quiet",
    ),
    "batch_ten": (
        "batch",
        "max",
        "random",
        "--deals",
        "3000",
        "--seed",
        "2",
        "--lead-points",
        "ten_or_higher",
        "--carte-rouge",
        "--json",
        "--quiet",
    ),
    "tournament": (
        "tournament",
        "greedy",
        "max",
        "random",
        "--deals",
        "2000",
        "--seed",
        "4",
        "--json",
        "--quiet",
    ),
    "partie": ("partie", "greedy", "max", "--parties", "500", "--seed", "2", "--json", "--quiet"),
    "partie_hundred": (
        "partie",
        "greedy",
        "sink-point",
        "--parties",
        "300",
        "--seed",
        "9",
        "--game",
        "hundred",
        "--tie",
        "refait_double",
        "--blank-partie-bonus",
        "--json",
        "--quiet",
    ),
    # the discard cases were captured when greedy was the default play and the opponent's
    # exchange: pinned to both
    "discard_elder": (
        "discard",
        HAND_E,
        "--opponent",
        "greedy",
        "--play",
        "greedy",
        "--samples",
        "256",
        "--json",
        "--quiet",
    ),
    # the default play (heuristic) until default8, captured when it became the
    # default: pinned to it since
    "discard_default": (
        "discard",
        HAND_E,
        "--opponent",
        "greedy",
        "--play",
        "heuristic",
        "--samples",
        "256",
        "--json",
        "--quiet",
    ),
    # the default since default8: a heuristic screen, a pimc refine of the best 10 (SE 0.7);
    # the opponent exchanges by the heuristic since 2026-12 (greedy before)
    "discard_pimc_default": ("discard", HAND_E, "--samples", "32", "--json", "--quiet"),
    "discard_younger": (
        "discard",
        HAND_Y,
        "--opponent",
        "greedy",
        "--younger",
        "--elder-took",
        "3",
        "--play",
        "greedy",
        "--samples",
        "128",
        "--json",
        "--quiet",
    ),
    "discard_none": (
        "discard",
        HAND_E,
        "--opponent",
        "greedy",
        "--play",
        "none",
        "--samples",
        "512",
        "--json",
        "--quiet",
        "--seed",
        "11",
    ),
    "discard_dd": (
        "discard",
        HAND_Y,
        "--opponent",
        "greedy",
        "--younger",
        "--elder-took",
        "5",
        "--play",
        "dd",
        "--samples",
        "48",
        "--refine",
        "4",
        "--json",
        "--quiet",
    ),
    "discard_partie": (
        "discard",
        HAND_E,
        "--opponent",
        "greedy",
        "--score",
        "84:61",
        "--deal",
        "5",
        "--objective",
        "win",
        "--play",
        "greedy",
        "--samples",
        "128",
        "--json",
        "--quiet",
    ),
    "draw_elder": (
        "draw",
        "AS KS QS 9S 8H 7H AD 9D 8D KC 8C 7C",
        "--discard",
        "8H 7H 9D 8C 7C",
        "--want",
        "JS TS",
        "--json",
    ),
    "draw_younger": (
        "draw",
        HAND_Y,
        "--discard",
        "9D 8C",
        "--younger",
        "--elder-took",
        "4",
        "--json",
    ),
    "solve": ("solve", CMP_E, CMP_Y, "--json"),
    "solve_ten": (
        "solve",
        HAND_E,
        "TS 8S 7S TH 6H".replace(" 6H", "") + " KH QH JH TD 9D 8D 7D 9C",
        "--lead-points",
        "ten_or_higher",
        "--json",
    ),
    "solve_endgame": (
        "solve",
        "AS KS 7H",
        "QS 8H 7D",
        "--tricks",
        "5:4",
        "--leader",
        "younger",
        "--points",
        "12:0",
        "--json",
    ),
    "sink": ("sink", HAND_E, "--worlds", "24", "--json"),
}


def kernel_cases() -> dict[str, Callable[[], dict]]:
    """Library-level cases: whole record arrays of the main kernels, hashed."""
    from piquet_sim.piquet import simulation
    from piquet_sim.piquet.kernels import deal, solver

    def simulate_mix() -> dict:
        out = {}
        for name, pol, rules_kw in (
            ("greedy", simulation.Policies(), {}),
            ("random_max", simulation.Policies("random", "max", "random", "greedy"), {}),
            (
                "ten_rouge",
                simulation.Policies(),
                {"lead_points": "ten_or_higher", "carte_rouge": True},
            ),
            ("dd", simulation.Policies(elder_play="dd"), {}),
        ):
            from piquet_sim.piquet.rules import Rules

            n = 150 if name == "dd" else 3000
            out[name] = digest(
                simulation.simulate(n, seed=5, policies=pol, rules=Rules(**rules_kw))
            )
        return out

    def deals() -> dict:
        e, y, t = deal.deal_batch(12, 0, 5000)
        return {"elder": digest(e), "younger": digest(y), "talon": digest(t)}

    def solves() -> dict:
        from piquet_sim.piquet.kernels.bundles import make_env
        from piquet_sim.piquet.rules import Rules

        envs = {
            t: make_env(Rules(lead_points=lp).to_array())
            for t, lp in ((0, "every"), (1, "ten_or_higher"))
        }
        return {f"ten{t}": digest(solver.solve_batch(3, 0, 60, envs[t], 16)) for t in (0, 1)}

    def exchange() -> dict:
        from piquet_sim.piquet.report import exchange_study

        x = exchange_study(1500, 3, simulation.Policies(), chunk=700)
        return {
            "deals": x.deals,
            "sums": digest(x.sums),
            "cross": digest(x.cross),
            "e_took": x.e_took.tolist(),
            "y_took": digest(x.y_took),
        }

    return {
        "kernel_simulate": simulate_mix,
        "kernel_deals": deals,
        "kernel_solve": solves,
        "kernel_exchange": exchange,
    }


def report_case() -> dict:
    """``piquet report`` at a small size: its report.json (the numbers every section shows)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        from piquet_sim.cli import main

        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main(
                    [
                        "report",
                        "--out",
                        tmp,
                        "--deals",
                        "2000",
                        "--strategies",
                        "greedy,max",
                        "--sink-hands",
                        "4",
                        "--quiet",
                    ]
                )
            except SystemExit as exc:
                assert exc.code == 0, err.getvalue()
        data = json.loads((Path(tmp) / "report.json").read_text())
    data.pop("command", None)
    # the ladder study came after the goldens were taken; tests/test_ladder.py holds it
    data.pop("ladder", None)
    for key in ("samples", "timings"):
        if isinstance(data.get(key), dict):
            data[key].pop("ladder", None)
    return _strip(data)


def all_cases() -> dict[str, Callable[[], dict]]:
    cases: dict[str, Callable[[], dict]] = {}
    for name, args in CLI_CASES.items():
        post = compact_advice if args[0] == "discard" else (lambda d: d)
        cases[name] = lambda a=args, f=post: f(run_cli(*a))
    cases.update(kernel_cases())
    cases["report"] = report_case
    return cases
