"""Solving many worlds in blocks, for every game's card values: the worlds split over threads
(each its own solver workspace, its slot), a block at a time, so that a time budget and Ctrl-C
are honoured between blocks (a block is a fraction of a second) and the values never depend on
the thread count (each world's row is exact and goes back in world order)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .backend import stop_requested

#: Worlds solved between two looks at the clock and at Ctrl-C, per thread.
BLOCK = 32
#: Worlds a game's card values solve at least under a time budget (``least``).
MIN_WORLDS = 16


def solve_in_blocks(
    solve: Callable[[Sequence, int], np.ndarray],
    worlds: Sequence,
    threads: int = 1,
    deadline: float | None = None,
    least: int = 0,
    block: int = BLOCK,
) -> tuple[np.ndarray, str]:
    """(the rows ``solve(some worlds, slot)`` gives for the first worlds, in world order; why
    it stopped early: ``""`` (every world solved), ``"time"`` (``deadline``, a
    ``time.perf_counter`` time, passed once at least ``least`` worlds were solved) or
    ``"interrupted"`` (Ctrl-C inside the command's ``StopOnInterrupt``)). ``solve`` runs on
    ``threads`` threads, slot ``t`` taking every ``threads``-th world of a block."""
    rows: list[np.ndarray] = []
    done = 0
    why = ""
    size = max(1, block * threads)
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    try:
        while done < len(worlds):
            chunk = list(worlds[done : done + size])
            if pool is None:
                part = np.asarray(solve(chunk, 0))
            else:
                futures = [pool.submit(solve, chunk[t::threads], t) for t in range(threads)]
                parts = [np.asarray(f.result()) for f in futures]
                part = np.zeros((len(chunk), *parts[0].shape[1:]), dtype=parts[0].dtype)
                for t, p in enumerate(parts):
                    part[t::threads] = p
            rows.append(part)
            done += len(chunk)
            if done < len(worlds) and stop_requested():
                why = "interrupted"
                break
            late = deadline is not None and time.perf_counter() > deadline
            if done < len(worlds) and late and done >= least:
                why = "time"
                break
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    if not rows:
        return np.zeros((0,)), why
    return np.concatenate(rows), why


def solve_card_worlds(
    solve: Callable[[Sequence, int], np.ndarray],
    worlds: Sequence,
    started: float,
    max_seconds: float | None,
    enumerated: bool,
    threads: int | None = None,
    worlds_a_thread: int = 40,
) -> tuple[np.ndarray, str]:
    """:func:`solve_in_blocks` as a game's card values run it: on ``threads`` threads (None:
    the cores, at most two, one per ``worlds_a_thread`` worlds), stopped once ``max_seconds``
    from ``started`` (a ``time.perf_counter`` time) have passed and :data:`MIN_WORLDS` are
    solved; an enumeration (``enumerated``) is solved whole, its order not being random (a
    part of it would be biased)."""
    n_threads = threads or min(os.cpu_count() or 1, 2, max(1, len(worlds) // worlds_a_thread))
    deadline = None if max_seconds is None or enumerated else started + max_seconds
    return solve_in_blocks(solve, worlds, n_threads, deadline, least=MIN_WORLDS)


def cut_notes(
    cut: str, solved: int, max_seconds: float | None, drawn: int | None = None
) -> list[str]:
    """The note saying why the solving stopped early (``cut``, as :func:`solve_in_blocks`
    says) after ``solved`` worlds (of ``drawn``, when given); none when every world was
    solved. The same words in every game."""
    of = f" of {drawn:,}" if drawn is not None else ""
    if cut == "time":
        return [f"stopped after {solved:,}{of} worlds (time budget {max_seconds:g} s)"]
    if cut == "interrupted":
        return [f"stopped by Ctrl-C after {solved:,}{of} worlds"]
    return []


__all__ = ["BLOCK", "MIN_WORLDS", "cut_notes", "solve_card_worlds", "solve_in_blocks"]
