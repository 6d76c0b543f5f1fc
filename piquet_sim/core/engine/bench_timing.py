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


__all__ = ["best_seconds", "numba_threads", "thread_counts"]
