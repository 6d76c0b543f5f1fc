"""Play workloads: the exact solver on full 12-trick deals, and fast playouts.

* ``solve-full``: time per full solve on one thread (random deals, both hands of 12 from a
  shuffled pack, elder to lead, table cleared before each deal), median and 95th percentile,
  per lead rule; the table's memory;
* ``solve-batch``: full solves per second on every thread (``solve_batch``; each chunk keeps
  its table from deal to deal);
* ``playout-random`` / ``playout-greedy``: full 12-trick playouts per second (dealing included)
  on 1 thread and on every thread.
"""

from __future__ import annotations

import resource
import time

import numba
import numpy as np

from ..kernels import layouts as L
from ..kernels import play as P
from ..kernels import solver as K
from ..kernels.bundles import make_env
from ..kernels.deal import deal_hands
from ..kernels.solver_tt import tt_bytes
from ..rules import Rules
from ..simulation import Policies
from . import workload


def _start(e, y):
    """The position of a fresh deal: elder to lead, nothing won, no pique possible yet."""
    return (np.int64(e), np.int64(y), np.int64(0), np.int64(0), np.int64(0))


RULES = {"every": Rules(), "ten_or_higher": Rules(lead_points="ten_or_higher")}


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@workload("solve-full")
def solve_full(quick: bool) -> list[dict]:
    n = 200 if quick else 2000
    ws = K.make_workspace()
    pack = np.zeros(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    deals = [deal_hands(2024, i, pack, state) for i in range(n)]
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    rows = []
    try:
        for name, rules in RULES.items():
            ws = K.make_workspace(rules.to_array())
            K.solve_position(_start(*deals[0]), ws)  # compile
            times = np.empty(n)
            nodes = np.empty(n)
            for i, (e, y) in enumerate(deals):
                K.reset_tt(ws.tt)
                ws.stats[:] = 0
                t0 = time.perf_counter()
                K.solve_position(_start(e, y), ws)
                times[i] = time.perf_counter() - t0
                nodes[i] = ws.stats[L.SOLVE_NODES]
            rows.append(
                {
                    "workload": f"solve-full-{name}",
                    "threads": 1,
                    "deals": n,
                    "median_ms": round(float(np.median(times)) * 1e3, 3),
                    "p95_ms": round(float(np.percentile(times, 95)) * 1e3, 3),
                    "max_ms": round(float(times.max()) * 1e3, 3),
                    "mean_ms": round(float(times.mean()) * 1e3, 3),
                    "median_nodes": int(np.median(nodes)),
                    "tt_entries": int(ws.tt.shape[0] // 2),
                    "tt_mb": round(tt_bytes(K.DEFAULT_SOLVE_BITS) / 2**20, 2),
                    "peak_rss_mb": round(_peak_rss_mb(), 1),
                }
            )
    finally:
        numba.set_num_threads(previous)
    return rows


@workload("solve-batch")
def solve_batch(quick: bool) -> list[dict]:
    n = 400 if quick else 4000
    threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    for name, rules in RULES.items():
        env = make_env(rules.to_array())
        K.solve_batch(1, 0, 4, env, K.DEFAULT_SOLVE_BITS)  # compile
        t0 = time.perf_counter()
        K.solve_batch(7, 0, n, env, K.DEFAULT_SOLVE_BITS)
        dt = time.perf_counter() - t0
        rows.append(
            {
                "workload": f"solve-batch-{name}",
                "threads": threads,
                "deals": n,
                "solves_per_s": round(n / dt, 1),
                "tt_mb_per_thread": round(tt_bytes(K.DEFAULT_SOLVE_BITS) / 2**20, 2),
                "peak_rss_mb": round(_peak_rss_mb(), 1),
            }
        )
    return rows


def _playouts(policy: str, quick: bool) -> list[dict]:
    n = 1_000_000 if quick else 10_000_000
    env = make_env(Rules().to_array())
    stages = Policies(elder_play=policy, younger_play=policy).stages()
    pre = (np.int64(0), np.int64(0), np.int64(0))
    previous = numba.get_num_threads()
    rows = []
    try:
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(threads)
            P.play_batch(1, 0, 1000, stages, pre, env, 1)  # compile
            best = float("inf")
            for r in range(3):
                t0 = time.perf_counter()
                P.play_batch(r + 1, 0, n, stages, pre, env, 1)
                best = min(best, time.perf_counter() - t0)
            rows.append(
                {
                    "workload": f"playout-{policy}",
                    "threads": threads,
                    "playouts": n,
                    "playouts_per_s": round(n / best),
                }
            )
    finally:
        numba.set_num_threads(previous)
    return rows


@workload("playout-random")
def playout_random(quick: bool) -> list[dict]:
    return _playouts("random", quick)


@workload("playout-greedy")
def playout_greedy(quick: bool) -> list[dict]:
    return _playouts("greedy", quick)
