"""Games to the target between strategies: ``piquet pitch game`` and ``tournament``.

Format ("one against the field"): a *hero* strategy holds one place at the table and a *field*
strategy the other ``players - 1``; the hero's place turns by one each game and the first
dealer every ``players`` games (``kernels/table.py``), so the hero sits in every seat and deals
first from every place equally often. Perspective: P(the hero wins the game), against the
fair share ``1 / players``; each game is one Bernoulli draw (Wilson 95% interval). Games are
keyed by (seed, game index): the same numbers whatever the thread count or batching.

The games run in chunks of game indices on a backend (``core.backend``: numba threads here, or
a Dask cluster); the chunks are put back in index order before any statistic, so the numbers
are the same on any backend. Ctrl-C stops after the chunk in flight (``partial``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..core.app.plots import pairwise_heatmap
from ..core.app.tables import export_table  # noqa: F401 - the commands write tables through it
from ..core.engine.backend import Chunk, LocalBackend, run_chunks, stop_requested
from ..core.engine.errors import InputError
from ..core.engine.stats import Z95, wilson_interval
from .bid import Estimate
from .kernels.table import GAME_ROUNDS, GAME_WINNER, Seats, play_games
from .policies import get
from .rules import Rules
from .strategies import Strategy

if TYPE_CHECKING:
    import pandas as pd

BATCH = 2000


@dataclass
class HeroResult:
    hero: str
    field: str
    games: int
    p_win: Estimate  # P(the hero wins the game)
    fair: float  # 1 / players
    p_field_win: float  # P(one of the field wins)
    rounds_per_game: Estimate
    unfinished: int  # games with no winner after the round cap


@dataclass
class GameMatch:
    players: int
    seed: int
    results: list[HeroResult]
    seconds: float
    partial: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def _seats(hero: Strategy, field: Strategy, n: int) -> Seats:
    (hi, hp), (fi, fp) = hero.row(), field.row()
    assign = np.zeros(6, dtype=np.int64)
    assign[1:n] = 1
    return Seats(np.stack([hi, fi]), np.stack([hp, fp]), assign)


def _batch(*strategies: Strategy) -> int:
    """Games per chunk at most: smaller with a Monte Carlo bidder (progress, Ctrl-C)."""
    slow = any(get("bid", s.bid).needs_seat for s in strategies)
    return BATCH // 10 if slow else BATCH


def _games_task(chunk: Chunk, seed: int, rules: np.ndarray, seats: Seats) -> np.ndarray:
    """One chunk of games (every backend's unit of work): games ``chunk.start ..``."""
    return play_games(np.int64(seed), np.int64(chunk.start), np.int64(chunk.size), rules, seats)


def hero_games(
    hero: Strategy,
    field: Strategy,
    rules: Rules,
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    backend=None,
    chunk: int | None = None,
) -> tuple[HeroResult | None, bool]:
    """``games`` games of one ``hero`` against ``field``; (result, stopped early);
    ``progress(games done)`` after each chunk. Runs in chunks of at most ``chunk`` games on
    ``backend`` (default local; the same numbers on any). The result is None when Ctrl-C
    stopped the run before any game finished."""
    n = rules.players
    seats = _seats(hero, field, n)
    parts: dict[int, np.ndarray] = {}

    def consume(item: Chunk, result: np.ndarray) -> None:
        parts[item.start] = result

    step = chunk or _batch(hero, field)
    args = (seed, rules.to_array(), seats)
    run_chunks(backend or LocalBackend(), _games_task, games, step, args, consume, progress)
    if not parts:
        return None, True
    out = np.concatenate([parts[k] for k in sorted(parts)])
    stopped = len(out) < games
    g = len(out)
    hero_place = np.arange(g) % n  # assign[(p - g) % n] == 0  <=>  p == g % n
    winner = out[:, GAME_WINNER]
    wins = int((winner == hero_place).sum())
    lo, hi = wilson_interval(wins, g)
    rounds = out[:, GAME_ROUNDS].astype(np.float64)
    se = float(rounds.std(ddof=1) / np.sqrt(g)) if g > 1 else float("inf")
    m = float(rounds.mean())
    return (
        HeroResult(
            hero.name,
            field.name,
            g,
            Estimate(wins / g, [lo, hi], g),
            1.0 / n,
            float(((winner >= 0) & (winner != hero_place)).mean()),
            Estimate(m, [m - Z95 * se, m + Z95 * se], g),
            int((winner < 0).sum()),
        ),
        stopped,
    )


def game_match(
    a: Strategy,
    b: Strategy,
    players: int = 4,
    games: int = 20_000,
    seed: int = 1,
    rules: Rules | None = None,
    progress: Callable[[int], None] | None = None,
    backend=None,
    chunk: int | None = None,
) -> GameMatch:
    """A alone against a field of B, then B alone against a field of A (the same games);
    ``progress(games done)`` as they finish. Runs in chunks of at most ``chunk`` games on
    ``backend`` (default local; the same numbers on any); Ctrl-C stops after the chunk in
    flight (``partial``)."""
    rules = rules or Rules(players=players)
    if not 1 <= games <= 10_000_000:
        raise InputError("games must be 1 to 10,000,000")
    for s in (a, b):
        s.row()  # every parameter checked before the first game
    t0 = time.perf_counter()
    results = []
    partial = False
    for hero, field in ((a, b), (b, a)):
        r, stopped = hero_games(hero, field, rules, games, seed, progress, backend, chunk)
        if r is not None:
            results.append(r)
        if stopped or stop_requested():
            partial = stopped or len(results) < 2
            break
    return GameMatch(rules.players, seed, results, time.perf_counter() - t0, partial)


def match_kernels() -> tuple:
    """The numba entry kernel games are played by (for a compile notice)."""
    return (play_games,)


def check_tournament(strategies: list[Strategy], games: int) -> None:
    """Raise InputError when :func:`tournament` cannot run these (cheap)."""
    if len(strategies) < 2:
        raise InputError("a tournament needs at least two strategies")
    if len({s.name for s in strategies}) != len(strategies):
        raise InputError("strategy names must differ")
    if not 1 <= games <= 10_000_000:
        raise InputError("games must be 1 to 10,000,000")
    for s in strategies:
        s.row()  # every parameter checked before the first game


def tournament(
    strategies: list[Strategy],
    players: int = 4,
    games: int = 5000,
    seed: int = 1,
    rules: Rules | None = None,
    progress: Callable[[int], None] | None = None,
    backend=None,
    chunk: int | None = None,
) -> GameMatch:
    """Every strategy alone against a field of every other one (ordered pairs);
    ``progress(games done)`` as they finish. Runs in chunks of at most ``chunk`` games on
    ``backend`` (default local; the same numbers on any); Ctrl-C stops after the chunk in
    flight (``partial``)."""
    rules = rules or Rules(players=players)
    check_tournament(strategies, games)
    t0 = time.perf_counter()
    results = []
    partial = False
    pairs = [(h, f) for h in strategies for f in strategies if h is not f]
    for hero, field in pairs:
        r, stopped = hero_games(hero, field, rules, games, seed, progress, backend, chunk)
        if r is not None:
            results.append(r)
        if stopped or stop_requested():
            partial = stopped or len(results) < len(pairs)
            break
    return GameMatch(rules.players, seed, results, time.perf_counter() - t0, partial)


def results_frame(match: GameMatch) -> pd.DataFrame:
    """One row per (hero, field): games, P(hero wins) with its 95% interval, the fair share,
    P(one of the field wins), rounds per game and the unfinished games."""
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "hero": r.hero,
                "field": r.field,
                "players": match.players,
                "games": r.games,
                "p_win": r.p_win.mean,
                "p_win_low": r.p_win.ci95[0],
                "p_win_high": r.p_win.ci95[1],
                "fair": r.fair,
                "p_field_win": r.p_field_win,
                "rounds_per_game": r.rounds_per_game.mean,
                "unfinished": r.unfinished,
            }
            for r in match.results
        ]
    )


def plot_results(match: GameMatch, path: str | Path) -> Path:
    """Heatmap of a tournament: P(the row strategy, alone against a field of the column's,
    wins) minus the fair share, each cell with its 95% half-width."""
    names = list(dict.fromkeys([r.hero for r in match.results] + [r.field for r in match.results]))
    k = len(names)
    excess, halves = np.full((k, k), np.nan), np.zeros((k, k))
    for r in match.results:
        i, j = names.index(r.hero), names.index(r.field)
        excess[i, j] = r.p_win.mean - r.fair
        halves[i, j] = (r.p_win.ci95[1] - r.p_win.ci95[0]) / 2
    return pairwise_heatmap(
        names,
        excess,
        halves,
        path,
        title=f"Pitch Six, {match.players} players: the hero alone against a field (95%)",
        colorbar="P(hero wins) minus the fair share",
        xlabel="field (the other players)",
        ylabel="hero (alone)",
        digits=3,
    )


__all__ = [
    "GameMatch",
    "HeroResult",
    "check_tournament",
    "export_table",
    "game_match",
    "hero_games",
    "match_kernels",
    "plot_results",
    "results_frame",
    "tournament",
]
