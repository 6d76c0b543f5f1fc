"""A mirrored match for any game from its definition alone: each deal played decision by
decision through the game's ``State`` by the deciders its strategies give
(``GameDefinition.seat_deciders``), once in every seating, on the same cards.

This is the study layer's fallback for a game with no match kernels yet (a new game, the
toy game of the tests): it plays in Python, a deal at a time, so it is for checking and small
studies; a game's own :class:`~.match.MatchKind` over its kernels is what runs millions of
deals. The numbers are the same whatever the chunking or the backend (each deal's deciders
are built afresh for it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine.backend import Chunk
from ..engine.stats import Estimate
from ..game.definition import GameDefinition
from ..game.spec import RulesBase
from ..game.strategy import Strategy
from .arena import play_deal
from .match import MatchKind, MatchResult, MatchSpec

Seating = tuple[bool, ...]


def lone_seatings(players: int) -> list[Seating]:
    """A alone in each seat in turn, B in the others (two players: A first, then A second)."""
    return [tuple(s == hero for s in range(players)) for hero in range(players)]


def deal_margin(
    definition: GameDefinition,
    a: Strategy,
    b: Strategy,
    state_of,
    rules: RulesBase,
    seatings: Sequence[Seating],
) -> float:
    """A's margin on one deal (``state_of()``: a fresh state of it): over the seatings, the
    mean of A's seats' mean return minus B's seats' mean return."""
    margins = []
    for seating in seatings:
        deciders = definition.seat_deciders([a if mine else b for mine in seating], rules)
        returns = play_deal(state_of(), deciders)
        mine = [r for r, m in zip(returns, seating, strict=True) if m]
        theirs = [r for r, m in zip(returns, seating, strict=True) if not m]
        margins.append(float(np.mean(mine)) - float(np.mean(theirs)))
    return float(np.mean(margins))


def play_chunk(
    chunk: Chunk,
    definition: GameDefinition,
    a: Strategy,
    b: Strategy,
    seed: int,
    rules: RulesBase,
    seatings: Sequence[Seating],
) -> np.ndarray:
    """A's margin on each deal of ``chunk`` (deal ``i`` is ``definition.new_state(seed, i,
    rules)``, the same cards in every seating)."""
    out = np.empty(chunk.size)
    for k in range(chunk.size):
        i = chunk.start + k
        out[k] = deal_margin(
            definition, a, b, lambda i=i: definition.new_state(seed, i, rules), rules, seatings
        )
    return out


def decider_match(definition: GameDefinition, chunk: int = 100) -> MatchKind:
    """The mirrored match of ``definition``'s game over its deciders (module docstring): A
    alone in each seat in turn, at most ``chunk`` deals a chunk (Ctrl-C answers after it)."""
    facts = definition.facts

    def args(spec: MatchSpec) -> tuple:
        players = getattr(spec.rules, "players", facts.players[0])
        definition.seat_deciders([spec.a] + [spec.b] * (players - 1), spec.rules)  # checked now
        return definition, spec.a, spec.b, spec.seed, spec.rules, lone_seatings(players)

    def result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
        margins = np.concatenate(parts) if parts else np.empty(0)
        margin = Estimate.of_sample(margins)
        body = {
            "a": spec.a.name,
            "b": spec.b.name,
            "deals": len(margins),
            "margin_per_deal": margin.to_dict(),
            "unit": facts.unit,
            "partial": len(margins) < spec.n,
        }
        return MatchResult(
            spec.a.name,
            spec.b.name,
            margin,
            facts.unit,
            len(margins),
            spec.n,
            len(margins) < spec.n,
            body,
        )

    return MatchKind(
        unit="deals",
        task=play_chunk,
        args=args,
        result=result,
        chunk=lambda spec: chunk,
        default_n=lambda a, b: 1000,
    )


__all__ = ["decider_match", "deal_margin", "lone_seatings", "play_chunk"]
