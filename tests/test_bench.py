"""The shared bench runner (core/bench.py, `piquet bench`) on fake workloads: no project kernel
runs (one tiny kernel tells compiled from cache-loaded)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from piquet_sim.core.app import bench


def _loads(monkeypatch, *values):
    """Make os.getloadavg return ``values[0]``, then ``values[1]`` … (the last one repeated)."""
    seq = list(values)
    monkeypatch.setattr(os, "getloadavg", lambda: (seq.pop(0) if len(seq) > 1 else seq[0],) * 3)


def _rates(*rates):
    """A workload whose successive runs give these deals_per_s (and a fixed config field)."""
    left = list(rates)

    def run(quick):
        return [{"workload": "w", "threads": 2, "deals": 1000, "deals_per_s": left.pop(0)}]

    return run


def test_repeat_writes_median_min_max_and_the_highest_load(monkeypatch, tmp_path):
    _loads(monkeypatch, 0.5, 2.5, 1.0)
    out = tmp_path / "bench.json"
    rows, kept = bench.run({"w": _rates(10.0, 30.0, 20.0)}, None, out, repeat=3)
    assert kept == [] and len(rows) == 1
    row = rows[0]
    assert (row["deals_per_s"], row["deals_per_s_min"], row["deals_per_s_max"]) == (20, 10, 30)
    assert row["repeats"] == 3 and row["deals"] == 1000 and "deals_min" not in row
    assert row[bench.LOAD_FIELD] == 2.5
    assert json.loads(out.read_text()) == rows
    # an even count: the mean of the middle two
    rows, _ = bench.run({"w": _rates(1.0, 4.0, 2.0, 9.0)}, None, None, repeat=4)
    assert rows[0]["deals_per_s"] == 3.0 and rows[0]["repeats"] == 4


def test_rows_name_the_processor(monkeypatch, tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nmodel name\t: AMD EPYC 9B14\nflags\t: fpu\n")
    real_open = open
    monkeypatch.setattr(
        "builtins.open",
        lambda path, *a, **k: real_open(info if path == "/proc/cpuinfo" else path, *a, **k),
    )
    rows, _ = bench.run({"w": _rates(5.0)}, None, None)
    assert rows[0]["cpu"] == "AMD EPYC 9B14"
    monkeypatch.setattr("builtins.open", lambda *a, **k: (_ for _ in ()).throw(OSError()))
    monkeypatch.setattr(bench.platform, "processor", lambda: "")
    assert bench.cpu_model() == "unknown"


def test_repeat_widens_each_runs_own_spread():
    spans = [[4.0, 6.0], [3.0, 5.0], [5.0, 9.0]]

    def run(quick):
        return [{"workload": "w", "threads": 1, "ratio": 1.0, "ratio_min_max": spans.pop(0)}]

    rows, _ = bench.run({"w": run}, None, None, repeat=3)
    assert rows[0]["ratio_min_max"] == [3.0, 9.0]


def test_is_figure_tells_rates_times_and_ratios_from_counts():
    figures = ["deals_per_s", "rounds_per_cpu_s", "median_ms", "cold_s", "seconds", "ratio_cpu"]
    assert all(bench.is_figure(name, 1.5) for name in figures)
    assert not any(bench.is_figure(n, 3) for n in ["deals", "threads", "players", "peak_rss_mb"])
    assert not bench.is_figure("deals_per_s", None) and not bench.is_figure("ratio", True)


def test_a_row_measured_under_load_keeps_an_idle_one_unless_forced():
    idle = {"workload": "w", "threads": 2, "deals_per_s": 9.0, bench.LOAD_FIELD: 1.2}
    other = {"workload": "w", "threads": 1, "deals_per_s": 5.0, bench.LOAD_FIELD: 0.4}
    busy = {"workload": "w", "threads": 2, "deals_per_s": 4.0, bench.LOAD_FIELD: 3.0}
    merged, kept = bench.merge([idle, other], [busy])
    assert merged == [idle, other] and len(kept) == 1
    assert "load 1.2" in kept[0] and "load 3.0" in kept[0] and "--force" in kept[0]
    merged, kept = bench.merge([idle, other], [busy], force=True)
    assert merged == [other, busy] and kept == []
    # idle replaces busy; busy replaces busy; a row of unknown load is replaced
    calm = dict(idle, deals_per_s=8.0)
    assert bench.merge([busy], [calm]) == ([calm], [])
    assert bench.merge([busy], [dict(busy, deals_per_s=1.0)])[0][0]["deals_per_s"] == 1.0
    unknown = {k: v for k, v in idle.items() if k != bench.LOAD_FIELD}
    assert bench.merge([unknown], [busy]) == ([busy], [])


def test_bench_command_says_which_row_it_kept(run_main, monkeypatch, tmp_path):
    from piquet_sim import bench_cli

    workloads = {"w": _rates(1.0, 2.0, 3.0, 4.0, 5.0)}
    monkeypatch.setattr(bench_cli, "registry", lambda: workloads)
    out = tmp_path / "bench.json"
    _loads(monkeypatch, 0.8)
    code, text, _ = run_main("bench", "--out", str(out))
    assert code == 0 and json.loads(out.read_text())[0]["deals_per_s"] == 1.0
    # one line a figure, readable in 80 columns (rich's width when not a terminal)
    assert max(len(line) for line in text.splitlines() if "│" in line) <= 80
    cells = [[c.strip() for c in line.split("│")[3:5]] for line in text.splitlines()]
    assert ["deals_per_s", "1.0"] in cells
    _loads(monkeypatch, 6.0)
    code, text, _ = run_main("bench", "--out", str(out), "--repeat", "2")
    assert code == 0 and json.loads(out.read_text())[0]["deals_per_s"] == 1.0
    assert sum("note: kept 'w' threads=2" in line for line in text.splitlines()) == 1
    assert "0 rows merged" in text
    code, text, _ = run_main("bench", "--out", str(out), "--repeat", "2", "--force")
    (row,) = json.loads(out.read_text())
    assert code == 0 and (row["deals_per_s"], row["repeats"], row["deals_per_s_max"]) == (4.5, 2, 5)
    code, _, err = run_main("bench", "--out", str(out), "--repeat", "0")
    assert code == 2 and "Traceback" not in err and "--repeat" in err


def test_timed_module_splits_the_cpu_of_the_main_process_from_its_helper(tmp_path):
    """A module that waits for a child burning about 0.2 CPU-s: the child's CPU is the helper's."""
    (tmp_path / "spawner.py").write_text(
        "import subprocess, sys, time\n"
        "burn = 'import time\\nt = time.process_time()\\n"
        "while time.process_time() - t < 0.2: pass'\n"
        "subprocess.run([sys.executable, '-c', burn], check=True)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    times = bench.timed_module("spawner", [], env)
    assert times["helper_cpu_s"] >= 0.2 > times["main_cpu_s"]
    assert times["cpu_s"] >= times["main_cpu_s"] + times["helper_cpu_s"] - 0.01
    assert times["wall_s"] > 0
    with pytest.raises(subprocess.CalledProcessError):  # a failing command is an error, not a row
        bench.timed_module("no_such_module_here", [], env)


def _double(x):
    return 2 * x


def test_kernel_origin_tells_compiled_from_cache_loaded(monkeypatch, tmp_path):
    import sys

    import numba

    # an empty cache: the first compiles; numba re-reads its configuration from the environment
    # when that changed (importing core.jit sets NUMBA_CACHE_DIR), so set both
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    here = sys.modules[__name__]
    with bench.kernel_origin(__name__) as origin:
        pass
    assert origin["kernels"] == "none"
    for name, want, so_far in (
        ("_k_first", "compiled", "compiled"),
        ("_k_second", "cache", "mixed"),
    ):
        monkeypatch.setattr(here, name, numba.njit(cache=True)(_double), raising=False)
        with bench.kernel_origin(__name__) as origin:
            assert getattr(here, name)(3) == 6
        assert origin["kernels"] == want
        with bench.kernel_origin(__name__) as again:
            getattr(here, name)(4)  # already in this process: how the process got its kernels
        assert again["kernels"] == so_far


def test_play_heuristic_rows_say_how_the_kernels_were_got(monkeypatch):
    """Like deal+declarations, full-deal greedy and pimc rows, each play-heuristic row carries
    ``kernels`` (core.bench.kernel_origin); the timing itself is faked here."""
    from piquet_sim.piquet.bench import play

    monkeypatch.setattr(play, "best_rates", lambda run, n, threads: (n / 2.0, n / 1.0))
    rows = play.heuristic_vs_greedy(quick=True)
    assert rows and all(r["kernels"] in ("compiled", "cache", "mixed", "none") for r in rows)
