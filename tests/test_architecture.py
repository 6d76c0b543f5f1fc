"""Import direction (ARCHITECTURE.md): games import the core, never another game; the core
imports no game. Read from the source, so a stray import anywhere in a module fails here."""

from __future__ import annotations

import ast
from pathlib import Path

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
    for package in APPLICATION:
        assert _violations(package, {"core", *GAMES}) == [], package


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
    tree = ast.parse(path.read_text(encoding="utf-8"))
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


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)


def _layer_violations(game: str) -> list[str]:
    """Each layer rule of ARCHITECTURE.md broken in one game package, one line each."""
    pkg = f"piquet_sim.{game}"
    kernels, reference = f"{pkg}.kernels", f"{pkg}.reference"
    data = {f"{pkg}.rules", f"{pkg}.policies", f"{pkg}.layouts", f"{kernels}.layouts"}
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


def test_layers_hold_in_every_game():
    """Commands import no kernels, production code no reference, data modules no kernels."""
    for game in GAMES:
        assert _layer_violations(game) == [], game


def test_no_import_cycles_above_the_kernels():
    for game in GAMES:
        assert _cycles(game) == [], game


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
