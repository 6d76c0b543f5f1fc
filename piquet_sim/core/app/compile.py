"""A command's first run: telling the user that kernels compile, and for about how long.

:func:`kernels_cold` tells from numba's cache index whether calling some kernels will compile
them; :func:`compile_notice` says so on stderr with an estimate: the command's cold CPU seconds
as last measured (``scripts/compile_profile.py`` writes them into :mod:`.compile_times`) turned
into seconds of waiting on this machine now (its cores and load average). Either arms the Ctrl-C
guard (:mod:`piquet_sim.core.engine.jit_interrupt`): a Ctrl-C while kernels compile ends the
command at once (exit 130), what compiled staying cached.
"""

from __future__ import annotations

import os

import click

from ..engine import jit_interrupt

#: The first words of every compile notice.
COMPILING = "compiling kernels, first run only"
#: Where a user learns to compile ahead.
WARM_HINT = "`piquet warm` compiles every command's kernels ahead"


def _expanded(dispatchers) -> list:
    """The dispatchers, each Python driver replaced by the kernels it calls (its ``kernels``,
    ``core.engine.jit_threads.driver``)."""
    out = []
    for d in dispatchers:
        inner = getattr(d, "kernels", None)
        out.extend(_expanded(inner) if isinstance(inner, tuple) else [d])
    return out


def kernels_cold(*dispatchers) -> bool:
    """True when any of these numba dispatchers has nothing in its on-disk cache for its current
    source (a first run, or a changed kernel): calling it will compile (a Python driver of
    kernels, ``jit_threads.driver``, stands for its kernels). Cheap: reads the cache index only.
    False when it cannot tell. Also arms the Ctrl-C guard when cold (a Ctrl-C while kernels
    compile ends the command at once)."""
    for d in _expanded(dispatchers):
        if not hasattr(d, "_cache"):  # not a cached numba dispatcher
            continue
        try:
            if d.overloads:
                continue
            if not d._cache._cache_file._load_index():
                jit_interrupt.arm()
                return True
        except Exception:  # noqa: BLE001 - numba internals moved: assume warm, say nothing
            return False
    return False


def _current_command() -> str | None:
    """The running command's path without the program name (``"pitch play"``), or None."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return None
    words = ctx.command_path.split()
    return " ".join(words[1:]) or None


def wait_factor(cores: int | None = None, load: float | None = None) -> float:
    """How much longer than on idle cores a compile takes now: each running process gets
    ``cores / (load + 1)`` of a core once the load average (``os.getloadavg``) fills them; 1 on
    an idle machine or when the load is unknown."""
    cores = cores or os.cpu_count() or 1
    if load is None:
        try:
            load = os.getloadavg()[0]
        except (OSError, AttributeError):
            return 1.0
    return max(1.0, (load + 1.0) / cores)


def _seconds(s: float) -> str:
    if s < 90:
        return f"about {max(5, 5 * round(s / 5)):.0f} s"
    return f"about {round(s / 60):.0f} min"


def expected_wait(command: str | None, load_factor: float | None = None) -> str | None:
    """About how long ``command``'s first run compiles here: its measured cold CPU seconds
    (:mod:`.compile_times`, on as many processes as it compiles on, at most the cores), times
    :func:`wait_factor`; None when it was not measured."""
    from .compile_times import COLD

    if command not in COLD:
        return None
    cpu_s, processes = COLD[command]
    parallel = max(1, min(processes, os.cpu_count() or 1))
    idle = cpu_s / parallel
    factor = wait_factor() if load_factor is None else load_factor
    if factor < 1.25:
        return f"{_seconds(idle)} on this machine"
    return f"{_seconds(idle * factor)} at this load, {_seconds(idle)} idle"


class Measured(str):
    """An ``expect`` from measurements (:func:`expected_wait` of a variant of the command, e.g.
    ``discard --play heuristic``): the compile notice prefers it to the command's own."""


def measured_wait(key: str) -> Measured | None:
    """:func:`expected_wait` of ``key`` as a :class:`Measured` estimate, or None."""
    wait = expected_wait(key)
    return None if wait is None else Measured(wait)


def compile_notice(*dispatchers, quiet: bool = False, expect: str | None = None) -> bool:
    """Say on stderr that kernels are compiling, and about for how long, when
    ``kernels_cold(*dispatchers)``; returns whether they were cold. The time is ``expect`` when
    it is :class:`Measured`, else the running command's measured estimate
    (:func:`expected_wait`), else ``expect``, else left out."""
    cold = kernels_cold(*dispatchers)
    if cold and not quiet:
        click.echo(notice_text(expect), err=True)
    return cold


def notice_text(expect: str | None = None) -> str:
    """The compile notice: :data:`COMPILING`, about how long (``expect`` when it is
    :class:`Measured`, else the running command's measured estimate, else ``expect``) and how
    to compile ahead."""
    measured = expect if isinstance(expect, Measured) else None
    wait = measured or expected_wait(_current_command()) or expect
    if wait:
        return f"{COMPILING} ({wait}; later runs start at once; {WARM_HINT})"
    return f"{COMPILING} ({WARM_HINT})"
