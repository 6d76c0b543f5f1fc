"""``piquet bench --help``'s example is a quick run that leaves the tracked results alone: one
workload that exists, ``--quick``, written outside results/."""

from __future__ import annotations

import json
import shlex

from piquet_sim.bench_cli import bench_command, registry
from piquet_sim.core.app.examples import example_lines


def test_the_bench_help_example_is_quick_and_writes_outside_the_results(run_main, tmp_path):
    (line,) = example_lines(bench_command.help)
    args = shlex.split(line)[1:]
    assert args[0] == "bench" and "--quick" in args
    only = [args[i + 1] for i, a in enumerate(args) if a == "--only"]
    assert only and all(name in registry() for name in only)
    out = args[args.index("--out") + 1]
    assert not out.startswith("results")
    args[args.index("--out") + 1] = str(tmp_path / "bench.json")
    code, stdout, _ = run_main(*args)
    assert code == 0
    rows = json.loads((tmp_path / "bench.json").read_text())
    assert rows
