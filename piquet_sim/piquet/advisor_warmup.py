"""The first run's compilation of the advisor's screening path, on two processes.

numba compiles in one thread per process, and its on-disk cache is shared between processes. On a
cold cache, :func:`compile_screen_path` starts a helper interpreter that compiles (and caches)
the screening trick loop, the largest kernel, while this process compiles the other stage
kernels from the front of a list (exchange, declarations, ..., world sampler); once the trick
loop is done the helper takes kernels from the back of that list, each process claiming a kernel
before compiling it, so the work splits wherever the sizes put it. When both are done, this
process compiles the screening driver (``screen_evaluate``), loading every stage kernel from the
cache. Same kernels, same numbers, less wall time on two cores. The advisor screens with the
heuristic at its defaults, so its trick loop is ``screen.table_play_deal``, without the
heuristic's general arithmetic.

Each kernel is compiled for an explicit signature (the ``numba.typeof`` of arguments built like
the advisor's, by the plain-Python twins of the allocating kernels so that building them
compiles nothing): a signature that missed would cost time (a second compile), never a wrong
number.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

from ..core.engine import jit_interrupt
from ..core.engine.backend import stop_requested
from .kernels import advisor as K
from .kernels import refine as R
from .kernels import screen as S
from .kernels.bundles import make_env
from .kernels.knowledge import both_knowledge
from .kernels.play import new_scratch, play_simple
from .kernels.simulate import talon_seen
from .kernels.solver import new_workspace
from .rules import DEFAULT_RULES
from .simulation import Policies, solver_bits

#: Set to 1 to compile in this process only (measuring, or a one-core machine).
SERIAL_ENV = "PIQUET_SERIAL_COMPILE"
#: The directory holding the ``piquet_sim`` package this process runs.
_ROOT = str(Path(__file__).resolve().parents[2])


def _sig(*args) -> tuple:
    return tuple(numba.typeof(a) for a in args)


def _driver(kernel, worlds_rows, stages, env, solver: bool) -> tuple:
    """(dispatcher, signature) of an advisor driver (``evaluate``'s arguments) as the advisor
    calls it: 8 spans, a solver workspace only for ``solver``."""
    args = ((0, 0), np.zeros(1, np.int64), 0, 0, worlds_rows, K.MODE_PLAY, stages, env, 8)
    return kernel, _sig(*args, solver_bits(solver))


def _span(kernel, worlds_rows, stages, env, ws) -> tuple:
    """(dispatcher, signature) of an advisor span kernel (``advisor._pimc_span``) as the
    threaded driver (``advisor._threaded_evaluate``) calls it."""
    i = np.int64(0)
    n_cand, n = 1, worlds_rows.opp.shape[0]
    part, nets, owns = K._outputs.py_func(1, n_cand, n)
    out = K.Evaluation(part[0], nets, owns)
    args = ((i, i), np.zeros(1, np.int64), (i, i), worlds_rows, stages, ws, (i, i), out)
    return kernel, _sig(*args)


def screen_signatures(role: str) -> dict[str, tuple]:
    """Kernel name -> (dispatcher, signature) of the screening path's separately compiled
    kernels, typed as the advisor calls them for ``role`` ("elder" or "younger")."""
    env = make_env(DEFAULT_RULES.to_array())
    stages = Policies().stages()
    ws = new_workspace.py_func(env, np.int64(1), False)  # py_func: builds, compiles nothing
    sc = new_scratch.py_func()
    worlds_rows = K._new_worlds.py_func(1)[0]
    i = np.int64(0)
    key = np.uint64(0)
    talon = np.zeros(8, dtype=np.int8)
    request = (i, i, i, i)
    if role == "elder":
        worlds = (K.build_worlds_serial, _sig(i, request, stages, i, i, i, env))
    else:
        rows, attempts = K._new_worlds.py_func(1)
        span = (i, i)
        worlds = (K._build_span, _sig(i, request, stages, i, i, span, env, rows, attempts))
    return {
        "worlds": worlds,
        "play": (S.table_play_deal, _sig(i, i, stages, (i, i, i), key, sc.state, ws, sc)),
        "exchange": (S.screen_exchange, _sig(i, i, talon, key, sc.state, stages, env, (i, i))),
        "declare": (S.screen_declare, _sig((i,) * 6, (True, True), stages, env, sc)),
        "knowledge": (
            both_knowledge,
            _sig((i, i), (i, i), sc.masks, (i, i, i), env.suit, sc.know_e, sc.know_y),
        ),
        # screen_evaluate's separately compiled callees, compiled beforehand on either process
        "workspace": (new_workspace, _sig(env, i, False)),
        "scratch": (new_scratch, ()),
        "seen": (talon_seen, _sig(talon, i, i)),
        "simple": (
            play_simple,
            _sig(i, i, (i, i), (i, i, i), key, sc.state, env.rules[0], sc.line),
        ),
        "record": (K.add_record, _sig(sc.rec, i, np.zeros((1, 1)), i)),
        "evaluate": _driver(K.screen_evaluate, worlds_rows, stages, env, solver=False),
    }


#: The helper process compiles these first (the trick loop: the largest kernel), then says READY.
HELPER_FIRST = ("play",)
#: Either process compiles these, whoever claims one first (:func:`claim`): this process from
#: the front, the helper from the back once READY, so the two meet wherever the sizes put them.
SHARED = (
    "exchange",
    "declare",
    "simple",
    "record",
    "scratch",
    "knowledge",
    "workspace",
    "seen",
    "worlds",
)
#: This process compiles these last (they call all the others, loading them from the cache).
MAIN_LAST = ("evaluate",)
#: The helper's line on stdout once ``HELPER_FIRST`` is compiled and cached.
READY = "ready"
#: The helper's line on stdout once a shared kernel it claimed is compiled and cached.
DONE = "done"
_SIGNATURES: dict[str, dict[str, tuple]] = {}


def compile_part(role: str, names: tuple[str, ...]) -> None:
    """Compile (and cache) these kernels of :func:`screen_signatures`."""
    if role not in _SIGNATURES:
        _SIGNATURES[role] = screen_signatures(role)
    sigs = _SIGNATURES[role]
    for name in names:
        dispatcher, sig = sigs[name]
        dispatcher.compile(sig)


def claim(claims: str, name: str) -> bool:
    """True for the first process to claim kernel ``name`` in the directory ``claims``."""
    try:
        os.close(os.open(os.path.join(claims, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def helper_main(role: str, claims: str) -> None:
    """The helper process: ``HELPER_FIRST``, ``READY``, then the shared kernels from the back
    until one is claimed already, each followed by ``DONE name`` on stdout."""
    compile_part(role, HELPER_FIRST)
    print(READY, flush=True)
    for name in reversed(SHARED):
        if not claim(claims, name):
            break
        compile_part(role, (name,))
        print(DONE, name, flush=True)


def start_helper(role: str, claims: str) -> subprocess.Popen | None:
    """Start the helper interpreter running :func:`helper_main` (None when compiling serially:
    one core, or ``PIQUET_SERIAL_COMPILE=1``)."""
    code = f"from {__name__} import helper_main; helper_main({role!r}, {claims!r})"
    return _spawn(code)


def _spawn(code: str) -> subprocess.Popen | None:
    """A helper interpreter running ``code`` (its lines on a pipe), or None when compiling
    serially: one core, or ``PIQUET_SERIAL_COMPILE=1``."""
    if os.environ.get(SERIAL_ENV) == "1" or (os.cpu_count() or 1) < 2:
        return None
    try:
        helper = subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=_ROOT,  # ``-c`` imports from the working directory first: this package's
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,  # Ctrl-C stops this process's work, not the helper's
        )
    except OSError:
        return None
    jit_interrupt.register_helper(helper)  # stopped with this process on a Ctrl-C
    return helper


def _helper_finished(helper: subprocess.Popen, waiting: set[str]) -> set[str]:
    """Read the helper's lines until every name in ``waiting`` (READY or a shared kernel) is
    reported or the helper's output ends; returns the names never reported."""
    waiting = set(waiting)
    while waiting:
        line = helper.stdout.readline()
        if not line:
            break
        words = line.split()
        if words == [READY]:
            waiting.discard(READY)
        elif len(words) == 2 and words[0] == DONE:
            waiting.discard(words[1])
    return waiting


def compile_screen_path(role: str, before_last: Callable[[], None] | None = None) -> None:
    """Compile the screening path's stage kernels, shared between this process and a helper
    process when there are two cores; on return every kernel of :func:`screen_signatures` is
    compiled or cached (the kernels calling them compile on their first call, loading these).
    ``before_last`` is called once the helper is done, before this process compiles the
    driver alone (a core is free from then on)."""
    with tempfile.TemporaryDirectory(prefix="piquet-claims-") as claims:
        helper = start_helper(role, claims)
        try:
            mine = []
            for name in SHARED:
                if helper is not None and not claim(claims, name):
                    break  # the helper claims from the back: the rest is the helper's
                compile_part(role, (name,))
                mine.append(name)
            theirs = SHARED[len(mine) :]
            if helper is None:
                missing = HELPER_FIRST
            else:
                unreported = _helper_finished(helper, {READY, *theirs})
                missing = (HELPER_FIRST if READY in unreported else ()) + tuple(
                    n for n in theirs if n in unreported
                )
            compile_part(role, missing)  # what the helper did not report (loaded if cached)
            if before_last is not None:
                before_last()
            compile_part(role, MAIN_LAST)
            if helper is not None:
                helper.wait()
        finally:
            if helper is not None:
                stop_helper(helper)


def stop_helper(helper: subprocess.Popen) -> None:
    """Kill the helper if it still runs (Ctrl-C, an error) and close its pipe."""
    if helper.poll() is None:
        helper.kill()
        helper.wait()
    helper.stdout.close()


def refine_signatures(role: str) -> dict[str, tuple]:
    """Kernel name -> (dispatcher, signature) of the pimc refine's kernels, typed as the
    advisor calls them for ``role``: "pimc", the card dispatcher (the pimc player and the
    solver: most of the refine's compilation, nothing the screen compiles), then "refine", its
    driver (``pimc_evaluate``; the rest of its callees are the screen's, loaded from the cache
    once the screen path has compiled them)."""
    env = make_env(DEFAULT_RULES.to_array())
    stages = Policies(elder_play="pimc", younger_play="pimc").stages()
    ws = new_workspace.py_func(env, np.int64(1), False)
    sc = new_scratch.py_func()
    worlds_rows = K._new_worlds.py_func(1)[0]
    i = np.int64(0)
    view = (i,) * 8  # own, leader, lead, elder's tricks, pique state, played, gone, voids
    params = stages.params[0]
    return {
        "pimc": (
            R.refine_card,
            _sig(stages.ids[0], params, i, view, (i, i), np.uint64(0), sc.state, ws, sc),
        ),
        "refine": _span(K._pimc_span, worlds_rows, stages, env, ws),
    }


#: How much lower the refine helper's priority is than this process's (``os.nice``).
REFINE_NICENESS = 10
#: The refine helper compiles these in turn, each followed by ``DONE name`` on stdout.
REFINE_PARTS = ("pimc", "refine")


def compile_refine_part(role: str, names: tuple[str, ...]) -> None:
    """Compile (and cache) these kernels of :func:`refine_signatures`."""
    key = "refine " + role
    if key not in _SIGNATURES:
        _SIGNATURES[key] = refine_signatures(role)
    for name in names:
        dispatcher, sig = _SIGNATURES[key][name]
        dispatcher.compile(sig)


def refine_helper_main(role: str) -> None:
    """The refine helper process: ``REFINE_PARTS`` in turn, each followed by ``DONE name``. It
    runs at a lower priority, so the screening path (two processes on two cores) compiles at
    full speed and the screen's ranking comes first; it takes the cores once they are free."""
    if hasattr(os, "nice"):
        os.nice(REFINE_NICENESS)
    for name in REFINE_PARTS:
        compile_refine_part(role, (name,))
        print(DONE, name, flush=True)


def start_refine_helper(role: str) -> subprocess.Popen | None:
    """Start a helper interpreter compiling the pimc refine's kernels while this process and
    the screen's helper compile the screening path (:func:`compile_screen_path`); None when
    compiling serially."""
    code = f"from {__name__} import refine_helper_main; refine_helper_main({role!r})"
    return _spawn(code)


def finish_refine(role: str, helper: subprocess.Popen | None) -> None:
    """Wait for the refine helper, then compile (or load from the cache) every refine kernel,
    so the first refine call compiles nothing: the parts the helper did not report (it failed,
    or there was none) compile here."""
    missing = set(REFINE_PARTS)
    if helper is not None:
        try:
            missing = _helper_finished(helper, missing)
            helper.wait()
        finally:
            stop_helper(helper)
    compile_refine_part(role, tuple(n for n in REFINE_PARTS if n in missing))


#: The compile profile's run (``core.app.compile_times``) measuring a first run, by ``--play``.
COMPILE_MEASURED = {"heuristic": "discard --play heuristic", "pimc": "discard"}
#: What a first run's compilation takes when not measured, by ``--play``.
COMPILE_EXPECT = {
    "heuristic": "about 10 s",
    "pimc": "the heuristic screen's ranking first, pimc's answer once its solver compiled",
    "dd": "the solver's too: about a minute",
}


def compile_expect(play: str) -> str:
    """About how long a first run with ``--play play`` compiles: measured when the compile
    profile ran it (:func:`piquet_sim.core.app.compile.measured_wait`), else
    :data:`COMPILE_EXPECT`."""
    from ..core.app.compile import measured_wait

    key = COMPILE_MEASURED.get(play)
    measured = measured_wait(key) if key else None
    return measured or COMPILE_EXPECT.get(play, COMPILE_EXPECT["heuristic"])


def warm_up(
    hand: int,
    role: str,
    elder_took: int | None,
    play: str,
    opponent,
    seed: int,
    rules,
    elder_model,
    notice: Callable[[tuple, str], bool],
    preliminary: Callable[[], None] | None = None,
) -> None:
    """On a first run, compile the advisor's kernels (telling the user so) before the advice's
    clock starts, by valuing one discard on one world with each kernel the advice will call:
    the screening kernel, and with a solver play (dd, pimc) the refine kernel too. pimc's
    refine kernels compile in a helper process alongside the screen's. ``notice(kernels,
    expect)`` tells the user (``expect``: how long it takes) and returns whether the kernels are
    cold: nothing is compiled when it returns False. ``preliminary``, with pimc on a cold cache,
    is called once the screen can run and before waiting for the refine's kernels (the CLI
    prints the heuristic screen's ranking there); a Ctrl-C during it ends the warm-up."""
    from .advisor import REFINED_PLAYS, candidates_for, world_values

    refines = play in REFINED_PLAYS
    build = K.build_worlds_serial if role == "elder" else K.build_worlds
    if play == "none":
        kernels, plays = (build, K.declare_evaluate), ("none",)
    elif refines:
        refine = K.pimc_evaluate if play == "pimc" else K.evaluate
        kernels, plays = (build, K.screen_evaluate, refine), ("greedy", play)
    else:
        kernels, plays = (build, K.screen_evaluate), ("greedy",)
    expect = compile_expect(play)
    if not notice(kernels, expect):
        return
    # With a preliminary ranking to show, the refine's helper starts once the screen's helper
    # is done (the screen's driver then compiles on one core, the refine on the other), so the
    # screen's stage kernels have both cores (measured cold, idle 2 cores: the first ranking
    # 17.0 s -> 14 s; starting it after the whole screen path: the answer 37 s -> 45 s)
    early = play == "pimc" and preliminary is None
    helpers = [start_refine_helper(role)] if early else []

    def start_late() -> None:
        if play == "pimc" and not early:
            helpers.append(start_refine_helper(role))

    try:
        if play != "none":
            compile_screen_path(role, start_late)  # its stage kernels, on two processes
        else:
            start_late()
        helper = helpers[0] if helpers else None
        first = candidates_for(hand, role, elder_took, rules)[0]
        for p in plays:
            if p == "pimc":
                if preliminary is not None:
                    preliminary()
                    if stop_requested():
                        return
                finish_refine(role, helper)
                helper = None
            world_values(
                hand,
                [first],
                role,
                elder_took,
                p,
                n_worlds=1,
                opponent=opponent,
                seed=seed,
                rules=rules,
                elder_model=elder_model,
            )
    finally:
        for h in helpers:
            if h is not None:
                stop_helper(h)  # a no-op for one finish_refine stopped
