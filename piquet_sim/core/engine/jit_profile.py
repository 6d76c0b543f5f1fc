"""Where a cold run's compile seconds go: numba's compile events, per kernel and signature.

With ``PIQUET_COMPILE_PROFILE`` set to a directory, :func:`install_from_env` (called by
:mod:`.jit`, so every process that imports a kernel, compile helpers included) listens to
numba's ``numba:compile`` and ``numba:llvm_lock`` events and, at exit, writes one JSON file per
process into that directory: for every signature numba compiled in the process, the CPU seconds
of the compiling thread spent on it alone (``self_s``: callees compiled on the way excluded),
with its callees (``total_s``) and, of ``self_s``, inside LLVM (``llvm_s``: optimization and
machine code; the rest is numba's front end: bytecode, typing, rewrites, lowering).

CPU seconds are the compiling thread's (``time.thread_time``), so a compile on a helper thread
counts in full and other threads' work does not. A kernel inlined with ``inline="always"``
shows under each caller it is inlined into (numba translates and types it again at each call
site), and also once on its own (numba compiles it to learn its return type).
:func:`summarise` adds such files up.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from numba.core import event

#: A directory: every process importing the kernels writes its compile profile there.
PROFILE_ENV = "PIQUET_COMPILE_PROFILE"

_state = threading.local()
_records: list[dict] = []
_records_lock = threading.Lock()


def _stack() -> list[dict]:
    if not hasattr(_state, "stack"):
        _state.stack = []
        _state.llvm_depth = 0
        _state.llvm_t0 = None
    return _state.stack


def _kernel_name(dispatcher) -> str:
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return repr(dispatcher)
    module = func.__module__.removeprefix("piquet_sim.")
    return f"{module}.{func.__qualname__}"


def _pause_llvm(now: float) -> None:
    """Credit the LLVM time running since ``llvm_t0`` to the innermost compile."""
    stack = _stack()
    if _state.llvm_t0 is not None and stack:
        stack[-1]["llvm_s"] += now - _state.llvm_t0
    _state.llvm_t0 = None


class _CompileListener(event.Listener):
    def on_start(self, ev: event.Event) -> None:
        now = time.thread_time()
        _pause_llvm(now)  # a callee compiled while the caller holds the LLVM lock is its own
        data = ev.data
        _stack().append(
            {
                "kernel": _kernel_name(data["dispatcher"]),
                "signature": ", ".join(str(a) for a in data["args"]),
                "t0": now,
                "wall0": time.perf_counter(),
                "callees_s": 0.0,
                "llvm_s": 0.0,
                "llvm_depth": _state.llvm_depth,
            }
        )
        _state.llvm_depth = 0

    def on_end(self, ev: event.Event) -> None:
        now = time.thread_time()
        stack = _stack()
        _pause_llvm(now)
        if not stack:
            return
        frame = stack.pop()
        total = now - frame["t0"]
        record = {
            "kernel": frame["kernel"],
            "signature": frame["signature"],
            "total_s": total,
            "self_s": total - frame["callees_s"],
            "llvm_s": frame["llvm_s"],
            "wall_s": time.perf_counter() - frame["wall0"],
            "depth": len(stack),
            "thread": threading.current_thread().name,
        }
        if stack:
            stack[-1]["callees_s"] += total
        _state.llvm_depth = frame["llvm_depth"]
        if _state.llvm_depth > 0:
            _state.llvm_t0 = now  # the caller's LLVM work resumes
        with _records_lock:
            _records.append(record)


class _LlvmListener(event.Listener):
    def on_start(self, ev: event.Event) -> None:
        _stack()
        _state.llvm_depth += 1
        if _state.llvm_depth == 1:
            _state.llvm_t0 = time.thread_time()

    def on_end(self, ev: event.Event) -> None:
        _stack()
        _state.llvm_depth = max(0, _state.llvm_depth - 1)
        if _state.llvm_depth == 0:
            _pause_llvm(time.thread_time())


def records() -> list[dict]:
    """The compiles recorded so far in this process (empty unless :func:`install` ran)."""
    with _records_lock:
        return list(_records)


def _write(directory: Path) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"compile-{os.getpid()}.json"
        path.write_text(json.dumps({"pid": os.getpid(), "compiles": records()}))
    except OSError:  # a profile must never break the command
        pass


_installed: list[Path] = []


def install(directory: Path) -> None:
    """Record every numba compile of this process and write them to ``directory`` at exit."""
    if _installed:
        return
    _installed.append(directory)
    event.register("numba:compile", _CompileListener())
    event.register("numba:llvm_lock", _LlvmListener())
    atexit.register(_write, directory)


def install_from_env() -> bool:
    """:func:`install` into ``$PIQUET_COMPILE_PROFILE`` when it is set; returns whether it is."""
    where = os.environ.get(PROFILE_ENV)
    if where:
        install(Path(where))
    return bool(where)


def load(directory: Path) -> list[dict]:
    """Every compile record written into ``directory`` (every process's), each with ``pid``."""
    out = []
    for path in sorted(Path(directory).glob("compile-*.json")):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        out.extend({**r, "pid": data["pid"]} for r in data["compiles"])
    return out


def summarise(compiles: Iterable[dict]) -> dict:
    """Compile records added up: ``compile_s`` (CPU seconds in all), ``llvm_s``, ``signatures``
    (compiled), ``processes``, and ``kernels``: per kernel its ``self_s``, ``llvm_s`` and
    ``signatures``, largest first."""
    per: dict[str, dict] = {}
    pids = set()
    for r in compiles:
        pids.add(r.get("pid"))
        k = per.setdefault(r["kernel"], {"kernel": r["kernel"], "self_s": 0.0, "llvm_s": 0.0})
        k["self_s"] += r["self_s"]
        k["llvm_s"] += r["llvm_s"]
        k.setdefault("sigs", set()).add(r["signature"])
        k["signatures"] = k.get("signatures", 0) + 1
    kernels = sorted(per.values(), key=lambda k: -k["self_s"])
    for k in kernels:
        k["distinct_signatures"] = len(k.pop("sigs"))
    return {
        "compile_s": sum(k["self_s"] for k in kernels),
        "llvm_s": sum(k["llvm_s"] for k in kernels),
        "signatures": sum(k["signatures"] for k in kernels),
        "processes": len(pids),
        "kernels": kernels,
    }
