"""The benchmark runner every game shares: run named workloads and merge their rows into a JSON
file (rows keyed by workload and threads, so a partial run keeps the others).

A workload is a function ``f(quick: bool) -> list[dict]``; each dict is one row with at least
``workload`` and ``threads`` plus its figures (``deals_per_s``, ``median_ms`` …). Timings on a
shared machine are noisy: compare rows measured in the same run.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable, Mapping
from pathlib import Path

Workload = Callable[[bool], list[dict]]


def run(
    registry: Mapping[str, Workload], names: list[str] | None, out: Path | None, quick: bool = False
) -> list[dict]:
    """Run the named workloads of ``registry`` (all when None) and merge their rows into ``out``."""
    selected = names or list(registry)
    unknown = [n for n in selected if n not in registry]
    if unknown:
        raise ValueError(f"unknown workload {unknown[0]!r}; see `piquet bench --list`")
    rows: list[dict] = []
    for name in selected:
        for row in registry[name](quick):
            row.setdefault("workload", name)
            row["measured_at"] = time.strftime("%Y-%m-%dT%H:%M:%S")
            row["machine"] = f"{platform.machine()} {platform.python_version()}"
            rows.append(row)
    if out is not None:
        old = json.loads(out.read_text()) if out.exists() else []
        new_keys = {(r["workload"], r.get("threads")) for r in rows}
        merged = [r for r in old if (r["workload"], r.get("threads")) not in new_keys] + rows
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(merged, indent=2) + "\n")
    return rows
