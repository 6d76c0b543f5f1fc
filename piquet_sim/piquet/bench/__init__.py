"""Benchmarks: each module registers workloads; ``run`` measures them and merges rows into
``results/bench.json`` (rows keyed by workload and threads, so a partial run keeps the others).

A workload is a function ``f(quick: bool) -> list[dict]``; each dict is one row with at least
``workload`` and ``threads`` plus its figures (``deals_per_s``, ``median_ms`` …).
"""

from __future__ import annotations

import importlib
import json
import platform
import time
from collections.abc import Callable
from pathlib import Path

WORKLOADS: dict[str, Callable[[bool], list[dict]]] = {}
MODULES = ("declarations", "simulation", "match", "advisor", "solver", "sinking")


def workload(name: str) -> Callable:
    """Register a benchmark function under ``name``."""

    def register(func: Callable[[bool], list[dict]]) -> Callable[[bool], list[dict]]:
        WORKLOADS[name] = func
        return func

    return register


def load_all() -> dict[str, Callable[[bool], list[dict]]]:
    for module in MODULES:
        importlib.import_module(f"{__name__}.{module}")
    return WORKLOADS


def run(names: list[str] | None, out: Path | None, quick: bool = False) -> list[dict]:
    """Run the named workloads (all when None) and merge their rows into ``out``."""
    registry = load_all()
    selected = names or list(registry)
    unknown = [n for n in selected if n not in registry]
    if unknown:
        raise ValueError(f"unknown workload {unknown[0]!r}; known: {', '.join(registry)}")
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
