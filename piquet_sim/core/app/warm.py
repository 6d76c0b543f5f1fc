"""Compile kernels ahead: run commands at a tiny size in parallel worker processes.

A game's kernels are those its commands call, with the argument types the commands give them, so
the surest way to compile them is to run the commands: :func:`warm` hands each task (the
arguments of one ``piquet`` command, usually a ``--help`` example at a tiny size) to one of
``jobs`` worker interpreters, each running its tasks in turn inside one process (a kernel a task
compiled is reused by the next, not loaded again), in a scratch directory, output discarded.
Every kernel compiled lands in numba's disk cache, which later runs load. A worker keeps to the
tasks of one game while there are any, so two workers seldom compile the same kernel at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import selectors
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

#: A worker compiles on its own: a command's helper processes would only crowd the cores.
WORKER_ENV = {"PIQUET_SERIAL_COMPILE": "1"}


@dataclass(frozen=True)
class Task:
    """One command to run: its game (tasks of a game share a worker), a label, and the
    arguments after ``piquet``."""

    game: str
    label: str
    args: tuple[str, ...]


@dataclass
class Outcome:
    """What :func:`warm` did: tasks run, those that failed (label and the last line they
    said), each task's CPU seconds in its worker (label, seconds; its helper processes
    included), wall and CPU seconds (user + system of every worker)."""

    done: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    task_cpu_s: list[tuple[str, float]] = field(default_factory=list)
    wall_s: float = 0.0
    cpu_s: float = 0.0
    interrupted: bool = False


def worker_main(root: str, cwd: str) -> None:
    """A worker: read one task (a JSON list of arguments) a line on stdin, run it with the
    click group ``root`` (``"module:attribute"``) in ``cwd`` with its output discarded, and
    answer one JSON line (``{"ok": bool, "error": str, "cpu_s": float}``) on the original
    stdout."""
    import importlib

    from ..engine import jit_interrupt

    jit_interrupt.enable()  # a Ctrl-C while a worker compiles ends it at once
    jit_interrupt.arm()
    module, attribute = root.split(":")
    group = getattr(importlib.import_module(module), attribute)
    answer = os.fdopen(os.dup(1), "w", buffering=1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.chdir(cwd)
    for line in sys.stdin:
        args = json.loads(line)
        before = _cpu_s()
        ok, error = _run(group, args)
        answer.write(json.dumps({"ok": ok, "error": error, "cpu_s": _cpu_s() - before}) + "\n")


def _cpu_s() -> float:
    """User + system seconds of this process and the children it waited for."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _run(group, args: list[str]) -> tuple[bool, str]:
    import click

    try:
        group.main(args=args, prog_name="piquet", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code == 0, f"exit {exc.exit_code}"
    except click.ClickException as exc:
        return False, exc.format_message()
    except Exception as exc:  # noqa: BLE001 - a failed task is reported, the others run
        return False, f"{type(exc).__name__}: {exc}"
    return True, ""


class _Worker:
    def __init__(self, root: str, cwd: str, env: dict[str, str]) -> None:
        code = f"from {__name__} import worker_main; worker_main({root!r}, {cwd!r})"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self.game: str | None = None
        self.task: Task | None = None

    def give(self, task: Task) -> None:
        self.task, self.game = task, task.game
        self.process.stdin.write(json.dumps(list(task.args)) + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def _next_task(
    queues: dict[str, list[Task]], game: str | None, others: Collection[str | None] = ()
) -> Task | None:
    """The worker's game's next task; else the first of the game with the most left that no
    other worker is on (``others``: their games), else of the game with the most left. Two
    workers on one game compile its kernels twice, neither finding them cached yet."""
    if game in queues and queues[game]:
        return queues[game].pop(0)
    left = [g for g in queues if queues[g]]
    if not left:
        return None
    free = [g for g in left if g not in others] or left
    return queues[max(free, key=lambda g: len(queues[g]))].pop(0)


def warm(
    tasks: list[Task],
    root: str,
    jobs: int,
    docs: Path | None = None,
    progress: Callable[[Task | None, list[Task]], None] | None = None,
) -> Outcome:
    """Run ``tasks`` on ``jobs`` worker processes (see the module docstring); ``root`` names the
    click group (``"piquet_sim.cli:cli"``), ``docs`` a directory the scratch directory links
    as ``docs`` (the review examples read records there). ``progress(finished, running)`` is
    called as tasks start and end. A Ctrl-C stops every worker (each ends within a moment, what
    it compiled cached) and sets ``interrupted``."""
    outcome = Outcome()
    queues: dict[str, list[Task]] = {}
    for task in tasks:
        queues.setdefault(task.game, []).append(task)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="piquet-warm-") as cwd:
        if docs is not None and docs.is_dir():
            (Path(cwd) / "docs").symlink_to(docs)
        env = {**os.environ, **WORKER_ENV}
        workers = [_Worker(root, cwd, env) for _ in range(max(1, min(jobs, len(tasks))))]
        selector = selectors.DefaultSelector()
        try:
            busy = 0
            for w in workers:
                task = _next_task(queues, w.game, [x.game for x in workers if x is not w])
                if task is not None:
                    w.give(task)
                    busy += 1
                    selector.register(w.process.stdout, selectors.EVENT_READ, w)
            if progress:
                progress(None, [w.task for w in workers if w.task])
            while busy:
                for key, _ in selector.select():
                    w = key.data
                    line = w.process.stdout.readline()
                    finished = w.task
                    answer = json.loads(line) if line else {"ok": False, "error": "worker died"}
                    outcome.done += 1
                    outcome.task_cpu_s.append((finished.label, answer.get("cpu_s", 0.0)))
                    if not answer["ok"]:
                        outcome.failed.append((finished.label, answer["error"]))
                    w.task = None
                    others = [x.game for x in workers if x is not w and x.task]
                    task = _next_task(queues, w.game, others) if line else None
                    if task is None:
                        selector.unregister(w.process.stdout)
                        busy -= 1
                        if not line:  # a dead worker: its game's tasks go to the others
                            w.game = None
                    else:
                        w.give(task)
                    if progress:
                        progress(finished, [x.task for x in workers if x.task])
        except KeyboardInterrupt:
            outcome.interrupted = True
        finally:
            for w in workers:
                if w.process.stdin:
                    with contextlib.suppress(OSError):
                        w.process.stdin.close()
            deadline = time.monotonic() + (2.0 if outcome.interrupted else 60.0)
            for w in workers:
                try:
                    w.process.wait(timeout=max(0.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    w.stop()
            selector.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    outcome.wall_s = time.perf_counter() - t0
    outcome.cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return outcome
