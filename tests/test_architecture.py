"""Import direction and layers (ARCHITECTURE.md), read from the source so that a stray import
anywhere in a module fails here: games import the core, never another game; the core imports
no game; the core's layers point down (engine <- game <- review, study <- app); no click or
rich below the application layer (the core's ``app`` and each game's ``cli``); no library
module imports a command module; commands import no kernels; production code never imports a
plain-Python reference; data modules import no kernels. Every check runs over every game
listed in ``piquet_sim/games.py`` and has a planted violation it must see."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import piquet_sim
from piquet_sim.games import GAME_PACKAGES

ROOT = Path(piquet_sim.__file__).parent
GAMES = sorted(GAME_PACKAGES)
#: Application-level packages: like ``cli.py`` they may import every game (no game imports them).
APPLICATION = {"openspiel", "external"}


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
    """Every package is the core, a game listed in ``piquet_sim/games.py`` or an application
    package: a new game package not listed there would escape these checks."""
    assert "piquet" in GAMES and "pilotta" in GAMES
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == {"core", *GAMES, *APPLICATION}


def test_the_core_imports_no_game():
    assert _violations("core", set()) == []


def test_a_game_imports_only_the_core():
    for game in GAMES:
        assert _violations(game, {"core"}) == [], game


def test_application_packages_import_games_and_the_core_only():
    """``openspiel`` and ``external`` may read the games' registry (``piquet_sim/games.py``)."""
    for package in APPLICATION:
        assert _violations(package, {"core", "games", *GAMES}) == [], package


def test_the_check_sees_a_cross_import(tmp_path, monkeypatch):
    """The checker itself: a module importing another game is caught, relative or absolute."""
    fake = tmp_path / "piquet_sim" / "pilotta"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "bad.py").write_text(
        "from ..piquet import rules\nimport piquet_sim.core.engine.cards\n"
    )
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path / "piquet_sim")
    assert _violations("pilotta", {"core"}) == ["pilotta/bad.py imports ['piquet']"]


def _imports(path: Path, top_level_only: bool = False) -> set[str]:
    """Dotted names of the piquet_sim modules one module imports (relative imports resolved;
    ``from a import b`` gives both ``a`` and ``a.b``, since ``b`` may be a module)."""
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1] + ("__init__",)
    tree = _without_type_checking(ast.parse(path.read_text(encoding="utf-8")))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(parts[: len(parts) - node.level])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return {m for m in found if m.startswith("piquet_sim.")}


def _without_type_checking(tree: ast.Module) -> ast.Module:
    """The module without its ``if TYPE_CHECKING:`` blocks: an import made for annotations
    only ties nothing at run time."""
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                block[:] = [
                    n
                    for n in block
                    if not (
                        isinstance(n, ast.If)
                        and isinstance(n.test, ast.Name)
                        and n.test.id == "TYPE_CHECKING"
                    )
                ]
    return tree


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)


def _layer_violations(game: str) -> list[str]:
    """Each layer rule of ARCHITECTURE.md broken in one game package, one line each."""
    pkg = f"piquet_sim.{game}"
    kernels, reference = f"{pkg}.kernels", f"{pkg}.reference"
    data = {f"{pkg}.rules", f"{pkg}.policies", f"{pkg}.layouts", f"{kernels}.layouts"}
    cli = f"{pkg}.cli"
    bad = []
    for path in sorted((ROOT / game).rglob("*.py")):
        name = _module_name(path)
        imported = _imports(path)
        kernel_imports = {m for m in imported if m == kernels or m.startswith(kernels + ".")}
        if name.startswith(f"{pkg}.cli") and kernel_imports:
            bad.append(f"{name}: a command imports kernels {sorted(kernel_imports)}")
        if not name.startswith(reference) and any(
            m == reference or m.startswith(reference + ".") for m in imported
        ):
            bad.append(f"{name}: production code imports {reference}")
        if name in data and kernel_imports - {f"{kernels}.layouts", kernels}:
            bad.append(f"{name}: a data module imports kernels {sorted(kernel_imports)}")
        if name in data and _third_party(path) & {"numba"}:
            bad.append(f"{name}: a data module imports numba")
        is_cli = name == cli or name.startswith(cli + ".") or name == f"{pkg}.game"
        if not is_cli and any(m == cli or m.startswith(cli + ".") for m in imported):
            bad.append(f"{name}: a library module imports a command module")
        if not is_cli and _third_party(path) & UI:
            bad.append(f"{name}: a library module imports {sorted(_third_party(path) & UI)}")
    return bad


def _cycles(game: str) -> list[str]:
    """Import cycles among a game's modules outside its kernels (module-level and deferred
    imports alike: a deferred import that closes a cycle still ties the two modules)."""
    pkg = f"piquet_sim.{game}"
    paths = {
        _module_name(p): p
        for p in (ROOT / game).rglob("*.py")
        if "kernels" not in p.parts and p.name != "__init__.py"
    }
    graph = {
        name: {m for m in _imports(path) if m in paths} - {name} for name, path in paths.items()
    }
    found = []
    for start in sorted(graph):
        stack, seen = [(start, [start])], set()
        while stack:
            node, route = stack.pop()
            for nxt in sorted(graph[node]):
                if nxt == start:
                    found.append(" -> ".join(route + [start]).replace(pkg + ".", ""))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, route + [nxt]))
    return sorted({c for c in found if c.split(" -> ")[0] == min(c.split(" -> ")[:-1])})


@pytest.mark.parametrize("game", GAMES)
def test_layers_hold_in_every_game(game):
    """Commands import no kernels, production code no reference, data modules no kernels."""
    assert _layer_violations(game) == []


@pytest.mark.parametrize("game", GAMES)
def test_no_import_cycles_above_the_kernels(game):
    assert _cycles(game) == []


def test_the_layer_checks_see_planted_violations(tmp_path, monkeypatch):
    """The checkers themselves: a command importing a kernel, an API module importing the
    reference, a rules module importing a kernel and a two-module cycle are each caught."""
    game = tmp_path / "piquet_sim" / "fake"
    for sub in ("", "cli", "kernels", "reference"):
        (game / sub).mkdir(parents=True, exist_ok=True)
        (game / sub / "__init__.py").write_text("")
    (game / "kernels" / "play.py").write_text("")
    (game / "reference" / "play.py").write_text("")
    (game / "cli" / "play.py").write_text("from ..kernels import play as K\n")
    (game / "api.py").write_text("from .reference.play import x\nfrom . import other\n")
    (game / "other.py").write_text("def f():\n    from .api import y\n")
    (game / "rules.py").write_text("import piquet_sim.fake.kernels.play\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path / "piquet_sim")
    assert _layer_violations("fake") == [
        "piquet_sim.fake.api: production code imports piquet_sim.fake.reference",
        "piquet_sim.fake.cli.play: a command imports kernels "
        "['piquet_sim.fake.kernels', 'piquet_sim.fake.kernels.play']",
        "piquet_sim.fake.rules: a data module imports kernels ['piquet_sim.fake.kernels.play']",
    ]
    assert _cycles("fake") == ["api -> other -> api"]


#: The user-interface libraries: only the application layer imports them.
UI = {"click", "rich"}
#: The core's layers and what each may import (a layer may import itself and those below).
CORE_LAYERS = {
    "engine": set(),
    "game": {"engine"},
    "review": {"engine", "game"},
    "study": {"engine", "game"},
    "app": {"engine", "game", "review", "study"},
}


def _third_party(path: Path) -> set[str]:
    """The top-level names of the outside packages one module imports (``click``, ``numba``)."""
    found: set[str] = set()
    tree = _without_type_checking(ast.parse(path.read_text(encoding="utf-8")))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def _core_layer_violations() -> list[str]:
    """Each core module importing a core layer above its own, or click/rich below ``app``."""
    bad = []
    core = ROOT / "core"
    for path in sorted(core.rglob("*.py")):
        rel = path.relative_to(core).parts
        layer = rel[0] if len(rel) > 1 else None
        if layer is None:  # core/__init__.py
            continue
        name = _module_name(path)
        used = {m.split(".")[2] for m in _imports(path) if m.startswith("piquet_sim.core.")}
        above = used - CORE_LAYERS[layer] - {layer} - {"__init__"}
        if above:
            bad.append(f"{name}: the {layer} layer imports {sorted(above)}")
        if layer != "app" and _third_party(path) & UI:
            bad.append(f"{name}: imports {sorted(_third_party(path) & UI)} below the app layer")
    return bad


def test_the_core_layers_point_down():
    """engine <- game <- review and study <- app; click and rich only in ``app``."""
    assert set(CORE_LAYERS) == {
        p.name for p in (ROOT / "core").iterdir() if (p / "__init__.py").exists()
    }
    assert _core_layer_violations() == []


def test_the_core_layer_check_sees_planted_violations(tmp_path, monkeypatch):
    core = tmp_path / "piquet_sim" / "core"
    for layer in CORE_LAYERS:
        (core / layer).mkdir(parents=True)
        (core / layer / "__init__.py").write_text("")
    (core / "__init__.py").write_text("")
    (core / "engine" / "bad.py").write_text("from ..game import spec\n")
    (core / "game" / "ui.py").write_text("import click\n")
    (core / "app" / "fine.py").write_text("import rich\nfrom ..study import series\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path / "piquet_sim")
    assert _core_layer_violations() == [
        "piquet_sim.core.engine.bad: the engine layer imports ['game']",
        "piquet_sim.core.game.ui: imports ['click'] below the app layer",
    ]


def test_a_library_module_importing_the_ui_or_a_command_is_seen(tmp_path, monkeypatch):
    game = tmp_path / "piquet_sim" / "fake"
    (game / "cli").mkdir(parents=True)
    for init in (game / "__init__.py", game / "cli" / "__init__.py"):
        init.write_text("")
    (game / "cli" / "play.py").write_text("import click\n")
    (game / "bench.py").write_text("from .cli.play import EXAMPLE\n")
    (game / "match.py").write_text("from rich.table import Table\n")
    (game / "policies.py").write_text("import numba\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path / "piquet_sim")
    assert _layer_violations("fake") == [
        "piquet_sim.fake.bench: a library module imports a command module",
        "piquet_sim.fake.match: a library module imports ['rich']",
        "piquet_sim.fake.policies: a data module imports numba",
    ]
