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


def test_best_rates_compiles_on_a_small_run_then_times_seeds_one_to_three():
    from piquet_sim.core.engine.bench_timing import best_rates

    calls = []
    wall, cpu = best_rates(lambda n, seed: calls.append((n, seed)), 5000, 1)
    assert calls == [(2000, 99), (5000, 1), (5000, 2), (5000, 3)]
    assert wall > 0 and cpu > 0


def test_rate_rows_give_one_row_per_thread_count_with_the_fields_after_threads():
    from piquet_sim.core.engine.bench_timing import rate_rows

    rows = rate_rows("toy", "rounds", 10, lambda n, seed: sum(range(1000)), [1], players=4)
    assert list(rows[0]) == [
        "workload",
        "threads",
        "players",
        "rounds",
        "rounds_per_s",
        "rounds_per_cpu_s",
    ]
    assert rows[0]["rounds"] == 10 and rows[0]["threads"] == 1
    wall_only = rate_rows("toy", "pairs", 10, lambda n, seed: sum(range(1000)), [1], cpu=False)
    assert "pairs_per_cpu_s" not in wall_only[0]
