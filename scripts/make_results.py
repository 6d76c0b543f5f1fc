"""Regenerate the committed examples under results/ with one command.

python scripts/make_results.py                  # report (default size) + benchmarks
python scripts/make_results.py --no-bench       # the report only
python scripts/make_results.py --deals 50000    # a smaller, faster report

The report's ladder plays pimc and the dd oracle on --ladder-solver-deals mirrored pairs a match
(default 1,000; 0 ranks random, greedy and heuristic only).

Writes results/report.html (self-contained), results/report.md with its PNGs beside it,
results/odds.csv and results/report.json; the benchmarks merge their rows into
results/bench.json (``piquet bench``). Same seed, same numbers.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from piquet_sim.cli import main as piquet
from piquet_sim.piquet.report import DEFAULT_DEALS, DEFAULT_STRATEGIES, build_report
from piquet_sim.piquet.rules import DEFAULT_RULES

RESULTS = Path(__file__).resolve().parent.parent / "results"


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory (default results/)")
    ap.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="report size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--ladder-solver-deals",
        type=int,
        default=1000,
        help="mirrored pairs per ladder match with pimc or dd (0: fast policies only)",
    )
    ap.add_argument("--no-bench", action="store_true", help="skip the benchmarks")
    ap.add_argument("--bench-quick", action="store_true", help="smaller benchmark runs")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    out = Path(os.path.relpath(args.out))  # the report's reproduce line shows this path
    paths = build_report(out, args.deals, DEFAULT_STRATEGIES, args.seed, DEFAULT_RULES,
                         progress=log, ladder_solver_deals=args.ladder_solver_deals)  # fmt: skip
    if not args.no_bench:
        log("benchmarks (piquet bench) ...")
        try:
            piquet(["bench", "--out", str(out / "bench.json")]
                   + (["--quick"] if args.bench_quick else []))  # fmt: skip
        except SystemExit as exc:
            if exc.code:
                log(f"piquet bench failed with exit code {exc.code}")
                return int(exc.code)
    written = [paths["html"], paths["md"], paths["odds_csv"], paths["json"],
               *paths["images"].values()]  # fmt: skip
    for p in written:
        log(f"  {p}  ({Path(p).stat().st_size / 1024:.0f} kB)")
    log(f"done in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(run())
