"""The collector patch (core/jit_gc.py): full collections rarer while numba compiles, Python's
thresholds back once the compile ends."""

from __future__ import annotations

import gc

import numba
from numba.core import event

from piquet_sim.core.engine import jit, jit_gc

assert jit.njit  # importing core.jit installs the patch


class _Thresholds(event.Listener):
    def __init__(self):
        self.seen = []

    def on_start(self, ev: event.Event) -> None:
        self.seen.append(gc.get_threshold())

    def on_end(self, ev: event.Event) -> None:
        pass


def test_the_oldest_threshold_is_raised_during_a_compile_only():
    if not jit_gc.active():
        return  # PIQUET_COMPILE_GC=1: Python's thresholds throughout
    before = gc.get_threshold()
    listener = _Thresholds()

    @numba.njit
    def inner(x):
        return x * 3

    @numba.njit
    def outer(x):
        return inner(x) + 1  # compiles inner inside outer's compile

    with event.install_listener("numba:compile", listener):
        assert outer(2) == 7
    raised = (before[0], before[1], max(before[2], jit_gc.OLDEST))
    assert len(listener.seen) == 2 and all(t == raised for t in listener.seen)
    assert gc.get_threshold() == before
