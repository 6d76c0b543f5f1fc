"""The toy game's studies: three strategies (one stage, ``play``) and the core's mirrored
match over the toy's deciders (no kernels of its own)."""

from __future__ import annotations

from piquet_sim.core.game.strategy import Strategy, StrategyBook
from piquet_sim.core.study.decider_match import decider_match
from piquet_sim.core.study.studies import Studies

from .rules import REGISTRY

BOOK = StrategyBook(
    game="toy",
    registry=REGISTRY,
    builtins={
        "random": Strategy.of("random", "a uniform legal card", play="random"),
        "greedy": Strategy.of("greedy", "wins the trick cheaply when it can", play="greedy"),
        "dd": Strategy.of("dd", "double-dummy: sees both hands", play="dd"),
    },
    defaults={"play": "greedy"},
    base="greedy",
    inline=("play",),
)


def studies(definition) -> Studies:
    """The toy's studies: ``batch`` and ``tournament`` both the core's decider match."""
    match = decider_match(definition)
    return Studies(game="toy", title="Toy", book=BOOK, batch=match, tournament=match)
