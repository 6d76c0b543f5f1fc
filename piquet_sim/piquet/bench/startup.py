"""Start-up workloads: the time from typing a command to its answer, cold (a fresh interpreter
and an empty numba cache: every kernel on the command's path compiles) and warm (the same
cache, now filled), for ``discard``, ``odds`` and ``solve``, each as the user types it.

Each run is a fresh ``python -m piquet_sim`` subprocess with ``NUMBA_CACHE_DIR`` pointing at a
new temporary directory. A row gives wall seconds and CPU seconds (user + system of the
subprocess and the compile helper it waits for; cold also each apart, ``cold_main_cpu_s`` and
``cold_helper_cpu_s``): on a shared machine the wall time is inflated by other jobs, the CPU
time much less. ``baseline_s`` is ``piquet --version`` (interpreter + imports, no kernel) in
the same run.
"""

from __future__ import annotations

from ...core.app import bench as bench_core
from . import workload

HAND = "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
ELDER = "AS KS QS JS TS 9H 8H AD KD AC QC JC"
YOUNGER = "8S 7S AH KH QH JH TH KC TC 9C 8C 7C"

COMMANDS = {
    "discard": ["discard", HAND, "--quiet", "--json"],
    "odds": ["odds", "--deals", "100000", "--quiet", "--json"],
    "solve": ["solve", ELDER, YOUNGER, "--json"],
}


def start_row(command: str) -> dict:
    """Cold then warm start of one command (:func:`core.bench.start_row`)."""
    return bench_core.start_row(f"start {command}", COMMANDS[command])


@workload("start discard")
def start_discard(quick: bool) -> list[dict]:
    return [start_row("discard")]


@workload("start odds")
def start_odds(quick: bool) -> list[dict]:
    return [start_row("odds")]


@workload("start solve")
def start_solve(quick: bool) -> list[dict]:
    return [start_row("solve")]
