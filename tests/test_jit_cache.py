"""The numba cache directory keyed on the kernel sources (``core/jit_cache.py``): no compiling."""

from __future__ import annotations

import os
from pathlib import Path

import numba

import piquet_sim
from piquet_sim.core.engine import jit, jit_cache

FILES = {
    "__init__.py": "",
    "core/__init__.py": "",
    "core/jit.py": "import numba\nnjit = numba.njit(cache=True)\n",
    "game/__init__.py": "",
    "game/layouts.py": "A = 1\n",
    "game/kernels.py": (
        "from ..core.jit import njit\nfrom . import (  # tables\n    layouts,\n)\n\n\n"
        "@njit\ndef run(x):\n    return x + layouts.A\n"
    ),
    "game/api.py": "import numba\n\nfrom .kernels import run\n\nN = numba.get_num_threads()\n",
    "game/cli.py": "from .kernels import run\n",
}


def make_package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_kernel_sources_follow_imports_from_kernel_modules(tmp_path):
    package = make_package(tmp_path / "pkg", FILES)
    assert set(jit_cache.kernel_sources(package)) == {
        "core/jit.py",
        "game/__init__.py",  # ``from . import`` runs it
        "game/kernels.py",
        "game/layouts.py",
    }


def test_changing_a_kernel_source_changes_the_directory(tmp_path):
    package = make_package(tmp_path / "pkg", FILES)

    def directory():
        digest = jit_cache.source_hash(jit_cache.kernel_sources(package), ("v1",))
        return jit_cache.cache_dir(tmp_path / "cache", package, digest)

    first = directory()
    (package / "game/cli.py").write_text("from .kernels import run\nX = 2\n")  # not a kernel's
    (package / "game/api.py").write_text("import numba\n")  # uses numba, defines no kernel
    assert directory() == first
    (package / "game/layouts.py").write_text("A = 2\n")  # imported by a kernel module
    second = directory()
    assert second != first and second.parent == first.parent
    (package / "game/layouts.py").write_text("A = 1\n")
    assert directory() == first
    digest = jit_cache.source_hash(jit_cache.kernel_sources(package), ("v2",))  # numba's version
    assert jit_cache.cache_dir(tmp_path / "cache", package, digest) != first


def test_root_is_the_users_numba_cache_dir_else_the_user_cache(tmp_path):
    assert jit_cache.cache_root({"NUMBA_CACHE_DIR": "/x/y"}) == Path("/x/y")
    chosen = {"NUMBA_CACHE_DIR": "/r/p/h", jit_cache.CHOSEN_ENV: "/r/p/h", jit_cache.ROOT_ENV: "/r"}
    assert jit_cache.cache_root(chosen) == Path("/r")  # a child of a process that chose
    overridden = dict(chosen, NUMBA_CACHE_DIR="/mine")
    assert jit_cache.cache_root(overridden) == Path("/mine")
    if os.name == "posix" and os.uname().sysname != "Darwin":
        assert (
            jit_cache.cache_root({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "piquet_sim/numba"
        )


def test_choose_makes_the_directory_and_keeps_the_newest_few(tmp_path):
    package = make_package(tmp_path / "pkg", FILES)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    made = []
    for value in range(jit_cache.KEEP + 2):
        (package / "game/layouts.py").write_text(f"A = {value}\n")
        made.append(jit_cache.choose(package, env, ("v",)))
        os.utime(made[-1], (value, value))  # distinct ages, oldest first
    assert made[-1].is_dir() and made[-1].parent.parent == tmp_path / "cache"
    kept = sorted(p for p in made[-1].parent.iterdir())
    assert kept == sorted(made[-jit_cache.KEEP :])
    assert jit_cache.choose(package, env, ("v",)) == made[-1]  # same sources, same directory


def test_this_process_kernels_cache_in_the_chosen_directory():
    assert jit.CACHE_DIR is not None and str(jit.CACHE_DIR) == numba.config.CACHE_DIR
    assert os.environ["NUMBA_CACHE_DIR"] == str(jit.CACHE_DIR)
    from piquet_sim.piquet.kernels import advisor

    assert Path(advisor.screen_evaluate._cache._cache_path).is_relative_to(jit.CACHE_DIR)
    sources = jit_cache.kernel_sources(Path(piquet_sim.__file__).parent)
    for needed in ("core/engine/jit.py", "piquet/kernels/layouts.py", "piquet/policies.py"):
        assert needed in sources
    for python_only in ("piquet/cli/discard.py", "piquet/advisor.py", "piquet/advisor_warmup.py"):
        assert python_only not in sources
