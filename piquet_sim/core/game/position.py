"""The position and decision interface every game offers, for users and outside programs.

A game's ``State`` (in its API module, plain Python over its kernels) is one position of a deal:
who is to act, what he may do, what each seat has seen. Its actions are small integers within
the game's action space, printed and parsed as the CLI's card and call strings. A player
(``Decider``) answers one decision: ``choose(state)`` the action, and ``values(state)`` where it
has them (each legal action's value with its standard error and world count, or exact).

Perspective: ``returns()`` gives each seat's (or team's) points in the game's own scoring, as
the game documents; ``values`` are for the side to act, the unit stated by the policy.

This module is the contract (no game): the games implement it, and the tests that check a
game's ``State`` against its round kernels and the OpenSpiel adapters build on it. It also
holds what every game's players and positions share, so a game writes only its own part: the
play decider base (:class:`PlayDecider`; :class:`KernelPlay` for a policy its kernels answer
in one call), a seat decider made from the game's phases (:func:`seat_decider_type`), an
oracle's exact values (:func:`true_deal_values`) and :meth:`State.clone` from the fields the
game names.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine.errors import InputError
from ..engine.stats import Estimate
from .spec import RulesBase

#: ``current_player()`` of a chance node (a card dealt, the talon drawn).
CHANCE = -1
#: ``current_player()`` once the deal is over.
TERMINAL = -4


class State(ABC):
    """One position of a deal (see the module docstring). ``apply`` changes it in place;
    ``clone`` copies it (cheaply: a few arrays and ints)."""

    @classmethod
    @abstractmethod
    def from_deal(cls, seed: int, index: int, rules: RulesBase) -> State:
        """Deal ``index`` of ``seed`` (always the same cards) under ``rules``, at its first
        decision."""

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

    #: The game's phases by number: :attr:`phase` names the state's ``_phase`` by them (a state
    #: keeping its phase otherwise overrides ``phase``).
    phases: tuple[str, ...] = ()
    _phase: int

    @property
    def phase(self) -> str:
        """The phase of the deal (``"play"``, ``"over"`` …)."""
        return self.phases[self._phase]

    #: What :meth:`clone` copies, field names separated by spaces (every other field it
    #: shares: ints, the rules, keys, caches a move replaces whole): lists a move changes in
    #: place (None kept), lists of lists (copied a level deeper), arrays (None kept), dicts
    #: (copied, values shared).
    clone_lists: str = ""
    clone_nested: str = ""
    clone_arrays: str = ""
    clone_dicts: str = ""

    def clone(self) -> State:
        """An independent copy, cheap: the fields a move changes in place copied (the
        ``clone_*`` names), the history, the actors and the deciders' memory (:func:`copied`)
        its own; the rest shared."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        fields = self.__dict__
        for name in self.clone_lists.split():
            v = fields[name]
            new.__dict__[name] = None if v is None else list(v)
        for name in self.clone_nested.split():
            new.__dict__[name] = [list(x) for x in fields[name]]
        for name in self.clone_arrays.split():
            v = fields[name]
            new.__dict__[name] = None if v is None else v.copy()
        for name in self.clone_dicts.split():
            new.__dict__[name] = dict(fields[name])
        for name in ("_history", "_actors"):
            if name in fields:
                new.__dict__[name] = list(fields[name])
        if "memory" in fields:
            new.memory = {k: copied(v) for k, v in self.memory.items()}
        return new

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


def true_deal_values(
    values: Mapping[int, float],
    unit: str,
    seconds: float,
    note: str,
    kind: type[ActionValues] = ActionValues,
    **more: object,
) -> ActionValues:
    """An oracle's values (``values``: each legal action's value on the true deal, every hand
    seen): exact, one world, no sampling error, with the ``note`` that says it sees the
    hands. ``kind`` and ``more``: a richer values class and its fields (the worlds'
    samples)."""
    return kind(
        {a: Estimate(float(v), 0.0, float(v), float(v), 1) for a, v in values.items()},
        unit,
        exact=True,
        worlds=1,
        seconds=seconds,
        notes=[note],
        **more,
    )


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


def seat_decider_type(
    phases: Mapping[str, str], module: str, joiner: str = "/"
) -> type[SeatDecider]:
    """A game's seat decider class, so a game says only its phases: made from one decider per
    phase, given in ``phases``' order (positionally or by name), each kept in the attribute its
    key names (``phases``: attribute -> the state's phase it answers, ``"play"`` among them);
    setting an attribute replaces that phase's decider. ``module``: the game's module that
    names the class ``SeatDecider`` (where pickle finds it)."""
    order = tuple(phases.items())
    attrs = [attr for attr, _ in order]
    if "play" not in phases.values():
        raise ValueError("a seat decider needs a play decider")

    def __init__(self, *deciders: Decider, **named: Decider) -> None:
        given = dict(zip(attrs, deciders, strict=False))
        if len(deciders) + len(named) != len(attrs) or set(given) | set(named) != set(attrs):
            raise TypeError(f"a seat decider takes one decider per phase: {', '.join(attrs)}")
        given.update(named)
        SeatDecider.__init__(self, {phase: given[attr] for attr, phase in order}, joiner)

    def kept(phase: str) -> property:
        def get(self) -> Decider:
            return self.by_phase[phase]

        def put(self, decider: Decider) -> None:
            self.by_phase[phase] = decider

        return property(get, put, doc=f"The {phase} decider.")

    body: dict = {attr: kept(phase) for attr, phase in order}
    body.update(
        __init__=__init__,
        __module__=module,
        __qualname__="SeatDecider",
        __doc__="One seat's deciders ("
        + ", ".join(attr if attr == phase else f"{attr}: the {phase}" for attr, phase in order)
        + "), each answering its phase.",
        phases=dict(phases),
    )
    return type("SeatDecider", (SeatDecider,), body)


def remembered(state: State, key: Hashable, compute: Callable[[], int]) -> int:
    """A decider's answer at one decision, computed once and kept in ``state.memory`` under
    ``key``: a decider that draws from the state's stream must not draw again when asked twice
    (a clone keeps the answer with the memory)."""
    memory = state.memory
    if key not in memory:
        memory[key] = compute()
    return memory[key]


class PlayDecider(Decider):
    """A play policy (every game's base): ``name``, the registry's ``id`` and the kernels'
    parameter row ``params``. ``choose`` checks the state is in its play and asks :meth:`card`
    for the seat to act; a policy that draws from the state's stream (``draws``) has its card
    remembered (:func:`remembered`, once per decision and policy), and a remembered card no
    longer legal gives way to the first legal one. ``who``: the decider in words for the
    InputError outside the play (``{name}``: the policy's name)."""

    draws: bool = False
    who: str = "play policy {name!r}"

    def __init__(self, name: str, policy_id: int, params: np.ndarray | None = None):
        self.name = name
        self.id = policy_id
        self.params = params

    def choose(self, state: State) -> int:
        seat = deciding_seat(state, "play", self.who.format(name=self.name))
        if not self.draws:
            return self.card(state, seat)
        legal = state.legal_actions()
        key = ("card", self.name, len(state.history()))
        card = remembered(state, key, lambda: int(self.card(state, seat)))
        return card if card in legal else legal[0]

    def card(self, state: State, seat: int) -> int:
        """The card (action) the policy plays for ``seat`` in ``state``."""
        raise NotImplementedError


class KernelPlay(PlayDecider):
    """A play policy the game's kernels answer in one call: ``kernel(decider, state, seat)``
    gives the card (the game's dispatcher with its state's fields; ``draws`` when it draws
    from the state's stream; ``who`` as :class:`PlayDecider`'s)."""

    def __init__(
        self,
        name: str,
        policy_id: int,
        params: np.ndarray | None,
        kernel: Callable[[KernelPlay, State, int], int],
        draws: bool = False,
        who: str | None = None,
    ):
        super().__init__(name, policy_id, params)
        self.kernel = kernel
        self.draws = draws
        if who is not None:
            self.who = who

    def card(self, state: State, seat: int) -> int:
        return int(self.kernel(self, state, seat))

    @classmethod
    def maker(
        cls,
        kernel: Callable[[KernelPlay, State, int], int],
        policy: Callable[..., tuple[int, np.ndarray | None]],
        *,
        draws: bool = False,
        who: str | None = None,
    ) -> Callable[..., KernelPlay]:
        """A game's kernel decider by policy name, ``make(name, params, **extra)`` (what
        :class:`PlayDeciders` calls for a policy without a class of its own): ``policy(name,
        params, **extra)`` gives the policy's registry id and the kernels' parameter row,
        checked (the game's own keywords reach it); the decider answers through ``kernel``."""

        def make(name: str, params: Mapping[str, float] | None = None, **extra: object):
            policy_id, row = policy(name, params, **extra)
            return cls(name, policy_id, row, kernel=kernel, draws=draws, who=who)

        return make


class PlayDeciders:
    """A game's play deciders by registered policy name (its ``play_decider``): the policy's
    own decider class where the game has one (``own``: name -> ``make(params, **extra)``), else
    the game's kernel decider (``kernel(name, params, **extra)``). The name is checked against
    the game's policy registry first (a PolicyError naming the choices). ``kernel=True`` asks
    for the kernel decider even where a class exists (a class and its kernel twin compared).
    Keyword arguments beyond these go to either maker: a game's own (Piquet's parameter row,
    the bidding model Pitch's searches read the others' calls with)."""

    def __init__(
        self,
        registry: object,
        own: Mapping[str, Callable[..., PlayDecider]],
        kernel: Callable[..., PlayDecider],
    ) -> None:
        self.registry = registry
        self.own = dict(own)
        self.kernel = kernel

    def __call__(
        self,
        name: str,
        params: Mapping[str, float] | None = None,
        *,
        kernel: bool = False,
        **extra: object,
    ) -> PlayDecider:
        self.registry.get("play", name)
        make = self.own.get(name)
        if make is None or kernel:
            return self.kernel(name, params, **extra)
        return make(params, **extra)


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
