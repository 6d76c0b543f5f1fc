"""The Python the package claims (``requires-python``) is the one CI runs and the code needs:
``tomllib`` (strategy files) is 3.11's, so the claim is 3.11; ruff checks the same target."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import piquet_sim

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: Standard-library modules newer than 3.10 that the package may import, and their first version.
NEWER_STDLIB = {"tomllib": (3, 11)}


def _claimed() -> tuple[int, int]:
    spec = PYPROJECT["project"]["requires-python"]
    assert spec.startswith(">="), spec
    major, minor = spec[2:].split(".")[:2]
    return int(major), int(minor)


def test_running_python_meets_the_claim():
    assert sys.version_info[:2] >= _claimed()


def test_claim_covers_every_stdlib_module_the_package_imports():
    claimed = _claimed()
    for path in Path(piquet_sim.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module.split(".")[0]]
            for name in names:
                if name in NEWER_STDLIB:
                    assert claimed >= NEWER_STDLIB[name], f"{path} imports {name}"


def test_ruff_targets_the_claimed_python():
    major, minor = _claimed()
    assert PYPROJECT["tool"]["ruff"]["target-version"] == f"py{major}{minor}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Python {major}.{minor} or newer" in readme
