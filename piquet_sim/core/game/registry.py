"""One policy registry type for every game and every stage (exchange, bidding, declaration, play).

A policy is one :class:`Policy` row: its stage, name, kernel id, parameters (names, defaults and
allowed ranges), and what it needs (the exact solver, a knowledge state, its own seat) or is (an
oracle that sees hidden cards). A game lists its rows once in a :class:`Registry`; its kernel
ids (module constants: numba freezes them), CLI choices, strategy-file validation and ladders
read it. This module is data only: kernels may import their ids from a game's registry module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..engine.errors import InputError


class PolicyError(InputError):
    """An unknown policy or a parameter out of its range (one line, exit 2 at the CLI)."""


@dataclass(frozen=True)
class Policy:
    """One stage policy. ``id`` is its dispatch id within the stage; ``params`` name the numbers
    of its row of the kernels' parameter array, ``defaults`` give them and ``bounds`` (one
    ``(low, high)`` per parameter, inclusive; empty: any finite number) limit them; a parameter
    named in ``integers`` must be a whole number."""

    stage: str
    name: str
    id: int
    description: str
    params: tuple[str, ...] = ()
    defaults: tuple[float, ...] = ()
    bounds: tuple[tuple[float, float], ...] = ()
    integers: tuple[str, ...] = ()
    needs_solver: bool = False  # calls an exact (double-dummy or paranoid) search
    needs_knowledge: bool = False  # reads what the player has seen (a knowledge state)
    needs_seat: bool = False  # decides for one seat with the round's own stream (a hero)
    oracle: bool = False  # sees hidden cards: a yardstick, not a player

    def __post_init__(self) -> None:
        if len(self.defaults) != len(self.params):
            raise ValueError(f"policy {self.name}: one default per parameter")
        if self.bounds and len(self.bounds) != len(self.params):
            raise ValueError(f"policy {self.name}: one (low, high) per parameter")
        if set(self.integers) - set(self.params):
            raise ValueError(f"policy {self.name}: integers names an unknown parameter")
        self.check_params(self.defaults)

    def check_params(self, values: Sequence[float] | Mapping[str, float] | None) -> tuple:
        """The parameter values in order (defaults for those not given), each checked: finite,
        within its bounds, whole where it must be. PolicyError names the first bad one."""
        if values is None:
            return tuple(self.defaults)
        if isinstance(values, Mapping):
            unknown = sorted(set(values) - set(self.params))
            if unknown:
                raise PolicyError(
                    f"{self.stage} policy {self.name!r} has no parameter {unknown[0]!r}; "
                    f"it takes {', '.join(self.params) or 'none'}"
                )
            values = [values.get(n, d) for n, d in zip(self.params, self.defaults, strict=True)]
        values = list(values)
        if len(values) > len(self.params):
            raise PolicyError(
                f"{self.stage} policy {self.name!r} takes {len(self.params)} parameter(s), "
                f"got {len(values)}"
            )
        values += list(self.defaults[len(values) :])
        for i, (name, value) in enumerate(zip(self.params, values, strict=True)):
            where = f"{self.stage} policy {self.name!r} parameter {name}"
            if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
                raise PolicyError(f"{where} must be a number, got {value!r}")
            value = float(value) if isinstance(value, float | np.floating) else int(value)
            if not math.isfinite(value):
                raise PolicyError(f"{where} must be a finite number, got {value!r}")
            if name in self.integers and value != int(value):
                raise PolicyError(f"{where} must be a whole number, got {value!r}")
            if self.bounds:
                low, high = self.bounds[i]
                if not low <= value <= high:
                    raise PolicyError(f"{where} must be {_num(low)} to {_num(high)}, got {value!r}")
            values[i] = value
        return tuple(values)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)


class Registry:
    """A game's policies, every stage, in one table."""

    def __init__(self, game: str, stages: Iterable[str], rows: Iterable[Policy]) -> None:
        self.game = game
        self.stages: tuple[str, ...] = tuple(stages)
        self.rows: tuple[Policy, ...] = tuple(rows)
        for stage in self.stages:
            ids = [p.id for p in self.rows if p.stage == stage]
            names = [p.name for p in self.rows if p.stage == stage]
            if len(set(ids)) != len(ids) or len(set(names)) != len(names):
                raise ValueError(f"{game}: {stage} policy ids or names repeat")
        unknown = {p.stage for p in self.rows} - set(self.stages)
        if unknown:
            raise ValueError(f"{game}: unknown stage(s) {sorted(unknown)}")

    def __iter__(self):
        return iter(self.rows)

    def stage(self, stage: str) -> dict[str, Policy]:
        """The policies of one stage by name, in id order."""
        if stage not in self.stages:
            raise ValueError(f"unknown stage {stage!r}; stages: {', '.join(self.stages)}")
        return {p.name: p for p in sorted(self.rows, key=lambda p: p.id) if p.stage == stage}

    def get(self, stage: str, name: str) -> Policy:
        """A policy by stage and name; PolicyError naming the choices when unknown."""
        known = self.stage(stage)
        if name not in known:
            raise PolicyError(f"unknown {stage} policy {name!r}; choose from {', '.join(known)}")
        return known[name]

    def names(self, stage: str, **where: bool) -> tuple[str, ...]:
        """Names of a stage's policies (CLI choices), optionally only those whose flags match
        ``where`` (e.g. ``oracle=False``)."""
        return tuple(
            n
            for n, p in self.stage(stage).items()
            if all(getattr(p, k) == v for k, v in where.items())
        )

    def ids(self, stage: str) -> dict[str, int]:
        """Name -> kernel id of a stage's policies."""
        return {n: p.id for n, p in self.stage(stage).items()}

    def id(self, stage: str, name: str) -> int:
        """The kernel id of one policy."""
        return self.get(stage, name).id

    def by_id(self, stage: str, policy_id: int) -> Policy:
        """The policy of a stage with this kernel id."""
        for p in self.stage(stage).values():
            if p.id == policy_id:
                return p
        raise ValueError(f"no {stage} policy has id {policy_id}")
