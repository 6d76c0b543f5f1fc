"""Strategies against each other: mirrored batches of rounds, tournaments, games to 351.

**Mirrored**: every deal (seed, index: the same cards and dealer) is played twice, A sitting
North-South then East-West; a deal's result for A is the mean of its two results, so the
difference between two strategies is measured on the same cards (a paired sample).
Perspective: A's team; a round's result is A's game points minus B's.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.backend import stop_requested
from ..core.stats import Z95, wilson_interval
from .api import simulate_batch
from .api import simulate_games as _games
from .layouts import BID_CAPOT, RoundRec, Score
from .rules import DEFAULT_RULES, Rules
from .strategies import Strategy, setup

#: Deals (batch) or games per kernel call; fewer with the Monte Carlo bidder.
CHUNK = 25_000
SLOW_CHUNK = 500


def _mean(x: np.ndarray) -> dict:
    n = len(x)
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    return {"mean": m, "se": se, "ci95": [m - Z95 * se, m + Z95 * se], "n": n}


def _rate(k, n) -> dict:
    lo, hi = wilson_interval(int(k), int(n))
    return {"p": float(k / n) if n else math.nan, "ci95": [lo, hi], "count": int(k), "n": int(n)}


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
    """Deals or games per kernel call: small with a slow strategy (pimc play, the Monte Carlo
    bidder), so that Ctrl-C stops soon and keeps what finished."""
    if any(s.play == "pimc" for s in strategies):
        return 8
    return SLOW_CHUNK if any(s.is_slow() for s in strategies) else CHUNK


def _partial(done: int, requested: int) -> dict:
    """The keys of a run stopped early (Ctrl-C): none when it finished."""
    return {} if done >= requested else {"partial": True, "requested": requested}


def batch(
    a: Strategy, b: Strategy, deals: int, seed: int = 1, rules: Rules = DEFAULT_RULES
) -> dict:
    """A against B on ``deals`` mirrored deals: A's mean result per deal (game points, A minus
    B, averaged over both seatings) with its 95% interval, and each side's contract figures.
    Runs in chunks of deals; Ctrl-C (``core.backend.stop_requested``) stops after the chunk
    in flight, and the result covers the deals done (``partial``, ``requested``)."""
    r = rules.to_array()
    parts_a, parts_b = [], []
    step = chunk_size(a, b)
    for first in range(0, deals, step):
        count = np.int64(min(step, deals - first))
        parts_a.append(simulate_batch(np.int64(seed), np.int64(first), count, setup(a, b), r)[0])
        parts_b.append(simulate_batch(np.int64(seed), np.int64(first), count, setup(b, a), r)[0])
        if stop_requested():
            break
    ns_a, ns_b = np.concatenate(parts_a), np.concatenate(parts_b)
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
    strategies: list[Strategy], deals: int, seed: int = 1, rules: Rules = DEFAULT_RULES
) -> dict:
    """Every pair in mirrored batches on the same deals; each strategy's mean result per round
    over its matches (game points, it minus its opponent)."""
    pairs = []
    score = {s.name: [] for s in strategies}
    todo = [(a, b) for i, a in enumerate(strategies) for b in strategies[i + 1 :]]
    for a, b in todo:
        r = batch(a, b, deals, seed, rules)
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


def game(a: Strategy, b: Strategy, games: int, seed: int = 1, rules: Rules = DEFAULT_RULES) -> dict:
    """Games to ``rules.game_target`` (351): each game number played twice (A North-South, then
    East-West, the same deals); P(A wins) with its Wilson interval over all games, the
    difference between the two seatings, and rounds per game. Runs in chunks of games;
    Ctrl-C stops after the chunk in flight (``partial``: ``games`` counts both seatings of
    the games done)."""
    parts1, parts2 = [], []
    step = chunk_size(a, b)
    for first in range(0, games, step):
        count = min(step, games - first)
        parts1.append(_games(count, seed, setup(a, b), rules, start=first))
        parts2.append(_games(count, seed, setup(b, a), rules, start=first))
        if stop_requested():
            break
    g1, g2 = pd.concat(parts1, ignore_index=True), pd.concat(parts2, ignore_index=True)
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
