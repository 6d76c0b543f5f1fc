"""Helpers every test module shares."""

from __future__ import annotations

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
