"""What each command's first run compiles: cold CPU seconds and the kernels that cost them.

:func:`.examples.help_examples` reads every command's ``--help`` example (the first one of
each); :func:`profile` runs one in a fresh interpreter with an empty numba cache and a compile
profile (:mod:`piquet_sim.core.engine.jit_profile`), in a scratch directory that sees the
repository's ``docs/`` (the review examples read records from there) so files the example
writes go nowhere.
``scripts/compile_profile.py`` runs them all and writes the table into ``docs/benchmarks.md``.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from ..engine.jit_profile import PROFILE_ENV, load, summarise
from .examples import capped, help_examples  # noqa: F401 - the runs this module profiles

#: Sample sizes above this (``--deals``, ``-n``, ``--parties``, ``--games``) are cut to it: the
#: profile is about compile time, and a help example of ten million deals mostly measures the
#: run (the cold figures of the first run compile and then run this many).
SIZE_CAP = 20_000


def _scratch_cwd(tmp: Path, repo: Path) -> Path:
    cwd = tmp / "cwd"
    cwd.mkdir()
    if (repo / "docs").is_dir():
        (cwd / "docs").symlink_to(repo / "docs")
    return cwd


def profile(args: list[str], repo: Path, timeout: float | None = None) -> dict:
    """Run ``piquet ARGS`` cold (a fresh interpreter, an empty numba cache) and return its
    figures: ``cpu_s`` (user + system of it and every process it waited for), ``wall_s``,
    ``exit`` (its exit code), ``literals`` (:func:`literal_specialisations`), and from the
    compile profile ``compile_s``, ``llvm_s``, ``signatures``, ``processes`` and ``kernels``
    (per kernel: ``self_s``, ``llvm_s``, ``signatures``; largest first)."""
    args = capped(args, SIZE_CAP)
    with tempfile.TemporaryDirectory(prefix="piquet-profile-") as tmp:
        tmp_path = Path(tmp)
        env = dict(os.environ)
        for name in ("PIQUET_NUMBA_CACHE_ROOT", "PIQUET_NUMBA_CACHE_CHOSEN"):
            env.pop(name, None)
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
        env[PROFILE_ENV] = str(tmp_path / "profile")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(repo), env.get("PYTHONPATH")]))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "piquet_sim", *args],
                cwd=_scratch_cwd(tmp_path, repo),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                timeout=timeout,
            )
            code, err = done.returncode, done.stderr
        except subprocess.TimeoutExpired:
            code, err = None, "timed out"
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        compiles = load(tmp_path / "profile")
        summary = summarise(compiles)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "command": shlex.join(["piquet", *args]),
        "cpu_s": cpu,
        "wall_s": wall,
        "exit": code,
        "stderr_tail": (err or "").strip().splitlines()[-1:] if code else [],
        "literals": literal_specialisations(compiles),
        **summary,
    }


def literal_specialisations(compiles: list[dict]) -> list[dict]:
    """The package's compiles specialised on a constant (a ``Literal`` argument type: a kernel
    called with a literal compiles once for it and again for a variable), largest first."""
    found = [
        {"kernel": r["kernel"], "signature": r["signature"], "self_s": r["self_s"]}
        for r in compiles
        if "Literal[" in r["signature"] and not r["kernel"].startswith("numba.")
    ]
    return sorted(found, key=lambda r: -r["self_s"])


def top_kernels(row: dict, n: int = 3) -> str:
    """The ``n`` kernels costing ``row`` the most compile CPU, as ``name 12.3`` (seconds; the
    signature count after ``x`` when a kernel compiled more than one)."""
    parts = []
    for k in row["kernels"][:n]:
        sigs = f" x{k['signatures']}" if k["signatures"] > 1 else ""
        parts.append(f"`{k['kernel']}` {k['self_s']:.1f}{sigs}")
    return ", ".join(parts)


def markdown(
    rows: list[dict], load: str, top: int = 3, before: dict[str, dict] | None = None
) -> str:
    """The table of :func:`profile` rows for ``docs/benchmarks.md`` (``load``: when and at what
    load they were measured); with ``before`` (rows of
    another checkout by command name, measured in the same run) each figure reads "before →
    now"."""

    def pair(r: dict, field: str) -> str:
        old = (before or {}).get(r.get("name", ""))
        now = f"{r[field]:.1f}"
        return now if old is None else f"{old[field]:.1f} → {now}"

    lines = [
        f"Measured {load}; CPU seconds are user + system of "
        "the command and its helper processes, compile seconds numba's own (its compile "
        "events, every process), kernels by their own compile seconds (callees excluded).",
        "",
        "| command | cold CPU-s | wall s | compile CPU-s (LLVM) | signatures | top kernels "
        "(compile CPU-s) |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        failed = "" if r["exit"] == 0 else f" (exit {r['exit']})"
        lines.append(
            f"| `{r['command']}`{failed} | {pair(r, 'cpu_s')} | {r['wall_s']:.1f} | "
            f"{pair(r, 'compile_s')} ({r['llvm_s']:.1f}) | {r['signatures']} | "
            f"{top_kernels(r, top)} |"
        )
    return "\n".join(lines) + "\n"


def compile_times_module(rows: list[dict], load: str) -> str:
    """The source of ``core/app/compile_times.py`` from :func:`profile` rows (named by
    command): each command's cold CPU seconds and the processes it compiled on."""
    entries = "".join(
        f"    {json.dumps(r['name'])}: ({r['cpu_s']:.1f}, {max(1, r['processes'])}),\n"
        for r in rows
        if r["exit"] == 0
    )
    doc = textwrap.fill(
        "Cold first-run CPU seconds of each command's help example, as last measured: command "
        "-> (CPU seconds, processes it compiles on). Written by ``scripts/compile_profile.py "
        f"--docs`` ({load}); read by the compile notice.",
        width=94,
    )
    return f'"""{doc}"""\n\nCOLD: dict[str, tuple[float, int]] = {{\n{entries}}}\n'


BEGIN = "<!-- compile profile: scripts/compile_profile.py --docs writes this table -->"
END = "<!-- end compile profile -->"


def replace_section(text: str, table: str) -> str:
    """``text`` with the part between :data:`BEGIN` and :data:`END` replaced by ``table``
    (appended, with both markers, when they are missing)."""
    block = f"{BEGIN}\n{table}{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        return head + block + rest.split(END, 1)[1]
    return text.rstrip("\n") + "\n\n" + block + "\n"
