"""Helpers every test module shares."""

from __future__ import annotations

import signal

import pytest


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


def pytest_collection_modifyitems(config, items):
    """Group tests for pytest-xdist (``--dist loadgroup``): one group per Pilotta/Pitch package
    and one per Piquet test file, so each worker compiles a game's numba kernels once instead of
    both workers compiling the same kernels at the same time (compilation is most of CI's time).
    Slow tests lose pytest-timeout's limit (``timeout`` in pyproject.toml)."""
    for item in items:
        parts = item.path.relative_to(config.rootpath).parts
        group = parts[1] if len(parts) > 2 and parts[1] in ("pilotta", "pitch") else str(item.path)
        item.add_marker(pytest.mark.xdist_group(group))
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(0))  # full-size runs: no per-test limit


@pytest.fixture
def ctrl_c_raises():
    """Python's own SIGINT handler (KeyboardInterrupt), as in a command run from a terminal,
    for the test: pytest-xdist's workers ignore SIGINT."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)
