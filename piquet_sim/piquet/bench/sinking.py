"""Sinking workloads: one full deal played by pimc on both sides (16 worlds per decision, one
core, declarations known to both: each side's sampler conditions on them), and `piquet sink` on
one hand as a user runs it."""

from __future__ import annotations

import time

import numpy as np

from ...core.app.bench import kernel_origin
from ...core.engine.rng import stream_key
from ..kernels import knowledge as KN
from ..kernels import layouts as L
from ..kernels import play as PL
from ..kernels import solver as S
from ..kernels.deal import deal_full
from ..kernels.tables import SUIT_TABLES
from ..policies import get
from ..rules import DEFAULT_RULES
from ..simulation import DD_TT_BITS, Policies
from ..sinking import analyse
from . import workload

FULL3 = np.full(3, 0xFFFFFFFF, dtype=np.int64)
SINK_HAND = "AS KS QS JS TS 9H 8H 7H AD KD AC QC"


FIXED = (16.0, 2000.0, 0.0, 0.0)  # pimc before racing: 16 worlds for every decision


def pimc_deals(
    n: int,
    worlds: int,
    seed: int = 1,
    tt_bits: int = DD_TT_BITS,
    adaptive: int = 0,
    params: tuple[float, ...] | None = None,
) -> dict:
    """Time ``n`` deals of pimc against pimc (serial kernel: one core; wall and thread CPU time
    per deal, ms; solver nodes per deal, a load-free measure of the work; ``tt_bits``: the table
    of real play by default); ``adaptive``: pimc's
    adaptive-worlds parameter (0 off); ``params``: pimc's whole parameter row instead (then
    ``worlds`` and ``adaptive`` are ignored)."""
    ws = S.make_workspace(DEFAULT_RULES.to_array(), tt_bits)
    sc = PL.new_scratch()
    row = np.array(params if params is not None else (worlds, 2000, adaptive), dtype=float)
    if params is not None:
        worlds, adaptive = int(row[0]), int(row[2])
    params = {r: row for r in ("elder", "younger")}
    stages = Policies(elder_play="pimc", younger_play="pimc", play_params=params).stages()
    pre = (np.int64(0), np.int64(0), np.int64(0))
    times = []
    cpu = []
    with kernel_origin() as origin:  # only deal -1 compiles or loads the cache
        for i in range(-1, n):  # deal -1: compile / load cache, not timed
            e, y = deal_full(seed, max(i, 0) + (1000 if i < 0 else 0), sc.pack, sc.state)
            sc.know_e[:] = KN.deal_knowledge(e, np.int64(0), FULL3, y, FULL3, 0, 0, SUIT_TABLES)
            sc.know_y[:] = KN.deal_knowledge(y, np.int64(0), FULL3, e, FULL3, 0, 0, SUIT_TABLES)
            if i == 0:
                sc.pimc[:] = 0
                nodes0 = ws.stats[L.SOLVE_NODES]
            t0 = time.perf_counter()
            c0 = time.thread_time()
            PL.play_deal(e, y, stages, pre, np.uint64(stream_key(seed, i + 1)), sc.state, ws, sc)
            if i >= 0:
                cpu.append(time.thread_time() - c0)
                times.append(time.perf_counter() - t0)
    ms = 1000 * np.array(times)
    cpu_ms = 1000 * np.array(cpu)
    return {
        "threads": 1,
        "kernels": origin["kernels"],
        "worlds_per_decision": worlds,
        "adaptive": bool(adaptive),
        "worlds_per_decision_mean": round(
            sc.pimc[L.PIMC_WORLDS] / max(1, sc.pimc[L.PIMC_DECISIONS]), 2
        ),
        "deals": n,
        "median_ms": round(float(np.median(ms)), 1),
        "mean_ms": round(float(ms.mean()), 1),
        "p90_ms": round(float(np.percentile(ms, 90)), 1),
        "params": [float(x) for x in row],
        "cpu_median_ms": round(float(np.median(cpu_ms)), 2),
        "cpu_mean_ms": round(float(cpu_ms.mean()), 2),
        "cpu_p95_ms": round(float(np.percentile(cpu_ms, 95)), 2),
        "solves_per_deal": round(sc.pimc[L.PIMC_SOLVES] / n),
        "solver_nodes_per_deal": round((ws.stats[L.SOLVE_NODES] - nodes0) / n),
        "attempts_per_world": round(sc.pimc[L.PIMC_ATTEMPTS] / max(1, sc.pimc[L.PIMC_WORLDS]), 2),
        "fallbacks": int(sc.pimc[L.PIMC_FALLBACKS]),
    }


@workload("pimc deal 16 worlds")
def pimc_deal(quick: bool) -> list[dict]:
    return [pimc_deals(10 if quick else 100, 16)]


@workload("pimc deal default vs fixed")
def pimc_default(quick: bool) -> list[dict]:
    """pimc against pimc with the policy's default parameters (racing, adaptive worlds) and,
    as the baseline in the same run, with 16 worlds for every decision; ``ratio_cpu``: the
    baseline's median CPU time over the default's."""
    n = 30 if quick else 200
    base = pimc_deals(n, 16, params=FIXED)
    new = pimc_deals(n, 16, params=get("play", "pimc").defaults)
    base["workload"] = "pimc deal fixed 16 worlds (baseline)"
    new["workload"] = "pimc deal default"
    new["ratio_cpu"] = round(base["cpu_median_ms"] / new["cpu_median_ms"], 2)
    return [base, new]


@workload("sink one hand")
def sink_hand(quick: bool) -> list[dict]:
    analyse(SINK_HAND, worlds=2, play="pimc")  # compile / load cache
    t0 = time.perf_counter()
    a = analyse(SINK_HAND, worlds=16 if quick else 48, play="pimc", pimc_worlds=8)
    return [
        {
            "threads": 2,
            "hand": SINK_HAND,
            "worlds": a.worlds,
            "choices": len(a.choices),
            "seconds": round(time.perf_counter() - t0, 2),
            "best": a.best.name,
        }
    ]
