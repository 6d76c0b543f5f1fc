"""Core-engine workload: deal 24 cards from a shuffled pack and score both hands' declarations
(point, sequences, sets, carte blanche, repique)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numba

from ..kernels.bundles import make_env
from ..kernels.deal_scoring import score_random_deals
from ..rules import DEFAULT_RULES
from . import workload

NAME = "deal+declarations"


def deals_per_second(n: int, threads: int, repeats: int = 3) -> float:
    """Best of ``repeats`` timed runs of n deals on ``threads`` numba threads."""
    env = make_env(DEFAULT_RULES.to_array())
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        score_random_deals(1, 0, 1000, threads, env)  # compile / load cache
        best = float("inf")
        for r in range(repeats):
            t0 = time.perf_counter()
            score_random_deals(r + 1, 0, n, 16 * threads, env)
            best = min(best, time.perf_counter() - t0)
    finally:
        numba.set_num_threads(previous)
    return n / best


_START_SNIPPET = (
    "import time; t=time.perf_counter();"
    "from piquet_sim.piquet.kernels.deal_scoring import score_random_deals;"
    "from piquet_sim.piquet.kernels.bundles import make_env;"
    "from piquet_sim.piquet.rules import DEFAULT_RULES;"
    "score_random_deals(1, 0, 1000, 2, make_env(DEFAULT_RULES.to_array()));"
    "print(time.perf_counter()-t)"
)


def start_times() -> tuple[float, float]:
    """(cold, warm) seconds for import + compile (or cache load) + a first small run, each in
    a fresh interpreter sharing a new, initially empty numba cache directory."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        times = []
        for _ in range(2):
            out = subprocess.run(
                [sys.executable, "-c", _START_SNIPPET],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            times.append(float(out.stdout.strip().splitlines()[-1]))
    return times[0], times[1]


@workload(NAME)
def bench(quick: bool) -> list[dict]:
    n = 2_000_000 if quick else 50_000_000
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    for threads in sorted({1, all_threads}):
        rows.append(
            {
                "workload": NAME,
                "threads": threads,
                "deals": n,
                "deals_per_s": round(deals_per_second(n, threads)),
            }
        )
    cold, warm = start_times()
    rows.append(
        {
            "workload": "start: import+compile deal+declarations",
            "threads": None,
            "cold_s": round(cold, 3),
            "warm_s": round(warm, 3),
        }
    )
    return rows
