"""Where numba caches this package's kernels: a directory keyed on a hash of the kernel sources.

numba re-checks a cached kernel only against its own source file, so after an update a cached
caller can run old inlined callee code against new tables. Keying the whole cache directory on
the sources that kernels compile from (every module defining kernels, and every package module
those import, transitively) makes any change to them start a fresh directory.

Layout: ``ROOT/piquet_sim-<location hash>/<source hash>``. ROOT is ``$NUMBA_CACHE_DIR`` when the
user set it, else the user cache (``$XDG_CACHE_HOME`` or ``~/.cache``, ``%LOCALAPPDATA%`` on
Windows, ``~/Library/Caches`` on macOS) + ``piquet_sim/numba``. The location hash keeps each
checkout's directories apart; within one location only the ``KEEP`` most recently used source
directories are kept.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

#: Source directories kept per checkout (the one in use always among them).
KEEP = 3
#: Set in the environment with ``NUMBA_CACHE_DIR`` so child processes (the advisor's compile
#: helper, Dask workers) tell this package's choice from the user's: the root, and the dir chosen.
ROOT_ENV = "PIQUET_NUMBA_CACHE_ROOT"
CHOSEN_ENV = "PIQUET_NUMBA_CACHE_CHOSEN"

#: Text that marks a module defining kernels (decorating with numba, or making the decorators).
_KERNEL_MARKS = (
    b"@njit",
    b"numba.njit",
    b"numba.jit",
    b"@numba.",
    b"vectorize",
    b"@overload",
    b"cfunc",
)
# unanchored (a literal first is fast to scan for); a match in a docstring only adds a module
_FROM = re.compile(rb"from\s+(\.+[\w.]*|piquet_sim[\w.]*)\s+import\s+(\([^)]*\)|[^\n]*)")
_IMPORT = re.compile(rb"import\s+(piquet_sim[\w.]*)")


def _module_files(package: Path) -> dict[tuple[str, ...], Path]:
    """Module name parts (relative to the package) -> file; a package's parts map to its
    ``__init__.py``."""
    files = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[parts] = path
    return files


def _imports(parts: tuple[str, ...], is_pkg: bool, text: bytes, files: dict) -> set[tuple]:
    """Module parts of the package modules this source imports (``from X import a`` counts X
    and, when they are modules, X.a)."""
    here = parts if is_pkg else parts[:-1]
    found = set()
    for m in _FROM.finditer(text):
        base, names = m.group(1).decode(), m.group(2).decode()
        if base.startswith("."):
            dots = len(base) - len(base.lstrip("."))
            target = here[: len(here) - (dots - 1)] + tuple(p for p in base[dots:].split(".") if p)
        else:
            target = tuple(base.split(".")[1:])
        found.add(target)
        for name in re.findall(r"\w+", re.sub(r"#[^\n]*", "", names)):
            if name != "as":
                found.add(target + (name,))
    for m in _IMPORT.finditer(text):
        found.add(tuple(m.group(1).decode().split(".")[1:]))
    return {f for f in found if f in files}


def kernel_sources(package: Path) -> dict[str, bytes]:
    """Relative path -> bytes of every module kernels compile from: those defining kernels (or
    the decorators), and the package modules they import, transitively."""
    files = _module_files(package)
    texts = {parts: path.read_bytes() for parts, path in files.items()}
    todo = [p for p, t in texts.items() if any(m in t for m in _KERNEL_MARKS)]
    seen = set(todo)
    while todo:
        parts = todo.pop()
        is_pkg = files[parts].name == "__init__.py"
        for dep in _imports(parts, is_pkg, texts[parts], files):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return {files[p].relative_to(package).as_posix(): texts[p] for p in seen}


def source_hash(sources: dict[str, bytes], versions: tuple[str, ...] = ()) -> str:
    """16 hex digits over the sources (path and bytes) and these version strings."""
    h = hashlib.blake2b(digest_size=8)
    for v in versions:
        h.update(v.encode() + b"\0")
    for name in sorted(sources):
        h.update(name.encode() + b"\0")
        h.update(len(sources[name]).to_bytes(8, "little"))
        h.update(sources[name])
    return h.hexdigest()


def user_cache_root(environ: Mapping[str, str]) -> Path:
    """This package's numba cache root when ``NUMBA_CACHE_DIR`` is not set."""
    if sys.platform == "win32":
        base = environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "piquet_sim" / "numba"


def cache_root(environ: Mapping[str, str]) -> Path:
    """The root: the user's ``NUMBA_CACHE_DIR`` if set (not one this package chose for a parent
    process), else :func:`user_cache_root`."""
    numba_dir = environ.get("NUMBA_CACHE_DIR")
    if numba_dir and numba_dir == environ.get(CHOSEN_ENV) and environ.get(ROOT_ENV):
        return Path(environ[ROOT_ENV])  # inherited from a parent that ran this function
    return Path(numba_dir) if numba_dir else user_cache_root(environ)


def cache_dir(root: Path, package: Path, digest: str) -> Path:
    """``root/piquet_sim-<hash of the package's location>/<digest>``."""
    where = hashlib.blake2b(str(package.resolve()).encode(), digest_size=4).hexdigest()
    return root / f"piquet_sim-{where}" / digest


def prune(directory: Path, keep: int = KEEP) -> None:
    """Delete the oldest (by mtime) sibling source directories of ``directory``, keeping ``keep``
    with ``directory`` among them. Errors (a sibling in use elsewhere, permissions) are ignored."""
    try:
        siblings = [p for p in directory.parent.iterdir() if p.is_dir() and p != directory]
        siblings.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in siblings[keep - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


def _user() -> str:
    try:
        return str(os.getuid())
    except AttributeError:  # Windows
        return os.environ.get("USERNAME", "user")


def choose(package: Path, environ: Mapping[str, str], versions: tuple[str, ...]) -> Path | None:
    """Create (if new, pruning old siblings) and mark as used the cache directory for this
    package's current kernel sources; None when no directory can be made (numba then falls back
    to its default locations)."""
    root = cache_root(environ)
    digest = source_hash(kernel_sources(package), versions)
    for base in (root, None):
        if base is None:  # the root is not writable: a per-user temporary directory
            import tempfile

            base = Path(tempfile.gettempdir()) / f"piquet_sim-numba-{_user()}"
        directory = cache_dir(base, package, digest)
        try:
            new = not directory.is_dir()
            directory.mkdir(parents=True, exist_ok=True)
            os.utime(directory)  # most recently used: the last to be pruned
        except OSError:
            continue
        if new:
            prune(directory)
        return directory
    return None
