"""Pilotta benchmark workloads, for ``scripts/bench.py``: ``WORKLOADS[name](quick) -> rows``.

Each row has ``workload``, ``threads`` and its figures. Timings on a shared machine are noisy:
compare rows measured in the same run.

* ``pilotta solve-full`` (the core's workload, these positions: :func:`full_rounds`): one
  full 8-trick double-dummy solve on one thread, random rounds (deal i of seed 2024, trump
  i % 4, the contractor on lead: seat (i // 4) % 4), the table cleared before each round:
  median / p95 / max / mean ms and median nodes;
* ``pilotta solve-batch``: full solves per second on every thread (each chunk keeps its table);
* ``pilotta rounds-random`` / ``pilotta rounds-greedy``: whole simulated rounds per second
  (deal, random auction, declarations, play, score) on 1 thread and on every thread;
* ``pilotta rounds-heuristic``: the same with the threshold bidder and heuristic play;
* ``pilotta rounds-heuristic-vs-random``: heuristic rounds (threshold bidder) and random rounds
  (random bidder) measured alternately in one run, in rounds per second of wall and of process
  CPU time, with their ratio (a loaded machine distorts wall rates, much less CPU rates);
* ``pilotta rounds-pimc`` / ``pilotta rounds-montecarlo``: rounds per CPU second with pimc play
  at both teams (6 worlds per decision) / with the Monte Carlo bidder at both teams;
* ``pilotta bid``: seconds of one bid advice (library call; heuristic play, pimc and dd);
* ``pilotta odds``: dealt hands counted per second (every thread);
* ``pilotta start``: ``piquet pilotta solve`` and ``bid`` (their first help examples, with
  ``--json``) from a fresh interpreter, cold (an empty numba cache) then warm, beside the
  import-only baseline (``core.app.bench.example_starts``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numba
import numpy as np

from ..core.app.bench import SolveSeries, example_starts
from ..core.engine.bench_timing import best_rates, numba_threads, thread_counts
from .api import make_setup
from .game import GAME
from .kernels import solver as K
from .kernels.deal import deal_hands
from .kernels.odds import odds_batch
from .kernels.simulate import simulate_batch
from .kernels.solver_tt import reset_tt, to_internal
from .layouts import SolverStat
from .rules import Rules

SEED = 2024


def _round(i: int) -> tuple[np.ndarray, int, int]:
    trump = i % 4
    hands = np.array([to_internal(np.int64(h), trump) for h in deal_hands(SEED, i)])
    return hands, trump, (i // 4) % 4


#: The ``pilotta solve-full`` row's fields.
SOLVE_FIELDS = (
    "rounds",
    "median_ms",
    "p95_ms",
    "max_ms",
    "mean_ms",
    "median_nodes",
    "rounds_per_s",
    "tt_mb",
)


def full_rounds(quick: bool) -> list[SolveSeries]:
    """The positions of ``pilotta solve-full`` (the core's workload,
    ``core.app.bench.solve_full``): random full rounds from a cleared table, one row."""
    n = 100 if quick else 1000
    ws = K.make_workspace()
    trick = np.zeros(4, dtype=np.int64)
    rounds = []
    for i in range(n):
        hands, _, leader = _round(i)
        rounds.append((hands, K.position(leader, leader & 1)))

    def clear() -> None:
        reset_tt(ws.tt)
        ws.stats[:] = 0

    def solve(round_: tuple) -> bool:
        K.solve_position(ws, round_[0], trick, round_[1], K.F_ALL)
        return False  # no node limit: every search finishes

    return [
        SolveSeries(
            "pilotta solve-full",
            rounds,
            warm=lambda: solve(rounds[0]),
            clear=clear,
            solve=solve,
            nodes=lambda: ws.stats[SolverStat.NODES],
            fields=SOLVE_FIELDS,
            own=lambda: {"tt_mb": round(ws.tt.nbytes / 2**20, 1)},
            count="rounds",
        )
    ]


def solve_batch(quick: bool) -> list[dict]:
    n = 200 if quick else 2000
    hands = np.array([deal_hands(SEED, i) for i in range(n)], dtype=np.int64)
    idx = np.arange(n, dtype=np.int64)
    trumps, leaders = idx % 4, (idx // 4) % 4
    template = K.position(0, 0)
    K.solve_batch(
        K.Rounds(hands[:2], trumps[:2], leaders[:2], leaders[:2] & 1), template, 16, K.TABLES
    )
    t0 = time.perf_counter()
    K.solve_batch(K.Rounds(hands, trumps, leaders, leaders & 1), template, 16, K.TABLES)
    dt = time.perf_counter() - t0
    return [
        {
            "workload": "pilotta solve-batch",
            "threads": numba.config.NUMBA_NUM_THREADS,
            "rounds": n,
            "rounds_per_s": round(n / dt, 1),
        }
    ]


def _rounds(policy: str, quick: bool, auction: str = "random") -> list[dict]:
    n = 200_000 if quick else 2_000_000
    setup = make_setup(auction, policy, policy)
    rules = Rules().to_array()
    rows = []
    for threads in thread_counts():
        per_s, _ = best_rates(lambda k, seed: simulate_batch(seed, 0, k, setup, rules), n, threads)
        rows.append(
            {
                "workload": f"pilotta rounds-{policy}",
                "auction": auction,
                "threads": threads,
                "rounds": n,
                "rounds_per_s": round(per_s),
            }
        )
    return rows


def heuristic_vs_random(quick: bool) -> list[dict]:
    """Heuristic and random rounds alternately (three pairs, best of each), same run."""
    n = 100_000 if quick else 1_000_000
    rules = Rules().to_array()
    setups = {
        "heuristic": make_setup("threshold", "heuristic", "heuristic"),
        "random": make_setup("random", "random", "random"),
    }
    rows = []
    for threads in thread_counts():
        best = {k: [0.0, 0.0] for k in setups}
        with numba_threads(threads):
            for s in setups.values():
                simulate_batch(1, 0, 1000, s, rules)  # compile
            for r in range(3):
                for name, s in setups.items():
                    t0, c0 = time.perf_counter(), time.process_time()
                    simulate_batch(r + 1, 0, n, s, rules)
                    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                    best[name][0] = max(best[name][0], n / wall)
                    best[name][1] = max(best[name][1], n / cpu)
        rows.append(
            {
                "workload": "pilotta rounds-heuristic-vs-random",
                "threads": threads,
                "rounds": n,
                "heuristic_per_s": round(best["heuristic"][0]),
                "heuristic_per_cpu_s": round(best["heuristic"][1]),
                "random_per_s": round(best["random"][0]),
                "random_per_cpu_s": round(best["random"][1]),
                "ratio": round(best["heuristic"][0] / best["random"][0], 3),
                "ratio_cpu": round(best["heuristic"][1] / best["random"][1], 3),
            }
        )
    return rows


def _slow_rounds(workload: str, setup: np.ndarray, n: int) -> list[dict]:
    from .api import simulate_batch as simulate

    rules = Rules().to_array()
    simulate(1, 0, 2, setup, rules)  # compile
    t0, c0 = time.perf_counter(), time.process_time()
    simulate(2, 0, n, setup, rules)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return [
        {
            "workload": workload,
            "threads": numba.config.NUMBA_NUM_THREADS,
            "rounds": n,
            "rounds_per_s": round(n / wall, 2),
            "rounds_per_cpu_s": round(n / cpu, 2),
        }
    ]


def pimc_rounds(quick: bool) -> list[dict]:
    setup = make_setup("threshold", "pimc", "pimc")
    return _slow_rounds("pilotta rounds-pimc", setup, 8 if quick else 40)


def montecarlo_rounds(quick: bool) -> list[dict]:
    setup = make_setup("montecarlo", "heuristic", "heuristic")
    return _slow_rounds("pilotta rounds-montecarlo", setup, 1000 if quick else 10_000)


def odds_deals(quick: bool) -> list[dict]:
    n = 1_000_000 if quick else 10_000_000
    odds_batch(1, 0, 1000, 0)
    t0 = time.perf_counter()
    odds_batch(2, 0, n, 0)
    dt = time.perf_counter() - t0
    return [
        {
            "workload": "pilotta odds",
            "threads": numba.config.NUMBA_NUM_THREADS,
            "deals": n,
            "deals_per_s": round(n / dt),
        }
    ]


BID_HAND = "JS 9S AS TS KH AD TD 7C"


def bid_timing(quick: bool) -> list[dict]:
    """Seconds of one ``advise`` (the bid advisor's library call, compiled, CLI start-up
    excluded) for South after East passed, with heuristic play (2000 worlds) and the dd oracle
    (200 worlds; 50 when quick) and pimc at all four seats (24 worlds; 8 when quick), on 1
    thread and on every thread; wall and process CPU seconds."""
    from .bid import advise
    from .cards import parse_cards

    hand = parse_cards(BID_HAND)
    rows = []
    advise(hand, 2, auction="E:pass", deals=20)  # compile
    advise(hand, 2, auction="E:pass", deals=4, play="dd")
    advise(hand, 2, auction="E:pass", deals=2, play="pimc")
    for threads in thread_counts():
        plays = (
            ("heuristic", 2000),
            ("pimc", 8 if quick else 24),
            ("dd", 50 if quick else 200),
        )
        for play, n in plays:
            with numba_threads(threads):
                t0 = time.perf_counter()
                c0 = time.process_time()
                r = advise(hand, 2, auction="E:pass", deals=n, play=play, seed=11)
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            rows.append(
                {
                    "workload": "pilotta bid",
                    "threads": threads,
                    "play": play,
                    "worlds": n,
                    "candidates": len(r["calls"]),
                    "seconds": round(wall, 3),
                    "cpu_seconds": round(cpu, 3),
                }
            )
    return rows


WORKLOADS: dict[str, Callable[[bool], list[dict]]] = {
    "pilotta solve-batch": solve_batch,
    "pilotta rounds-random": lambda quick: _rounds("random", quick),
    "pilotta rounds-greedy": lambda quick: _rounds("greedy", quick),
    "pilotta rounds-heuristic": lambda quick: _rounds("heuristic", quick, "threshold"),
    "pilotta rounds-heuristic-vs-random": heuristic_vs_random,
    "pilotta rounds-pimc": pimc_rounds,
    "pilotta rounds-montecarlo": montecarlo_rounds,
    "pilotta bid": bid_timing,
    "pilotta odds": odds_deals,
    "pilotta start": example_starts(GAME, "solve", "bid"),
}


# ---------------------------------------------------------------- against colver
#
# colver (a Belote Contree engine in Rust, MIT, PyPI; ``pip install colver``) measured in the
# same process as ours, the engines alternated, process CPU time on one thread; without colver
# the rows hold our figures only. Only weight-free colver functions are called.
#
# * ``pilotta colver-rounds``: whole random rounds (deal, random auction, declarations, random
#   play, score) and heuristic rounds (threshold bidder, heuristic play) per CPU second, against
#   colver's ``Env.rollout`` (random bidding and play to the end of a dealt round, its deal
#   rolled out again and again); ratios ours / colver (1.0: as fast);
# * ``pilotta colver-solve``: the same random deals under the contree preset (whose exact values
#   are colver's), colver's ``solve_scores`` (every first card's value) against our full solve
#   (the value; the table cleared before each deal) and our every first card's value
#   (``solver.move_values``: one table per deal): median, p95 and max ms, ratios ours / colver
#   (0.15: 6.7 times as fast), and how many deals' values agreed; two rows, ``pilotta
#   colver-solve`` (our value) and ``pilotta colver-solve cards`` (our every first card's
#   value), both against ``solve_scores``.


def _colver():
    """The colver module, or None when it is not installed."""
    try:
        import colver
    except ImportError:
        return None
    return colver


def _cpu_rate(run, n: int) -> float:
    """Rounds per CPU second of ``run()`` (``n`` rounds)."""
    c0 = time.process_time()
    run()
    return n / max(time.process_time() - c0, 1e-9)


def colver_rounds(quick: bool) -> list[dict]:
    colver = _colver()
    n = 20_000 if quick else 100_000
    reps = 3 if quick else 5
    rules = Rules().to_array()
    setups = {
        "random": make_setup("random", "random", "random"),
        "heuristic": make_setup("threshold", "heuristic", "heuristic"),
    }
    rates: dict[str, list[float]] = {"random": [], "heuristic": [], "colver": []}
    with numba_threads(1):
        for s in setups.values():
            simulate_batch(1, 0, 1000, s, rules)  # compile
        for r in range(reps):
            for name, s in setups.items():
                rates[name].append(
                    _cpu_rate(lambda s=s, r=r: simulate_batch(r + 1, 0, n, s, rules), n)
                )
            if colver is not None:
                env = colver.Env.deal(dealer=r % 4, seed=r)
                rates["colver"].append(_cpu_rate(lambda env=env: env.rollout(n), n))
    row = {
        "workload": "pilotta colver-rounds",
        "threads": 1,
        "rounds": n,
        "repeats": reps,
        "random_per_cpu_s": round(max(rates["random"])),
        "heuristic_per_cpu_s": round(max(rates["heuristic"])),
        "random_per_cpu_s_median": round(float(np.median(rates["random"]))),
        "heuristic_per_cpu_s_median": round(float(np.median(rates["heuristic"]))),
    }
    if colver is not None:
        best = max(rates["colver"])
        row.update(
            {
                "colver": colver.__version__,
                "colver_rollout_per_cpu_s": round(best),
                "colver_rollout_per_cpu_s_median": round(float(np.median(rates["colver"]))),
                "ratio_random": round(row["random_per_cpu_s"] / best, 3),
                "ratio_heuristic": round(row["heuristic_per_cpu_s"] / best, 3),
                "ratio_random_median": round(
                    float(np.median(rates["random"]) / np.median(rates["colver"])), 3
                ),
                "ratio_heuristic_median": round(
                    float(np.median(rates["heuristic"]) / np.median(rates["colver"])), 3
                ),
            }
        )
    return [row]


def _first_card_values(ws, ih, leader: int, team: int, rules: np.ndarray) -> dict[int, int]:
    """Our exact value of each internal card the leader may lead (one table for all)."""
    K.set_position(ws, ih, np.zeros(4, dtype=np.int64), K.position(leader, team, rules=rules))
    vals = np.zeros(32, dtype=np.int64)
    K.move_values(ws, ih[leader], K.F_ALL, vals)
    return {c: int(vals[c]) for c in range(32) if ih[leader] >> c & 1}


def _ms_stats(ms: np.ndarray) -> dict:
    return {
        "median_ms": round(float(np.median(ms)), 3),
        "p95_ms": round(float(np.percentile(ms, 95)), 3),
        "max_ms": round(float(ms.max()), 3),
    }


def colver_solve(quick: bool) -> list[dict]:
    from .cards import PLAIN_STRENGTH
    from .kernels.solver_tt import card_to_natural
    from .rules import preset

    colver = _colver()
    n = 40 if quick else 300
    rules = preset("contree").to_array()
    to_colver = [8 * (c >> 3) + PLAIN_STRENGTH[c & 7] for c in range(32)]
    ws = K.make_workspace()
    trick = np.zeros(4, dtype=np.int64)
    times = {"full": [], "cards": [], "colver": []}
    agree = 0
    with numba_threads(1):
        for i in range(-1, n):  # deal -1 compiles
            j = max(i, 0)
            hands = [int(h) for h in deal_hands(SEED + 1, j)]
            dealer, trump, team = j % 4, (j // 4) % 4, (j // 16) % 2
            leader = (dealer + 1) % 4
            ih = np.array([to_internal(np.int64(h), trump) for h in hands], dtype=np.int64)
            reset_tt(ws.tt)
            c0 = time.process_time()
            K.solve_position(ws, ih, trick, K.position(leader, team, rules=rules), K.F_ALL)
            full = time.process_time() - c0
            reset_tt(ws.tt)
            c0 = time.process_time()
            ours = _first_card_values(ws, ih, leader, 0, rules)
            cards = time.process_time() - c0
            theirs = None
            if colver is not None:
                env = colver.Env.deal_with_hands(
                    dealer, [[to_colver[c] for c in range(32) if h >> c & 1] for h in hands]
                )
                env.set_contract(trump, 80, team, 0)
                env.set_phase_playing()
                c0 = time.process_time()
                scores = env.solve_scores()["scores"]
                if i >= 0:
                    times["colver"].append(time.process_time() - c0)
                theirs = {c: v for c, v in scores}
            if i < 0:
                continue
            times["full"].append(full)
            times["cards"].append(cards)
            if theirs is not None:
                mine = {to_colver[int(card_to_natural(c, trump))]: v for c, v in ours.items()}
                agree += mine == theirs
    rows = []
    for what in ("full", "cards"):
        ms = np.array(times[what]) * 1e3
        row = {
            "workload": "pilotta colver-solve" + ("" if what == "full" else " cards"),
            "threads": 1,
            "what": "the value" if what == "full" else "every first card's value",
            "deals": n,
            **_ms_stats(ms),
        }
        if colver is not None:
            theirs = np.array(times["colver"]) * 1e3
            stats = _ms_stats(theirs)
            row.update({f"colver_{k}": v for k, v in stats.items()})
            row["ratio_median"] = round(row["median_ms"] / stats["median_ms"], 3)
            row["ratio_p95"] = round(row["p95_ms"] / stats["p95_ms"], 3)
            row["values_agree"] = f"{agree}/{n}"
        rows.append(row)
    return rows


WORKLOADS["pilotta colver-rounds"] = colver_rounds
WORKLOADS["pilotta colver-solve"] = colver_solve
