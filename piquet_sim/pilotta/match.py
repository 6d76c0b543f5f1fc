"""Strategies against each other: mirrored batches of rounds, tournaments, games to 351.

**Mirrored**: every deal (seed, index: the same cards and dealer) is played twice, A sitting
North-South then East-West; a deal's result for A is the mean of its two results, so the
difference between two strategies is measured on the same cards (a paired sample).
Perspective: A's team; a round's result is A's game points minus B's.

Every study runs in chunks of deal (or game) indices on a backend (``core.backend``: numba
threads here, or a Dask cluster); a chunk's records depend only on the seed and its indices,
and the chunks are put back in index order before any statistic, so the numbers are the same on
any backend, chunking or thread count. Ctrl-C stops after the chunk in flight (``partial``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.app.plots import pairwise_heatmap
from ..core.app.tables import export_table  # noqa: F401 - the commands write tables through it
from ..core.engine.backend import Chunk, LocalBackend, run_chunks, stop_requested
from ..core.engine.stats import Estimate, proportion
from .api import simulate_batch
from .api import simulate_games as _games
from .kernels.game import simulate_games as _games_kernel
from .kernels.pimc import simulate_batch_pimc
from .kernels.simulate import simulate_batch as _rounds_kernel
from .layouts import BID_CAPOT, Game, RoundRec, Score
from .rules import DEFAULT_RULES, Rules
from .strategies import Strategy, setup

#: Deals (batch) or games per chunk at most; fewer with a slow strategy.
CHUNK = 25_000
SLOW_CHUNK = 500


def _mean(x: np.ndarray) -> dict:
    return Estimate.of_sample(x).to_dict()


def _rate(k, n) -> dict:
    return {**proportion(k, n), "n": int(n)}


def team_stats(recs: np.ndarray, team: np.ndarray) -> dict:
    """How often ``team`` (per round, 0 NS / 1 EW) bids, makes, is set, makes a capot, holds
    the pilotta, scores the combinations; mean bid and mean game points."""
    n = len(recs)
    bidder = recs[:, RoundRec.BIDDER]
    played = bidder >= 0
    ours = played & ((bidder & 1) == team)
    made = recs[:, RoundRec.SCORE + Score.MADE] == 1
    capot_team = recs[:, RoundRec.SCORE + Score.CAPOT_TEAM]
    pil = recs[:, RoundRec.PILOTTA_SEAT]
    total = np.where(
        team == 0,
        recs[:, RoundRec.SCORE + Score.TOTAL_NS],
        recs[:, RoundRec.SCORE + Score.TOTAL_EW],
    )
    bids = recs[ours, RoundRec.BID]
    return {
        "contracts": _rate(ours.sum(), n),
        "made": _rate((ours & made).sum(), max(int(ours.sum()), 1)),
        "capot_bid": _rate((bids == BID_CAPOT).sum(), max(len(bids), 1)),
        "mean_bid": float(np.where(bids == BID_CAPOT, 250, bids).mean()) if len(bids) else 0.0,
        "capots": _rate((played & (capot_team == team)).sum(), n),
        "pilotta": _rate((played & (pil >= 0) & ((pil & 1) == team)).sum(), n),
        "combinations": _rate((played & (recs[:, RoundRec.DECL_TEAM] == team)).sum(), n),
        "game_points": _mean(total.astype(float)),
    }


def chunk_size(*strategies: Strategy) -> int:
    """Deals or games per chunk at most: small with a slow strategy (pimc play, the Monte Carlo
    bidder), so that Ctrl-C stops soon and keeps what finished."""
    if any(s.play == "pimc" for s in strategies):
        return 8
    return SLOW_CHUNK if any(s.is_slow() for s in strategies) else CHUNK


def entry_kernels(*strategies: Strategy, games: bool = False) -> list:
    """The numba kernels a study of these strategies calls (for a compile notice): whole games,
    or rounds (the pimc kernel when a side plays pimc)."""
    if games:
        return [_games_kernel]
    pimc = any(s.play == "pimc" for s in strategies)
    return [simulate_batch_pimc if pimc else _rounds_kernel]


def _partial(done: int, requested: int) -> dict:
    """The keys of a run stopped early (Ctrl-C): none when it finished."""
    return {} if done >= requested else {"partial": True, "requested": requested}


def _run(task, n: int, step: int, args: tuple, backend, progress) -> list:
    """The results of ``task`` over indices 0..n-1 in chunks of at most ``step`` on
    ``backend`` (default local), in index order whatever order they finished in; the chunks
    done when Ctrl-C stopped the run."""
    parts: dict[int, object] = {}

    def consume(item: Chunk, result) -> None:
        parts[item.start] = result

    run_chunks(backend or LocalBackend(), task, n, step, args, consume, progress)
    return [parts[k] for k in sorted(parts)]


def batch_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int, rules: Rules) -> tuple:
    """One chunk of a mirrored batch (the unit of work of every backend): the round records of
    deals ``chunk.start ..`` with A North-South, and with A East-West."""
    r = rules.to_array()
    args = (np.int64(seed), np.int64(chunk.start), np.int64(chunk.size))
    return simulate_batch(*args, setup(a, b), r)[0], simulate_batch(*args, setup(b, a), r)[0]


def batch(
    a: Strategy,
    b: Strategy,
    deals: int,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    backend=None,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
) -> dict:
    """A against B on ``deals`` mirrored deals: A's mean result per deal (game points, A minus
    B, averaged over both seatings) with its 95% interval, and each side's contract figures.
    Runs in chunks of at most ``chunk`` deals (default :func:`chunk_size`) on ``backend``
    (default local; the same numbers on any); ``progress`` receives the deals of each chunk
    finished. Ctrl-C
    (``core.backend.stop_requested``) stops after the chunk in flight, and the result covers
    the deals done (``partial``, ``requested``)."""
    step = chunk or chunk_size(a, b)
    parts = _run(batch_task, deals, step, (a, b, seed, rules), backend, progress)
    empty = np.zeros((0, RoundRec.LEN), dtype=np.int64)
    ns_a = np.concatenate([x for x, _ in parts] or [empty])
    ns_b = np.concatenate([y for _, y in parts] or [empty])
    requested, deals = deals, len(ns_a)
    t_ns = RoundRec.SCORE + Score.TOTAL_NS
    t_ew = RoundRec.SCORE + Score.TOTAL_EW
    diff1 = ns_a[:, t_ns] - ns_a[:, t_ew]  # A sits NS
    diff2 = ns_b[:, t_ew] - ns_b[:, t_ns]  # A sits EW
    per_deal = (diff1 + diff2) / 2.0
    both = np.concatenate([ns_a, ns_b])
    team_a = np.concatenate([np.zeros(deals, dtype=np.int64), np.ones(deals, dtype=np.int64)])
    thrown = (both[:, RoundRec.BIDDER] < 0).sum()
    return {
        "a": a.name,
        "b": b.name,
        "a_summary": a.summary(),
        "b_summary": b.summary(),
        "deals": deals,
        "seed": seed,
        "perspective": "A's game points minus B's per round, mean of the two seatings of a deal",
        "a_minus_b": _mean(per_deal),
        "a_ns": _mean(diff1.astype(float)),
        "a_ew": _mean(diff2.astype(float)),
        "thrown_in": _rate(thrown, 2 * deals),
        "stats": {"a": team_stats(both, team_a), "b": team_stats(both, 1 - team_a)},
        "rules": rules.to_dict(),
        **_partial(deals, requested),
    }


def tournament(
    strategies: list[Strategy],
    deals: int,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    backend=None,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
) -> dict:
    """Every pair in mirrored batches on the same deals; each strategy's mean result per round
    over its matches (game points, it minus its opponent). ``progress`` receives deals
    finished (the whole tournament is ``C(k, 2) * deals``)."""
    pairs = []
    score = {s.name: [] for s in strategies}
    todo = [(a, b) for i, a in enumerate(strategies) for b in strategies[i + 1 :]]
    for a, b in todo:
        r = batch(a, b, deals, seed, rules, backend, progress, chunk)
        m = r["a_minus_b"]
        pairs.append({"a": a.name, "b": b.name, "a_minus_b": m, **_partial(r["deals"], deals)})
        score[a.name].append(m["mean"])
        score[b.name].append(-m["mean"])
        if stop_requested():
            break
    table = sorted(
        ({"strategy": k, "mean": float(np.mean(v))} for k, v in score.items() if v),
        key=lambda d: -d["mean"],
    )
    out = {"deals": deals, "seed": seed, "pairs": pairs, "table": table}
    if stop_requested():
        out |= {"partial": True, "pairs_requested": len(todo)}
    return out


def pairs_frame(result: dict) -> pd.DataFrame:
    """A tournament's matches as a table: one row per pair, A's game points minus B's per
    round (mean, standard error, 95% interval, deals)."""
    rows = [
        {
            "a": p["a"],
            "b": p["b"],
            "a_minus_b": p["a_minus_b"]["mean"],
            "se": p["a_minus_b"]["se"],
            "ci_low": p["a_minus_b"]["ci95"][0],
            "ci_high": p["a_minus_b"]["ci95"][1],
            "deals": p["a_minus_b"]["n"],
        }
        for p in result["pairs"]
    ]
    return pd.DataFrame(rows, columns=["a", "b", "a_minus_b", "se", "ci_low", "ci_high", "deals"])


def plot_margins(result: dict, path: str | Path) -> Path:
    """Heatmap of a tournament's pairwise results: row strategy's game points per round minus
    the column's (mirrored deals), each cell with its 95% half-width."""
    names = list(
        dict.fromkeys([p["a"] for p in result["pairs"]] + [p["b"] for p in result["pairs"]])
    )
    k = len(names)
    margins, halves = np.zeros((k, k)), np.zeros((k, k))
    for p in result["pairs"]:
        i, j = names.index(p["a"]), names.index(p["b"])
        m = p["a_minus_b"]
        margins[i, j], margins[j, i] = m["mean"], -m["mean"]
        halves[i, j] = halves[j, i] = (m["ci95"][1] - m["ci95"][0]) / 2
    return pairwise_heatmap(
        names,
        margins,
        halves,
        path,
        title=f"Pilotta: pairwise results ({result['deals']:,} mirrored deals, 95% half-widths)",
        colorbar="game points per round, row minus column",
    )


def _game_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int, rules: Rules) -> tuple:
    """One chunk of games (every backend's unit of work): games ``chunk.start ..`` with A
    North-South, and with A East-West, on the same deals."""
    g1 = _games(chunk.size, seed, setup(a, b), rules, start=chunk.start)
    g2 = _games(chunk.size, seed, setup(b, a), rules, start=chunk.start)
    return g1, g2


def game(
    a: Strategy,
    b: Strategy,
    games: int,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    backend=None,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
) -> dict:
    """Games to ``rules.game_target`` (351): each game number played twice (A North-South, then
    East-West, the same deals); P(A wins) with its Wilson interval over all games, the
    difference between the two seatings, and rounds per game. Runs in chunks of at most
    ``chunk`` games on ``backend`` (default local; the same numbers on any); Ctrl-C stops after
    the chunk in flight (``partial``: ``games`` counts both seatings of the games done)."""
    step = chunk or chunk_size(a, b)
    parts = _run(_game_task, games, step, (a, b, seed, rules), backend, progress)
    empty = pd.DataFrame({f.name.lower(): np.zeros(0, np.int64) for f in Game if f.name != "LEN"})
    g1 = pd.concat([x for x, _ in parts] or [empty], ignore_index=True)
    g2 = pd.concat([y for _, y in parts] or [empty], ignore_index=True)
    requested, games = games, len(g1)
    wins1 = (g1["winner"] == 0).to_numpy()
    wins2 = (g2["winner"] == 1).to_numpy()
    rounds = np.concatenate([g1["rounds"].to_numpy(), g2["rounds"].to_numpy()]).astype(float)
    won = int(wins1.sum() + wins2.sum())
    margin1 = (g1["ns"] - g1["ew"]).to_numpy()
    margin2 = (g2["ew"] - g2["ns"]).to_numpy()
    return {
        "a": a.name,
        "b": b.name,
        "games": 2 * games,
        "seed": seed,
        "target": rules.game_target,
        "p_a_wins": _rate(won, 2 * games),
        "p_a_wins_ns": _rate(int(wins1.sum()), games),
        "p_a_wins_ew": _rate(int(wins2.sum()), games),
        "paired_wins": _mean((wins1.astype(float) + wins2) / 2.0),
        "rounds": _mean(rounds),
        "a_final_margin": _mean(np.concatenate([margin1, margin2]).astype(float)),
        "unfinished": int((g1["winner"] < 0).sum() + (g2["winner"] < 0).sum()),
        **_partial(games, requested),
    }
