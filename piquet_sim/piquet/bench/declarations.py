"""Core-engine workload: deal 24 cards from a shuffled pack and score both hands' declarations
(point, sequences, sets, carte blanche, repique), against a simple baseline kernel measured in the
same run (``baseline_per_s``, ``ratio`` = project / baseline in deals per wall second,
``ratio_cpu`` the same per CPU second; the target is ratio >= 1). A kernel loaded from numba's
disk cache has run at another speed than the same kernel freshly compiled, so each
row says which it timed (``kernels``: compiled / cache), and the start row times the kernel in
both kinds of process (``fresh_deals_per_cpu_s``, ``cached_deals_per_cpu_s``). The split row
(``deal+declarations split``) times each kernel's dealing alone beside the whole kernel, one
thread, CPU ns a deal: the gap to the baseline shows as dealing (``*_deal_ns``) and scoring
(``*_scoring_ns`` = total - deal)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np
from numba import prange

from ...core.app.bench import kernel_origin
from ...core.engine.bench_timing import numba_threads
from ...core.engine.jit import njit, njit_inline, njit_parallel
from ..kernels.bundles import make_env
from ..kernels.deal import BLOCK, N_WORDS, deal_block
from ..kernels.deal_scoring import score_random_deals
from ..kernels.tables import SUIT_TABLES, T_HIGH_BIT, T_POINT_KEY, T_SEQ_BEST
from ..rules import DEFAULT_RULES
from . import workload

NAME = "deal+declarations"


# ------------------------------------------------------------------ the simple baseline kernel
# A deliberately plain deal + declarations kernel, the yardstick of the ratio: 256-entry tables for
# the point and sequence keys, a branch-free count of sets, an in-place Fisher-Yates on a 64-bit
# generator (SplitMix64 in sequence, two 32-bit multiply-shift draws per word, no rejection, so
# very slightly biased), the 24 dealt cards only; keys compared, no scores, no repique. It counts
# how often each player wins each class.

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit_inline
def _baseline_deal(pack, s):
    """One baseline deal: 24 Fisher-Yates steps on ``pack`` (int8[32], shuffled in place) from
    the SplitMix64 state ``s``; returns (s advanced, elder's mask, younger's mask)."""
    u32 = np.uint64(0xFFFFFFFF)
    for i in range(31, 7, -2):  # positions 8..31 receive the two hands
        s += _GOLDEN
        z = (s ^ (s >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
        j = np.int64(((z & u32) * np.uint64(i + 1)) >> np.uint64(32))
        t = pack[i]
        pack[i] = pack[j]
        pack[j] = t
        j = np.int64(((z >> np.uint64(32)) * np.uint64(i)) >> np.uint64(32))
        t = pack[i - 1]
        pack[i - 1] = pack[j]
        pack[j] = t
    e = np.int64(0)
    y = np.int64(0)
    for k in range(12):
        e |= np.int64(1) << pack[8 + k]
        y |= np.int64(1) << pack[20 + k]
    return s, e, y


@njit
def _baseline_chunk(seed, first, count, point_tab, seq_tab, high_tab, wins):
    pack = np.arange(32).astype(np.int8)
    s = np.uint64(seed) * _GOLDEN + np.uint64(first) * np.uint64(0xD1B54A32D192ED03)
    for _ in range(count):
        s, e, y = _baseline_deal(pack, s)
        ep = 0
        yp = 0
        eq = 0
        yq = 0
        for sh in range(0, 32, 8):
            ep = max(ep, point_tab[(e >> sh) & 0xFF])
            yp = max(yp, point_tab[(y >> sh) & 0xFF])
            eq = max(eq, seq_tab[(e >> sh) & 0xFF])
            yq = max(yq, seq_tab[(y >> sh) & 0xFF])
        et = _baseline_set_key(e, high_tab)
        yt = _baseline_set_key(y, high_tab)
        wins[0] += ep > yp
        wins[1] += yp > ep
        wins[2] += eq > yq
        wins[3] += yq > eq
        wins[4] += et > yt
        wins[5] += yt > et


@njit_inline
def _baseline_set_key(h, high_tab):
    s0 = h & 0xFF
    s1 = (h >> 8) & 0xFF
    s2 = (h >> 16) & 0xFF
    s3 = (h >> 24) & 0xFF
    four = s0 & s1 & s2 & s3 & 0xF8
    trio = ((s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))) & 0xF8
    return (four != 0) * (9 + high_tab[four]) + (four == 0) * (trio != 0) * (1 + high_tab[trio])


@njit_parallel
def baseline_deals(seed, n, n_chunks, point_tab, seq_tab, high_tab):
    """Class wins (elder point, younger point, elder sequence, ..., younger sets) over n deals."""
    rows = np.zeros((n_chunks, 6), dtype=np.int64)
    per = (n + n_chunks - 1) // n_chunks
    for c in prange(n_chunks):
        first = c * per
        count = min(per, n - first)
        if count > 0:
            _baseline_chunk(seed, first, count, point_tab, seq_tab, high_tab, rows[c])
    return rows


# ------------------------------------------------------------------ the split
# Each kernel's deal alone (hands as masks, summed so nothing is optimized away), to split a
# deal's CPU time into dealing and scoring: scoring = whole kernel - deal alone.


@njit
def _ours_deal_only(seed, n):
    """The project's dealing of deals 0..n-1 (``deal.deal_block``, as the scoring loop deals).
    Both kernels' hands are summed as ``3 * elder + younger``: an xor of the two would let the
    compiler skip part of ours (elder ^ younger is the talon's complement), timing less than
    the dealing (it did until 2026-12-04, by about 3 ns)."""
    words = np.empty((N_WORDS + 1, BLOCK), dtype=np.uint64)
    hands = np.empty((2, BLOCK), dtype=np.int64)
    acc = np.int64(0)
    for first in range(0, n, BLOCK):
        m = min(BLOCK, n - first)
        deal_block(seed, first, m, words, hands)
        for d in range(m):
            acc += 3 * hands[0, d] + hands[1, d]
    return acc


@njit
def _baseline_deal_only(seed, n):
    """The baseline's dealing alone: :func:`_baseline_chunk`'s shuffle and masks."""
    pack = np.arange(32).astype(np.int8)
    s = np.uint64(seed) * _GOLDEN
    acc = np.int64(0)
    for _ in range(n):
        s, e, y = _baseline_deal(pack, s)
        acc += 3 * e + y
    return acc


def split_ns(n: int, repeats: int = 5) -> dict[str, float]:
    """CPU ns per deal on one thread (best of ``repeats``, the four kernels alternating): each
    kernel whole, through the driver the main rows time (so the totals are those rows' figures:
    the serial chunk called alone ran ours 2 ns a deal slower, Xeon), and its deal alone, and
    their difference, the scoring."""
    env = make_env(DEFAULT_RULES.to_array())
    runs = {
        "ours_deal": lambda r: _ours_deal_only(r + 1, n),
        "ours_total": lambda r: score_random_deals(r + 1, 0, n, 16, env),
        "baseline_deal": lambda r: _baseline_deal_only(r + 1, n),
        "baseline_total": lambda r: baseline_deals(r + 1, n, 16, *_BASE_TABLES),
    }
    with numba_threads(1):
        for run in runs.values():
            run(-1)  # compile / load
        best = dict.fromkeys(runs, float("inf"))
        for r in range(repeats):
            for name, run in runs.items():
                c0 = time.process_time()
                run(r)
                best[name] = min(best[name], time.process_time() - c0)
    out = {k: round(v / n * 1e9, 2) for k, v in best.items()}
    for who in ("ours", "baseline"):
        out[who + "_scoring"] = round(out[who + "_total"] - out[who + "_deal"], 2)
    return out


_BASE_TABLES = tuple(
    np.ascontiguousarray(SUIT_TABLES[r]) for r in (T_POINT_KEY, T_SEQ_BEST, T_HIGH_BIT)
)


def deals_per_second(n: int, threads: int, repeats: int = 5) -> tuple[dict[str, list[float]], str]:
    """Deals per second of the project's kernel (``ours``) and the baseline (``base``) on
    ``threads`` numba threads, per wall second and per CPU second of the process (``*_cpu``):
    one figure per timed run of n deals (``repeats`` runs), the two kernels alternating within
    each repeat so a ratio compares runs that shared the machine's load; and how this process
    got the kernels (``core.bench.kernel_origin``: compiled, cache, or none if run before)."""
    env = make_env(DEFAULT_RULES.to_array())
    runs = {
        "ours": lambda r: score_random_deals(r + 1, 0, n, 16 * threads, env),
        "base": lambda r: baseline_deals(r + 1, n, 16 * threads, *_BASE_TABLES),
    }
    rates: dict[str, list[float]] = {k: [] for k in ("ours", "ours_cpu", "base", "base_cpu")}
    with numba_threads(threads):
        with kernel_origin() as origin:
            score_random_deals(1, 0, 1000, threads, env)  # compile / load cache
            baseline_deals(1, 1000, threads, *_BASE_TABLES)
        for r in range(repeats):
            for name, run in runs.items():
                t0 = time.perf_counter()
                c0 = time.process_time()
                run(r)
                rates[name].append(n / (time.perf_counter() - t0))
                rates[name + "_cpu"].append(n / (time.process_time() - c0))
    return rates, origin["kernels"]


def spread(values: list[float], digits: int) -> tuple[float, float, float]:
    """(median, min, max) of ``values``, rounded to ``digits`` (0: integers)."""
    out = (statistics.median(values), min(values), max(values))
    return tuple(round(v, digits) if digits else round(v) for v in out)


#: Deals each start process times on one thread after its start (best of 3 runs, CPU time).
START_DEALS = 2_000_000

_START_SNIPPET = f"""\
import time; t = time.perf_counter()
import numba
from piquet_sim.piquet.kernels.deal_scoring import score_random_deals
from piquet_sim.piquet.kernels.bundles import make_env
from piquet_sim.piquet.rules import DEFAULT_RULES
env = make_env(DEFAULT_RULES.to_array())
score_random_deals(1, 0, 1000, 2, env)
start = time.perf_counter() - t
numba.set_num_threads(1)
cpu = []
for r in range(3):
    c = time.process_time(); score_random_deals(r + 2, 0, {START_DEALS}, 16, env)
    cpu.append(time.process_time() - c)
print(start, {START_DEALS} / min(cpu))
"""


def start_times() -> tuple[tuple[float, float], tuple[float, float]]:
    """(cold, warm) seconds for import + compile (or cache load) + a first small run, each in
    a fresh interpreter sharing a new, initially empty numba cache directory; then (cold, warm)
    deals per CPU second of the kernel each process got (freshly compiled, loaded from the
    cache), on one thread."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        times, rates = [], []
        for _ in range(2):
            out = subprocess.run(
                [sys.executable, "-c", _START_SNIPPET],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            start, rate = out.stdout.strip().splitlines()[-1].split()
            times.append(float(start))
            rates.append(float(rate))
    return (times[0], times[1]), (rates[0], rates[1])


@workload(NAME)
def bench(quick: bool) -> list[dict]:
    """Per thread count: ``repeats`` runs of n deals of each kernel, alternating; the rates and
    the ratios (ours / baseline, per run pair) as median and min-max, with the 1-minute load
    average before and after (the machine's run-to-run swing is +-30%)."""
    n = 2_000_000 if quick else 50_000_000
    repeats = 5
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    for threads in sorted({1, all_threads}):
        load0 = os.getloadavg()[0]
        rate, origin = deals_per_second(n, threads, repeats)
        ratio = [a / b for a, b in zip(rate["ours"], rate["base"], strict=True)]
        ratio_cpu = [a / b for a, b in zip(rate["ours_cpu"], rate["base_cpu"], strict=True)]
        ours, ours_lo, ours_hi = spread(rate["ours"], 0)
        r, r_lo, r_hi = spread(ratio, 3)
        rc, rc_lo, rc_hi = spread(ratio_cpu, 3)
        rows.append(
            {
                "workload": NAME,
                "threads": threads,
                "deals": n,
                "repeats": repeats,
                "deals_per_s": ours,
                "deals_per_s_min_max": [ours_lo, ours_hi],
                "baseline_per_s": spread(rate["base"], 0)[0],
                # per run pair, median over the repeats: ours / baseline
                "ratio": r,
                "ratio_min_max": [r_lo, r_hi],
                # per CPU second of the process: steadier than wall time on a shared machine
                "ratio_cpu": rc,
                "ratio_cpu_min_max": [rc_lo, rc_hi],
                "load_avg_1min": [round(load0, 2), round(os.getloadavg()[0], 2)],
                "kernels": origin,
            }
        )
    load0 = os.getloadavg()[0]
    split = split_ns(n // 10, repeats)
    rows.append(
        {
            "workload": NAME + " split",
            "threads": 1,
            "deals": n // 10,
            "repeats": repeats,
            # CPU ns a deal (best of the repeats): each kernel whole, its deal alone, the rest
            **{k + "_ns": v for k, v in split.items()},
            "load_avg_1min": [round(load0, 2), round(os.getloadavg()[0], 2)],
        }
    )
    (cold, warm), (fresh_rate, cached_rate) = start_times()
    rows.append(
        {
            "workload": "start: import+compile deal+declarations",
            "threads": None,
            "cold_s": round(cold, 3),
            "warm_s": round(warm, 3),
            # one thread, CPU time: the kernel as compiled vs as loaded from the cache
            "fresh_deals_per_cpu_s": round(fresh_rate),
            "cached_deals_per_cpu_s": round(cached_rate),
        }
    )
    return rows
