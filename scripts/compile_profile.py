"""Cold first runs of every command's --help example: CPU seconds and the kernels that cost them.

python scripts/compile_profile.py                      # every command, table on stdout
python scripts/compile_profile.py --only discard --only "pitch play" --kernels 15
python scripts/compile_profile.py --docs               # also rewrite docs/benchmarks.md's table
python scripts/compile_profile.py --json profile.json  # every row with every kernel
python scripts/compile_profile.py --before ../old-checkout   # each command there, then here

Each example runs in a fresh interpreter with an empty numba cache (a new temporary
NUMBA_CACHE_DIR), one after another; sample sizes above 20,000 are cut to 20,000. Runs are
timed on whatever else the machine is doing: the 1-minute load average is printed and written
with the table.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

from piquet_sim.cli import cli
from piquet_sim.core.app.compile_profile import (
    compile_times_module,
    help_examples,
    markdown,
    profile,
    replace_section,
    top_kernels,
)

REPO = Path(__file__).resolve().parents[1]
#: Extra runs beside the help examples: the README's screen-only discard.
EXTRA = (("discard --play heuristic", ["discard", "AS KS QS JS 9H 8H 7H AD KD AC QC JC",
                                       "--play", "heuristic"]),)  # fmt: skip


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}), {os.cpu_count()} cores"


@click.command()
@click.option("--only", multiple=True, help="Command to run (repeatable), e.g. 'pitch play'.")
@click.option("--kernels", "n_kernels", default=0, help="Also list each run's N top kernels.")
@click.option("--top", default=3, show_default=True, help="Kernels named in the table's column.")
@click.option("--docs", is_flag=True, help="Rewrite the table in docs/benchmarks.md.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), help="Write every row.")
@click.option("--timeout", default=1200.0, show_default=True, help="Seconds a run may take.")
@click.option(
    "--from-json",
    "from_json",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Run nothing: print (and with --docs write) the table of a --json file.",
)
@click.option(
    "--before",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Another checkout: each command runs there first, then here (an A/B in one run).",
)
def main(
    only: tuple[str, ...],
    n_kernels: int,
    top: int,
    docs: bool,
    json_path: str | None,
    timeout: float,
    before: Path | None,
    from_json: Path | None,
) -> None:
    """Profile the cold first run of every command's help example."""
    if from_json is not None:
        data = json.loads(from_json.read_text())
        _report(data["rows"], data["load"], top, data.get("before") or {}, docs)
        return
    runs = [*help_examples(cli), *EXTRA]
    if only:
        runs = [r for r in runs if r[0] in only]
        if not runs:
            sys.exit(f"no command among {only}")
    start_load = _load()
    started = time.strftime("%Y-%m-%d %H:%M")
    rows = []
    earlier: dict[str, dict] = {}
    for name, args in runs:
        if before is not None:
            old = profile(args, before.resolve(), timeout=timeout)
            earlier[name] = old
            print(
                f"{name + ' (before)':28} cpu {old['cpu_s']:6.1f} s  compile "
                f"{old['compile_s']:6.1f}  exit {old['exit']}  {top_kernels(old, top)}",
                flush=True,
            )
        row = profile(args, REPO, timeout=timeout)
        row["name"] = name
        rows.append(row)
        print(
            f"{name:28} cpu {row['cpu_s']:6.1f} s  wall {row['wall_s']:6.1f} s  compile "
            f"{row['compile_s']:6.1f} (llvm {row['llvm_s']:5.1f})  exit {row['exit']}  "
            f"{top_kernels(row, top)}  [{_load()}]",
            flush=True,
        )
        if row["exit"] != 0:
            print("   ", *row["stderr_tail"], flush=True)
        for lit in row["literals"][:n_kernels]:
            print(f"    literal {lit['self_s']:6.2f} s  {lit['kernel']}({lit['signature']})")
        for k in row["kernels"][:n_kernels]:
            print(
                f"    {k['self_s']:6.2f} s  llvm {k['llvm_s']:5.2f}  x{k['signatures']:<3} "
                f"{k['kernel']}"
            )
    load = f"{started}, {start_load} at the start, {_load()} at the end"
    if json_path:
        data = {"load": load, "rows": rows, "before": earlier}
        Path(json_path).write_text(json.dumps(data, indent=1) + "\n")
    _report(rows, load, top, earlier, docs)


def _report(rows: list[dict], load: str, top: int, earlier: dict, docs: bool) -> None:
    table = markdown(rows, load, top, earlier)
    print()
    print(table)
    if docs:
        path = REPO / "docs" / "benchmarks.md"
        path.write_text(replace_section(path.read_text(), table))
        times = REPO / "piquet_sim" / "core" / "app" / "compile_times.py"
        times.write_text(compile_times_module(rows, load))
        print(f"wrote {path} and {times}")


if __name__ == "__main__":
    main()
