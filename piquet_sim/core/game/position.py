"""The position and decision interface every game offers, for users and outside programs.

A game's ``State`` (in its API module, plain Python over its kernels) is one position of a deal:
who is to act, what he may do, what each seat has seen. Its actions are small integers within
the game's action space, printed and parsed as the CLI's card and call strings. A player
(``Decider``) answers one decision: ``choose(state)`` the action, and ``values(state)`` where it
has them (each legal action's value with its standard error and world count, or exact).

Perspective: ``returns()`` gives each seat's (or team's) points in the game's own scoring, as
the game documents; ``values`` are for the side to act, the unit stated by the policy.

This module is the contract only (no game): the games implement it, and the tests that check
a game's ``State`` against its round kernels and the OpenSpiel adapters build on it.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine.errors import InputError
from ..engine.stats import Estimate

#: ``current_player()`` of a chance node (a card dealt, the talon drawn).
CHANCE = -1
#: ``current_player()`` once the deal is over.
TERMINAL = -4


class State(ABC):
    """One position of a deal (see the module docstring). ``apply`` changes it in place;
    ``clone`` copies it (cheaply: a few arrays and ints)."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """Seats at the table."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The actions the seat to act may take, ascending."""

    @abstractmethod
    def apply(self, action: int) -> None:
        """Take ``action`` (one of :meth:`legal_actions`; an InputError otherwise)."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the deal is scored."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's points for the deal so far (final once terminal), the game's scoring."""

    @abstractmethod
    def observation(self, seat: int) -> dict:
        """What ``seat`` knows: its own cards, cards seen, calls and declarations heard, the
        history it saw (JSON-ready; card and call strings)."""

    @abstractmethod
    def resample(self, seat: int, rng: np.random.Generator) -> State:
        """A full position consistent with what ``seat`` has seen (hidden cards redealt), the
        same history: the world sampler the pimc players use."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The action as the CLI writes it (a card ``"AS"``, a call ``"120S"``, ``"pass"`` …)."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """The action a CLI string names (InputError when it names none)."""

    def history(self) -> list[int]:
        """The actions taken so far, in order (chance outcomes included)."""
        return list(getattr(self, "_history", []))

    def apply_all(self, actions: Sequence[int | str]) -> State:
        """Apply actions (ints or strings) in order; returns self."""
        for a in actions:
            self.apply(self.string_to_action(a) if isinstance(a, str) else int(a))
        return self


@dataclass
class ActionValues:
    """Each legal action's value for the side to act (``unit`` says what: e.g. "net deal
    points, own minus opponent's"), as estimates (``exact`` when every hand was known), with
    the worlds they were measured on and the time taken."""

    values: dict[int, Estimate]
    unit: str
    exact: bool = False
    worlds: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def best(self) -> int:
        """The action of highest mean (ties to the lowest action)."""
        return max(sorted(self.values), key=lambda a: self.values[a].mean)


class Decider(ABC):
    """A registered policy answering one decision (``policy``: its registry row's name)."""

    name: str = ""

    @abstractmethod
    def choose(self, state: State) -> int:
        """The action this policy takes in ``state`` (one of its legal actions)."""

    def values(self, state: State) -> ActionValues | None:
        """Each legal action's value where the policy has them (pimc, dd); None otherwise."""
        return None


def deciding_seat(state: State, phase: str, who: str) -> int:
    """The seat to decide in ``state``, which must be in ``phase`` (``who``: the decider in
    words, for the one-line InputError when it is not)."""
    if state.phase != phase:
        raise InputError(f"{who} decides in the {phase}, not in the {state.phase}")
    return state.current_player()


def world_mean(x: np.ndarray, exact: bool) -> Estimate:
    """The mean of a value over worlds: without sampling error when ``exact`` (every world
    counted; NaN for none), else with its standard error and 95% interval."""
    if exact:
        m = float(np.mean(x)) if len(x) else math.nan
        return Estimate(m, 0.0, m, m, len(x))
    return Estimate.of_sample(x)


def play_out(state: State, deciders: Sequence[Decider]) -> State:
    """Play ``state`` to the end, each seat's decisions by ``deciders[seat]``; returns it."""
    while not state.is_terminal():
        state.apply(deciders[state.current_player()].choose(state))
    return state


class SeatDecider(Decider):
    """One seat's deciders, one per phase (``by_phase``: the state's ``phase`` -> its decider;
    ``"play"`` among them): each decision goes to its phase's decider, a phase without one to
    the play's; ``values`` are the play decider's, in the play only. ``name`` joins the
    deciders' names with ``joiner``."""

    def __init__(self, by_phase: dict[str, Decider], joiner: str = "/"):
        self.by_phase = dict(by_phase)
        self.play = self.by_phase["play"]
        self.name = joiner.join(d.name for d in self.by_phase.values())

    def choose(self, state: State) -> int:
        return self.by_phase.get(state.phase, self.play).choose(state)

    def values(self, state: State) -> ActionValues | None:
        return self.play.values(state) if state.phase == "play" else None


def copied(value: object) -> object:
    """A copy of a decider's memory entry (what a ``State`` keeps for its deciders): arrays and
    namedtuples of arrays copied, anything else shared (immutable)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(copied(v) for v in value))
    return value


def history_clauses(
    text: str | None, form: str, key_of: Callable[[str], str | None] | None = None
) -> dict:
    """A ``--history`` text's clauses (``key: value``, separated by ``;`` or new lines) as
    {name: value}: ``key_of(key)`` names a key (given lower case with single spaces; None: an
    unknown key), the key itself without ``key_of``. A clause without a colon, an unknown key
    or a key given twice is an InputError (``form``: the text form, quoted)."""
    raw: dict = {}
    for clause in re.split(r"[;\n]+", text or ""):
        clause = clause.strip()
        if not clause:
            continue
        if ":" not in clause:
            raise InputError(f"history clause {clause!r} is not 'key: value' ({form})")
        key, value = clause.split(":", 1)
        name = re.sub(r"\s+", " ", key.strip().lower())
        if key_of is not None:
            name = key_of(name)
        if name is None:
            raise InputError(f"unknown history key {key.strip()!r} ({form})")
        if name in raw:
            raise InputError(f"history key {key.strip()!r} given twice")
        raw[name] = value.strip()
    return raw
