"""Parallel drivers without ``parallel=True``: a serial span kernel run on Python threads.

A numba ``prange`` driver over spans compiles its whole tree of callees twice more (the parfor
body becomes a gufunc, linked and optimized with every kernel below it, then the driver around
it): the advisor's pimc driver took 14 CPU-seconds to compile on its own, more than the solver.
Its work is a loop over spans, each calling one serial kernel; running that kernel (``nogil``)
on Python threads instead gives the same spans, the same rows and the same numbers, compiles
nothing beyond the span kernel, and costs a few tens of microseconds a call.

:func:`run_spans` runs ``span(s)`` for every span on ``numba.get_num_threads()`` threads (this
one included), each taking the next span not yet taken; :func:`driver` marks a Python driver
with the kernels it calls, so the compile notice (``core.app.compile.kernels_cold``) can check
them. :func:`span_range` is the spans' split (:func:`.spans.span_range`) in Python.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)


def span_range(n: int, n_spans: int, s: int) -> tuple[int, int]:
    """(first, count) of span ``s`` of ``n`` items over ``n_spans`` spans, as the kernels'
    ``spans.span_range`` (the same split: the same items in each span)."""
    per = (n + n_spans - 1) // n_spans
    first = s * per
    return first, max(0, min(per, n - first))


def threads() -> int:
    """The threads a driver runs on: numba's thread count (``numba.set_num_threads``)."""
    import numba

    return numba.get_num_threads()


def run_spans(span: Callable[[int], None], n_spans: int, n_threads: int | None = None) -> None:
    """``span(s)`` for s in 0 .. n_spans-1, on ``n_threads`` threads (default :func:`threads`;
    this thread is one of them, and runs alone for one span or one thread). Each thread takes
    the next span not yet taken, so which thread runs a span varies: ``span`` must write only
    its own outputs. The first error of any span is raised once every thread has stopped
    taking spans."""
    k = max(1, min(n_threads or threads(), n_spans))
    if k == 1:
        for s in range(n_spans):
            span(s)
        return
    taken = itertools.count()  # next() on it is atomic under the GIL
    errors: list[BaseException] = []

    def work() -> None:
        try:
            while not errors:
                s = next(taken)
                if s >= n_spans:
                    return
                span(s)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            errors.append(exc)

    helpers = [threading.Thread(target=work, daemon=True) for _ in range(k - 1)]
    for t in helpers:
        t.start()
    work()
    for t in helpers:
        t.join()
    if errors:
        raise errors[0]


def for_spans(n: int, n_spans: int, work: Callable[[int, int, int], None]) -> None:
    """``work(s, first, count)`` for every non-empty span ``s`` of ``n`` items over ``n_spans``
    spans (:func:`span_range`), on threads (:func:`run_spans`)."""

    def run(s: int) -> None:
        first, count = span_range(n, n_spans, s)
        if count > 0:
            work(s, first, count)

    run_spans(run, n_spans)


def driver(*kernels) -> Callable[[F], F]:
    """Mark a Python driver with the numba kernels it calls (``func.kernels``), which the
    compile notice checks in its place."""

    def mark(func: F) -> F:
        func.kernels = kernels  # type: ignore[attr-defined]
        return func

    return mark
