"""How often ``piquet play``'s top card is the expert's, on the expert-position set.

Each position of ``tests/data/expert_positions.json`` (``scripts/expert_positions.py``) is
asked of ``piquet play`` in this process (the JSON output), and the top card compared with the
expert's cards. ``--before`` asks as a tree without the declaration dialogue and the partie's
score would: the ``... calls:`` clauses and the position's options are dropped (run it with
``PYTHONPATH`` pointing at such a tree). Reported: top-1 agreement with its Wilson 95% interval,
by kind and in all, and the seconds a move (wall and CPU, median and mean), as JSON.

Usage: python scripts/expert_agreement.py [--before] [--positions FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
import io
import json
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np

from piquet_sim.core.engine.stats import wilson_interval

ROOT = Path(__file__).resolve().parent.parent


def ask(position: dict, before: bool, extra: list[str]) -> tuple[dict, float, float]:
    """``piquet play``'s JSON answer for ``position``, with the wall and CPU seconds."""
    from piquet_sim.cli import main

    history = position["history"]
    options = list(position["options"]) + extra
    if before:
        history = "; ".join(c for c in history.split("; ") if " calls:" not in c)
        options = list(extra)
    args = ["play", position["hand"], "--seat", position["seat"], "--history", history]
    out, err = io.StringIO(), io.StringIO()
    t0, c0 = time.perf_counter(), time.process_time()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main([*args, *options, "--json"])
        except SystemExit as exc:
            if exc.code:
                raise RuntimeError(f"{position['id']}: {err.getvalue().strip()}") from None
    return json.loads(out.getvalue()), time.perf_counter() - t0, time.process_time() - c0


def rate(rows: list[dict]) -> dict:
    """Agreement of ``rows`` with its Wilson 95% interval."""
    k, n = sum(r["agree"] for r in rows), len(rows)
    lo, hi = wilson_interval(k, n) if n else (float("nan"), float("nan"))
    return {"agree": k, "positions": n, "rate": k / n if n else None, "ci95": [lo, hi]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--positions", type=Path, default=ROOT / "tests/data/expert_positions.json")
    ap.add_argument("--before", action="store_true", help="without the calls and the options")
    ap.add_argument("--extra", default="", help="options added to every position")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    positions = json.loads(args.positions.read_text())["positions"]
    extra = args.extra.split()
    rows = []
    ask(positions[0], args.before, extra)  # the first run compiles: not timed
    for p in positions:
        data, wall, cpu = ask(p, args.before, extra)
        rows.append(
            {
                "id": p["id"],
                "kind": p["kind"],
                "top": data["best"],
                "expert": p["expert"],
                "agree": data["best"] in p["expert"],
                "worlds": data["worlds"],
                "exact": data["exact"],
                "wall_s": round(wall, 3),
                "cpu_s": round(cpu, 3),
            }
        )
        print(rows[-1], flush=True)
    kinds = sorted({r["kind"] for r in rows})
    walls = np.array([r["wall_s"] for r in rows])
    cpus = np.array([r["cpu_s"] for r in rows])
    result = {
        "before": args.before,
        "extra": extra,
        "all": rate(rows),
        "by_kind": {k: rate([r for r in rows if r["kind"] == k]) for k in kinds},
        "seconds_a_move": {
            "wall_median": float(np.median(walls)),
            "wall_mean": float(walls.mean()),
            "cpu_median": float(np.median(cpus)),
            "cpu_mean": float(cpus.mean()),
        },
        "rows": rows,
    }
    text = json.dumps(result, indent=1)
    if args.out is not None:
        args.out.write_text(text + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1))


if __name__ == "__main__":
    main()
