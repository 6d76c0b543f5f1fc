"""Timing a throughput benchmark: the thread counts it is measured on, numba's thread count
set for a block and restored after it, and the best of a few timed runs.

Every game's benchmarks time their kernels the same way (one thread, then every thread; a
compiling call first; the fastest of a few runs, in wall and in process-CPU seconds); this
module holds that once, and each game keeps only its workload and its rows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numba


def thread_counts() -> list[int]:
    """The thread counts a throughput is measured on: one, then every thread numba has
    (listed once when numba has one)."""
    return sorted({1, numba.config.NUMBA_NUM_THREADS})


@contextmanager
def numba_threads(threads: int) -> Iterator[None]:
    """Numba's thread count set to ``threads`` within the block and restored after it, error
    or not (a benchmark leaves the process running on the threads it found)."""
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def best_seconds(run: Callable[[int], object], repeats: int = 3) -> tuple[float, float]:
    """(wall, CPU): the fewest wall seconds and the fewest process-CPU seconds of ``repeats``
    calls ``run(seed)`` with the seeds 1 to ``repeats`` (the fastest run is the least disturbed
    by the rest of the machine; CPU seconds are the steadier on a shared one)."""
    wall = cpu = float("inf")
    for seed in range(1, repeats + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        run(seed)
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu


def best_rates(
    run: Callable[[int, int], object], n: int, threads: int, repeats: int = 3
) -> tuple[float, float]:
    """(items per wall second, items per process-CPU second) of ``run(n, seed)`` on ``threads``
    numba threads, each the best of ``repeats`` (:func:`best_seconds`), after an untimed call
    ``run(min(n, 2000), 99)`` that compiles the kernels or loads them from the cache."""
    with numba_threads(threads):
        run(min(n, 2000), 99)
        wall, cpu = best_seconds(lambda seed: run(n, seed), repeats)
    return n / wall, n / cpu


def rate_rows(
    workload: str,
    unit: str,
    n: int,
    run: Callable[[int, int], object],
    threads: list[int] | None = None,
    cpu: bool = True,
    **fields: object,
) -> list[dict]:
    """A throughput workload's rows, one per thread count (default :func:`thread_counts`):
    ``workload``, ``threads``, the ``fields`` given, ``<unit>: n`` and the rates of
    :func:`best_rates` rounded to whole items, ``<unit>_per_s`` and (``cpu``)
    ``<unit>_per_cpu_s``."""
    rows = []
    for t in threads or thread_counts():
        wall, per_cpu = best_rates(run, n, t)
        row = {"workload": workload, "threads": t, **fields, unit: n, f"{unit}_per_s": round(wall)}
        if cpu:
            row[f"{unit}_per_cpu_s"] = round(per_cpu)
        rows.append(row)
    return rows


__all__ = ["best_rates", "best_seconds", "numba_threads", "rate_rows", "thread_counts"]
