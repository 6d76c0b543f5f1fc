"""The command line runs as ``python -m piquet_sim`` and as ``python -m piquet_sim.cli``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from piquet_sim import __version__


@pytest.mark.parametrize("module", ["piquet_sim", "piquet_sim.cli"])
def test_module_runs_the_command_line(module):
    out = subprocess.run(
        [sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert __version__ in out.stdout
