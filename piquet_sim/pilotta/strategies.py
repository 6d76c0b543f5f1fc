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
takes ``play_params = { worlds = 6 }`` (worlds per decision). Policy names, parameter names and
their ranges come from the policy registry (``policies.REGISTRY``); :func:`from_dict` checks
every field by type and range, so a bad file is one line before any work.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.engine.errors import InputError
from ..core.game import strategy_files
from ..core.game.registry import PolicyError
from ..core.game.strategy_files import read_table
from .api import make_setup
from .policies import ROUND_PLAY_POLICIES, SLOW_AUCTIONS, defaults
from .policies import get as get_policy


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
        return get_policy("play", self.play).needs_solver or self.auction in SLOW_AUCTIONS

    def worlds(self) -> int:
        """Worlds per decision of its pimc play (the default when not pimc or not given)."""
        return int(self.play_params.get("worlds", defaults("play", "pimc")["worlds"]))

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
            "advisor",
            "the bid advisor's call (128 worlds a call, threshold prior, heuristic play; a bid "
            "must beat the pass by one standard error), heuristic play",
            auction="advisor",
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


def _policy(stage: str, value, where: str):
    """The registry row a strategy's policy name stands for; StrategyError when the value is
    not a name or names no policy of the stage."""
    if not isinstance(value, str):
        raise StrategyError(f"{where}: {stage} must be a policy name, got {value!r}")
    try:
        return get_policy(stage, value)
    except PolicyError as err:
        raise StrategyError(f"{where}: {err}") from None


def _params(policy, raw, key: str, where: str) -> dict:
    """Parameters given by name (a table), each a number within the registry's bounds (whole
    where the policy says so); those given, normalised (whole numbers as ints)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise StrategyError(f"{where}: {key} must be a table of name = number, got {raw!r}")
    for k, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise StrategyError(f"{where}: {key} {k} must be a number, got {v!r}")
    try:
        policy.check_params(raw)
    except PolicyError as err:
        raise StrategyError(f"{where}: {err}") from None
    return {k: int(v) if k in policy.integers else v for k, v in raw.items()}


def from_dict(data: dict, where: str = "strategy") -> Strategy:
    """A strategy from its dict form (file format), every field checked by type and range
    against the policy registry before any work; raises StrategyError (one line)."""
    if not isinstance(data, dict) or "name" not in data:
        raise StrategyError(f"{where}: a strategy needs at least a name")
    known = {"name", "description", "auction", "play", "play_params", "declare"}
    unknown = set(data) - known
    if unknown:
        raise StrategyError(f"{where}: unknown key(s) {sorted(unknown)}; known: {sorted(known)}")
    auction = data.get("auction", {"policy": "threshold"})
    if isinstance(auction, str):
        auction = {"policy": auction}
    if not isinstance(auction, dict):
        raise StrategyError(
            f"{where}: auction must be a policy name or a table with policy (and params), "
            f"got {auction!r}"
        )
    extra = set(auction) - {"policy", "params"}
    if extra:
        raise StrategyError(f"{where}: unknown key(s) {sorted(extra)} in auction")
    bidder = _policy("auction", auction.get("policy", "threshold"), where)
    params = _params(bidder, auction.get("params"), "auction params", where)
    player = _policy("play", data.get("play", "heuristic"), where)
    if player.name not in ROUND_PLAY_POLICIES:
        raise StrategyError(
            f"{where}: play policy {player.name!r} cannot play simulated rounds; use one of "
            f"{', '.join(ROUND_PLAY_POLICIES)}"
        )
    play_params = _params(player, data.get("play_params"), "play_params", where)
    declare = _policy("declare", data.get("declare", "all"), where)
    return Strategy(
        str(data["name"]),
        str(data.get("description", "")),
        bidder.name,
        params,
        player.name,
        declare.name,
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
