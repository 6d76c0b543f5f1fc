"""Full-deal workloads: deal, exchanges, declarations, play, scoring."""

from __future__ import annotations

import time

import numba

from ..simulation import Policies, simulate
from . import workload


def _deals_per_second(n: int, policies: Policies, threads: int, repeats: int = 3) -> float:
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        simulate(min(n, 2000), seed=99, policies=policies)  # compile / load cache
        best = float("inf")
        for r in range(repeats):
            t0 = time.perf_counter()
            simulate(n, seed=r + 1, policies=policies)
            best = min(best, time.perf_counter() - t0)
    finally:
        numba.set_num_threads(previous)
    return n / best


def _rows(name: str, n: int, policies: Policies) -> list[dict]:
    rows = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        rows.append(
            {
                "workload": name,
                "threads": threads,
                "deals": n,
                "deals_per_s": round(_deals_per_second(n, policies, threads)),
            }
        )
    return rows


@workload("full-deal greedy")
def greedy(quick: bool) -> list[dict]:
    return _rows("full-deal greedy", 200_000 if quick else 4_000_000, Policies())


@workload("full-deal dd-play")
def dd_play(quick: bool) -> list[dict]:
    policies = Policies(elder_play="dd", younger_play="dd")
    return _rows("full-deal dd-play", 2_000 if quick else 20_000, policies)


@workload("odds backends")
def backends(quick: bool) -> list[dict]:
    """The same odds study on the local backend and on a LocalCluster of 2 worker processes
    (numba one thread each); the counts are identical, the row gives both times."""
    from ...core.backend import DaskBackend
    from ..odds import odds

    n = 400_000 if quick else 4_000_000
    chunk = n // 16
    odds(chunk, seed=5, chunk=chunk)  # compile / load cache here
    t0 = time.perf_counter()
    local, _ = odds(n, seed=5, chunk=chunk)
    t_local = time.perf_counter() - t0
    cluster = DaskBackend(workers=2)
    try:
        odds(2 * chunk, seed=6, chunk=chunk, backend=cluster)  # workers load the cache
        t0 = time.perf_counter()
        remote, _ = odds(n, seed=5, chunk=chunk, backend=cluster)
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
