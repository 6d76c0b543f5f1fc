"""Helpers every test module shares."""

from __future__ import annotations

import errno
import io
import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from piquet_sim.games import GAME_PACKAGES


@pytest.fixture
def run_main(capsys):
    """Run the ``piquet`` entry point in process: ``run_main(*args) -> (exit code, stdout,
    stderr)``."""
    from piquet_sim.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        out, err = capsys.readouterr()
        return exit_info.value.code, out, err

    return run


#: The order in which the workers take the groups: the largest first, so that neither worker is
#: left with a long group at the end: the games with a test folder of their own (Pilotta and
#: Pitch; their numba kernels compile for minutes), then the largest Piquet files (by their
#: measured time from an empty numba cache); the rest in collection order.
FIRST_GROUPS = tuple(g for g in GAME_PACKAGES if (Path(__file__).parent / g).is_dir())
LARGE_FILES = ("test_golden.py", "test_position.py", "test_partie.py", "test_match.py")


def worker_group(nodeid: str) -> str:
    """The worker group of a test (its scope for pytest-xdist): ``pilotta`` or ``pitch`` for the
    tests under that game's folder and for that game's golden cases, the test file otherwise.
    A group runs on one worker, which compiles the game's numba kernels once: tests dealt to
    either worker made both compile the same kernels."""
    path, _, name = nodeid.partition("::")
    parts = path.split("/")
    if len(parts) > 2 and parts[1] in GAME_PACKAGES:
        return parts[1]
    game = name.partition("[")[2].partition("/")[0]
    if parts[-1] == "test_golden.py" and game in FIRST_GROUPS:
        return game
    return path


@pytest.hookimpl(optionalhook=True)  # without pytest-xdist: tests in one process
def pytest_xdist_make_scheduler(config, log):
    """Deal whole groups (:func:`worker_group`) to the workers. xdist's own ``loadgroup`` reads
    ``xdist_group`` marks through a node id suffix that pytest 9 no longer takes, so with it
    every test was dealt to either worker; this scheduler reads the groups from the node ids."""
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid)

    return GroupScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    """The groups of :data:`FIRST_GROUPS`, then those of :data:`LARGE_FILES`, first (the
    workers take groups in collection order), the rest in their order. Slow tests lose
    pytest-timeout's limit (``timeout`` in pyproject.toml)."""
    order = [*FIRST_GROUPS, *(f"tests/{name}" for name in LARGE_FILES)]
    rank = {g: i for i, g in enumerate(order)}
    items.sort(key=lambda item: rank.get(worker_group(item.nodeid), len(rank)))
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(0))  # full-size runs: no per-test limit


class _ClosedPipe(io.TextIOBase):
    """Standard output whose reader has gone: every write and flush is a broken pipe."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


@pytest.fixture
def closed_stdout(monkeypatch):
    """Standard output whose reader stopped early (``piquet … | head -1``) for the test."""
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())


@pytest.fixture
def ctrl_c_raises():
    """Python's own SIGINT handler (KeyboardInterrupt), as in a command run from a terminal,
    for the test: pytest-xdist's workers ignore SIGINT."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


#: The real command in a child process; a line "chunk" on stderr after each finished chunk
#: (a function the module named calls once a chunk, e.g. ``worlds_on_threads``), so the test
#: knows the work has started.
_CHILD = textwrap.dedent(
    """
    import sys
    from importlib import import_module

    module = import_module(sys.argv[1])
    real = getattr(module, sys.argv[2])

    def spy(*args, **kwargs):
        value = real(*args, **kwargs)
        print("chunk", file=sys.stderr, flush=True)
        return value

    setattr(module, sys.argv[2], spy)
    from piquet_sim.cli import main
    main(sys.argv[3:])
    """
)


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system, every thread) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupt_after_first_chunk(module: str, name: str, *args: str):
    """Run ``piquet *args`` in a child whose ``module.name`` says "chunk" when it returns; send
    one SIGINT after the first: (exit code, CPU seconds the child spent from the SIGINT to its
    exit, stdout, stderr). CPU seconds, not wall-clock ones: on a loaded machine the wall time
    measures the load, while the work done after the Ctrl-C is what the command controls."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, module, name, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        seen = []
        for line in proc.stderr:
            seen.append(line)
            if line.strip() == "chunk":
                break
        else:
            pytest.fail(f"the child ended before its first chunk: {''.join(seen)}")
        time.sleep(0.3)
        at_signal = _cpu_seconds(proc.pid)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return proc.returncode, used - at_signal, out, "".join(seen) + err
    finally:
        proc.kill()


@pytest.fixture
def interrupt_after_first_chunk():
    """``(module, name, *args) -> (exit code, CPU seconds from the SIGINT to the exit, stdout,
    stderr)``: ``piquet *args`` in a child, one SIGINT once ``module.name`` has returned."""
    return _interrupt_after_first_chunk


@pytest.fixture(scope="module")
def cluster():
    """A Dask LocalCluster backend (two workers) shared by a module's tests (the ``--backend
    dask`` tests of every game; their modules skip without dask.distributed)."""
    from piquet_sim.core.engine.backend import DaskBackend

    backend = DaskBackend(workers=2)
    try:
        yield backend
    finally:
        backend.close()
