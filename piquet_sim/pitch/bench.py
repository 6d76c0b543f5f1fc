"""Pitch benchmark workloads, gathered by ``piquet bench``: ``WORKLOADS[name](quick) -> rows``.

Each row has ``workload``, ``threads`` and its figures. Timings on a shared machine are noisy:
compare rows measured in the same run.

* ``pitch solve-full`` (the core's workload, these positions: :func:`rounds_by_search`): full
  six-trick rounds solved exactly on one thread, one row per player count and search
  (``maxn``: max^n with the default static-order tie rule, 3..6 players;
  ``maxn-full``: max^n with the full-order tie rule, 3 and 4 players, for a same-run comparison;
  ``paranoid``, 3..6 players): round i of seed 2024 dealt and bid with the random policies, the
  bidder on lead and the trump chosen by his pitch; each row has a fresh workspace, whose table
  starts a new generation before each round (the line table of the last two tricks keeps its
  entries across the row's rounds, as across a pimc search's worlds). Rounds are taken in order
  until the count or the budget of the thread's CPU time is reached, and each is stopped after a
  node limit (``finished`` / ``cut`` say how many of ``rounds`` ended either way). Median / p95 /
  max ms of wall time, median / p95 of the thread's CPU time (``cpu_*``: steadier on a shared
  machine) and the median nodes, taken as the sample at that rank over every round: a cut round
  counts with its time at the cut, so a quantile that a cut round could move is only a lower bound
  (``median_exact`` / ``p95_exact`` false);
* ``pitch rounds-random`` / ``pitch rounds-heuristic``: whole simulated rounds per second
  (deal, auction, play, score; random bids, the named play), 4 players, on 1 thread and on
  every thread;
* ``pitch bid``: seconds for one bid advice (5,000 worlds, heuristic play), best of three;
* ``pitch start``: cold and warm start of ``piquet pitch solve`` on its first ``--help``
  example, max^n and ``--paranoid`` (seconds, wall and CPU; cold: a new, empty numba cache, so
  every kernel on the command's path compiles; ``core.app.bench.example_starts``);
* ``pitch bid pimc``: seconds (wall and process CPU) for one bid advice with pimc play (24
  worlds, 8 sampled worlds per decision), after a compile call;
* ``pitch games``: games to 12 per second (4 players, threshold against cautious);
* ``pitch montecarlo``: the Monte Carlo bidder's decisions per thread-CPU-second (16 worlds, a
  seat-0 opening call, 4 players, one thread) and games to 12 per CPU-second with it alone
  against ``threshold`` players;
* ``pitch position overhead`` and ``pitch start play``: every game's, from its definition
  (``core.app.bench.definition_workloads``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numba
import numpy as np

from ..core.app.bench import SolveSeries, example_starts
from ..core.engine.bench_timing import rate_rows
from ..core.engine.rng import deal_hands, stream_key
from . import cards as C
from .bid import advise_bid
from .game import GAME
from .kernels import position as KP
from .kernels.search_node import F_ALL, F_TIE_FULL, make_work
from .kernels.search_tt import new_generation
from .kernels.simulate import simulate_rounds
from .layouts import Ctx, RoundRec, SearchStat
from .policies import make_policy
from .rules import Rules
from .solver import make_position

SEED = 2024
#: (rounds, CPU-seconds budget, node limit per round) per search and player count; quick: a
#: tenth of the rounds and seconds.
SOLVE_PLAN = {
    "paranoid": {3: (400, 5, 0), 4: (200, 10, 0), 5: (100, 10, 0), 6: (60, 10, 0)},
    "maxn": {
        3: (200, 10, 20_000_000),
        4: (60, 30, 10_000_000),
        5: (20, 20, 3_000_000),
        6: (10, 20, 3_000_000),
    },
    "maxn-full": {3: (100, 5, 20_000_000), 4: (40, 20, 10_000_000)},
}
#: search flags per search
SOLVE_FLAGS = {"paranoid": F_ALL, "maxn": F_ALL, "maxn-full": F_ALL | F_TIE_FULL}


def _positions(n: int, count: int) -> list[np.ndarray]:
    rules = Rules(players=n)
    recs, _ = simulate_rounds(
        SEED, 0, count, rules.to_array(), make_policy("random", "random"), False
    )
    out = []
    for r in recs:
        hands = [int(h) for h in r[RoundRec.HANDS : RoundRec.HANDS + n]]
        b = int(r[RoundRec.BIDDER])
        out.append(make_position(hands, b, b, None, rules))
    return out


#: A ``pitch solve-full`` row's fields.
SOLVE_FIELDS = (
    "players",
    "search",
    "rounds",
    "finished",
    "cut",
    "node_limit",
    "median_ms",
    "median_exact",
    "p95_ms",
    "p95_exact",
    "max_ms",
    "cpu_median_ms",
    "cpu_p95_ms",
    "median_nodes",
)


def _series(mode: str, n: int, count: int, budget: float, limit: int) -> SolveSeries:
    """One row: ``count`` rounds of ``n`` players under the search ``mode``, a fresh
    workspace (its figures do not depend on the rows before it)."""
    solver = KP.solve_paranoid if mode == "paranoid" else KP.solve_maxn
    flags = SOLVE_FLAGS[mode]
    rules = Rules(players=n).to_array()
    positions = _positions(n, count)
    work = make_work(18)
    work.ctx[Ctx.NODE_LIMIT] = limit

    def warm() -> None:
        small = make_work(12)
        small.ctx[Ctx.NODE_LIMIT] = 1000
        solver(positions[0], rules, small, flags)  # compile (stopped early)

    def clear() -> None:
        new_generation(work.gen, work.tt)
        work.stats[:] = 0

    return SolveSeries(
        f"pitch solve-full {mode} {n}p",
        positions,
        warm=warm,
        clear=clear,
        solve=lambda pos: solver(pos, rules, work, flags) < 0,
        nodes=lambda: work.stats[SearchStat.NODES],
        fields=SOLVE_FIELDS,
        own=lambda: {"players": n, "search": mode, "node_limit": limit},
        count="rounds",
        budget_s=budget,
        censored=True,
    )


def rounds_by_search(quick: bool) -> Iterator[SolveSeries]:
    """The positions of ``pitch solve-full`` (the core's workload,
    ``core.app.bench.solve_full``): one row per (search, players) of :data:`SOLVE_PLAN`, each
    built when its turn comes."""
    for mode, plan in SOLVE_PLAN.items():
        for n, (count, budget, limit) in plan.items():
            if quick:
                count, budget = max(3, count // 10), budget / 10
            yield _series(mode, n, count, budget, limit)


def _rounds(play: str, quick: bool) -> list[dict]:
    n = 200_000 if quick else 2_000_000
    rules = Rules(players=4).to_array()
    policy = make_policy("random", play)
    return rate_rows(
        f"pitch rounds-{play}",
        "rounds",
        n,
        lambda k, seed: simulate_rounds(seed, 0, k, rules, policy, False),
        players=4,
    )


def bid_advice(quick: bool) -> list[dict]:
    """``piquet pitch bid`` 's work (5,000 worlds, every legal call, heuristic play), 4 players,
    seat 2 after "0:pass 1:3", on every thread; the first call (compile) is not timed."""
    hand = C.parse_cards("AS JS 6S 2S KH TD")
    advise_bid(hand, 4, 2, [0, 3], worlds=50)
    worlds = 1000 if quick else 5000
    times = []
    for seed in range(1, 4):
        t0 = time.perf_counter()
        adv = advise_bid(hand, 4, 2, [0, 3], worlds=worlds, seed=seed)
        times.append(time.perf_counter() - t0)
    return [
        {
            "workload": "pitch bid",
            "threads": numba.config.NUMBA_NUM_THREADS,
            "players": 4,
            "worlds": worlds,
            "candidates": len(adv.calls) + len(adv.suits),
            "best_s": round(min(times), 3),
        }
    ]


def bid_pimc(quick: bool) -> list[dict]:
    """``piquet pitch bid --play pimc`` 's work, 4 players, seat 2 after "0:pass 1:3"."""
    hand = C.parse_cards("KS JS 6S 3S KH TD")
    advise_bid(hand, 4, 2, [0, 3], play="pimc", worlds=1)
    worlds = 6 if quick else 24
    t0, c0 = time.perf_counter(), time.process_time()
    adv = advise_bid(hand, 4, 2, [0, 3], play="pimc", worlds=worlds, seed=1)
    return [
        {
            "workload": "pitch bid pimc",
            "threads": numba.config.NUMBA_NUM_THREADS,
            "players": 4,
            "worlds": worlds,
            "candidates": len(adv.calls) + len(adv.suits),
            "seconds": round(time.perf_counter() - t0, 3),
            "cpu_seconds": round(time.process_time() - c0, 3),
        }
    ]


def games(quick: bool) -> list[dict]:
    from .match import hero_games
    from .strategies import REGISTRY

    rules = Rules(players=4)
    n = 2000 if quick else 20_000
    hero_games(REGISTRY["threshold"], REGISTRY["cautious"], rules, 100, 1)
    t0, c0 = time.perf_counter(), time.process_time()
    r, _ = hero_games(REGISTRY["threshold"], REGISTRY["cautious"], rules, n, 1)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return [
        {
            "workload": "pitch games",
            "threads": numba.config.NUMBA_NUM_THREADS,
            "players": 4,
            "games": n,
            "games_per_s": round(n / wall),
            "games_per_cpu_s": round(n / cpu),
            "rounds_per_game": round(r.rounds_per_game.mean, 2),
        }
    ]


def montecarlo(quick: bool) -> list[dict]:
    from .kernels.auction import legal_calls
    from .kernels.mcbid import montecarlo_call, new_mc_work
    from .match import hero_games
    from .policies import MC_WORLDS
    from .strategies import REGISTRY

    rules = Rules(players=4)
    r_arr = rules.to_array()
    mc = new_mc_work()
    pack, state, hands = np.empty(52, np.int8), np.zeros(1, np.int64), np.zeros(6, np.int64)
    n = 500 if quick else 5000
    keys = [np.uint64(stream_key(np.int64(11), np.int64(i))) for i in range(n)]
    dealt = []
    for key in keys:
        state[0] = 0
        deal_hands(key, pack, state, 4, 6, 13, 16, hands)
        dealt.append(np.int64(hands[0]))
    calls = legal_calls(np.int64(0), 0)
    params = np.zeros(16)
    params[0] = MC_WORLDS
    montecarlo_call(r_arr, dealt[0], np.int64(0), calls, params, keys[0], mc)  # compile
    c0 = time.thread_time()
    for hand, key in zip(dealt, keys, strict=True):
        montecarlo_call(r_arr, hand, np.int64(0), calls, params, key, mc)
    per_decision = (time.thread_time() - c0) / n
    games_n = 200 if quick else 2000
    hero_games(REGISTRY["montecarlo"], REGISTRY["threshold"], rules, 20, 1)
    t0, c0 = time.perf_counter(), time.process_time()
    hero_games(REGISTRY["montecarlo"], REGISTRY["threshold"], rules, games_n, 1)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return [
        {
            "workload": "pitch montecarlo",
            "threads": numba.config.NUMBA_NUM_THREADS,
            "players": 4,
            "worlds": int(MC_WORLDS),
            "decisions": n,
            "decisions_per_thread_cpu_s": round(1.0 / per_decision),
            "games": games_n,
            "games_per_s": round(games_n / wall),
            "games_per_cpu_s": round(games_n / cpu),
        }
    ]


WORKLOADS: dict[str, Callable[[bool], list[dict]]] = {
    "pitch start": example_starts(GAME, "solve", "solve --paranoid"),
    "pitch rounds-random": lambda quick: _rounds("random", quick),
    "pitch rounds-heuristic": lambda quick: _rounds("heuristic", quick),
    "pitch bid": bid_advice,
    "pitch bid pimc": bid_pimc,
    "pitch games": games,
    "pitch montecarlo": montecarlo,
}
