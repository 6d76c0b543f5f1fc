"""Strategies: a named way of playing every stage of a deal, for either seat.

A strategy is an exchange policy, a declaration policy and a play policy (the stage policies of
``kernels.simulate``), each with parameters, for the seat it sits in (elder or younger; a seat may
override any stage). Two strategies facing each other become one ``simulation.Policies`` (and so
the kernel's ``ids``/``params`` arrays): the elder's stages from the strategy sitting elder, the
younger's from the other.

Built-in strategies live in :data:`REGISTRY`; users define their own in a small JSON or TOML file::

    name = "greedy-sink-sets"
    description = "greedy, but never shows a trio"
    exchange = { policy = "greedy", params = { draw = 1.9 } }   # greedy weights by name
    declare = { policy = "sink", sink = ["sets"] }
    play = "greedy"

    [younger]                 # optional per-seat overrides (same keys)
    declare = "all"

and pass the file's path wherever a strategy name is accepted (:func:`resolve`).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .kernels.declaring import DECLARATION_POLICIES
from .kernels.exchange import EXCHANGE_POLICIES, GREEDY_DEFAULT_PARAMS
from .simulation import PLAY_POLICIES, Policies

ROLES = ("elder", "younger")
STAGES = ("exchange", "declare", "play")
#: Greedy exchange weight names (index into ``GREEDY_DEFAULT_PARAMS``; see ``kernels.exchange``).
GREEDY_WEIGHTS = ("rank", "point", "point_len", "seq", "seq_near", "set3", "set2", "guard",
                  "singleton", "draw", "leave")  # fmt: skip
assert len(GREEDY_WEIGHTS) == GREEDY_DEFAULT_PARAMS.size
#: Sink flag names of the "sink" declaration policy (params[0..2]).
SINK_CLASSES = ("point", "sequence", "sets")
_KNOWN = {"exchange": EXCHANGE_POLICIES, "declare": DECLARATION_POLICIES, "play": PLAY_POLICIES}


class StrategyError(ValueError):
    """A strategy that cannot be built: unknown name, bad file, unknown policy or parameter."""


@dataclass(frozen=True)
class Stage:
    """One stage's policy name and its float parameters (empty: the policy's defaults)."""

    policy: str
    params: tuple[float, ...] = ()

    def describe(self) -> str:
        if not self.params:
            return self.policy
        return f"{self.policy}({', '.join(f'{p:g}' for p in self.params)})"


@dataclass(frozen=True)
class Seat:
    """The three stage policies a strategy uses in one seat."""

    exchange: Stage = Stage("greedy")
    declare: Stage = Stage("all")
    play: Stage = Stage("greedy")


@dataclass(frozen=True)
class Strategy:
    """A named combination of exchange, declaration and play policies, per seat."""

    name: str
    description: str = ""
    elder: Seat = field(default_factory=Seat)
    younger: Seat = field(default_factory=Seat)

    def seat(self, role: str) -> Seat:
        return self.elder if role == "elder" else self.younger

    @property
    def uses_solver(self) -> bool:
        return "dd" in (self.elder.play.policy, self.younger.play.policy)

    def to_dict(self) -> dict:
        """Plain dict in the file format (loadable by :func:`from_dict`)."""
        out: dict = {"name": self.name, "description": self.description}
        for role in ROLES:
            out[role] = {s: _stage_dict(s, getattr(self.seat(role), s)) for s in STAGES}
        return out

    def summary(self) -> str:
        """Stages in one line: ``exchange/declare/play`` (with a seat split where they differ)."""
        parts = []
        for s in STAGES:
            e, y = getattr(self.elder, s), getattr(self.younger, s)
            parts.append(e.describe() if e == y else f"{e.describe()}|{y.describe()}")
        return " / ".join(parts)


def _stage_dict(stage: str, st: Stage) -> dict:
    if stage == "exchange" and st.policy == "greedy" and st.params:
        return {"policy": st.policy, "params": dict(zip(GREEDY_WEIGHTS, st.params, strict=True))}
    if stage == "declare" and st.policy == "sink":
        return {
            "policy": "sink",
            "sink": [c for c, p in zip(SINK_CLASSES, st.params, strict=True) if p],
        }
    return {"policy": st.policy, "params": list(st.params)} if st.params else {"policy": st.policy}


def policies(elder: Strategy, younger: Strategy) -> Policies:
    """The stage policies of a deal with ``elder`` sitting elder and ``younger`` younger."""
    e, y = elder.elder, younger.younger
    ex_params, de_params = {}, {}
    for role, seat in (("elder", e), ("younger", y)):
        if seat.exchange.params:
            ex_params[role] = np.asarray(seat.exchange.params, dtype=float)
        if seat.declare.params:
            de_params[role] = np.asarray(seat.declare.params, dtype=float)
    return Policies(
        elder_exchange=e.exchange.policy,
        younger_exchange=y.exchange.policy,
        elder_play=e.play.policy,
        younger_play=y.play.policy,
        elder_declare=e.declare.policy,
        younger_declare=y.declare.policy,
        exchange_params=ex_params,
        declare_params=de_params,
    )


def kernel_arrays(elder: Strategy, younger: Strategy) -> tuple[np.ndarray, np.ndarray]:
    """(policy ids int32[N_STAGES], params float64[N_STAGES, N_PARAMS]) for the deal kernels."""
    return policies(elder, younger).arrays()


# ----------------------------------------------------------------------------- building


def _parse_stage(stage: str, value, where: str) -> Stage:
    if isinstance(value, str):
        value = {"policy": value}
    if not isinstance(value, dict) or "policy" not in value:
        raise StrategyError(f"{where}: {stage} must be a policy name or a table with 'policy'")
    unknown = set(value) - {"policy", "params", "sink"}
    if unknown:
        raise StrategyError(f"{where}: unknown key {sorted(unknown)[0]!r} in {stage}")
    name = value["policy"]
    if name not in _KNOWN[stage]:
        raise StrategyError(
            f"{where}: unknown {stage} policy {name!r}; choose from {', '.join(_KNOWN[stage])}"
        )
    params: tuple[float, ...] = ()
    raw = value.get("params")
    if stage == "exchange" and raw is not None:
        if name != "greedy":
            raise StrategyError(f"{where}: only the greedy exchange takes parameters")
        weights = list(GREEDY_DEFAULT_PARAMS)
        if isinstance(raw, dict):
            for k, v in raw.items():
                if k not in GREEDY_WEIGHTS:
                    raise StrategyError(
                        f"{where}: unknown greedy weight {k!r}; known: {', '.join(GREEDY_WEIGHTS)}"
                    )
                weights[GREEDY_WEIGHTS.index(k)] = _number(v, where)
        elif isinstance(raw, list) and len(raw) == len(GREEDY_WEIGHTS):
            weights = [_number(v, where) for v in raw]
        else:
            raise StrategyError(
                f"{where}: greedy params must be a table of weights or a list of "
                f"{len(GREEDY_WEIGHTS)} numbers"
            )
        params = tuple(weights)
    elif stage == "declare":
        if name == "sink":
            sink = value.get("sink", [])
            if isinstance(sink, str):
                sink = [sink]
            bad = [s for s in sink if s not in SINK_CLASSES]
            if bad or not sink:
                raise StrategyError(
                    f"{where}: 'sink' must list classes from {', '.join(SINK_CLASSES)}"
                )
            params = tuple(1.0 if c in sink else 0.0 for c in SINK_CLASSES)
        elif value.get("sink"):
            raise StrategyError(f"{where}: 'sink' needs declare policy 'sink'")
    elif raw:
        raise StrategyError(f"{where}: the {stage} policy {name!r} takes no parameters")
    return Stage(name, params)


def _number(v, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise StrategyError(f"{where}: weights must be numbers, got {v!r}")
    return float(v)


def from_dict(data: dict, where: str = "strategy") -> Strategy:
    """A strategy from its file form (see the module docstring)."""
    if not isinstance(data, dict):
        raise StrategyError(f"{where}: a strategy is a table of keys")
    unknown = set(data) - {"name", "description", *STAGES, *ROLES}
    if unknown:
        raise StrategyError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise StrategyError(f"{where}: 'name' is required")
    base = {s: _parse_stage(s, data[s], where) for s in STAGES if s in data}
    seats = {}
    for role in ROLES:
        over = data.get(role, {})
        if not isinstance(over, dict) or set(over) - set(STAGES):
            raise StrategyError(f"{where}: [{role}] may only set {', '.join(STAGES)}")
        stages = dict(base)
        stages.update({s: _parse_stage(s, over[s], f"{where} [{role}]") for s in over})
        seats[role] = Seat(**stages)
    return Strategy(name, str(data.get("description", "")), seats["elder"], seats["younger"])


def load(path: str | Path) -> Strategy:
    """A strategy from a ``.json`` or ``.toml`` file (TOML needs Python 3.11+ or ``tomli``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise StrategyError(f"cannot read strategy file {path}: {err.strerror}") from None
    if p.suffix.lower() == ".toml":
        data = _toml_loads(text, str(path))
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise StrategyError(f"{path}: not valid JSON ({err.msg}, line {err.lineno})") from None
    return from_dict(data, str(path))


def _toml_loads(text: str, where: str) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10 only
        try:
            import tomli as tomllib
        except ImportError:
            raise StrategyError(
                f"{where}: TOML strategy files need Python 3.11+ or the 'tomli' package; "
                "use a .json file instead"
            ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise StrategyError(f"{where}: not valid TOML ({err})") from None


def _builtin(name: str, description: str, exchange="greedy", declare="all", play="greedy",
             sink: tuple[str, ...] = ()) -> Strategy:  # fmt: skip
    decl = Stage(declare, tuple(1.0 if c in sink else 0.0 for c in SINK_CLASSES) if sink else ())
    seat = Seat(Stage(exchange), decl, Stage(play))
    return Strategy(name, description, seat, seat)


#: Built-in strategies by name.
REGISTRY: dict[str, Strategy] = {
    s.name: s
    for s in (
        _builtin("greedy", "greedy exchange (heuristic keep values), declare all, greedy play"),
        _builtin(
            "max",
            "take every card allowed, keep high cards; declare all; greedy play",
            exchange="max",
        ),  # fmt: skip
        _builtin(
            "random",
            "random exchange, declare all, random play (a floor to beat)",
            exchange="random",
            play="random",
        ),  # fmt: skip
        _builtin("dd-play", "greedy exchange, declare all, double-dummy play (slow)", play="dd"),
        _builtin(
            "greedy-random-play", "greedy exchange, declare all, random play", play="random"
        ),  # fmt: skip
        _builtin(
            "sink-sets",
            "greedy, but never declares sets (always answers 'good')",
            declare="sink",
            sink=("sets",),
        ),  # fmt: skip
        _builtin(
            "sink-point", "greedy, but never declares the point", declare="sink", sink=("point",)
        ),  # fmt: skip
        _builtin(
            "sink-sequence",
            "greedy, but never declares sequences",
            declare="sink",
            sink=("sequence",),
        ),  # fmt: skip
        Strategy(
            "younger-sinks-sets",
            "greedy; sinks sets only when younger (declares all as elder)",
            Seat(),
            Seat(declare=Stage("sink", (0.0, 0.0, 1.0))),
        ),
    )
}


def resolve(spec: str | Strategy) -> Strategy:
    """A strategy from a built-in name or a path to a ``.json``/``.toml`` file."""
    if isinstance(spec, Strategy):
        return spec
    if spec in REGISTRY:
        return REGISTRY[spec]
    if spec.lower().endswith((".json", ".toml")) or Path(spec).is_file():
        return load(spec)
    raise StrategyError(
        f"unknown strategy {spec!r}; built-in: {', '.join(REGISTRY)} (or a .json/.toml file)"
    )
