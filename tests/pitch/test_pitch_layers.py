"""Pitch's layers (ARCHITECTURE.md), read from the source: commands import no kernels and no
reference; production code never imports the reference; the data modules (rules, layouts,
policies) import no kernels and no numba."""

from __future__ import annotations

import ast
from pathlib import Path

import piquet_sim.pitch

PITCH = Path(piquet_sim.pitch.__file__).parent
DATA = ("rules.py", "layouts.py", "policies.py")


def _imports(path: Path) -> set[str]:
    """Every module one file imports, as a dotted name under piquet_sim.pitch (relative imports
    resolved) or as written (absolute)."""
    parts = ("piquet_sim", *path.relative_to(PITCH.parent).with_suffix("").parts)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = parts[: len(parts) - node.level] if node.level else ()
            module = ".".join((*base, node.module or ""))
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return found


def _bad(paths, banned: tuple[str, ...]) -> list[str]:
    return [
        f"{p.relative_to(PITCH)} imports {m}"
        for p in paths
        for m in sorted(_imports(p))
        if any(m == b or m.startswith(b + ".") for b in banned)
    ]


def test_commands_import_no_kernels_and_no_reference():
    cli = sorted((PITCH / "cli").glob("*.py"))
    assert len(cli) >= 9
    assert _bad(cli, ("piquet_sim.pitch.kernels", "piquet_sim.pitch.reference")) == []


def test_production_code_never_imports_the_reference():
    prod = [p for p in PITCH.rglob("*.py") if "reference" not in p.relative_to(PITCH).parts]
    assert _bad(prod, ("piquet_sim.pitch.reference",)) == []


def test_data_modules_import_no_kernels():
    paths = [PITCH / name for name in DATA]
    assert _bad(paths, ("piquet_sim.pitch.kernels", "numba")) == []
    assert _bad([PITCH / "rules.py"], ("piquet_sim.pitch.layouts",)) == []


def test_the_check_sees_a_kernel_import(tmp_path, monkeypatch):
    """The checker itself: a relative import of a kernel from a command is caught."""
    fake = tmp_path / "pitch" / "cli"
    fake.mkdir(parents=True)
    (fake / "bad.py").write_text("from ..kernels.table import play_games\nimport numba\n")
    monkeypatch.setattr(__import__(__name__), "PITCH", tmp_path / "pitch")
    assert _bad([fake / "bad.py"], ("piquet_sim.pitch.kernels",)) == [
        "cli/bad.py imports piquet_sim.pitch.kernels.table",
        "cli/bad.py imports piquet_sim.pitch.kernels.table.play_games",
    ]
    assert _bad([fake / "bad.py"], ("numba",)) == ["cli/bad.py imports numba"]
