"""Piquet's benchmark workloads: each module registers its workloads here; ``load_all`` returns
them for the shared runner (``piquet_sim.core.app.bench``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable

WORKLOADS: dict[str, Callable[[bool], list[dict]]] = {}
MODULES = (
    "declarations",
    "simulation",
    "match",
    "advisor",
    "solver",
    "sinking",
    "startup",
    "play",
)


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
