"""Pitch strategies: a named bid policy (with its parameters) and play policy, as data.

Built-ins are in :data:`REGISTRY`; users write their own in a small JSON or TOML file::

    name = "brave"
    description = "threshold bidder half a point braver"
    play = "heuristic"
    [bid]
    policy = "threshold"
    params = { margin = -0.5 }           # the others keep their defaults

and pass the file's path wherever a strategy name is accepted (:func:`resolve`), or write a
bidder inline: ``threshold:margin=-0.5`` (heuristic play). Policies, parameters and their
ranges come from the one registry (``policies.py``), checked before any work; a search play
(pimc, dd) is not a strategy's play (games need thousands of rounds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.engine.errors import InputError
from ..core.game import strategy_files
from ..core.game.strategy_files import read_table
from .policies import STAGES, by_stage, check, get, make_policy


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
        """(ids int64[2], params float64[16]) for the kernels; every parameter checked
        (PolicyError, an InputError, when one is out of its range)."""
        ids, params = make_policy(self.bid, self.play, bid_params=self.params, allow_seat=True)
        return ids, params


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
    """The strategy, its policies and every bid parameter checked (names, finite, in range);
    StrategyError naming the strategy otherwise."""
    try:
        if get("play", s.play).needs_solver:
            raise StrategyError(f"strategy {s.name!r}: play {s.play!r} is for the bid advisor only")
        check("bid", s.bid, s.params, allow_seat=True)
    except StrategyError:
        raise
    except InputError as e:
        raise StrategyError(f"strategy {s.name!r}: {e}") from None
    return s


def parse_spec(spec: str) -> Strategy | None:
    """A strategy written inline, ``POLICY[:param=value,…]`` with a bid policy of the registry
    (the others' parameters keep their defaults; heuristic play), checked; None when ``spec``
    names no bid policy. Its name is the text itself."""
    name, colon, rest = spec.partition(":")
    if name.strip() not in by_stage("bid"):
        return None
    params = {}
    for item in rest.split(",") if colon else ():
        key, equals, text = item.partition("=")
        if not equals:
            raise StrategyError(f"{spec!r}: {item!r} is not param=value")
        try:
            params[key.strip()] = float(text)
        except ValueError:
            raise StrategyError(f"{spec!r}: {text.strip()!r} is not a number") from None
    return _check(Strategy(spec, f"bid policy {name.strip()}", bid=name.strip(), params=params))


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


def resolve(spec: str) -> Strategy:
    """A built-in strategy by name, one loaded from a file path (``.toml``/``.json``), or one
    written inline (:func:`parse_spec`: ``threshold:margin=0.5``); StrategyError otherwise."""
    if spec in REGISTRY or spec.lower().endswith(strategy_files.SUFFIXES) or Path(spec).exists():
        return strategy_files.resolve(spec, REGISTRY, load, StrategyError)
    inline = parse_spec(spec)
    if inline is None:
        raise StrategyError(
            f"unknown strategy {spec!r}: give a built-in one ({', '.join(REGISTRY)}), a bid "
            f"policy with parameters (POLICY[:param=value,…]; {', '.join(by_stage('bid'))}) "
            "or a file (.toml/.json)"
        )
    return inline


def policy_names() -> dict[str, list[str]]:
    return {stage: list(by_stage(stage)) for stage in STAGES}


__all__ = [
    "REGISTRY",
    "Strategy",
    "StrategyError",
    "from_dict",
    "load",
    "parse_spec",
    "resolve",
]
