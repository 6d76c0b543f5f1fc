"""Play-policy workloads: the heuristic against greedy in the same run (the baseline), as full
deals (deal, exchanges, declarations, knowledge, play, scoring) and as bare playouts (deal and
play only), on 1 thread and on every thread; best of 3."""

from __future__ import annotations

import time

import numba
import numpy as np

from ..kernels import play as P
from ..kernels.bundles import make_env
from ..rules import Rules
from ..simulation import Policies, simulate
from . import workload


def _best(run, n: int, threads: int) -> float:
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        run(min(n, 2000), 99)  # compile / load cache
        best = float("inf")
        for r in range(3):
            t0 = time.perf_counter()
            run(n, r + 1)
            best = min(best, time.perf_counter() - t0)
    finally:
        numba.set_num_threads(previous)
    return n / best


def _full(play: str):
    policies = Policies(elder_play=play, younger_play=play)
    return lambda n, seed: simulate(n, seed=seed, policies=policies)


def _playout(play: str):
    env = make_env(Rules().to_array())
    stages = Policies(elder_play=play, younger_play=play).stages()
    pre = (np.int64(0), np.int64(0), np.int64(0))
    return lambda n, seed: P.play_batch(seed, 0, n, stages, pre, env, 1)


@workload("play heuristic vs greedy")
def heuristic_vs_greedy(quick: bool) -> list[dict]:
    n_full = 200_000 if quick else 2_000_000
    n_play = 1_000_000 if quick else 5_000_000
    rows = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        for kind, make, n in (("full-deal", _full, n_full), ("playout", _playout, n_play)):
            rate = {play: _best(make(play), n, threads) for play in ("greedy", "heuristic")}
            rows.append(
                {
                    "workload": f"{kind} heuristic vs greedy",
                    "threads": threads,
                    "deals": n,
                    "greedy_per_s": round(rate["greedy"]),
                    "heuristic_per_s": round(rate["heuristic"]),
                    "ratio": round(rate["heuristic"] / rate["greedy"], 3),
                }
            )
    return rows


def pimc_times(n: int, worlds: int, adaptive: int, seed: int = 1) -> dict:
    """Per-deal times of ``n`` deals of pimc against pimc on one core (declarations known to
    both, as ``bench.sinking.pimc_deals``), with or without adaptive worlds."""
    from ...core.rng import stream_key
    from ..kernels import knowledge as KN
    from ..kernels import layouts as L
    from ..kernels import solver as S
    from ..kernels.deal import deal_full
    from ..kernels.tables import SUIT_TABLES
    from ..rules import DEFAULT_RULES

    full3 = np.full(3, 0xFFFFFFFF, dtype=np.int64)
    ws = S.make_workspace(DEFAULT_RULES.to_array(), 18)
    sc = P.new_scratch()
    params = {r: np.array([worlds, 2000, adaptive]) for r in ("elder", "younger")}
    stages = Policies(elder_play="pimc", younger_play="pimc", play_params=params).stages()
    pre = (np.int64(0), np.int64(0), np.int64(0))
    times = []
    for i in range(-1, n):  # deal -1: compile / load cache, not timed
        e, y = deal_full(seed, max(i, 0) + (1000 if i < 0 else 0), sc.pack, sc.state)
        sc.know_e[:] = KN.deal_knowledge(e, np.int64(0), full3, y, full3, 0, 0, SUIT_TABLES)
        sc.know_y[:] = KN.deal_knowledge(y, np.int64(0), full3, e, full3, 0, 0, SUIT_TABLES)
        if i == 0:
            sc.pimc[:] = 0
        t0 = time.perf_counter()
        P.play_deal(e, y, stages, pre, np.uint64(stream_key(seed, i + 1)), sc.state, ws, sc)
        if i >= 0:
            times.append(time.perf_counter() - t0)
    ms = 1000 * np.array(times)
    return {
        "threads": 1,
        "worlds_per_decision": worlds,
        "adaptive": bool(adaptive),
        "deals": n,
        "median_ms": round(float(np.median(ms)), 2),
        "mean_ms": round(float(ms.mean()), 2),
        "p90_ms": round(float(np.percentile(ms, 90)), 2),
        "worlds_per_decision_mean": round(
            sc.pimc[L.PIMC_WORLDS] / max(1, sc.pimc[L.PIMC_DECISIONS]), 2
        ),
    }


@workload("pimc deal adaptive vs fixed")
def pimc_adaptive(quick: bool) -> list[dict]:
    n = 20 if quick else 200
    rows = []
    for adaptive in (0, 1):
        row = pimc_times(n, 16, adaptive)
        row["workload"] = f"pimc deal 16 worlds {'adaptive' if adaptive else 'fixed'}"
        rows.append(row)
    return rows
