"""Play workloads: the exact solver on full 12-trick deals, and fast playouts.

* ``solve-full`` (the core's workload, these positions: :func:`full_deals`): time per full
  solve on one thread (random deals, both hands of 12 from a shuffled pack, elder to lead,
  table cleared before each deal), median and 95th percentile, wall and CPU time of the
  thread, per lead rule; the table's memory;
* ``solve-batch``: full solves per second on every thread (``solve_batch``; each chunk keeps
  its table from deal to deal);
* ``playout-random`` / ``playout-greedy``: full 12-trick playouts per second (dealing included)
  on 1 thread and on every thread.
"""

from __future__ import annotations

import functools
import resource
import time
from collections.abc import Iterator

import numba
import numpy as np

from ...core.app.bench import SolveSeries
from ...core.engine.bench_timing import best_seconds, numba_threads, thread_counts
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
#: A ``solve-full`` row's fields (the thread's CPU time: steadier than wall time on a shared
#: machine).
SOLVE_FIELDS = (
    "deals",
    "median_ms",
    "p95_ms",
    "max_ms",
    "mean_ms",
    "cpu_median_ms",
    "cpu_p95_ms",
    "median_nodes",
    "tt_entries",
    "tt_mb",
    "peak_rss_mb",
)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def full_deals(quick: bool) -> Iterator[SolveSeries]:
    """The positions of ``solve-full`` (the core's workload, ``core.app.bench.solve_full``):
    one row a lead rule, random full deals from a cleared table."""
    n = 200 if quick else 2000
    pack = np.zeros(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    deals = [deal_hands(2024, i, pack, state) for i in range(n)]
    for name, rules in RULES.items():
        ws = K.make_workspace(rules.to_array())

        def clear(ws=ws) -> None:
            K.reset_tt(ws.tt)
            ws.stats[:] = 0

        def solve(start, ws=ws) -> bool:
            K.solve_position(start, ws)
            return False  # no node limit: every search finishes

        yield SolveSeries(
            f"solve-full-{name}",
            [_start(e, y) for e, y in deals],
            warm=functools.partial(K.solve_position, _start(*deals[0]), ws),
            clear=clear,
            solve=solve,
            nodes=lambda ws=ws: ws.stats[L.SOLVE_NODES],
            fields=SOLVE_FIELDS,
            own=lambda ws=ws: {
                "tt_entries": int(ws.tt.shape[0] // 2),
                "tt_mb": round(tt_bytes(K.DEFAULT_SOLVE_BITS) / 2**20, 2),
                "peak_rss_mb": round(_peak_rss_mb(), 1),
            },
        )


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
    rows = []
    for threads in thread_counts():
        with numba_threads(threads):
            P.play_batch(1, 0, 1000, stages, pre, env, 1)  # compile
            best, _ = best_seconds(lambda seed: P.play_batch(seed, 0, n, stages, pre, env, 1))
        rows.append(
            {
                "workload": f"playout-{policy}",
                "threads": threads,
                "playouts": n,
                "playouts_per_s": round(n / best),
            }
        )
    return rows


@workload("playout-random")
def playout_random(quick: bool) -> list[dict]:
    return _playouts("random", quick)


@workload("playout-greedy")
def playout_greedy(quick: bool) -> list[dict]:
    return _playouts("greedy", quick)
