"""Ctrl-C while numba compiles: the process ends within a moment, exit code 130.

numba compiles in the calling thread, partly in Python and partly inside LLVM, where one call
can run for many seconds; Python runs a SIGINT handler only between bytecodes of the main
thread, and a command whose first Ctrl-C only asks its work to stop after the chunk in flight
(:class:`.backend.StopOnInterrupt`) would not stop before its kernels had compiled. Every
kernel numba finishes is written to the disk cache at once (one file replaced atomically), so
ending the process mid-compile loses only the kernel being compiled.

:func:`arm` (the console script enables and calls it as it starts, and each command's compile
notice calls it again, ``core.app.compile.kernels_cold``, in front of the command's own
handler) points Python's
signal wakeup file descriptor (``signal.set_wakeup_fd``, written by the C-level handler the
moment a signal arrives, whatever the main thread is doing) at a pipe read by a watcher thread.
On a Ctrl-C while a compile runs in this process (or ended less than :data:`GAP_S` ago, or a
registered compile helper process still runs), the watcher stops the helpers, says on stderr
that what compiled is cached, and ends the process with exit code 130; the main thread's
Python handler then does nothing. Any other Ctrl-C goes to the handler in place before (a
command's own Ctrl-C handling is unchanged).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

#: Exit code of a Ctrl-C (128 + SIGINT), as every command's.
EXIT_INTERRUPTED = 130
#: Seconds after a compile ends during which a Ctrl-C still counts as one during compilation
#: (numba loads and links between the compiles of one first call).
GAP_S = 1.0
#: What the watcher says before ending the process.
MESSAGE = (
    "Ctrl-C: stopped while compiling kernels; the kernels compiled so far are cached, so the "
    "next run starts from them"
)

_lock = threading.Lock()
_active = 0  # compiles running in this process (any thread)
_last_end = 0.0  # time.monotonic() of the last compile's end
_helpers: list[subprocess.Popen] = []
_armed = False
_enabled = False  # set by the console script: a program importing the package is left alone
_listening = False


def _started() -> None:
    global _active
    with _lock:
        _active += 1


def _ended() -> None:
    global _active, _last_end
    with _lock:
        _active -= 1
        _last_end = time.monotonic()


def compiling() -> bool:
    """True while numba compiles in this process (or did less than :data:`GAP_S` ago), or a
    registered compile helper process runs."""
    with _lock:
        if _active > 0 or time.monotonic() - _last_end < GAP_S:
            return True
        return any(h.poll() is None for h in _helpers)


def register_helper(process: subprocess.Popen) -> None:
    """A helper process compiling for this one: stopped with it on a Ctrl-C during compilation,
    and counted as compilation while it runs."""
    with _lock:
        _helpers[:] = [h for h in _helpers if h.poll() is None]
        _helpers.append(process)


def listen() -> None:
    """Count this process's compiles (once per process; imports numba): :mod:`.jit` calls it,
    so every process with kernels counts them, armed or not."""
    global _listening
    with _lock:
        if _listening:
            return
        _listening = True
    from numba.core import event

    class CompileActivity(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            _started()

        def on_end(self, ev: event.Event) -> None:
            _ended()

    event.register("numba:compile", CompileActivity())


def _abort() -> None:
    for helper in list(_helpers):
        with contextlib.suppress(OSError):
            helper.kill()
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    try:
        if sys.stderr.isatty():
            sys.stderr.write("\x1b[?25h")  # a progress display may have hidden the cursor
        sys.stderr.write("\n" + MESSAGE + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(EXIT_INTERRUPTED)


def _watch(read_fd: int) -> None:
    while True:
        try:
            data = os.read(read_fd, 64)
        except OSError:
            return
        if not data:
            return
        if signal.SIGINT in data and compiling():
            _abort()


def _handler(previous: Callable | int | None) -> Callable:
    def on_sigint(signum, frame):
        if compiling():
            return  # the watcher thread ends the process
        if callable(previous):
            return previous(signum, frame)
        if previous == signal.SIG_IGN:
            return None
        raise KeyboardInterrupt

    return on_sigint


def enable() -> None:
    """Let :func:`arm` put the guard in place in this process: the console script (and
    ``piquet warm``'s workers) call it; a program or a test calling the commands in its own
    process is never ended by a Ctrl-C."""
    global _enabled
    _enabled = True


def arm() -> bool:
    """Answer a Ctrl-C during compilation at once (see the module docstring): call from the
    main thread before kernels compile. Returns whether the guard is in place (it is not
    before :func:`enable`, outside the main thread, in a process ignoring SIGINT, or when
    something else, an event loop, owns the wakeup fd)."""
    global _armed
    if not _enabled:
        return False
    if _armed:
        _keep_handler()
        return True
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        return False  # this process ignores Ctrl-C (a background job, a test worker)
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    try:
        previous_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    except (ValueError, OSError):
        os.close(read_fd)
        os.close(write_fd)
        return False
    if previous_fd != -1:  # an event loop listens there: leave it be
        signal.set_wakeup_fd(previous_fd)
        os.close(read_fd)
        os.close(write_fd)
        return False
    threading.Thread(target=_watch, args=(read_fd,), name="ctrl-c watcher", daemon=True).start()
    _armed = True
    _keep_handler()
    return True


def _keep_handler() -> None:
    """Put :func:`_handler` in front of whatever SIGINT handler is in place now (a command may
    have installed its own since the last call)."""
    current = signal.getsignal(signal.SIGINT)
    if getattr(current, "_piquet_compile_guard", False):
        return
    handler = _handler(current)
    handler._piquet_compile_guard = True  # type: ignore[attr-defined]
    signal.signal(signal.SIGINT, handler)


def armed() -> bool:
    """True once :func:`arm` put the guard in place in this process."""
    return _armed
