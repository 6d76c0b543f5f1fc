"""Pilotta's layers (ARCHITECTURE.md), read from the source: commands import no kernels and no
reference; production code never imports the plain-Python reference (tests only); the data
modules (rules, layouts, policies) import no kernels, and rules.py not even the layouts."""

from __future__ import annotations

import ast
from pathlib import Path

import piquet_sim.pilotta

ROOT = Path(piquet_sim.pilotta.__file__).parent
DATA = ("rules.py", "layouts.py", "policies.py")


def _imports(path: Path, root: Path = ROOT) -> set[str]:
    """Modules one file imports inside the pilotta package, as dotted paths from it
    ("kernels.pimc", "reference.auction", "rules"), and absolute imports as written."""
    rel = path.relative_to(root).with_suffix("").parts
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module or "")
        elif isinstance(node, ast.ImportFrom) and len(rel) >= node.level:  # inside pilotta
            name = ".".join([*rel[: len(rel) - node.level], *filter(None, [node.module])])
            found |= {f"{name}.{a.name}".strip(".") for a in node.names}
    return found


def _bad(paths, banned, root: Path = ROOT) -> list[str]:
    out = []
    for path in paths:
        hits = sorted(m for m in _imports(path, root) if any(m.startswith(b) for b in banned))
        if hits:
            out.append(f"{path.relative_to(root)}: {hits}")
    return out


def test_commands_import_no_kernels_and_no_reference():
    assert _bad(sorted((ROOT / "cli").glob("*.py")), ("kernels", "reference")) == []


def test_production_code_never_imports_the_reference():
    paths = [p for p in ROOT.rglob("*.py") if "reference" not in p.relative_to(ROOT).parts]
    assert _bad(paths, ("reference",)) == []


def test_data_modules_import_no_kernels():
    assert _bad([ROOT / m for m in DATA], ("kernels", "numba", "api")) == []
    assert _bad([ROOT / "rules.py"], ("layouts", "policies")) == []


def test_the_check_sees_a_kernel_import(tmp_path):
    """The checker itself: a command importing a kernel module or a name from the kernels
    package, or the reference; the core is not pilotta's."""
    fake = tmp_path / "cli"
    fake.mkdir()
    (fake / "x.py").write_text("from ..kernels import pimc\nfrom ...core.kernels import y\n")
    (fake / "y.py").write_text("from .. import reference\n")
    (fake / "z.py").write_text("from ..match import batch\n")
    bad = _bad(sorted(fake.glob("*.py")), ("kernels", "reference"), tmp_path)
    assert bad == ["cli/x.py: ['kernels.pimc']", "cli/y.py: ['reference']"]
