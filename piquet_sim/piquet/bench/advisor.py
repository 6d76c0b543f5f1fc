"""Discard advisor workloads: a full elder ranking with greedy play to the precision target, and
dd play refining the best 20 (``piquet discard`` as a user runs it, compile cached)."""

from __future__ import annotations

import time

import numba

from ...core.engine.bench_timing import numba_threads
from ..advisor import advise
from . import workload

HAND = "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
HARD_HAND = "AH KH 9H 7H QS TS 8S JD 9D 8C 7C KC"  # close contenders


def _run(hand: str, play: str, precision: float, threads: int, **kw) -> dict:
    with numba_threads(threads):
        advise(hand, play=play, samples=64, precision=None, **kw)  # compile / load cache
        t0 = time.perf_counter()
        r = advise(hand, play=play, precision=precision, **kw)
        seconds = time.perf_counter() - t0
    top5 = r.candidates[:5]
    refine = [x for x in r.rounds if x["phase"] == "refine"]
    return {
        "threads": threads,
        "hand": hand,
        "candidates": len(r.candidates),
        "play": play,
        "seconds": round(seconds, 2),
        "evaluations": r.evaluations,
        "deals_per_s": round(r.evaluations / seconds),
        "worlds_top": r.worlds,
        "max_se_top5": round(max(c.se for c in top5), 3),
        "stop_reason": r.stop_reason,
        "refined": 20 if refine else 0,
    }


@workload("advisor elder greedy full ranking")
def elder_greedy(quick: bool) -> list[dict]:
    threads = numba.config.NUMBA_NUM_THREADS
    rows = [_run(HAND, "greedy", 0.5 if not quick else 1.0, threads)]
    rows[0]["hard_hand_seconds"] = _run(HARD_HAND, "greedy", 0.5, threads)["seconds"]
    return rows


@workload("advisor elder dd refine 20")
def elder_dd(quick: bool) -> list[dict]:
    threads = numba.config.NUMBA_NUM_THREADS
    return [_run(HAND, "dd", 0.5 if not quick else 2.0, threads, refine=20)]


@workload("advisor elder pimc refine 20")
def elder_pimc(quick: bool) -> list[dict]:
    """``piquet discard HAND --play pimc`` (heuristic screen, the best 20 raced with pimc play
    and the heuristic as control variate, finalists to SE 0.5): CPU seconds of the process
    (all threads) and wall; on a shared machine CPU is the figure to compare."""
    return [_pimc_refine(quick)]


@workload("advisor elder pimc refine all 20")
def elder_pimc_all(quick: bool) -> list[dict]:
    """``piquet discard HAND --play pimc --refine-all``: as the row above, but no candidate is
    dropped, so each of the 20 reaches SE 0.5 (the literal target of the refine)."""
    return [_pimc_refine(quick, refine_all=True)]


def _pimc_refine(quick: bool, refine_all: bool = False) -> dict:
    threads = numba.config.NUMBA_NUM_THREADS
    with numba_threads(threads):
        advise(HAND, play="pimc", samples=8, precision=None, refine=2)  # compile / load cache
        c0, t0 = time.process_time(), time.perf_counter()
        r = advise(
            HAND,
            play="pimc",
            precision=0.5 if not quick else 1.0,
            refine=20,
            refine_all=refine_all,
        )
        cpu, seconds = time.process_time() - c0, time.perf_counter() - t0
    refined = [c for c in r.candidates if c.play == "pimc"]
    finalists = [c for c in refined if c.finalist]
    return {
        "threads": threads,
        "hand": HAND,
        "play": "pimc",
        "refine_all": refine_all,
        "refined": len(refined),
        "cpu_s": round(cpu, 2),
        "seconds": round(seconds, 2),
        "pimc_deals": int(sum(c.samples for c in refined)),
        "finalists": len(finalists),
        "max_se_finalists": round(max(c.se for c in finalists), 3),
        "max_se_refined": round(max(c.se for c in refined), 3),
        "pimc_worlds_top": r.best.samples,
        "control_worlds_top": r.best.control_n,
        "stop_reason": r.stop_reason,
    }
