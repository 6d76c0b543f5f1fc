"""Tournaments, for every game: every pair of strategies plays one mirrored match
(:func:`.match.play_match`) on the same deals, then each strategy's standing over its matches.

Matches are played in pair order (``(0, 1), (0, 2) … (1, 2) …``); the cancel token (Ctrl-C)
stops the match in flight after its chunk and starts no other: the matches finished are kept,
the cut one marked partial, and so is the tournament.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine.backend import Cancel
from ..engine.stats import Z95
from ..game.spec import RulesBase
from ..game.strategy import Strategy
from .match import MatchKind, MatchResult, MatchSpec, check_distinct, play_match


@dataclass
class Tournament:
    """A finished (or cut) tournament: ``names`` in the order given, ``results`` one match a
    pair in play order, ``values[i, j]`` row i's result over column j in the matches' unit
    (NaN: not played) with its 95% half-width ``halves[i, j]`` and standard error ``ses``;
    ``n`` deals (or games) a match of ``seed`` under ``rules``; ``partial`` when Ctrl-C cut
    it, ``pairs`` the matches asked for."""

    names: list[str]
    results: list[MatchResult]
    values: np.ndarray
    halves: np.ndarray
    ses: np.ndarray
    n: int
    seed: int
    rules: RulesBase
    partial: bool = False
    pairs: int = 0
    extra: dict = field(default_factory=dict)

    def standings(self) -> list[dict]:
        """Each strategy that played, best first: its mean result over its matches (the row
        mean of ``values``), its significant wins and losses (95% intervals clear of 0) and
        its matches."""
        rows = []
        for i, name in enumerate(self.names):
            opp = [j for j in range(len(self.names)) if j != i and np.isfinite(self.values[i, j])]
            if not opp:
                continue
            rows.append(
                {
                    "strategy": name,
                    "mean_margin": float(np.mean(self.values[i, opp])),
                    "significant_wins": sum(
                        1 for j in opp if self.values[i, j] - self.halves[i, j] > 0
                    ),
                    "significant_losses": sum(
                        1 for j in opp if self.values[i, j] + self.halves[i, j] < 0
                    ),
                    "matches": len(opp),
                }
            )
        return sorted(rows, key=lambda r: -r["mean_margin"])

    @property
    def played(self) -> int:
        """Deals (or games) played over every match."""
        return sum(r.played for r in self.results)


def play_tournament(
    kind: MatchKind,
    strategies: Sequence[Strategy],
    n: int,
    seed: int,
    rules: RulesBase,
    options: dict | None = None,
    backend=None,
    progress: Callable[[int], None] | None = None,
    cancel: Cancel | None = None,
    chunk: int | None = None,
    size: Callable[[Strategy, Strategy], int] | None = None,
    on_match: Callable[[Strategy, Strategy, int], None] | None = None,
) -> Tournament:
    """Every pair of ``strategies`` plays ``kind``'s match on ``n`` deals (or games; ``size(a,
    b)`` instead when given, e.g. fewer for solver players) of ``seed``; ``progress`` is told
    the items finished, ``on_match(a, b, n)`` each match as it starts. Ctrl-C (``cancel``)
    stops after the chunk in flight; the result keeps what finished (``partial``)."""
    check_distinct(strategies)
    cancel = cancel or Cancel()
    names = [s.name for s in strategies]
    k = len(names)
    values = np.full((k, k), np.nan)
    halves = np.full((k, k), np.nan)
    ses = np.full((k, k), np.nan)
    results: list[MatchResult] = []
    pairs = list(itertools.combinations(range(k), 2))
    for i, j in pairs:
        if cancel.is_set:
            break
        a, b = strategies[i], strategies[j]
        m = size(a, b) if size is not None else n
        if on_match is not None:
            on_match(a, b, m)
        spec = MatchSpec(a, b, m, seed, rules, options or {})
        r = play_match(kind, spec, backend, progress, cancel, chunk)
        if r.played == 0:
            break
        results.append(r)
        ab, ba = r.matrix_cells
        for (x, y), e in (((i, j), ab), ((j, i), ba)):
            values[x, y] = e.mean
            ses[x, y] = e.se
            halves[x, y] = Z95 * e.se if math.isfinite(e.se) else (e.hi - e.lo) / 2
        if r.partial:
            break
    partial = cancel.is_set or len(results) < len(pairs) or any(r.partial for r in results)
    return Tournament(names, results, values, halves, ses, n, seed, rules, partial, len(pairs))


def tournament_dict(t: Tournament) -> dict:
    """A tournament's JSON for a game that writes none of its own: its settings, each match's
    JSON, the matrix of results (row over column, null where not played) and the standings."""
    matrix = [[None if math.isnan(v) else float(v) for v in row] for row in t.values]
    return {
        "strategies": t.names,
        "n": t.n,
        "seed": t.seed,
        "rules": t.rules.to_dict(),
        "partial": t.partial,
        "matches": [r.to_dict() for r in t.results],
        "matrix": matrix,
        "standings": t.standings(),
    }


__all__ = ["Tournament", "play_tournament", "tournament_dict"]
