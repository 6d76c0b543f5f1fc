"""The benchmark runner every game shares: run named workloads and merge their rows into a JSON
file (rows keyed by workload and threads, so a partial run keeps the others).

A workload is a function ``f(quick: bool) -> list[dict]``; each dict is one row with at least
``workload`` and ``threads`` plus its figures (``deals_per_s``, ``median_ms`` …). Timings on a
shared machine are noisy: compare rows measured in the same run. Every row records the
machine's 1-minute load average just before its workload ran (``load_avg_1min``) and the
processor (``cpu``); a row measured at load ``LOAD_LIMIT`` or more does not replace one
measured below it unless forced.
Run with ``repeat`` > 1, a row's figures (:func:`is_figure`) are the median of the runs, with
``<field>_min`` and ``<field>_max`` beside them.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..game.position import State

if TYPE_CHECKING:
    from .commands import Game

Workload = Callable[[bool], list[dict]]

#: The 1-minute load average from which a row counts as measured under load.
LOAD_LIMIT = 3.0
LOAD_FIELD = "load_avg_1min"


def is_figure(name: str, value: object) -> bool:
    """True for a measured figure that repeats summarise by median, min and max: a number
    named as a rate (``…_per_…``), a time (``…_ms``, ``…_s``, ``seconds``) or a ratio."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    timed = name.endswith(("_ms", "_s", "seconds"))
    return "_per_" in name or timed or name.startswith(("ratio", "speedup"))


def _key(row: Mapping) -> tuple:
    return (row["workload"], row.get("threads"))


def summarise(runs: list[dict]) -> dict:
    """One row from the same row of several runs: figures as median (mean of the middle two for
    an even count) with ``_min`` and ``_max``, a run's own ``<field>_min_max`` spread as the
    widest of the runs', the highest load average, ``repeats``; any other field as in the
    first run."""
    row = dict(runs[0])
    for name, value in runs[0].items():
        if name.endswith("_min_max") and isinstance(value, list) and len(value) == 2:
            # a run's own spread (over its inner repeats): the widest over the runs
            spans = [r[name] for r in runs if isinstance(r.get(name), list)]
            row[name] = [min(s[0] for s in spans), max(s[1] for s in spans)]
        elif is_figure(name, value):
            values = [r[name] for r in runs if is_figure(name, r.get(name))]
            row[name] = statistics.median(values)
            row[f"{name}_min"] = min(values)
            row[f"{name}_max"] = max(values)
    loads = [r[LOAD_FIELD] for r in runs if isinstance(r.get(LOAD_FIELD), int | float)]
    if loads:
        row[LOAD_FIELD] = max(loads)
    row["repeats"] = len(runs)
    return row


def _loaded(row: Mapping) -> bool | None:
    """True when ``row`` was measured at load ``LOAD_LIMIT`` or more; None when unknown."""
    load = row.get(LOAD_FIELD)
    return None if not isinstance(load, int | float) else load >= LOAD_LIMIT


def merge(old: list[dict], new: list[dict], force: bool = False) -> tuple[list[dict], list[str]]:
    """``old`` rows with ``new`` ones in place of those of the same (workload, threads); a new
    row measured under load does not replace an old one measured below ``LOAD_LIMIT`` unless
    ``force`` (an old row without a load average is replaced). Returns the merged rows and one
    line per old row kept that way."""
    previous = {_key(r): r for r in old}
    kept: list[str] = []
    written = []
    for row in new:
        before = previous.get(_key(row))
        if not force and before is not None and _loaded(row) and _loaded(before) is False:
            kept.append(
                f"kept {row['workload']!r} threads={row.get('threads')}: the row measured at "
                f"load {before[LOAD_FIELD]:.1f} stays; this run's at load {row[LOAD_FIELD]:.1f} "
                f"is not written (--force writes it)"
            )
        else:
            written.append(row)
    replaced = {_key(r) for r in written}
    return [r for r in old if _key(r) not in replaced] + written, kept


def cpu_model() -> str:
    """The processor's model name (``/proc/cpuinfo``; ``platform.processor()`` elsewhere): rows
    from an Intel Xeon and an AMD EPYC differ by up to 2x on the same kernel, so a row says
    which it was measured on."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _measure(func: Workload, name: str, quick: bool) -> list[dict]:
    load = os.getloadavg()[0]
    cpu = cpu_model()
    rows = func(quick)
    for row in rows:
        row.setdefault("workload", name)
        row[LOAD_FIELD] = round(load, 2)
        row["measured_at"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        row["machine"] = f"{platform.machine()} {platform.python_version()}"
        row["cpu"] = cpu
    return rows


def run(
    registry: Mapping[str, Workload],
    names: list[str] | None,
    out: Path | None,
    quick: bool = False,
    repeat: int = 1,
    force: bool = False,
) -> tuple[list[dict], list[str]]:
    """Run the named workloads of ``registry`` (all when None), each ``repeat`` times (in
    rounds: every workload once, then again), and merge their rows into ``out`` (:func:`merge`).
    Returns the rows measured and the lines of the rows :func:`merge` kept."""
    selected = names or list(registry)
    unknown = [n for n in selected if n not in registry]
    if unknown:
        raise ValueError(f"unknown workload {unknown[0]!r}; see `piquet bench --list`")
    if repeat < 1:
        raise ValueError(f"repeat must be 1 or more, not {repeat}")
    measured = [
        row for _ in range(repeat) for n in selected for row in _measure(registry[n], n, quick)
    ]
    rows = measured
    if repeat > 1:
        runs: dict[tuple, list[dict]] = {}
        for row in measured:
            runs.setdefault(_key(row), []).append(row)
        rows = [summarise(r) for r in runs.values()]
    kept: list[str] = []
    if out is not None:
        old = json.loads(out.read_text()) if out.exists() else []
        merged, kept = merge(old, rows, force)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(merged, indent=2) + "\n")
    return rows, kept


#: Runs ``python -m MODULE ARGS`` in this interpreter, then writes the CPU seconds of this
#: process alone and of the children it waited for (helper processes) to the file named by
#: ``PIQUET_BENCH_CPU_FILE``, as JSON.
_CPU_WRAPPER = """\
import atexit, json, os, resource, runpy, sys
def _dump():
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.environ["PIQUET_BENCH_CPU_FILE"], "w") as f:
        json.dump([me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime], f)
atexit.register(_dump)
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def timed_module(module: str, args: list[str], env: Mapping[str, str]) -> dict[str, float | None]:
    """Run ``python -m MODULE ARGS`` (output discarded; an error raises) and return its wall
    seconds (``wall_s``), its CPU seconds, user + system, with every process it waited for
    (``cpu_s``), and split into the main process's (``main_cpu_s``) and its helper processes'
    (``helper_cpu_s``; both None when the process did not exit normally)."""
    with tempfile.TemporaryDirectory() as tmp:
        cpu_file = Path(tmp) / "cpu.json"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", _CPU_WRAPPER, module, *args],
            env={**env, "PIQUET_BENCH_CPU_FILE": str(cpu_file)},
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        split = json.loads(cpu_file.read_text()) if cpu_file.exists() else [None, None]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "main_cpu_s": split[0], "helper_cpu_s": split[1]}


def _kernel_counts(prefix: str) -> tuple[int, int]:
    """(signatures loaded from numba's disk cache, signatures compiled) so far in this process,
    summed over the numba dispatchers of the loaded modules whose names start with ``prefix``."""
    from numba.core.dispatcher import Dispatcher

    hits = misses = 0
    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefix) or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Dispatcher) and id(value) not in seen:
                seen.add(id(value))
                hits += sum(value.stats.cache_hits.values())
                misses += sum(value.stats.cache_misses.values())
    return hits, misses


def _origin(loaded: bool, compiled: bool) -> str:
    return {(True, False): "cache", (False, True): "compiled", (True, True): "mixed"}.get(
        (loaded, compiled), "none"
    )


@contextmanager
def kernel_origin(prefix: str = "piquet_sim") -> Iterator[dict[str, str]]:
    """Yields a dict whose ``"kernels"`` is set on leaving the block to how the kernels first
    called in it got their code: ``"compiled"`` (by numba, in this process), ``"cache"`` (loaded
    from numba's disk cache) or ``"mixed"``; when every kernel it called had run before, how this
    process got all its kernels so far (``"none"``: it has none). A kernel loaded from the cache
    can run at another speed than the same kernel freshly compiled, so a timing row
    should say which it measured."""
    found = {"kernels": "none"}
    hits0, misses0 = _kernel_counts(prefix)
    try:
        yield found
    finally:
        hits, misses = _kernel_counts(prefix)
        found["kernels"] = _origin(hits > hits0, misses > misses0)
        if found["kernels"] == "none":
            found["kernels"] = _origin(hits > 0, misses > 0)


def _round2(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def start_row(workload: str, args: list[str], module: str = "piquet_sim") -> dict:
    """Cold then warm start of ``python -m MODULE ARGS`` (``piquet ARGS``), and the import-only
    baseline (``--version``), in one run: each a fresh interpreter, all sharing a new numba
    cache directory, empty for the cold run. Wall and CPU seconds (cold also split into the main
    process's and its compile helpers')."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        base = timed_module(module, ["--version"], env)
        cold = timed_module(module, args, env)
        warm = timed_module(module, args, env)
    return {
        "workload": workload,
        "threads": None,
        "command": shlex.join(["piquet", *args]),
        "cold_s": round(cold["wall_s"], 2),
        "cold_cpu_s": round(cold["cpu_s"], 2),
        "cold_main_cpu_s": _round2(cold["main_cpu_s"]),  # the critical path needs each process's
        "cold_helper_cpu_s": _round2(cold["helper_cpu_s"]),
        "warm_s": round(warm["wall_s"], 2),
        "warm_cpu_s": round(warm["cpu_s"], 2),
        "baseline_s": round(base["wall_s"], 2),
        "baseline_cpu_s": round(base["cpu_s"], 2),
        "cores": os.cpu_count(),
    }


def example_starts(game_decl: Game, *labels: str) -> Workload:
    """The workload timing the cold and warm start (:func:`start_row`) of the game's commands
    as their ``--help`` shows them: a label is a command's name, maybe with flags
    (``"solve --paranoid"``); its row, ``"start [group ]<label>"``, runs the command's first
    help example with those flags and ``--json`` added (so the start is what a user pastes)."""
    from .examples import command_at, example_lines

    prefix = [game_decl.group] if game_decl.group else []

    def run(quick: bool) -> list[dict]:
        group = game_decl.click_group()
        rows = []
        for label in labels:
            name, *flags = label.split()
            example = shlex.split(example_lines(command_at(group, name).help or "")[0])
            args = [*example[1:], *flags, "--json"]  # after ``piquet``
            rows.append(start_row(" ".join(["start", *prefix, label]), args))
        return rows

    return run


def decision_overhead(states: Sequence[State], seed: int = 1) -> tuple[float, int]:
    """(microseconds per decision spent in ``legal_actions`` and ``apply``, decisions) over
    ``states`` each played to its end by uniform random legal actions drawn from ``seed`` (the
    draw itself not timed): what a game's ``State`` costs a decision."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, 1 << 30, size=1 << 16)
    spent = 0.0
    n = 0
    clock = time.perf_counter
    for st in states:
        while True:
            t0 = clock()
            legal = st.legal_actions()
            t1 = clock()
            if not legal:
                spent += t1 - t0
                break
            a = legal[picks[n & 0xFFFF] % len(legal)]
            t2 = clock()
            st.apply(a)
            spent += (t1 - t0) + (clock() - t2)
            n += 1
    return spent / n * 1e6, n


def overhead_row(
    workload: str, new_states: Callable[[int, int], Sequence[State]], count: int, **fields
) -> dict:
    """A bench row of :func:`decision_overhead`: ``new_states(seed, count)`` played three times
    (seeds 1 to 3; the median and the range of the microseconds per decision) after a warm-up
    of 20 (seed 99: the kernels loaded). ``fields`` (the deal count, players …) follow
    ``threads`` in the row."""
    import statistics

    with kernel_origin() as origin:
        decision_overhead(new_states(99, 20), seed=99)
        runs = [decision_overhead(new_states(r + 1, count), seed=r + 1) for r in range(3)]
    us = [r[0] for r in runs]
    return {
        "workload": workload,
        "threads": 1,
        **fields,
        "decisions": runs[0][1],
        "us_per_decision": round(statistics.median(us), 2),
        "us_per_decision_min_max": [round(min(us), 2), round(max(us), 2)],
        "kernels": origin["kernels"],
    }


@dataclass
class SolveSeries:
    """One row of a game's ``solve-full`` workload (:func:`solve_full`): ``positions`` solved
    in turn on one thread, each from a cleared table.

    warm(): the compile call (not timed); clear(): before each position, the table and the
    counters; solve(position): the exact search, True when it stopped at a node limit (a cut
    round); nodes(): the nodes of the last search; fields: the row's fields in order after
    ``workload`` and ``threads``: the figures :func:`solve_full` measures (``count``, the
    position count; ``finished``, ``cut``; ``median_ms``, ``p95_ms``, ``max_ms``,
    ``mean_ms``, ``cpu_median_ms``, ``cpu_p95_ms``: wall and thread-CPU milliseconds;
    ``median_exact``, ``p95_exact``; ``median_nodes``; ``<count>_per_s``) and the game's
    own (``own()``, read after the run: its table's size, the memory); budget_s: CPU seconds
    of the thread after which the row stops (None: every position); censored: the searches
    may be cut, so each quantile is the sample at its rank, exact or a lower bound
    (:func:`censored_quantile`), instead of numpy's interpolated percentile.
    """

    workload: str
    positions: Sequence
    warm: Callable[[], object]
    clear: Callable[[], object]
    solve: Callable[[object], bool]
    nodes: Callable[[], int]
    fields: tuple[str, ...]
    own: Callable[[], dict] = dict
    count: str = "deals"
    budget_s: float | None = None
    censored: bool = False


def censored_quantile(values: np.ndarray, cut: np.ndarray, q: float) -> tuple[float, bool]:
    """(q-th percentile of ``values``, exact?) where ``cut`` marks values that are only lower
    bounds (searches stopped at a node limit). The percentile is the sample at that rank (no
    interpolation); the true one lies between it and the percentile with the cut values made
    infinite, so it is exact when both agree and otherwise a lower bound."""
    shown = float(np.percentile(values, q, method="higher"))
    high = float(np.percentile(np.where(cut, np.inf, values), q, method="higher"))
    return shown, shown == high


def _solve_figures(series: SolveSeries, ms, cpu_ms, nodes, cut) -> dict:
    """Every figure a :class:`SolveSeries` row may show, by name."""
    ms, cpu_ms = np.array(ms), np.array(cpu_ms)
    nodes, cut = np.array(nodes, dtype=float), np.array(cut, dtype=bool)

    def quantile(values: np.ndarray, q: float) -> tuple[float, bool]:
        if series.censored:
            return censored_quantile(values, cut, q)
        return float(np.percentile(values, q)), not cut.any()

    med, med_exact = quantile(ms, 50)
    p95, p95_exact = quantile(ms, 95)
    n = len(ms)
    return {
        series.count: n,
        "finished": int((~cut).sum()),
        "cut": int(cut.sum()),
        "median_ms": round(med, 3),
        "median_exact": med_exact,
        "p95_ms": round(p95, 3),
        "p95_exact": p95_exact,
        "max_ms": round(float(ms.max()), 3),
        "mean_ms": round(float(ms.mean()), 3),
        "cpu_median_ms": round(quantile(cpu_ms, 50)[0], 3),
        "cpu_p95_ms": round(quantile(cpu_ms, 95)[0], 3),
        "median_nodes": int(quantile(nodes, 50)[0]),
        f"{series.count}_per_s": round(float(n / (ms.sum() / 1e3)), 1),
    }


def solve_full(series: Iterable[SolveSeries]) -> list[dict]:
    """Every game's ``solve-full`` workload: one row per series (:class:`SolveSeries`), its
    positions solved in turn on one thread (the numba thread count restored after), each
    timed in wall and thread-CPU time with its nodes."""
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    rows = []
    try:
        for one in series:
            one.warm()
            ms, cpu_ms, nodes, cut = [], [], [], []
            start = time.thread_time()
            for position in one.positions:
                one.clear()
                t0 = time.perf_counter()
                c0 = time.thread_time()
                stopped = one.solve(position)
                cpu_ms.append((time.thread_time() - c0) * 1e3)
                ms.append((time.perf_counter() - t0) * 1e3)
                nodes.append(int(one.nodes()))
                cut.append(bool(stopped))
                if one.budget_s is not None and time.thread_time() - start > one.budget_s:
                    break
            figures = _solve_figures(one, ms, cpu_ms, nodes, cut) | one.own()
            fields = {name: figures[name] for name in one.fields}
            rows.append({"workload": one.workload, "threads": 1, **fields})
    finally:
        numba.set_num_threads(previous)
    return rows


def definition_workloads(game_decl: Game) -> dict[str, Callable[[bool], list[dict]]]:
    """The workloads every game gets from its definition: what its ``State`` costs a decision
    (``apply`` plus ``legal_actions``, random legal actions over whole deals at the default
    rules; the random choice not timed) and the cold and warm start of ``play`` on its help
    example, named ``"[group ]position overhead"`` and ``"[group ]start play"``; and, for a
    game with ``solve``, its exact solver on whole deals (:func:`solve_full`, the positions
    its solve pieces name), ``"[group ]solve-full"``."""
    prefix = f"{game_decl.group} " if game_decl.group else ""

    def overhead(quick: bool) -> list[dict]:
        game = game_decl.definition()
        rules = game.rules_class()

        def states(seed: int, count: int) -> list[State]:
            return [game.new_state(seed, i, rules) for i in range(count)]

        deals = 200 if quick else 2000
        return [
            overhead_row(
                f"{prefix}position overhead",
                states,
                deals,
                deals=deals,
                players=getattr(rules, "players", len(game.facts.seats)),
            )
        ]

    def start(quick: bool) -> list[dict]:
        group = [game_decl.group] if game_decl.group else []
        args = game_decl.definition().play_example.args()
        return [start_row(f"{prefix}start play", [*group, *args])]

    out = {f"{prefix}position overhead": overhead, f"{prefix}start play": start}
    pieces = game_decl.solve_cli()
    if pieces is not None and pieces.bench:
        module, attribute = pieces.bench.split(":")

        def solves(quick: bool) -> list[dict]:
            series = getattr(importlib.import_module(module), attribute)
            return solve_full(series(quick))

        out[f"{prefix}solve-full"] = solves
    return out
