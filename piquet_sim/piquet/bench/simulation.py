"""Full-deal workloads: deal, exchanges, declarations, play, scoring."""

from __future__ import annotations

import os
import statistics
import time

import numba

from ...core.app.bench import kernel_origin
from ...core.engine.bench_timing import numba_threads, rate_rows, thread_counts
from ..simulation import Policies, simulate
from . import workload


@workload("full-deal greedy")
def greedy(quick: bool) -> list[dict]:
    """Per thread count, 5 runs of n deals (greedy exchanges and play): the rate per wall second
    and per process-CPU second as median and min-max, with the 1-minute load average before and
    after (one run cannot settle "2 M/s on 2 cores" on a machine swinging +-30% between runs)."""
    n = 200_000 if quick else 4_000_000
    repeats = 5
    rows = []
    for threads in thread_counts():
        load0 = os.getloadavg()[0]
        wall, cpu, origin = _rates(n, Policies(), threads, repeats)
        med, lo, hi = _spread(wall)
        med_cpu, lo_cpu, hi_cpu = _spread(cpu)
        rows.append(
            {
                "workload": "full-deal greedy",
                "threads": threads,
                "deals": n,
                "repeats": repeats,
                "deals_per_s": med,
                "deals_per_s_min_max": [lo, hi],
                "deals_per_cpu_s": med_cpu,
                "deals_per_cpu_s_min_max": [lo_cpu, hi_cpu],
                "load_avg_1min": [round(load0, 2), round(os.getloadavg()[0], 2)],
                "kernels": origin,
            }
        )
    return rows


def _rates(n: int, policies: Policies, threads: int, repeats: int) -> tuple[list, list, str]:
    """(deals per wall second, deals per process-CPU second): one figure per run of n deals;
    and how this process got the kernels (``core.bench.kernel_origin``)."""
    wall, cpu = [], []
    with numba_threads(threads):
        with kernel_origin() as origin:
            simulate(min(n, 2000), seed=99, policies=policies)  # compile / load cache
        for r in range(repeats):
            t0 = time.perf_counter()
            c0 = time.process_time()
            simulate(n, seed=r + 1, policies=policies)
            wall.append(n / (time.perf_counter() - t0))
            cpu.append(n / (time.process_time() - c0))
    return wall, cpu, origin["kernels"]


def _spread(values: list[float]) -> tuple[int, int, int]:
    """(median, min, max) of ``values``, rounded."""
    return round(statistics.median(values)), round(min(values)), round(max(values))


@workload("full-deal dd-play")
def dd_play(quick: bool) -> list[dict]:
    policies = Policies(elder_play="dd", younger_play="dd")
    n = 2_000 if quick else 20_000
    return rate_rows(
        "full-deal dd-play", "deals", n, lambda k, seed: simulate(k, seed=seed, policies=policies)
    )


@workload("odds backends")
def backends(quick: bool) -> list[dict]:
    """The same odds study on the local backend and on a LocalCluster of 2 worker processes
    (numba one thread each); the counts are identical, the row gives both times."""
    from ...core.engine.backend import DaskBackend
    from ..odds import odds

    greedy = Policies()  # greedy exchange and play, as the row was first measured
    n = 400_000 if quick else 4_000_000
    chunk = n // 16
    odds(chunk, seed=5, policies=greedy, chunk=chunk)  # compile / load cache here
    t0 = time.perf_counter()
    local, _ = odds(n, seed=5, policies=greedy, chunk=chunk)
    t_local = time.perf_counter() - t0
    cluster = DaskBackend(workers=2)
    try:
        odds(
            2 * chunk, seed=6, policies=greedy, chunk=chunk, backend=cluster
        )  # workers load the cache
        t0 = time.perf_counter()
        remote, _ = odds(n, seed=5, policies=greedy, chunk=chunk, backend=cluster)
        t_dask = time.perf_counter() - t0
    finally:
        cluster.close()
    same = local["elder"] == remote["elder"] and local["net"] == remote["net"]
    return [
        {
            "workload": "odds backends",
            "threads": numba.config.NUMBA_NUM_THREADS,
            "deals": n,
            "local_s": round(t_local, 2),
            "dask_2_workers_s": round(t_dask, 2),
            "speedup": round(t_local / t_dask, 2),
            "identical": same,
        }
    ]
