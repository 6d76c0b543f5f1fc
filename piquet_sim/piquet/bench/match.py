"""Mirrored-match and partie workloads: deal pairs per second and parties per second."""

from __future__ import annotations

import numba

from ...core.engine.bench_timing import rate_rows
from ..match import mirrored_chunk
from ..partie import partie_rows
from ..strategies import REGISTRY
from . import workload


def _rows(name: str, unit: str, n: int, run) -> list[dict]:
    """Rates on one thread, two and every thread (``run(n, seed)``: ``n`` of ``unit``)."""
    threads = sorted({1, min(2, numba.config.NUMBA_NUM_THREADS), numba.config.NUMBA_NUM_THREADS})
    return rate_rows(name, unit, n, run, threads, cpu=False)


G, MAX = REGISTRY["greedy"], REGISTRY["max"]


@workload("mirrored greedy-vs-greedy")
def mirrored_self(quick: bool) -> list[dict]:
    """Deal pairs/s, greedy against itself (the second seating is the first exactly: one play
    per pair)."""
    return _rows(
        "mirrored greedy-vs-greedy",
        "pairs",
        100_000 if quick else 2_000_000,
        lambda n, s: mirrored_chunk(G, G, s, 0, n),
    )


@workload("mirrored greedy-vs-max")
def mirrored_pair(quick: bool) -> list[dict]:
    """Deal pairs/s of two different strategies (two full plays per pair)."""
    return _rows(
        "mirrored greedy-vs-max",
        "pairs",
        100_000 if quick else 1_000_000,
        lambda n, s: mirrored_chunk(G, MAX, s, 0, n),
    )


@workload("parties greedy-vs-max")
def parties_pair(quick: bool) -> list[dict]:
    """Rubicon parties/s (each pair is two parties: A elder first, B elder first)."""
    rows = _rows(
        "parties greedy-vs-max",
        "pairs",
        10_000 if quick else 100_000,
        lambda n, s: partie_rows(G, MAX, s, 0, n),
    )
    for r in rows:
        r["parties_per_s"] = 2 * r["pairs_per_s"]
    return rows
