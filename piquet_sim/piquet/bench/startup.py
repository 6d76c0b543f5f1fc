"""Start-up workloads: the time from typing a command to its answer, cold (a fresh interpreter
and an empty numba cache: every kernel on the command's path compiles) and warm (the same
cache, now filled), for ``discard``, ``odds`` and ``solve``, each as the user types it.

Each run is a fresh ``python -m piquet_sim`` subprocess with ``NUMBA_CACHE_DIR`` pointing at a
new temporary directory. A row gives wall seconds and CPU seconds (user + system of the
subprocess): on a shared machine the wall time is inflated by other jobs, the CPU time much
less. ``baseline_s`` is ``piquet --version`` (interpreter + imports, no kernel) in the same run.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

from . import workload

HAND = "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
ELDER = "AS KS QS JS TS 9H 8H AD KD AC QC JC"
YOUNGER = "8S 7S AH KH QH JH TH KC TC 9C 8C 7C"

COMMANDS = {
    "discard": ["discard", HAND, "--quiet", "--json"],
    "odds": ["odds", "--deals", "100000", "--quiet", "--json"],
    "solve": ["solve", ELDER, YOUNGER, "--json"],
}


def timed_run(args: list[str], cache: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``python -m piquet_sim ARGS`` with this numba cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "piquet_sim", *args],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def start_row(command: str) -> dict:
    """Cold then warm start of one command, and the import-only baseline, in one run."""
    with tempfile.TemporaryDirectory() as cache:
        base_wall, base_cpu = timed_run(["--version"], cache)
        cold_wall, cold_cpu = timed_run(COMMANDS[command], cache)
        warm_wall, warm_cpu = timed_run(COMMANDS[command], cache)
    return {
        "workload": f"start {command}",
        "threads": None,
        "command": "piquet " + " ".join(COMMANDS[command]),
        "cold_s": round(cold_wall, 2),
        "cold_cpu_s": round(cold_cpu, 2),
        "warm_s": round(warm_wall, 2),
        "warm_cpu_s": round(warm_cpu, 2),
        "baseline_s": round(base_wall, 2),
        "baseline_cpu_s": round(base_cpu, 2),
        "cores": os.cpu_count(),
        "load_avg_1min": round(os.getloadavg()[0], 1),  # other jobs inflate the wall times
    }


@workload("start discard")
def start_discard(quick: bool) -> list[dict]:
    return [start_row("discard")]


@workload("start odds")
def start_odds(quick: bool) -> list[dict]:
    return [start_row("odds")]


@workload("start solve")
def start_solve(quick: bool) -> list[dict]:
    return [start_row("solve")]
