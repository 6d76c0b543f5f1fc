"""Pilotta's matches of two strategies as the study layer plays them (``core.study``): mirrored
batches of rounds (:data:`BATCH`) and games to 351 (:data:`GAME`), their units of work
through the kernels and their statistics.

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

import numpy as np
import pandas as pd

from ..core.engine.backend import Chunk
from ..core.engine.errors import InputError
from ..core.engine.stats import Estimate, proportion
from ..core.game.strategy import Strategy
from ..core.study.match import MatchKind, MatchResult, MatchSpec, Stat, run_match
from ..core.study.tournament import Tournament
from .api import simulate_batch
from .api import simulate_games as _games
from .kernels.game import simulate_games as _games_kernel
from .kernels.pimc import simulate_batch_pimc
from .kernels.simulate import simulate_batch as _rounds_kernel
from .layouts import BID_CAPOT, Game, RoundRec, Score
from .rules import DEFAULT_RULES, Rules
from .strategies import BOOK, is_slow, plays_pimc, setup, summary

#: Deals (batch) or games per chunk at most; fewer with a slow strategy.
CHUNK = 25_000
SLOW_CHUNK = 500


def _rate(k, n) -> dict:
    return {**proportion(k, n), "n": int(n)}


def _sums(x: np.ndarray) -> tuple[int, int]:
    """Exact integer sum and sum of squares of an integer column."""
    x = x.astype(np.int64)
    return int(x.sum()), int((x * x).sum())


def _team_tally(recs: np.ndarray, team: int) -> dict:
    """Integer counts and sums of the rounds ``recs`` seen from ``team`` (0 NS / 1 EW), merged
    exactly by adding (:func:`team_stats` reads them)."""
    bidder = recs[:, RoundRec.BIDDER]
    played = bidder >= 0
    ours = played & ((bidder & 1) == team)
    made = recs[:, RoundRec.SCORE + Score.MADE] == 1
    capot_team = recs[:, RoundRec.SCORE + Score.CAPOT_TEAM]
    pil = recs[:, RoundRec.PILOTTA_SEAT]
    total = recs[:, RoundRec.SCORE + (Score.TOTAL_NS if team == 0 else Score.TOTAL_EW)]
    bids = recs[ours, RoundRec.BID]
    gp, gp_sq = _sums(total)
    return {
        "rounds": len(recs),
        "ours": int(ours.sum()),
        "made": int((ours & made).sum()),
        "capot_bids": int((bids == BID_CAPOT).sum()),
        "bid_sum": int(np.where(bids == BID_CAPOT, 250, bids).sum()),
        "capots": int((played & (capot_team == team)).sum()),
        "pilotta": int((played & (pil >= 0) & ((pil & 1) == team)).sum()),
        "combinations": int((played & (recs[:, RoundRec.DECL_TEAM] == team)).sum()),
        "gp": gp,
        "gp_sq": gp_sq,
    }


def _add(x: dict, y: dict) -> dict:
    """Two tallies (nested dicts of integers and pairs of integers) added key by key: the
    match's fold of its chunks (exact)."""
    return {
        k: _add(v, y[k])
        if isinstance(v, dict)
        else tuple(p + q for p, q in zip(v, y[k], strict=True))
        if isinstance(v, tuple)
        else v + y[k]
        for k, v in x.items()
    }


def team_stats(t: dict) -> dict:
    """How often a team bids, makes, is set, makes a capot, holds the pilotta, scores the
    combinations; mean bid and mean game points (of its :func:`_team_tally`)."""
    n, ours = t["rounds"], t["ours"]
    return {
        "contracts": _rate(ours, n),
        "made": _rate(t["made"], max(ours, 1)),
        "capot_bid": _rate(t["capot_bids"], max(ours, 1)),
        "mean_bid": t["bid_sum"] / ours if ours else 0.0,
        "capots": _rate(t["capots"], n),
        "pilotta": _rate(t["pilotta"], n),
        "combinations": _rate(t["combinations"], n),
        "game_points": Estimate.of_sums(t["gp"], t["gp_sq"], n).to_dict(),
    }


def chunk_size(*strategies: Strategy) -> int:
    """Deals or games per chunk at most: small with a slow strategy (pimc play, the Monte Carlo
    bidder), so that Ctrl-C stops soon and keeps what finished."""
    if any(plays_pimc(s) for s in strategies):
        return 8
    return SLOW_CHUNK if any(is_slow(s) for s in strategies) else CHUNK


def entry_kernels(*strategies: Strategy, games: bool = False) -> list:
    """The numba kernels a study of these strategies calls (for a compile notice): whole games,
    or rounds (the pimc kernel when a side plays pimc)."""
    if games:
        return [_games_kernel]
    pimc = any(plays_pimc(s) for s in strategies)
    return [simulate_batch_pimc if pimc else _rounds_kernel]


def _partial(done: int, requested: int) -> dict:
    """The keys of a run stopped early (Ctrl-C): none when it finished."""
    return {} if done >= requested else {"partial": True, "requested": requested}


def default_deals(a: Strategy, b: Strategy) -> int:
    """Mirrored deals of a batch when not told: fewer with a slow strategy."""
    slow = [s for s in (a, b) if is_slow(s)]
    return 100_000 if not slow else 200 if any(plays_pimc(s) for s in slow) else 5_000


def batch_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int, rules: Rules) -> tuple:
    """One chunk of a mirrored batch (the unit of work of every backend): the round records of
    deals ``chunk.start ..`` with A North-South, and with A East-West."""
    r = rules.to_array()
    args = (np.int64(seed), np.int64(chunk.start), np.int64(chunk.size))
    return simulate_batch(*args, setup(a, b), r)[0], simulate_batch(*args, setup(b, a), r)[0]


def batch_tally(recs_a_ns: np.ndarray, recs_a_ew: np.ndarray) -> dict:
    """A chunk's integer counts and sums (merged by adding: memory and the final statistics
    do not grow with the deals): the rounds with A North-South, and with A East-West."""
    t_ns = RoundRec.SCORE + Score.TOTAL_NS
    t_ew = RoundRec.SCORE + Score.TOTAL_EW
    diff1 = recs_a_ns[:, t_ns] - recs_a_ns[:, t_ew]  # A sits NS
    diff2 = recs_a_ew[:, t_ew] - recs_a_ew[:, t_ns]  # A sits EW
    both = np.concatenate([recs_a_ns[:, RoundRec.BIDDER], recs_a_ew[:, RoundRec.BIDDER]])
    return {
        "deals": len(recs_a_ns),
        "pair": _sums(diff1 + diff2),
        "a_ns": _sums(diff1),
        "a_ew": _sums(diff2),
        "thrown": int((both < 0).sum()),
        "a": _add(_team_tally(recs_a_ns, 0), _team_tally(recs_a_ew, 1)),
        "b": _add(_team_tally(recs_a_ns, 1), _team_tally(recs_a_ew, 0)),
    }


def batch_tally_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int, rules: Rules) -> dict:
    """One chunk of a mirrored batch as the match folds it: :func:`batch_tally` of
    :func:`batch_task`'s round records."""
    return batch_tally(*batch_task(chunk, a, b, seed, rules))


def batch_result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
    """A against B on mirrored deals (the study's hook): A's mean result per deal (game points,
    A minus B, averaged over both seatings) with its 95% interval, and each side's contract
    figures (``parts``: the one merged tally, none when no chunk finished)."""
    a, b, requested = spec.a, spec.b, spec.n
    empty = np.zeros((0, RoundRec.LEN), dtype=np.int64)
    t = parts[0] if parts else batch_tally(empty, empty)
    deals = t["deals"]
    per_deal = Estimate.of_sums(*t["pair"], deals, 0.5)
    stats = {"a": team_stats(t["a"]), "b": team_stats(t["b"])}
    body = {
        "a": a.name,
        "b": b.name,
        "a_summary": summary(a),
        "b_summary": summary(b),
        "deals": deals,
        "seed": spec.seed,
        "perspective": "A's game points minus B's per round, mean of the two seatings of a deal",
        "a_minus_b": per_deal.to_dict(),
        "a_ns": Estimate.of_sums(*t["a_ns"], deals).to_dict(),
        "a_ew": Estimate.of_sums(*t["a_ew"], deals).to_dict(),
        "thrown_in": _rate(t["thrown"], 2 * deals),
        "stats": stats,
        "rules": spec.rules.to_dict(),
        **_partial(deals, requested),
    }
    labels = (
        ("contracts", "contracts"),
        ("made (of its contracts)", "made"),
        ("capots", "capots"),
        ("pilotta", "pilotta"),
        ("combinations", "combinations"),
    )
    sides = {
        f"{key.upper()} {s.name}": [
            *(Stat.of(label, stats[key][k], rate=True) for label, k in labels),
            Stat.of("mean bid", stats[key]["mean_bid"]),
            Stat.of("game points", stats[key]["game_points"]),
        ]
        for key, s in (("a", a), ("b", b))
    }
    ns, ew, th = body["a_ns"], body["a_ew"], body["thrown_in"]
    notes = [
        f"A sitting NS: {_ci(ns)}; A sitting EW: {_ci(ew)}",
        f"thrown in (all four passed): {100 * th['p']:.1f}%",
    ]
    return MatchResult(
        a.name,
        b.name,
        per_deal,
        "game points per round (A's minus B's, mean of A North-South and A East-West)",
        deals,
        requested,
        deals < requested,
        body,
        sides,
        notes,
    )


def _ci(d: dict) -> str:
    return f"{d['mean']:+.2f} [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}]"


#: The most deals (games) one match holds: every round record (every game's row) stays in memory.
MOST_DEALS, MOST_GAMES = 10**8, 10**7


def _args(spec: MatchSpec, most: int = MOST_DEALS, unit: str = "deals") -> tuple:
    if spec.n > most:
        raise InputError(f"at most {most:,} {unit} a match (every record is held in memory)")
    return (spec.a, spec.b, spec.seed, spec.rules)


#: Pilotta's mirrored match: each deal played with A North-South and with A East-West.
BATCH = MatchKind(
    unit="deals",
    task=batch_tally_task,
    args=_args,
    result=batch_result,
    chunk=lambda spec: chunk_size(spec.a, spec.b),
    kernels=lambda spec: tuple(entry_kernels(spec.a, spec.b)),
    default_n=default_deals,
    fold=_add,
)


def batch(a: Strategy, b: Strategy, deals: int, seed: int = 1, rules=DEFAULT_RULES, **run) -> dict:
    """The JSON of :data:`BATCH` of A against B on ``deals`` mirrored deals (``run``: the
    ``backend``, ``progress``, ``chunk`` and ``cancel`` of :func:`core.study.match.play_match`:
    the same numbers on any backend or chunking; Ctrl-C keeps the deals done, ``partial``)."""
    return run_match(BATCH, a, b, deals, seed, rules, **run).body


def tournament_json(t: Tournament) -> dict:
    """A tournament's JSON: each pair's A minus B per round, and each strategy's mean result
    per round over its matches (game points, it minus its opponent)."""
    pairs = [
        {"a": r.a, "b": r.b, "a_minus_b": r.body["a_minus_b"], **_partial(r.played, t.n)}
        for r in t.results
    ]
    table = [{"strategy": s["strategy"], "mean": s["mean_margin"]} for s in t.standings()]
    out = {"deals": t.n, "seed": t.seed, "pairs": pairs, "table": table}
    if t.partial:
        out |= {"partial": True, "pairs_requested": t.pairs}
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


def game_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int, rules: Rules) -> tuple:
    """One chunk of games (every backend's unit of work): games ``chunk.start ..`` with A
    North-South, and with A East-West, on the same deals."""
    g1 = _games(chunk.size, seed, setup(a, b), rules, start=chunk.start)
    g2 = _games(chunk.size, seed, setup(b, a), rules, start=chunk.start)
    return g1, g2


def _game_args(spec: MatchSpec) -> tuple:
    if any(plays_pimc(s) for s in (spec.a, spec.b)):
        raise InputError("pimc play is too slow for whole games: use it in batch, or in bid")
    return _args(spec, MOST_GAMES, "games")


def game_result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
    """Games to ``rules.game_target`` (351), each game number played twice (A North-South,
    then East-West, the same deals): P(A wins) with its Wilson interval over all games, the
    difference between the two seatings, and rounds per game (``games`` counts both seatings
    of the games done)."""
    a, b, requested = spec.a, spec.b, spec.n
    empty = pd.DataFrame({f.name.lower(): np.zeros(0, np.int64) for f in Game if f.name != "LEN"})
    g1 = pd.concat([x for x, _ in parts] or [empty], ignore_index=True)
    g2 = pd.concat([y for _, y in parts] or [empty], ignore_index=True)
    games = len(g1)
    wins1 = (g1["winner"] == 0).to_numpy()
    wins2 = (g2["winner"] == 1).to_numpy()
    rounds = np.concatenate([g1["rounds"].to_numpy(), g2["rounds"].to_numpy()]).astype(float)
    won = int(wins1.sum() + wins2.sum())
    margin1 = (g1["ns"] - g1["ew"]).to_numpy()
    margin2 = (g2["ew"] - g2["ns"]).to_numpy()
    body = {
        "a": a.name,
        "b": b.name,
        "games": 2 * games,
        "seed": spec.seed,
        "target": spec.rules.game_target,
        "p_a_wins": _rate(won, 2 * games),
        "p_a_wins_ns": _rate(int(wins1.sum()), games),
        "p_a_wins_ew": _rate(int(wins2.sum()), games),
        "paired_wins": Estimate.of_sample((wins1.astype(float) + wins2) / 2.0).to_dict(),
        "rounds": Estimate.of_sample(rounds).to_dict(),
        "a_final_margin": Estimate.of_sample(np.concatenate([margin1, margin2])).to_dict(),
        "unfinished": int((g1["winner"] < 0).sum() + (g2["winner"] < 0).sum()),
        **_partial(games, requested),
    }
    sides = {
        a.name: [
            Stat.of("wins the game", body["p_a_wins"], rate=True),
            Stat.of("wins sitting NS", body["p_a_wins_ns"], rate=True),
            Stat.of("wins sitting EW", body["p_a_wins_ew"], rate=True),
            Stat.of("final margin (game points)", body["a_final_margin"]),
        ]
    }
    notes = [f"rounds per game: {_ci(body['rounds'])}"]
    if body["unfinished"]:
        notes.append(f"{body['unfinished']} games hit the round limit unfinished")
    paired = Estimate.of_sample((wins1.astype(float) + wins2) / 2.0)
    return MatchResult(
        a.name,
        b.name,
        paired,
        f"P(A wins a game to {spec.rules.game_target}), mean of A North-South and A East-West",
        games,
        requested,
        games < requested,
        body,
        sides,
        notes,
    )


#: Games to the target, each game number played with A North-South and with A East-West.
GAME = MatchKind(
    unit="games",
    task=game_task,
    args=_game_args,
    result=game_result,
    chunk=lambda spec: chunk_size(spec.a, spec.b),
    kernels=lambda spec: tuple(entry_kernels(games=True)),
    default_n=lambda a, b: 20_000,
)


def game(a: Strategy, b: Strategy, games: int, seed: int = 1, rules=DEFAULT_RULES, **run) -> dict:
    """The JSON of :data:`GAME` of A against B on ``games`` game numbers, each in both seatings
    (``run`` as :func:`batch`'s)."""
    return run_match(GAME, a, b, games, seed, rules, **run).body


def default_field() -> list[Strategy]:
    """A tournament's strategies when none are given: every built-in except the slow ones."""
    return [s for s in BOOK.builtins.values() if not is_slow(s)]


__all__ = ["BATCH", "GAME", "batch", "game", "tournament_json"]
