"""A large inlined kernel is called from one site per compiled kernel: numba translates, types
and compiles an ``inline="always"`` function again at every call site, so a second site of a
big one doubles its share of a cold run (the solvers' searches and Piquet's mirrored pair
compiled 20-45% faster once their second sites went). Read from the kernels' source."""

from __future__ import annotations

import ast
import collections
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "piquet_sim"

#: Lines an inlined function brings (its callees inlined in turn) from which a second call site
#: in one compiled kernel is refused.
LARGE = 60

#: Kernels allowed a second site, and why.
ALLOWED = {
    # the double-dummy comparison plays with the constant DD stages, a type of its own: one
    # site would still compile twice
    ("sinking.py", "evaluate_world", "play_and_record_with"),
}


class _Kernel:
    """A function of a kernels module: its node, whether it is inlined, and where the names it
    calls resolve (its own module, else the module it imported the name from)."""

    def __init__(self, node: ast.FunctionDef, path: Path, imports: dict[str, Path]):
        self.node = node
        self.path = path
        self.imports = imports
        self.inline = any(
            isinstance(d, ast.Name) and d.id == "njit_inline" for d in node.decorator_list
        )


def _kernels() -> dict[tuple[Path, str], _Kernel]:
    out: dict[tuple[Path, str], _Kernel] = {}
    for path in sorted(PACKAGE.rglob("kernels/*.py")):
        tree = ast.parse(path.read_text())
        imports: dict[str, Path] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level and node.module:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                module = base.joinpath(*node.module.split(".")).with_suffix(".py")
                for alias in node.names:
                    imports[alias.asname or alias.name] = module
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                out[(path, node.name)] = _Kernel(node, path, imports)
    return out


KERNELS = _kernels()


def _calls(node: ast.FunctionDef) -> collections.Counter:
    return collections.Counter(
        c.func.id
        for c in ast.walk(node)
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
    )


def _resolve(caller: _Kernel, name: str) -> _Kernel | None:
    own = KERNELS.get((caller.path, name))
    if own is not None:
        return own
    module = caller.imports.get(name)
    return KERNELS.get((module, name)) if module is not None else None


@functools.cache
def _inlined_lines(key: tuple[Path, str]) -> int:
    """Lines the kernel brings where it is inlined (0 when it is compiled on its own)."""
    kernel = KERNELS[key]
    if not kernel.inline:
        return 0
    size = kernel.node.end_lineno - kernel.node.lineno
    for name, sites in _calls(kernel.node).items():
        callee = _resolve(kernel, name)
        if callee is not None and callee is not kernel:
            size += sites * _inlined_lines((callee.path, name))
    return size


def _lines(caller: _Kernel, name: str) -> int:
    callee = _resolve(caller, name)
    return 0 if callee is None else _inlined_lines((callee.path, name))


def test_the_scan_sees_the_inlined_kernels():
    kernels = PACKAGE / "piquet" / "kernels"
    assert _inlined_lines((kernels / "simulate.py", "exchange_stage")) >= LARGE
    assert _inlined_lines((kernels / "solver.py", "search")) == 0  # compiled on its own
    pair = KERNELS[(kernels / "match.py", "play_pair")]
    assert _lines(pair, "deal_full") > 0  # an imported inline kernel is followed


def test_no_kernel_calls_a_large_inlined_function_from_two_sites():
    doubled = []
    for (path, name), kernel in KERNELS.items():
        if kernel.inline:
            continue
        for callee, sites in _calls(kernel.node).items():
            lines = _lines(kernel, callee)
            if sites > 1 and lines >= LARGE and (path.name, name, callee) not in ALLOWED:
                doubled.append(f"{path.name}:{name} calls {callee} ({lines} lines) {sites} times")
    assert not doubled, "; ".join(doubled)
