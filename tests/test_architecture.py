"""Import direction (ARCHITECTURE.md): games import the core, never another game; the core
imports no game. Read from the source, so a stray import anywhere in a module fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import piquet_sim

ROOT = Path(piquet_sim.__file__).parent
GAMES = sorted(
    p.name
    for p in ROOT.iterdir()
    if p.is_dir() and (p / "__init__.py").exists() and p.name != "core"
)


def _imported_packages(path: Path, package: str) -> set[str]:
    """The piquet_sim sub-packages one module imports (absolute or relative)."""
    found: set[str] = set()
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[: len(parts) - node.level]
                names = [".".join((*base, node.module or ""))]
            else:
                names = [node.module or ""]
        for name in names:
            bits = name.split(".")
            if bits[0] == "piquet_sim" and len(bits) > 1 and bits[1]:
                found.add(bits[1])
    found.discard(package)
    return found


def _violations(package: str, allowed: set[str]) -> list[str]:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        extra = _imported_packages(path, package) - allowed
        if extra:
            bad.append(f"{path.relative_to(ROOT)} imports {sorted(extra)}")
    return bad


def test_the_games_are_found():
    assert "piquet" in GAMES and "pilotta" in GAMES


def test_the_core_imports_no_game():
    assert _violations("core", set()) == []


def test_a_game_imports_only_the_core():
    for game in GAMES:
        assert _violations(game, {"core"}) == [], game


def test_the_check_sees_a_cross_import(tmp_path, monkeypatch):
    """The checker itself: a module importing another game is caught, relative or absolute."""
    fake = tmp_path / "piquet_sim" / "pilotta"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "bad.py").write_text("from ..piquet import rules\nimport piquet_sim.core.cards\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path / "piquet_sim")
    assert _violations("pilotta", {"core"}) == ["pilotta/bad.py imports ['piquet']"]
