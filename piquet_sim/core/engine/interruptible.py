"""Ctrl-C during one long kernel call.

Python runs its SIGINT handler between bytecodes, so a Ctrl-C pressed while a numba kernel runs
in the main thread waits for the kernel to return, which for an exact search can take minutes.
:func:`call_interruptibly` runs the call in a helper thread instead (a ``nogil`` kernel runs
there without the GIL) while the main thread waits in short joins, where the handler runs at
once; on Ctrl-C it asks the kernel to stop through a callback (typically a flag or limit the
kernel reads as it goes), waits briefly for it, and raises KeyboardInterrupt.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds between the main thread's checks for a Ctrl-C while it waits.
POLL_S = 0.05
#: Seconds to wait, after asking the kernel to stop, before raising anyway (a helper thread still
#: compiling cannot be stopped; it is a daemon and dies with the process).
STOP_WAIT_S = 2.0


def call_interruptibly(
    func: Callable[[], T],
    stop: Callable[[], None] | None,
    tick: Callable[[], None] | None = None,
    stopped: Callable[[], bool] | None = None,
) -> T:
    """``func()``, run in a helper thread so that a Ctrl-C in the main thread is seen at once:
    then ``stop()`` is called (it should make ``func`` return soon), ``func`` gets up to
    :data:`STOP_WAIT_S` seconds to return, and KeyboardInterrupt is raised (``stop`` None: nothing
    can stop ``func``, KeyboardInterrupt is raised at once and the daemon thread ends with the
    process). ``func``'s value or
    exception is passed on otherwise. ``tick()``, if given, is called in the main thread every
    :data:`POLL_S` seconds while ``func`` runs (to show progress). ``stopped()``, if given, is
    read as often: True counts as a Ctrl-C (pass ``core.backend.stop_requested`` inside a
    command whose first Ctrl-C only sets a flag, ``core.cli.long_command``). Outside the main
    thread: ``func()`` directly."""
    if threading.current_thread() is not threading.main_thread():
        return func()
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = func()
        except BaseException as exc:  # handed to the caller's thread below
            outcome["error"] = exc

    helper = threading.Thread(target=run, name="kernel", daemon=True)
    helper.start()
    try:
        while helper.is_alive():
            helper.join(POLL_S)
            if stopped is not None and helper.is_alive() and stopped():
                raise KeyboardInterrupt
            if tick is not None and helper.is_alive():
                tick()
    except KeyboardInterrupt:
        if stop is not None:
            stop()
            helper.join(STOP_WAIT_S)
        raise
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]
