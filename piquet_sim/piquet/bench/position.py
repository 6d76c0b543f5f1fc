"""Position API workloads: what ``PiquetState`` costs a decision (``apply`` plus
``legal_actions``, random legal actions, every phase of whole deals; the random choice itself
not timed), and the start of ``piquet play`` on its --help example, cold (an empty numba cache)
and warm."""

from __future__ import annotations

import statistics
import time

import numpy as np

from ...core import bench as bench_core
from ..cli.play import EXAMPLE_HAND, EXAMPLE_HISTORY
from ..position import PiquetState
from . import workload

PLAY_ARGS = ["play", EXAMPLE_HAND, "--younger", "--history", EXAMPLE_HISTORY]


def decision_overhead(deals: int, seed: int = 1) -> tuple[float, int]:
    """(microseconds per decision spent in ``legal_actions`` and ``apply``, decisions) over
    ``deals`` deals played to the end by uniform random legal actions."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, 1 << 30, size=1 << 16)
    states = [PiquetState.from_deal(seed, i) for i in range(deals)]
    spent = 0.0
    n = 0
    clock = time.perf_counter
    for st in states:
        while True:
            t0 = clock()
            legal = st.legal_actions()
            t1 = clock()
            if not legal:
                spent += t1 - t0
                break
            a = legal[picks[n & 0xFFFF] % len(legal)]
            t2 = clock()
            st.apply(a)
            spent += (t1 - t0) + (clock() - t2)
            n += 1
    return spent / n * 1e6, n


@workload("position overhead")
def position_overhead(quick: bool) -> list[dict]:
    deals = 200 if quick else 2000
    with bench_core.kernel_origin() as origin:
        decision_overhead(20, seed=99)  # kernels loaded (scoring, declarations)
        runs = [decision_overhead(deals, seed=r + 1) for r in range(3)]
    us = [r[0] for r in runs]
    return [
        {
            "workload": "position overhead",
            "threads": 1,
            "deals": deals,
            "decisions": runs[0][1],
            "us_per_decision": round(statistics.median(us), 2),
            "us_per_decision_min_max": [round(min(us), 2), round(max(us), 2)],
            "kernels": origin["kernels"],
        }
    ]


@workload("start play")
def start_play(quick: bool) -> list[dict]:
    return [bench_core.start_row("start play", PLAY_ARGS)]
