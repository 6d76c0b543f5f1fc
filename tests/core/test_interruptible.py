"""``core.interruptible.call_interruptibly``: a Ctrl-C while a long call runs is seen at once,
asks the call to stop and raises KeyboardInterrupt; otherwise the call's value or exception
comes back as if called directly."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from piquet_sim.core.engine.interruptible import call_interruptibly


def test_value_and_exception_pass_through():
    assert call_interruptibly(lambda: 42, lambda: None) == 42

    def fails():
        raise ValueError("bad position")

    with pytest.raises(ValueError, match="bad position"):
        call_interruptibly(fails, lambda: None)


def test_ctrl_c_stops_a_call_that_would_run_on(ctrl_c_raises):
    stop = threading.Event()

    def long_call():  # a kernel that checks a stop flag as it goes; 30 s if never stopped
        t0 = time.perf_counter()
        while not stop.is_set() and time.perf_counter() - t0 < 30:
            time.sleep(0.01)
        return "stopped" if stop.is_set() else "ran on"

    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        call_interruptibly(long_call, stop.set)
    assert stop.is_set()
    assert time.perf_counter() - t0 < 2.0


def test_outside_the_main_thread_the_call_runs_in_place():
    seen = {}

    def worker():
        seen["value"] = call_interruptibly(lambda: threading.current_thread().name, lambda: None)

    t = threading.Thread(target=worker, name="caller")
    t.start()
    t.join()
    assert seen["value"] == "caller"


def test_tick_runs_in_the_calling_thread_while_the_call_runs():
    ticks = []
    main = threading.current_thread()
    assert (
        call_interruptibly(
            lambda: time.sleep(0.3) or "done",
            lambda: None,
            lambda: ticks.append(threading.current_thread() is main),
        )
        == "done"
    )
    assert len(ticks) >= 3 and all(ticks)
    n = len(ticks)
    time.sleep(0.1)
    assert len(ticks) == n  # none after the call returned
