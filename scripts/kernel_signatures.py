"""Count the numba-jitted functions of a package and their positional parameters.

python scripts/kernel_signatures.py piquet_sim/piquet   # widest signatures first
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def jitted_signatures(root: Path) -> list[tuple[int, str, str]]:
    """(parameter count, file, function) for every function with a jit decorator under root."""
    rows = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                "jit" in ast.unparse(d) for d in node.decorator_list
            ):
                rows.append((len(node.args.args), str(path), node.name))
    return sorted(rows, reverse=True)


if __name__ == "__main__":
    rows = jitted_signatures(Path(sys.argv[1] if len(sys.argv) > 1 else "piquet_sim"))
    wide = [r for r in rows if r[0] >= 10]
    print(f"{len(rows)} jitted functions; {len(wide)} with ten or more parameters")
    for count, path, name in rows[:10]:
        print(f"{count:3d}  {path}:{name}")
