"""Matches between any two players of any game, decision by decision, through the game's
``State`` (:mod:`.position`): ours, or an outside program's (OpenSpiel's IS-MCTS, a peer
engine's bots) behind the :class:`~.position.Decider` contract.

Every deal is played once per seating (e.g. A elder then A younger; A north-south then
east-west), on the same cards, so a deal's luck cancels: A's margin per deal is the mean over
the seatings of A's side's points minus B's. The round kernels' matches are far faster for our
own players; this is for players that exist only as deciders.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .backend import StopOnInterrupt
from .position import Decider, State
from .stats import Estimate


def play_deal(state: State, deciders: Sequence[Decider], clock: dict | None = None) -> list:
    """Play ``state`` to its end, each seat's decisions by ``deciders[seat]``; returns the
    seats' returns. ``clock[id(decider)]`` accumulates (decisions, seconds) when given."""
    while not state.is_terminal():
        decider = deciders[state.current_player()]
        t0 = time.perf_counter()
        action = decider.choose(state)
        if clock is not None:
            n, s = clock.get(id(decider), (0, 0.0))
            clock[id(decider)] = (n + 1, s + time.perf_counter() - t0)
        state.apply(action)
    return list(state.returns())


@dataclass
class Match:
    """A's margin per deal over B (mean over the seatings, the game's points, A's side minus
    B's) with its interval and deal count, and each player's seconds per decision."""

    a: str
    b: str
    margin: Estimate
    seconds_per_decision: dict[str, float]
    deals: int
    interrupted: bool = False
    margins: list[float] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "a": self.a,
            "b": self.b,
            "margin_per_deal": self.margin.to_dict(),
            "deals": self.deals,
            "seconds_per_decision": self.seconds_per_decision,
            "interrupted": self.interrupted,
        }


def mirrored_match(
    new_state: Callable[[int], State],
    a: Decider,
    b: Decider,
    deals: int,
    seatings: Sequence[Sequence[bool]],
    progress: Callable[[int], None] | None = None,
) -> Match:
    """A against B on deals 0..deals-1 (``new_state(i)``: deal i, the same for every seating).
    ``seatings``: for each seating, which seats A holds (``True``) — e.g. ``[(True, False),
    (False, True)]`` for two players, ``[(True, False, True, False), (False, True, False,
    True)]`` for two teams. Ctrl-C stops after the deal in flight (``interrupted``)."""
    clock: dict = {}
    margins: list[float] = []
    interrupted = False
    with StopOnInterrupt() as guard:
        for i in range(deals):
            if guard.stop:
                interrupted = True
                break
            per_seating = []
            for seating in seatings:
                deciders = [a if mine else b for mine in seating]
                returns = play_deal(new_state(i), deciders, clock)
                mine = sum(r for r, m in zip(returns, seating, strict=True) if m)
                theirs = sum(r for r, m in zip(returns, seating, strict=True) if not m)
                per_seating.append(mine / sum(seating) - theirs / (len(seating) - sum(seating)))
            margins.append(float(np.mean(per_seating)))
            if progress is not None:
                progress(1)
    timing = {}
    for name, decider in (("a", a), ("b", b)):
        n, s = clock.get(id(decider), (0, 0.0))
        timing[name] = s / n if n else 0.0
    return Match(
        a.name or "a",
        b.name or "b",
        Estimate.of_sample(np.array(margins)),
        timing,
        len(margins),
        interrupted,
        margins,
    )
