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

A stage left out is the strongest fast policy (:class:`Seat`: heuristic exchange, declare all,
heuristic play). Pass the file's path wherever a strategy name is accepted (:func:`resolve`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.engine.errors import InputError
from ..core.game.strategy_files import read_table
from ..core.game.strategy_files import resolve as resolve_file
from . import policies as P
from .kernels.bundles import make_env
from .policies import SINK_CLASSES, STAGES
from .rules import Rules
from .simulation import Policies, bundle_free, solver_bits

ROLES = ("elder", "younger")


class StrategyError(InputError):
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
    """The three stage policies a strategy uses in one seat. A stage not given is the
    strongest fast policy: heuristic exchange, declare all, heuristic play (greedy exchange and
    play until issue 37)."""

    exchange: Stage = Stage("heuristic")
    declare: Stage = Stage("all")
    play: Stage = Stage("heuristic")


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
        """True when a seat's play policy calls the exact solver."""
        return any(P.get("play", s.play.policy).needs_solver for s in (self.elder, self.younger))

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
    if stage == "declare" and st.policy == "sink":
        return {
            "policy": "sink",
            "sink": [c for c, p in zip(SINK_CLASSES, st.params, strict=True) if p],
        }
    if not st.params:
        return {"policy": st.policy}
    names = P.get(stage, st.policy).params
    return {"policy": st.policy, "params": dict(zip(names, st.params, strict=True))}


def policies(elder: Strategy, younger: Strategy) -> Policies:
    """The stage policies of a deal with ``elder`` sitting elder and ``younger`` younger."""
    e, y = elder.elder, younger.younger
    given: dict[str, dict[str, np.ndarray]] = {stage: {} for stage in STAGES}
    for role, seat in (("elder", e), ("younger", y)):
        for stage in STAGES:
            st = getattr(seat, stage)
            if st.params:
                given[stage][role] = np.asarray(st.params, dtype=float)
    return Policies(
        elder_exchange=e.exchange.policy,
        younger_exchange=y.exchange.policy,
        elder_play=e.play.policy,
        younger_play=y.play.policy,
        elder_declare=e.declare.policy,
        younger_declare=y.declare.policy,
        exchange_params=given["exchange"],
        declare_params=given["declare"],
        play_params=given["play"],
    )


def kernel_arrays(elder: Strategy, younger: Strategy) -> tuple[np.ndarray, np.ndarray]:
    """(policy ids int32[STAGE_LEN], params float64[STAGE_LEN, STAGE_PARAMS]) for the deal
    kernels."""
    return policies(elder, younger).arrays()


#: Parallel spans of the mirrored kernels: fixed, so the split never depends on the threads.
MIRRORED_SPANS = 64


def mirrored_args(a: Strategy, b: Strategy, rules: Rules) -> tuple:
    """Arguments after (seed, start, n) of the mirrored kernels (``kernels.match.mirrored_deals``
    and ``kernels.partie.mirrored_parties``, and their bundle-free ``simple_`` twins): A's and
    B's seatings, how much they share, the run's Env, the span count and the solver table
    size."""
    from .kernels.match import share_level

    stages_ab = policies(a, b).stages()
    stages_ba = policies(b, a).stages()
    share = share_level(stages_ab, stages_ba)
    bits = solver_bits(a.uses_solver or b.uses_solver)
    return stages_ab, stages_ba, share, make_env(rules.to_array()), MIRRORED_SPANS, bits


def mirrored_bundle_free(a: Strategy, b: Strategy) -> bool:
    """True when every seat of A and B plays greedy, random or heuristic, so their mirrored
    deals and parties take the bundle-free kernels (``simulation.bundle_free``)."""
    return bundle_free(policies(a, b)) and bundle_free(policies(b, a))


# ----------------------------------------------------------------------------- building


def _parse_stage(stage: str, value, where: str) -> Stage:
    if isinstance(value, str):
        value = {"policy": value}
    if not isinstance(value, dict) or "policy" not in value:
        raise StrategyError(f"{where}: {stage} must be a policy name or a table with 'policy'")
    unknown = set(value) - {"policy", "params", "sink"}
    if unknown:
        raise StrategyError(f"{where}: unknown key {sorted(unknown)[0]!r} in {stage}")
    try:
        policy = P.get(stage, value["policy"])
    except ValueError as err:
        raise StrategyError(f"{where}: {err}") from None
    if value.get("sink") is not None and (stage, policy.name) != ("declare", "sink"):
        raise StrategyError(f"{where}: 'sink' needs declare policy 'sink'")
    if (stage, policy.name) == ("declare", "sink"):
        sink = value.get("sink", [])
        if isinstance(sink, str):
            sink = [sink]
        bad = [s for s in sink if s not in SINK_CLASSES]
        if bad or not sink:
            raise StrategyError(f"{where}: 'sink' must list classes from {', '.join(SINK_CLASSES)}")
        return Stage(policy.name, tuple(1.0 if c in sink else 0.0 for c in SINK_CLASSES))
    raw = value.get("params")
    if raw is None:
        return Stage(policy.name)
    if not policy.params:
        raise StrategyError(f"{where}: the {stage} policy {policy.name!r} takes no parameters")
    params = list(policy.defaults)
    if isinstance(raw, dict):
        for k, v in raw.items():
            if k not in policy.params:
                raise StrategyError(
                    f"{where}: unknown {policy.name} parameter {k!r}; known: "
                    f"{', '.join(policy.params)}"
                )
            params[policy.params.index(k)] = _number(v, where)
    elif isinstance(raw, list) and len(raw) == len(policy.params):
        params = [_number(v, where) for v in raw]
    else:
        raise StrategyError(
            f"{where}: {policy.name} params must be a table of "
            f"{', '.join(policy.params)} or a list of {len(policy.params)} numbers"
        )
    try:
        params = policy.check_params(params)
    except InputError as err:
        raise StrategyError(f"{where}: {err}") from None
    return Stage(policy.name, tuple(float(v) for v in params))


def _number(v, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise StrategyError(f"{where}: parameters must be numbers, got {v!r}")
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
    """A strategy from a ``.json`` or ``.toml`` file (``core.strategy_files``)."""
    return from_dict(read_table(path, StrategyError), str(path))


def _builtin(
    name: str,
    description: str,
    exchange: str,
    declare: str,
    play: str,
    sink: tuple[str, ...] = (),
) -> Strategy:
    decl = Stage(declare, tuple(1.0 if c in sink else 0.0 for c in SINK_CLASSES) if sink else ())
    seat = Seat(Stage(exchange), decl, Stage(play))
    return Strategy(name, description, seat, seat)


_GREEDY_SEAT = Seat(Stage("greedy"), Stage("all"), Stage("greedy"))
#: Built-in strategies by name; every stage named (a built-in keeps its behaviour whatever
#: :class:`Seat`'s defaults).
REGISTRY: dict[str, Strategy] = {
    s.name: s
    for s in (
        _builtin(
            "heuristic",
            "heuristic exchange (keep values fitted for heuristic play), declare all, heuristic "
            "play (card counting, guards, capot defence): the strongest fast strategy",
            "heuristic",
            "all",
            "heuristic",
        ),
        _builtin(
            "greedy",
            "greedy exchange (heuristic keep values), declare all, greedy play",
            "greedy",
            "all",
            "greedy",
        ),
        _builtin(
            "max",
            "take every card allowed, keep high cards; declare all; greedy play",
            "max",
            "all",
            "greedy",
        ),
        _builtin(
            "random",
            "random exchange, declare all, random play (a floor to beat)",
            "random",
            "all",
            "random",
        ),
        _builtin(
            "dd-play",
            "greedy exchange, declare all, double-dummy play (slow)",
            "greedy",
            "all",
            "dd",
        ),
        _builtin(
            "pimc-play",
            "greedy exchange, declare all, imperfect-information play (pimc, slow)",
            "greedy",
            "all",
            "pimc",
        ),
        _builtin(
            "pimcw-play",
            "greedy exchange, declare all, pimc over worlds weighted by the opponent's play "
            "(pimcw, slow)",
            "greedy",
            "all",
            "pimcw",
        ),
        _builtin(
            "heuristic-play",
            "greedy exchange, declare all, heuristic play (card counting, guards, capot defence)",
            "greedy",
            "all",
            "heuristic",
        ),
        _builtin(
            "greedy-random-play",
            "greedy exchange, declare all, random play",
            "greedy",
            "all",
            "random",
        ),
        _builtin(
            "sink-sets",
            "greedy, but never declares sets (always answers 'good')",
            "greedy",
            "sink",
            "greedy",
            sink=("sets",),
        ),
        _builtin(
            "sink-point",
            "greedy, but never declares the point",
            "greedy",
            "sink",
            "greedy",
            sink=("point",),
        ),
        _builtin(
            "sink-sequence",
            "greedy, but never declares sequences",
            "greedy",
            "sink",
            "greedy",
            sink=("sequence",),
        ),
        Strategy(
            "younger-sinks-sets",
            "greedy; sinks sets only when younger (declares all as elder)",
            _GREEDY_SEAT,
            Seat(Stage("greedy"), Stage("sink", (0.0, 0.0, 1.0)), Stage("greedy")),
        ),
    )
}


def resolve(spec: str | Strategy) -> Strategy:
    """A strategy from a built-in name or a path to a ``.json``/``.toml`` file."""
    if isinstance(spec, Strategy):
        return spec
    return resolve_file(spec, REGISTRY, load, StrategyError)
