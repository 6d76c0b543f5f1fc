"""A counted event's rate, as the games' ``odds`` count them and the core's ``odds`` command shows
them (no UI here)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EventRate:
    """One event: the ``event`` in words, its estimate ``p`` with its 95% interval ``ci95``,
    its ``count`` out of ``n`` trials (None: not stated) and the ``exact`` value where counting
    gives it (None: none)."""

    event: str
    p: float
    ci95: tuple[float, float]
    count: int
    n: int | None = None
    exact: float | None = None


__all__ = ["EventRate"]
