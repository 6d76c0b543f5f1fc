"""Long studies made of several runs (a tournament's matches, a ladder's pairs, a report's
sections): one Ctrl-C stops the run in flight after its chunk, marks the series interrupted and
skips every run not yet started; the caller keeps what finished and says it is partial.

Each run is itself chunked by :func:`piquet_sim.core.engine.backend.run_chunks` (local or Dask, the
same numbers either way); a series only orders them and carries the interruption.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

from ..engine.backend import StopOnInterrupt, stop_requested

T = TypeVar("T")


class Series:
    """``with Series() as series: for item in series.each(items): ...``: yields the items
    until Ctrl-C; ``interrupted`` tells afterwards whether the series was cut (read it, or
    :meth:`mark` a run's own ``interrupted`` flag, before leaving the block)."""

    def __init__(self) -> None:
        self._guard = StopOnInterrupt()
        self.interrupted = False

    def __enter__(self) -> Series:
        self._guard.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._guard.__exit__(*exc)

    def each(self, items: Iterable[T]) -> Iterator[T]:
        """The items, one at a time, while no Ctrl-C has come."""
        for item in items:
            if self.stopped:
                self.interrupted = True
                return
            yield item

    @property
    def stopped(self) -> bool:
        """True once Ctrl-C was pressed during the series."""
        return self._guard.stop or stop_requested()

    def mark(self, run_interrupted: bool) -> bool:
        """Record that a run ended early (its own ``interrupted`` flag); returns it."""
        self.interrupted = self.interrupted or bool(run_interrupted)
        return run_interrupted
