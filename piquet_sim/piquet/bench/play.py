"""Play-policy workloads: the heuristic against greedy in the same run (the baseline), as full
deals (deal, exchanges, declarations, knowledge, play, scoring) and as bare playouts (deal and
play only), on 1 thread and on every thread; best of 3, in wall time and in the process's CPU
time (``ratio_cpu``: steadier on a shared machine). Each row says how the process got the
kernels it timed (``kernels``: ``core.bench.kernel_origin``)."""

from __future__ import annotations

import numpy as np

from ...core.app.bench import kernel_origin
from ...core.engine.bench_timing import best_rates, thread_counts
from ..kernels import play as P
from ..kernels.bundles import make_env
from ..rules import Rules
from ..simulation import Policies, simulate
from . import workload
from .sinking import pimc_deals


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
    for threads in thread_counts():
        for kind, make, n in (("full-deal", _full, n_full), ("playout", _playout, n_play)):
            with kernel_origin() as origin:
                rate = {p: best_rates(make(p), n, threads) for p in ("greedy", "heuristic")}
            g, h = rate["greedy"], rate["heuristic"]
            rows.append(
                {
                    "workload": f"{kind} heuristic vs greedy",
                    "threads": threads,
                    "deals": n,
                    "greedy_per_s": round(g[0]),
                    "heuristic_per_s": round(h[0]),
                    "ratio": round(h[0] / g[0], 3),
                    "heuristic_per_cpu_s": round(h[1]),
                    "ratio_cpu": round(h[1] / g[1], 3),
                    "kernels": origin["kernels"],
                }
            )
    return rows


@workload("pimc deal adaptive vs fixed")
def pimc_adaptive(quick: bool) -> list[dict]:
    n = 20 if quick else 200
    rows = []
    for adaptive in (0, 1):
        row = pimc_deals(n, 16, adaptive=adaptive)
        row["workload"] = f"pimc deal 16 worlds {'adaptive' if adaptive else 'fixed'}"
        rows.append(row)
    return rows
