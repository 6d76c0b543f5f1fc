"""Pitch's games to the target between strategies (the study layer's :class:`MatchKind`
:data:`GAME`: ``piquet pitch game`` and ``tournament``).

Format ("one against the field"): a *hero* strategy holds one place at the table and a *field*
strategy the other ``players - 1``; the hero's place turns by one each game and the first
dealer every ``players`` games (``kernels/table.py``), so the hero sits in every seat and deals
first from every place equally often. A match of A against B plays each game number twice: A
alone against a field of B, and B alone against a field of A. Perspective: P(the hero wins the
game), against the fair share ``1 / players``; each game is one Bernoulli draw (Wilson 95%
interval). Games are keyed by (seed, game index): the same numbers whatever the thread count,
chunking or backend.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core.engine.backend import Cancel, Chunk
from ..core.engine.errors import InputError
from ..core.engine.stats import Z95, wilson_interval
from ..core.engine.stats import Estimate as Interval
from ..core.game.strategy import Strategy
from ..core.study.match import MatchKind, MatchResult, MatchSpec, Stat, run_match, run_parts
from ..core.study.tournament import Tournament
from .bid import Estimate
from .kernels.table import GAME_ROUNDS, GAME_WINNER, Seats, play_games
from .policies import get
from .rules import Rules
from .strategies import row

if TYPE_CHECKING:
    import pandas as pd

BATCH = 2000
#: The most games of one match.
MAX_GAMES = 10_000_000


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
    (hi, hp), (fi, fp) = row(hero), row(field)
    assign = np.zeros(6, dtype=np.int64)
    assign[1:n] = 1
    return Seats(np.stack([hi, fi]), np.stack([hp, fp]), assign)


def _batch(*strategies: Strategy) -> int:
    """Games per chunk at most: smaller with a Monte Carlo bidder (progress, Ctrl-C)."""
    slow = any(get("bid", s.policy("bid")).needs_seat for s in strategies)
    return BATCH // 10 if slow else BATCH


def _games_task(chunk: Chunk, seed: int, rules: np.ndarray, seats: Seats) -> np.ndarray:
    """One chunk of games (every backend's unit of work): games ``chunk.start ..``."""
    return play_games(np.int64(seed), np.int64(chunk.start), np.int64(chunk.size), rules, seats)


def hero_result(hero: str, field: str, out: np.ndarray, players: int) -> HeroResult:
    """The figures of one hero against a field from its games' records (at least one)."""
    g = len(out)
    hero_place = np.arange(g) % players  # assign[(p - g) % n] == 0  <=>  p == g % n
    winner = out[:, GAME_WINNER]
    wins = int((winner == hero_place).sum())
    lo, hi = wilson_interval(wins, g)
    rounds = out[:, GAME_ROUNDS].astype(np.float64)
    se = float(rounds.std(ddof=1) / np.sqrt(g)) if g > 1 else float("inf")
    m = float(rounds.mean())
    return HeroResult(
        hero,
        field,
        g,
        Estimate(wins / g, [lo, hi], g),
        1.0 / players,
        float(((winner >= 0) & (winner != hero_place)).mean()),
        Estimate(m, [m - Z95 * se, m + Z95 * se], g),
        int((winner < 0).sum()),
    )


def hero_games(
    hero: Strategy,
    field: Strategy,
    rules: Rules,
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    backend=None,
    chunk: int | None = None,
    cancel: Cancel | None = None,
) -> tuple[HeroResult | None, bool]:
    """``games`` games of one ``hero`` against ``field``; (result, stopped early);
    ``progress(games done)`` after each chunk. Runs in chunks of at most ``chunk`` games on
    ``backend`` (default local; the same numbers on any). The result is None when Ctrl-C
    stopped the run before any game finished."""
    args = (seed, rules.to_array(), _seats(hero, field, rules.players))
    step = chunk or _batch(hero, field)
    parts, done = run_parts(_games_task, games, step, args, backend, progress, cancel)
    if not parts:
        return None, True
    return hero_result(hero.name, field.name, np.concatenate(parts), rules.players), done < games


def game_task(
    chunk: Chunk, seed: int, rules: np.ndarray, a_alone: Seats, b_alone: Seats
) -> tuple[np.ndarray, np.ndarray]:
    """One chunk of a match (every backend's unit of work): games ``chunk.start ..`` with A
    alone against a field of B, and with B alone against a field of A."""
    return _games_task(chunk, seed, rules, a_alone), _games_task(chunk, seed, rules, b_alone)


def _game_args(spec: MatchSpec) -> tuple:
    if not 1 <= spec.n <= MAX_GAMES:
        raise InputError(f"games must be 1 to {MAX_GAMES:,}")
    n = spec.rules.players
    seats = _seats(spec.a, spec.b, n), _seats(spec.b, spec.a, n)  # every parameter checked
    return (spec.seed, spec.rules.to_array(), *seats)


def _excess(r: HeroResult) -> Interval:
    """P(the hero wins) minus the fair share, with its Wilson interval."""
    p, (lo, hi) = r.p_win.mean, r.p_win.ci95
    se = math.sqrt(p * (1 - p) / r.games)
    return Interval(p - r.fair, se, lo - r.fair, hi - r.fair, r.games)


def game_result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
    """The figures of a match (the study's hook): each strategy alone against a field of the
    other, P(it wins) beside the fair share; the margin is A's P(win) alone minus B's."""
    players = spec.rules.players
    a, b = spec.a.name, spec.b.name
    results = []
    if parts:
        for k, (hero, field) in enumerate(((a, b), (b, a))):
            out = np.concatenate([part[k] for part in parts])
            results.append(hero_result(hero, field, out, players))
    played = results[0].games if results else 0
    partial = played < spec.n
    match = GameMatch(players, spec.seed, results, seconds, partial)
    sides = {
        f"{r.hero} alone": [
            Stat("wins the game", r.p_win.mean, tuple(r.p_win.ci95), rate=True),
            Stat("fair share", r.fair, rate=True),
            Stat("rounds per game", r.rounds_per_game.mean),
        ]
        for r in results
    }
    if results:
        ea, eb = (_excess(r) for r in results)
        se = math.hypot(ea.se, eb.se)
        d = ea.mean - eb.mean
        margin = Interval(d, se, d - Z95 * se, d + Z95 * se, played)
        cells = (ea, eb)
    else:
        nan = float("nan")
        margin, cells = Interval(nan, nan, nan, nan, 0), None
    return MatchResult(
        a,
        b,
        margin,
        "P(winning the game alone against a field of the other): A's minus B's",
        played,
        spec.n,
        partial,
        match.to_dict(),
        sides,
        [f"{players} players; the lone player's seat and the first dealer rotate"],
        cells,
        data=match,
    )


#: Games to the target, each game number played with A alone against a field of B and with B
#: alone against a field of A.
GAME = MatchKind(
    unit="games",
    task=game_task,
    args=_game_args,
    result=game_result,
    chunk=lambda spec: _batch(spec.a, spec.b),
    kernels=lambda spec: match_kernels(),
    default_n=lambda a, b: 20_000,
)


def game_match(
    a: Strategy,
    b: Strategy,
    players: int = 4,
    games: int = 20_000,
    seed: int = 1,
    rules=None,
    **run,
) -> GameMatch:
    """A alone against a field of B, and B alone against a field of A (the same games):
    :data:`GAME`'s match (``run``: the ``progress``, ``backend``, ``chunk`` and ``cancel`` of
    :func:`core.study.match.play_match`; the same numbers on any)."""
    return run_match(GAME, a, b, games, seed, rules or Rules(players=players), **run).data


def match_kernels() -> tuple:
    """The numba entry kernel games are played by (for a compile notice)."""
    return (play_games,)


def game_match_of(t: Tournament) -> GameMatch:
    """A tournament's hero results in the order (hero, field) of the strategies given."""
    order = {name: i for i, name in enumerate(t.names)}
    results = sorted(
        (h for r in t.results for h in r.data.results),
        key=lambda h: (order[h.hero], order[h.field]),
    )
    seconds = sum(r.seconds for r in t.results)
    return GameMatch(t.rules.players, t.seed, results, seconds, t.partial)


def tournament_json(t: Tournament) -> dict:
    """A tournament's JSON: every strategy alone against a field of every other."""
    return game_match_of(t).to_dict()


def tournament_frame(t: Tournament) -> pd.DataFrame:
    """A tournament's table: one row per (hero, field) (:func:`results_frame`)."""
    return results_frame(game_match_of(t))


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


__all__ = [
    "GAME",
    "GameMatch",
    "HeroResult",
    "game_match",
    "hero_games",
    "match_kernels",
    "results_frame",
    "game_match_of",
    "tournament_json",
]
