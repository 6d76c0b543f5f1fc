"""Fewer full garbage collections while numba compiles.

A numba compile allocates objects by the hundred thousand (IR, type annotations, lowering
state) that outlive Python's young collections and then die in reference cycles. Python runs a
full collection, which walks every object the process tracks, once ten middle-generation
collections have run and the objects promoted to the oldest generation since the last full one
reach a quarter of those already there: while kernels compile that is every few hundred
thousand allocations, each walk longer as the compiled kernels pile up. A cold ``piquet review``
ran 28 of them, about 6.7 of its ~90 CPU seconds.

:func:`install` listens to numba's compile events: while a compile runs in this process, the
oldest generation's threshold is :data:`OLDEST` middle-generation collections instead of 10
(young collections are unchanged, so short-lived cycles go as before); when the last compile
ends, the thresholds in place before come back. The same garbage is freed, later and in fewer
walks; the kernels and what they compute are unchanged. ``PIQUET_COMPILE_GC=1`` keeps Python's
thresholds.
"""

from __future__ import annotations

import gc
import os
import threading

from numba.core import event

#: Set to 1 to keep Python's collection thresholds during compiles (compare, or rule this out).
KEEP_ENV = "PIQUET_COMPILE_GC"
#: Middle-generation collections between full collections while a compile runs (Python's: 10).
OLDEST = 100

_lock = threading.Lock()
_depth = 0  # compiles running (nested ones included; numba compiles one thread at a time)
_saved: tuple[int, int, int] | None = None
_installed = False


class _CompileGc(event.Listener):
    def on_start(self, ev: event.Event) -> None:
        global _depth, _saved
        with _lock:
            _depth += 1
            if _depth == 1:
                _saved = gc.get_threshold()
                young, middle, oldest = _saved
                gc.set_threshold(young, middle, max(oldest, OLDEST))

    def on_end(self, ev: event.Event) -> None:
        global _depth, _saved
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None


def install() -> bool:
    """Raise the oldest generation's threshold during compiles (once per process); returns
    whether it is in place."""
    global _installed
    with _lock:
        if _installed:
            return True
        if os.environ.get(KEEP_ENV) == "1":
            return False
        _installed = True
    event.register("numba:compile", _CompileGc())
    return True


def active() -> bool:
    """True when :func:`install` put the raised threshold in place in this process."""
    return _installed
