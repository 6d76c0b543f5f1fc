"""`piquet bench`: measure every game's kernels and write results/bench.json.

Each game keeps its workloads (``piquet_sim.<game>.bench``); this application-level command
gathers them, so no game imports another and the core runner imports none.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from .core.app import bench as bench_core
from .core.app.cli import OutputPath, output_console
from .core.engine.backend import BackendError
from .games import games


def registry() -> dict[str, bench_core.Workload]:
    """Every game's workloads by name (Piquet's unprefixed, the others' named "<game> …"), as
    each game declares them (``<game>/game.py``)."""
    out: dict[str, bench_core.Workload] = {}
    for game in games():
        out.update(game.workloads())
    return out


def _skipping(name: str, func: bench_core.Workload, notes: list[str]) -> bench_core.Workload:
    """``func``, but a workload whose backend cannot run here (Dask not installed) gives no
    row and a note instead of stopping the whole run."""

    def run(quick: bool) -> list[dict]:
        try:
            return func(quick)
        except BackendError as err:
            notes.append(f"{name}: skipped ({err})")
            return []

    return run


@click.command("bench")
@click.option("--only", "names", multiple=True, help="Workload to run (repeatable); default all.")
@click.option("--quick", is_flag=True, help="Smaller runs, for a smoke test.")
@click.option(
    "--out",
    type=OutputPath(parents=True),
    default=Path("results/bench.json"),
    show_default=True,
    help="JSON file the rows are merged into (relative to the current directory; its "
    "directory is created if missing).",
)
@click.option(
    "--repeat",
    type=click.IntRange(1, 99),
    default=1,
    show_default=True,
    help="Run each workload N times (in rounds) and write each rate, time and ratio as the "
    "median with FIELD_min and FIELD_max beside it, and repeats=N.",
)
@click.option(
    "--force",
    is_flag=True,
    help=f"Write every row, even one measured at a load average of {bench_core.LOAD_LIMIT:g} "
    "or more over a row measured below it (kept otherwise, with a note).",
)
@click.option("--list", "list_only", is_flag=True, help="List the workloads and exit.")
def bench_command(
    names: tuple[str, ...], quick: bool, out: Path, repeat: int, force: bool, list_only: bool
) -> None:
    """Measure throughput and start-up times of every game's kernels; rows are merged into
    results/bench.json under the current directory (or --out), and the path is printed. Each
    row records the 1-minute load average before its run (load_avg_1min). A workload whose
    backend is missing here (the Dask extra) is skipped with a note.

    \b
    Example (a few seconds; every workload, the default, takes minutes):
      piquet bench --only "position overhead" --quick --out /tmp/bench.json
    """
    notes: list[str] = []
    workloads = {n: _skipping(n, f, notes) for n, f in registry().items()}
    if list_only:
        for name in workloads:
            click.echo(name)
        return
    unknown = [n for n in names if n not in workloads]
    if unknown:
        raise click.UsageError(f"unknown workload {unknown[0]!r}; see `piquet bench --list`")
    out = out.resolve()
    click.echo(f"bench: rows will be merged into {out}", err=True)
    try:
        rows, kept = bench_core.run(
            workloads, list(names) or None, out, quick=quick, repeat=repeat, force=force
        )
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    # one line per figure (the rows' fields differ, and a column per field is unreadable in a
    # terminal of 80 columns); long text (time, machine, processor, command) in the JSON only
    table = Table(title=f"Benchmarks (merged into {out})", title_justify="left")
    for column in ("workload", "threads", "field", "value"):
        table.add_column(column, overflow="fold")
    hidden = {"workload", "threads", "measured_at", "machine", "cpu", "command"}
    for row in rows:
        threads = "" if row.get("threads") is None else str(row["threads"])
        for i, key in enumerate(sorted(set(row) - hidden)):
            # the row's name and threads on its first line only
            table.add_row(*((row["workload"], threads) if i == 0 else ("", "")), key, str(row[key]))
        table.add_section()
    output_console().print(table)
    cpus = sorted({str(r["cpu"]) for r in rows if r.get("cpu")})
    if cpus:
        click.echo(f"processor: {', '.join(cpus)}")
    for note in notes + kept:
        click.echo(f"note: {note}")
    click.echo(f"{len(rows) - len(kept)} rows merged into {out}")
