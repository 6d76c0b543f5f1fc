"""Pilotta strategies: a named bidding policy (with its parameters), declaration choice and play
policy for a team, as data. Two strategies facing each other make one Setup array
(``api.make_setup``): North-South bid and play with one, East-West with the other.

Built-ins are in :data:`REGISTRY`; users write their own in a small JSON or TOML file::

    name = "bold"
    description = "threshold bidder two steps braver"
    play = "heuristic"                   # random, greedy, heuristic or pimc
    declare = "all"                      # or "no-tierce"
    [auction]
    policy = "threshold"
    params = { base = 45 }               # the others keep their defaults

and pass the file's path wherever a strategy name is accepted (:func:`resolve`). A pimc player
takes ``play_params = { worlds = 6 }`` (worlds per decision).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core import strategy_files
from ..core.errors import InputError
from ..core.strategy_files import read_table
from .api import make_setup
from .policies import (
    AUCTION_PARAMS,
    AUCTION_POLICIES,
    DECLARE_POLICIES,
    PIMC_PARAMS,
    ROUND_PLAY_POLICIES,
)


class StrategyError(InputError):
    """A strategy that cannot be built: unknown name, bad file, unknown policy or parameter."""


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str = ""
    auction: str = "threshold"
    params: dict = field(default_factory=dict)  # auction parameters by name (others: defaults)
    play: str = "heuristic"
    declare: str = "all"
    play_params: dict = field(default_factory=dict)  # pimc: {"worlds": n}

    def summary(self) -> str:
        p = ", ".join(f"{k}={v}" for k, v in self.params.items())
        q = ", ".join(f"{k}={v}" for k, v in self.play_params.items())
        play = f"{self.play}({q})" if q else self.play
        return f"{self.auction}({p}) / declare {self.declare} / play {play}"

    def is_slow(self) -> bool:
        """pimc play (the solver at every decision) or the Monte Carlo bidder (heuristic rounds
        at every call): thousands of rounds per second or fewer, not millions."""
        return self.play == "pimc" or self.auction == "montecarlo"

    def worlds(self) -> int:
        """Worlds per decision of its pimc play (the default when not pimc or not given)."""
        return int(self.play_params.get("worlds", PIMC_PARAMS["worlds"]))

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "auction": {"policy": self.auction, "params": dict(self.params)},
            "play": self.play,
            "play_params": dict(self.play_params),
            "declare": self.declare,
        }


REGISTRY = {
    s.name: s
    for s in (
        Strategy("heuristic", "threshold bidder (default parameters), heuristic play"),
        Strategy(
            "cautious",
            "threshold bidder wanting 20 points of margin, heuristic play",
            params={"margin": 20},
        ),
        Strategy(
            "bold",
            "threshold bidder estimating 10 points higher, heuristic play",
            params={"base": 45},
        ),
        Strategy("greedy", "threshold bidder, greedy play (no card counting)", play="greedy"),
        Strategy(
            "montecarlo",
            "Monte Carlo bidder (12 worlds per call, margin 10), heuristic play",
            auction="montecarlo",
        ),
        Strategy(
            "quiet",
            "threshold bidder, heuristic play, keeps tierces unannounced",
            declare="no-tierce",
        ),
        Strategy(
            "pimc",
            "threshold bidder, pimc play (6 worlds per decision, exact solver; slow)",
            play="pimc",
        ),
        Strategy(
            "random",
            "random bidding (35% of calls, 1-3 levels up), random play",
            auction="random",
            play="random",
        ),
    )
}


def from_dict(data: dict, where: str = "strategy") -> Strategy:
    """A strategy from its dict form (file format); raises StrategyError."""
    if not isinstance(data, dict) or "name" not in data:
        raise StrategyError(f"{where}: a strategy needs at least a name")
    known = {"name", "description", "auction", "play", "play_params", "declare"}
    unknown = set(data) - known
    if unknown:
        raise StrategyError(f"{where}: unknown key(s) {sorted(unknown)}; known: {sorted(known)}")
    auction = data.get("auction", {"policy": "threshold"})
    if isinstance(auction, str):
        auction = {"policy": auction}
    policy = auction.get("policy", "threshold")
    if policy not in AUCTION_POLICIES:
        raise StrategyError(f"{where}: unknown auction policy {policy!r}")
    params = dict(auction.get("params", {}))
    names = AUCTION_PARAMS[AUCTION_POLICIES[policy]]
    for k, v in params.items():
        if k not in names:
            raise StrategyError(f"{where}: {policy} has no parameter {k!r}; known: {list(names)}")
        if isinstance(v, bool) or not isinstance(v, int):
            raise StrategyError(f"{where}: parameter {k} must be a whole number, got {v!r}")
    play = data.get("play", "heuristic")
    if play not in ROUND_PLAY_POLICIES:
        raise StrategyError(
            f"{where}: play policy {play!r} unknown; known: {', '.join(ROUND_PLAY_POLICIES)}"
        )
    play_params = dict(data.get("play_params", {}))
    allowed = PIMC_PARAMS if play == "pimc" else {}
    for k, v in play_params.items():
        if k not in allowed:
            raise StrategyError(f"{where}: play {play!r} has no parameter {k!r}")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 1000:
            raise StrategyError(f"{where}: play parameter {k} must be 1 .. 1000, got {v!r}")
    declare = data.get("declare", "all")
    if declare not in DECLARE_POLICIES:
        raise StrategyError(
            f"{where}: declaration policy {declare!r} unknown; known: {', '.join(DECLARE_POLICIES)}"
        )
    return Strategy(
        str(data["name"]),
        str(data.get("description", "")),
        policy,
        params,
        play,
        declare,
        play_params,
    )


def load(path: str | Path) -> Strategy:
    """A strategy from a ``.json`` or ``.toml`` file; raises StrategyError."""
    return from_dict(read_table(path, StrategyError), str(path))


def resolve(name_or_path: str) -> Strategy:
    """A built-in strategy by name, or one loaded from a file path."""
    return strategy_files.resolve(name_or_path, REGISTRY, load, StrategyError)


def setup(ns: Strategy, ew: Strategy) -> np.ndarray:
    """The Setup array of North-South playing ``ns`` against East-West playing ``ew``."""
    return make_setup(
        ns.auction,
        ns.play,
        ew.play,
        ns.params,
        ew.auction,
        ew.params,
        declare=(ns.declare, ew.declare),
        worlds=(ns.worlds(), ew.worlds()),
    )
