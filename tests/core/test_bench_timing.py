"""The benchmarks' timing helpers: the thread counts, numba's count restored, the best run."""

from __future__ import annotations

import time

import numba
import pytest

from piquet_sim.core.engine.bench_timing import best_seconds, numba_threads, thread_counts


def test_thread_counts_are_one_then_every_thread():
    counts = thread_counts()
    assert counts[0] == 1
    assert counts[-1] == numba.config.NUMBA_NUM_THREADS
    assert counts == sorted(set(counts))


def test_numba_threads_restores_the_count_even_after_an_error():
    before = numba.get_num_threads()
    with numba_threads(1):
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with pytest.raises(RuntimeError), numba_threads(1):
        raise RuntimeError("a failed workload")
    assert numba.get_num_threads() == before


def test_best_seconds_runs_seeds_one_to_repeats_and_keeps_the_fastest():
    seeds = []

    def run(seed: int) -> None:
        seeds.append(seed)
        time.sleep(0.02 * (4 - seed))  # the last run is the fastest

    wall, cpu = best_seconds(run, 3)
    assert seeds == [1, 2, 3]
    assert 0.02 <= wall < 0.04
    assert 0 <= cpu < 0.02  # sleeping spends no CPU
