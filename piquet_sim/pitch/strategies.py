"""Pitch strategies: a named bid policy (with its parameters) and play policy, as data.

Built-ins are in :data:`REGISTRY`; users write their own in a small JSON or TOML file::

    name = "brave"
    description = "threshold bidder half a point braver"
    play = "heuristic"
    [bid]
    policy = "threshold"
    params = { margin = -0.5 }           # the others keep their defaults

and pass the file's path wherever a strategy name is accepted (:func:`resolve`). Policies
and parameters come from the one registry (``policies.py``); a search play (pimc, dd) is not
a strategy's play (games need thousands of rounds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core import strategy_files
from ..core.errors import InputError
from ..core.strategy_files import read_table
from .policies import PARAMS_LEN, PLAY_PARAMS_AT, by_stage, get


class StrategyError(InputError):
    """A strategy that cannot be built: unknown name, bad file, unknown policy or parameter."""


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str = ""
    bid: str = "threshold"
    params: dict = field(default_factory=dict)  # bid parameters by name (others: defaults)
    play: str = "heuristic"

    def summary(self) -> str:
        p = ", ".join(f"{k}={v:g}" for k, v in self.params.items())
        return f"bid {self.bid}({p}) / play {self.play}"

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "bid": {"policy": self.bid, "params": dict(self.params)},
            "play": self.play,
        }

    def row(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids int64[2], params float64[16]) for the kernels."""
        b, p = get("bid", self.bid), get("play", self.play)
        params = np.zeros(PARAMS_LEN, dtype=np.float64)
        values = dict(zip(b.params, b.defaults, strict=True)) | dict(self.params)
        params[: len(b.params)] = [values[k] for k in b.params]
        params[PLAY_PARAMS_AT : PLAY_PARAMS_AT + len(p.defaults)] = p.defaults
        return np.array([b.id, p.id], dtype=np.int64), params


REGISTRY: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy("threshold", "threshold bidder (margin 0), heuristic play"),
        Strategy("cautious", "threshold bidder wanting a point of margin", params={"margin": 1.0}),
        Strategy("bold", "threshold bidder a point braver", params={"margin": -1.0}),
        Strategy(
            "fitted",
            "parametric bidder with the weights fitted to the advisor's expected points "
            "(scripts/pitch_calibrate.py) and its intercept as the margin (0.4)",
            bid="parametric",
            params={
                "high": 1.36,
                "low": 0.84,
                "jack": 1.02,
                "six": 0.91,
                "length": 2.17,
                "game": 0.54,
                "margin": 0.4,
            },
        ),
        Strategy(
            "montecarlo",
            "Monte Carlo bidder: plays its hand out as bidder in 16 sampled worlds per "
            "decision, bids the best expected score (margin 0), heuristic play",
            bid="montecarlo",
        ),
        Strategy("random", "uniform legal calls, random play", bid="random", play="random"),
        Strategy("passer", "passes whenever allowed (dealer forced: 3)", bid="pass"),
    )
}


def _check(s: Strategy) -> Strategy:
    b = get("bid", s.bid)
    play = get("play", s.play)
    if play.search:
        raise StrategyError(f"strategy {s.name!r}: play {s.play!r} is for the bid advisor only")
    for k, v in s.params.items():
        if k not in b.params:
            raise StrategyError(
                f"strategy {s.name!r}: bid policy {b.name!r} has no parameter {k!r} "
                f"(it takes: {', '.join(b.params) or 'none'})"
            )
        if not isinstance(v, int | float) or isinstance(v, bool):
            raise StrategyError(f"strategy {s.name!r}: parameter {k!r} must be a number")
    return s


def from_dict(d: dict, where: str) -> Strategy:
    if not isinstance(d, dict):
        raise StrategyError(f"{where}: expected a table of fields")
    known = {"name", "description", "bid", "play"}
    extra = set(d) - known
    if extra:
        raise StrategyError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
    bid = d.get("bid", {})
    if isinstance(bid, str):
        bid = {"policy": bid}
    if not isinstance(bid, dict) or set(bid) - {"policy", "params"}:
        raise StrategyError(f"{where}: [bid] takes policy and params")
    params = bid.get("params", {})
    if not isinstance(params, dict):
        raise StrategyError(f"{where}: bid params must be a table")
    try:
        s = Strategy(
            name=str(d.get("name", Path(where).stem)),
            description=str(d.get("description", "")),
            bid=str(bid.get("policy", "threshold")),
            params={str(k): v for k, v in params.items()},
            play=str(d.get("play", "heuristic")),
        )
    except (TypeError, ValueError) as e:
        raise StrategyError(f"{where}: {e}") from None
    try:
        return _check(s)
    except StrategyError:
        raise
    except InputError as e:
        raise StrategyError(f"{where}: {e}") from None


def load(path: str | Path) -> Strategy:
    """A strategy from a ``.json`` or ``.toml`` file; raises StrategyError."""
    return from_dict(read_table(path, StrategyError), Path(path).name)


def resolve(name_or_path: str) -> Strategy:
    """A built-in strategy by name, or one loaded from a file path."""
    return strategy_files.resolve(name_or_path, REGISTRY, load, StrategyError)


def policy_names() -> dict[str, list[str]]:
    return {stage: list(by_stage(stage)) for stage in ("bid", "play")}


__all__ = ["REGISTRY", "Strategy", "StrategyError", "from_dict", "load", "resolve"]
