"""Matches between any two players of any game, decision by decision, through the game's
``State`` (:mod:`.position`): ours, or an outside program's (OpenSpiel's IS-MCTS, a peer
engine's bots) behind the :class:`~.position.Decider` contract.

Every deal is played once per seating (e.g. A elder then A younger; A north-south then
east-west), on the same cards, so a deal's luck cancels: A's margin per deal is the mean over
the seatings of A's side's points minus B's. The round kernels' matches are far faster for our
own players; this is for players that exist only as deciders.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine.backend import Cancel, StopOnInterrupt
from ..engine.errors import InputError
from ..engine.interruptible import call_interruptibly
from ..engine.stats import Estimate
from ..game.position import Decider, State

#: Seconds a move may take before its player's next moves run where a Ctrl-C can give them up.
SLOW_MOVE_S = 0.25


class DealStopped(Exception):
    """A deal given up between two moves because its study was stopped (Ctrl-C): the moves
    played so far count for nothing."""


def play_deal(
    state: State,
    deciders: Sequence[Decider],
    clock: dict | None = None,
    stop: Callable[[], bool] | None = None,
) -> list:
    """Play ``state`` to its end, each seat's decisions by ``deciders[seat]``; returns the
    seats' returns. ``clock[id(decider)]`` accumulates (decisions, seconds) when given.
    ``stop()``, read before each move: True gives the deal up (:class:`DealStopped`), so a
    Ctrl-C waits for one move of a slow player, not for its whole deal; and a player whose
    last move took over :data:`SLOW_MOVE_S` moves in a helper thread, given up at once when
    ``stop()`` turns true (the thread, a daemon, ends with the process)."""
    slow: set[int] = set()
    while not state.is_terminal():
        if stop is not None and stop():
            raise DealStopped
        decider = deciders[state.current_player()]
        t0 = time.perf_counter()
        if stop is not None and id(decider) in slow:
            try:
                action = call_interruptibly(lambda d=decider: d.choose(state), None, None, stop)
            except KeyboardInterrupt:
                if stop():
                    raise DealStopped from None
                raise
        else:
            action = decider.choose(state)
        spent = time.perf_counter() - t0
        if spent > SLOW_MOVE_S:
            slow.add(id(decider))
        if clock is not None:
            n, s = clock.get(id(decider), (0, 0.0))
            clock[id(decider)] = (n + 1, s + spent)
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
    partial: bool = False
    margins: list[float] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "a": self.a,
            "b": self.b,
            "margin_per_deal": self.margin.to_dict(),
            "deals": self.deals,
            "seconds_per_decision": self.seconds_per_decision,
            "partial": self.partial,
        }


def deal_margin(
    state_of: Callable[[], State],
    a: Decider,
    b: Decider,
    seatings: Sequence[Sequence[bool]],
    clock: dict | None = None,
    stop: Callable[[], bool] | None = None,
    reseed: Callable[[int], None] | None = None,
) -> float:
    """A's margin on one deal: over the seatings (each on a fresh ``state_of()``, ``True`` where
    A sits), the mean of A's mean return a seat minus B's. ``reseed(k)`` before seating ``k``;
    ``clock`` and ``stop`` as in :func:`play_deal` (DealStopped gives the deal up)."""
    per_seating = []
    for k, seating in enumerate(seatings):
        if reseed is not None:
            reseed(k)
        returns = play_deal(state_of(), [a if mine else b for mine in seating], clock, stop)
        n_a = sum(seating)
        mine = sum(r for r, m in zip(returns, seating, strict=True) if m)
        theirs = sum(r for r, m in zip(returns, seating, strict=True) if not m)
        per_seating.append(mine / n_a - theirs / (len(seating) - n_a))
    return float(np.mean(per_seating))


def mirrored_match(
    new_state: Callable[[int], State],
    a: Decider,
    b: Decider,
    deals: int,
    seatings: Sequence[Sequence[bool]],
    progress: Callable[[int], None] | None = None,
    cancel: Cancel | None = None,
) -> Match:
    """A against B on deals 0..deals-1 (``new_state(i)``: deal i, the same for every seating).
    ``seatings``: for each seating, which seats A holds (``True``) — e.g. ``[(True, False),
    (False, True)]`` for two players, ``[(True, False, True, False), (False, True, False,
    True)]`` for two teams. Ctrl-C (``cancel``, set then) stops before the next move, the deal
    in flight given up (``partial``)."""
    cancel = cancel or Cancel()
    clock: dict = {}
    margins: list[float] = []
    partial = False
    with StopOnInterrupt() as guard:

        def stop() -> bool:
            return guard.stop or cancel.is_set

        for i in range(deals):
            if stop():
                cancel.set()
                partial = True
                break
            try:
                margins.append(deal_margin(lambda i=i: new_state(i), a, b, seatings, clock, stop))
            except DealStopped:
                cancel.set()
                partial = True
                break
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
        partial,
        margins,
    )


class TimedPlay(Decider):
    """A decider that keeps its own clock: ``moves`` (decisions with more than one legal
    action), ``seconds`` (wall-clock) and ``cpu_seconds`` (the process's CPU time) spent on
    them, so a player's time per move is measured on its real choices only (a forced card
    costs nothing); CPU time is the fair measure on a machine other jobs share."""

    def __init__(self, inner: Decider):
        self.inner = inner
        self.name = inner.name
        self.oracle = bool(getattr(inner, "oracle", False))
        self.moves = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    def choose(self, state: State) -> int:
        if len(state.legal_actions()) == 1:
            return self.inner.choose(state)
        t0, c0 = time.perf_counter(), time.process_time()
        action = self.inner.choose(state)
        self.seconds += time.perf_counter() - t0
        self.cpu_seconds += time.process_time() - c0
        self.moves += 1
        return action

    def values(self, state: State):
        return self.inner.values(state)

    def new_deal(self, key: int) -> None:
        """Reseed the inner player for a deal when it draws from its own stream."""
        hook = getattr(self.inner, "new_deal", None)
        if hook is not None:
            hook(key)

    @property
    def seconds_per_move(self) -> float:
        """Mean wall-clock seconds per unforced decision (0 before any)."""
        return self.seconds / self.moves if self.moves else 0.0

    @property
    def cpu_seconds_per_move(self) -> float:
        """Mean CPU seconds per unforced decision (0 before any)."""
        return self.cpu_seconds / self.moves if self.moves else 0.0


# ---------------------------------------------------------------------- outside players
@dataclass(frozen=True)
class ExternalKind:
    """One kind of outside player a ladder may add (``--external kind:arg``): ``factory``
    ("module:function", called ``(game, arg, seed) -> Decider`` for the play decisions),
    the pip ``extra`` it needs and the module (``needs``) whose absence means the extra is
    missing, the games it plays and a one-line help. ``counts``: the bots (the spec's ``arg``
    without its count: "" for ``kind:<count>``) whose cost is a count an equal-time ladder may
    set, each with the count's unit and least value (``{"isdd": ("worlds", 1)}``)."""

    factory: str
    extra: str
    needs: str
    games: tuple[str, ...]
    help: str
    counts: Mapping[str, tuple[str, int]] = field(default_factory=dict)


#: Outside players by kind. The application layer registers them (``piquet_sim/games.py``): the
#: core and the games never import an outside engine.
EXTERNAL: dict[str, ExternalKind] = {}


def register_external(kind: str, entry: ExternalKind) -> None:
    """Offer an outside player to every ladder of its games (registering again replaces)."""
    EXTERNAL[kind] = entry


def external_decider(game: str, spec: str, seed: int = 1) -> Decider:
    """The outside play decider ``spec`` names (``kind:arg``, e.g. ``ismcts:100``) for
    ``game``; InputError (one line) when the kind is unknown, plays another game, or its extra
    is not installed."""
    kind, _, arg = spec.strip().partition(":")
    entry = EXTERNAL.get(kind)
    if entry is None:
        known = ", ".join(sorted(k for k, e in EXTERNAL.items() if game in e.games)) or "none"
        raise InputError(f"unknown external player {spec!r} (known for {game}: {known})")
    if game not in entry.games:
        raise InputError(f"external player {kind} does not play {game}")
    _, bot, count = split_spec(spec)
    if count is not None and bot in entry.counts:
        unit, least = entry.counts[bot]
        if count < least:
            raise InputError(f"external player {spec}: give at least {least} {unit} a move")
    if importlib.util.find_spec(entry.needs) is None:
        raise InputError(
            f"external player {spec} needs the {entry.extra} extra "
            f"(pip install 'piquet-sim[{entry.extra}]'): {entry.needs} is not installed"
        )
    module, _, function = entry.factory.partition(":")
    return getattr(importlib.import_module(module), function)(game, arg, seed)


def split_spec(spec: str) -> tuple[str, str, int | None]:
    """An outside player's spec ``kind[:bot][:count]`` as ``(kind, bot, count)``: the count is
    the last part when it is a whole number (``None`` when the spec names none; ``bot`` is ""
    for ``kind:<count>``), the bot what is between."""
    kind, _, rest = spec.strip().partition(":")
    parts = rest.split(":") if rest else []
    fixed = bool(parts) and parts[-1].isdigit()
    bot = ":".join(parts[:-1] if fixed else parts)
    return kind, bot, int(parts[-1]) if fixed else None


def external_specs(text: str | None) -> list[str]:
    """The comma-separated external player specs of a ``--external`` option, in order, once."""
    return list(dict.fromkeys(s.strip() for s in (text or "").split(",") if s.strip()))
