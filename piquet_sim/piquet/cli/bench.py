"""`piquet bench`: measure the kernels and write results/bench.json."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from .. import bench as bench_lib
from .app import cli


@cli.command("bench")
@click.option("--only", "names", multiple=True, help="Workload to run (repeatable); default all.")
@click.option("--quick", is_flag=True, help="Smaller runs, for a smoke test.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("results/bench.json"),
    show_default=True,
    help="JSON file the rows are merged into.",
)
@click.option("--list", "list_only", is_flag=True, help="List the workloads and exit.")
def bench_command(names: tuple[str, ...], quick: bool, out: Path, list_only: bool) -> None:
    """Measure throughput of the kernels; rows are merged into results/bench.json.

    \b
    Example:
      piquet bench --only deal+declarations
    """
    registry = bench_lib.load_all()
    if list_only:
        for name in registry:
            click.echo(name)
        return
    try:
        rows = bench_lib.run(list(names) or None, out, quick=quick)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    table = Table(title=f"Benchmarks (merged into {out})", title_justify="left")
    keys = ["workload", "threads"] + sorted(
        {k for r in rows for k in r} - {"workload", "threads", "measured_at", "machine"}
    )
    for key in keys:
        table.add_column(key)
    for row in rows:
        table.add_row(*("" if row.get(k) is None else str(row.get(k)) for k in keys))
    Console().print(table)
