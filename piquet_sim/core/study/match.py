"""A mirrored match of two strategies, for every game: every deal (or whole game) played in
every seating on the same cards and random streams (common random numbers), so the luck of
the cards cancels in A's margin over B.

A game describes each kind of match it plays with a :class:`MatchKind`: its unit of work (a
chunk of deal or game indices through its kernels, played in every seating), the arguments of
that task (checked before any work), and its statistics of the parts (the margin, the per-side
figures it declares, its JSON). The core runs the chunks (:func:`run_parts`: local or Dask,
the parts put back in index order, so the numbers never depend on the backend, the chunking
or the threads), carries the cancel token and marks a match stopped early ``partial``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.backend import Cancel, Chunk, LocalBackend, run_chunks
from ..engine.stats import Estimate
from ..game.spec import RulesBase
from ..game.strategy import Strategy


@dataclass(frozen=True)
class MatchSpec:
    """What a match plays: A against B on ``n`` deals (or games) of ``seed`` under ``rules``;
    ``options``: the game's own settings of this kind of match (Pitch's table and play
    policies)."""

    a: Strategy
    b: Strategy
    n: int
    seed: int
    rules: RulesBase
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Stat:
    """One per-side figure of a match: its label, its value (a mean, or a rate in 0..1 with
    ``rate``) and its 95% interval (None: none)."""

    label: str
    value: float
    ci95: tuple[float, float] | None = None
    rate: bool = False

    @classmethod
    def of(cls, label: str, d: Mapping | Estimate | float, rate: bool = False) -> Stat:
        """From an :class:`Estimate`, a ``{"mean"|"p", "ci95"}`` dict or a plain number."""
        if isinstance(d, Estimate):
            return cls(label, d.mean, (d.lo, d.hi), rate)
        if isinstance(d, Mapping):
            value = d["p"] if "p" in d and "mean" not in d else d["mean"]
            lo, hi = d["ci95"]
            return cls(label, float(value), (float(lo), float(hi)), rate or "mean" not in d)
        return cls(label, float(d), None, rate)

    def text(self) -> str:
        """The figure as printed: ``12.3% [11.0, 13.7]`` or ``+0.41 [+0.12, +0.70]``."""
        if not math.isfinite(self.value):
            return "-"
        if self.rate:
            if self.ci95 is None:
                return f"{100 * self.value:.1f}%"
            lo, hi = self.ci95
            return f"{100 * self.value:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
        if self.ci95 is None:
            return f"{self.value:.2f}"
        lo, hi = self.ci95
        return f"{self.value:+.2f} [{lo:+.2f}, {hi:+.2f}]"


@dataclass
class MatchResult:
    """One match: ``margin`` is A's margin per deal (or game) over B in the game's ``unit``,
    A's side minus B's, mean of the seatings, with its 95% interval; ``sides`` the per-side
    figures the game declares (column label -> figures, the same labels in each); ``played``
    of ``requested`` deals or games, ``partial`` when the cancel token stopped it early;
    ``body`` the game's JSON of the match (its keys as its earlier outputs wrote them);
    ``notes`` lines the text output adds (a verdict in words); ``cells``: the tournament
    matrix's (A over B, B over A), when they are not the margin and its negative; ``data``:
    what the game keeps for its own figure (its merged counts)."""

    a: str
    b: str
    margin: Estimate
    unit: str
    played: int
    requested: int
    partial: bool
    body: dict
    sides: dict[str, list[Stat]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    cells: tuple[Estimate, Estimate] | None = None
    seconds: float = 0.0
    data: Any = None

    def to_dict(self) -> dict:
        """The game's JSON of the match."""
        return self.body

    @property
    def matrix_cells(self) -> tuple[Estimate, Estimate]:
        """(A over B, B over A) in the tournament's matrix."""
        if self.cells is not None:
            return self.cells
        m = self.margin
        return m, Estimate(-m.mean, m.se, -m.hi, -m.lo, m.n, m.p)


@dataclass(frozen=True)
class MatchKind:
    """One kind of match a game plays (mirrored deals, or whole games to the target).

    ``unit``: what ``n`` counts ("deals", "games"); ``task(chunk, *args)``: that chunk's
    deals in every seating through the game's kernels (a module-level function: Dask ships
    it); ``args(spec)``: the task's arguments after the chunk, every setting checked (bad
    input raises a one-line InputError before any work); ``result(spec, parts, seconds)``: the
    game's statistics of the parts (in index order; one merged part when ``fold``);
    ``fold(total, part)``: merges parts as they come (order-free integer counts: memory stays
    flat), None to keep them; ``chunk(spec)``: the most deals a chunk holds (a slow strategy
    wants small chunks, so Ctrl-C answers soon); ``kernels(spec)``: the numba kernels it
    runs first (a compile notice on a cold cache); ``default_n(a, b)``: deals (or games) when
    the command is not told; ``rows(start, part)``: a chunk's per-deal rows (a DataFrame, for
    ``--out``; None: the game writes none); ``plot(result, path)``: the game's figure of a
    match (None: the core's figure of the per-side statistics); ``first``: the first chunk's
    size, or ``first(spec)`` (None: the backend's; a slow strategy wants a small one, so a
    Ctrl-C during the first chunk, before its time sets the pace, answers soon)."""

    unit: str
    task: Callable[..., Any]
    args: Callable[[MatchSpec], tuple]
    result: Callable[[MatchSpec, list, float], MatchResult]
    chunk: Callable[[MatchSpec], int]
    kernels: Callable[[MatchSpec], tuple] = lambda spec: ()
    default_n: Callable[[Strategy, Strategy], int] = lambda a, b: 10_000
    fold: Callable[[Any, Any], Any] | None = None
    rows: Callable[[int, Any], Any] | None = None
    plot: Callable[[MatchResult, Any], Any] | None = None
    first: int | Callable[[MatchSpec], int | None] | None = None


def run_parts(
    task: Callable[..., Any],
    n: int,
    step: int,
    args: tuple,
    backend=None,
    progress: Callable[[int], None] | None = None,
    cancel: Cancel | None = None,
    fold: Callable[[Any, Any], Any] | None = None,
    first: int | None = None,
    on_part: Callable[[int, Any], None] | None = None,
) -> tuple[list, int]:
    """``task(chunk, *args)`` over items 0..n-1 in chunks of at most ``step`` on ``backend``
    (default local): (the parts in index order whatever order they finished in, or the one
    part ``fold`` merged them into; the items done). ``on_part(start, part)`` sees each part as
    it comes; ``cancel`` stops after the chunk in flight (and is set then)."""
    parts: dict[int, Any] = {}
    merged: list = []

    def consume(item: Chunk, result) -> None:
        if on_part is not None:
            on_part(item.start, result)
        if fold is None:
            parts[item.start] = result
        else:
            merged[:] = [result if not merged else fold(merged[0], result)]

    done = run_chunks(
        backend or LocalBackend(), task, n, step, args, consume, progress, first, cancel
    )
    return (merged if fold is not None else [parts[k] for k in sorted(parts)]), done


def play_match(
    kind: MatchKind,
    spec: MatchSpec,
    backend=None,
    progress: Callable[[int], None] | None = None,
    cancel: Cancel | None = None,
    chunk: int | None = None,
    on_part: Callable[[int, Any], None] | None = None,
) -> MatchResult:
    """A against B as ``kind`` plays them (module docstring): ``spec.n`` deals or games in
    chunks of at most ``chunk`` (default ``kind.chunk``) on ``backend`` (default local; the
    same numbers on any); ``progress`` is told the items of each chunk finished; ``cancel``
    (Ctrl-C) stops after the chunk in flight and the result covers what finished
    (``partial``); ``on_part(start, part)`` sees each chunk's part (per-deal rows)."""
    args = kind.args(spec)
    t0 = time.perf_counter()
    parts, _ = run_parts(
        kind.task,
        spec.n,
        chunk or kind.chunk(spec),
        args,
        backend,
        progress,
        cancel,
        kind.fold,
        kind.first(spec) if callable(kind.first) else kind.first,
        on_part,
    )
    result = kind.result(spec, parts, time.perf_counter() - t0)
    result.seconds = time.perf_counter() - t0
    return result


def run_match(
    kind: MatchKind,
    a: Strategy,
    b: Strategy,
    n: int,
    seed: int,
    rules: RulesBase,
    options: Mapping[str, Any] | None = None,
    **run: Any,
) -> MatchResult:
    """:func:`play_match` of A against B on ``n`` deals (or games) of ``seed`` under ``rules``
    (``run``: its ``backend``, ``progress``, ``cancel``, ``chunk``, ``on_part``)."""
    return play_match(kind, MatchSpec(a, b, n, seed, rules, options or {}), **run)


def check_distinct(strategies: Sequence[Strategy]) -> None:
    """Refuse a tournament of fewer than two strategies or of one named twice (one-line
    InputError)."""
    from ..engine.errors import InputError

    if len(strategies) < 2:
        raise InputError("a tournament needs at least two strategies")
    if len({s.name for s in strategies}) != len(strategies):
        raise InputError("each strategy may appear once in a tournament")


__all__ = [
    "MatchKind",
    "MatchResult",
    "MatchSpec",
    "Stat",
    "check_distinct",
    "play_match",
    "run_match",
    "run_parts",
]
