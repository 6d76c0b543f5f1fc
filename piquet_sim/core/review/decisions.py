"""A review's decisions: what one decision of the reviewed player cost (:class:`DecisionReview`),
the tasks that measure them (:class:`Task`, a card decision's :func:`card_task`) and the loop
that runs them under one Ctrl-C (:func:`run_review`).

Costs are in the game's unit for the reviewed player (his side's points minus his opponents').
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from ..engine.backend import StopOnInterrupt, stop_requested
from ..engine.stats import Z95, Estimate

T = TypeVar("T")


def exact_estimate(value: float, n: int = 1) -> Estimate:
    """An estimate without sampling error (every world counted, or a known 0)."""
    v = float(value)
    return Estimate(v, 0.0, v, v, n)


def difference(a: Estimate, b: Estimate) -> Estimate:
    """``a - b`` of two estimates measured on independent samples (standard errors in
    quadrature): for values not measured on shared worlds."""
    se = math.hypot(a.se, b.se)
    m = a.mean - b.mean
    return Estimate(m, se, m - Z95 * se, m + Z95 * se, min(a.n, b.n))


@dataclass
class Alternative:
    """One option at a decision: its text, its value for the player (``value``: over the
    worlds he thought possible; ``exact``: the true deal, every hand known) and a note."""

    action: str
    value: Estimate | None = None
    exact: float | None = None
    note: str = ""

    def to_dict(self) -> dict:
        out: dict = {"action": self.action}
        if self.value is not None:
            out["value"] = _estimate_dict(self.value)
        if self.exact is not None:
            out["exact"] = self.exact
        if self.note:
            out["note"] = self.note
        return out


def ranked_alternatives(
    options: Sequence[T],
    mine: T,
    action: Callable[[T], str],
    value: Callable[[T], Estimate],
    note: Callable[[T], str],
    top: int = 6,
) -> list[Alternative]:
    """The ``top`` options of highest value, highest first, each with its note (``"yours; "``
    before the player's own), then the player's own choice (``mine``, one of ``options``)
    when it is not among them: a decision's alternatives (a call, a bid)."""
    order = sorted(options, key=lambda o: -value(o).mean)[:top]
    alts = [
        Alternative(action(o), value(o), note=("yours; " if o is mine else "") + note(o))
        for o in order
    ]
    if not any(o is mine for o in order):
        alts.append(Alternative(action(mine), value(mine), note="yours"))
    return alts


@dataclass
class DecisionReview:
    """One decision reviewed (see the module docstring). ``index``: 1-based among the player's
    decisions; ``phase``: the game's phase (exchange, declare, bid, play …); ``place``: where in
    the deal ("trick 3, lead"); ``context``: game data for the page (the step it belongs to)."""

    index: int
    phase: str
    place: str
    done: str
    best: str | None = None
    cost: Estimate | None = None
    exact_cost: float | None = None
    exact_best: str | None = None
    alternatives: list[Alternative] = field(default_factory=list)
    forced: bool = False
    method: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    partial: bool = False
    context: dict = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        """True when the player did what the advisor recommends (or had no choice)."""
        return self.forced or self.best == self.done

    def to_dict(self) -> dict:
        out = {
            "index": self.index,
            "phase": self.phase,
            "place": self.place,
            "done": self.done,
            "best": self.best,
            "forced": self.forced,
            "cost": None if self.cost is None else _estimate_dict(self.cost),
            "exact_cost": self.exact_cost,
            "exact_best": self.exact_best,
            "method": self.method,
            "seconds": round(self.seconds, 3),
            "alternatives": [a.to_dict() for a in self.alternatives],
        }
        if self.notes:
            out["notes"] = list(self.notes)
        if self.partial:
            out["partial"] = True
        if self.context:
            out["context"] = self.context
        return out


@dataclass
class Task:
    """One decision to review: its phase, place and what was done (known before measuring),
    ``weight`` (its share of the progress bar: about its seconds) and ``run`` (measures it;
    returns the row, whose ``index`` the engine sets)."""

    phase: str
    place: str
    done: str
    run: Callable[[], DecisionReview]
    weight: float = 1.0


class Tasks(list):
    """A review's tasks in the order they run, and ``at``: each decision's key (the game's, for
    its page view) -> its number (1-based: its row's ``index``)."""

    def __init__(self) -> None:
        super().__init__()
        self.at: dict = {}

    @property
    def next(self) -> int:
        """The number of the next task added."""
        return len(self) + 1

    def add(self, key: object, task: Task) -> None:
        """Append ``task``, the decision ``key``."""
        self.append(task)
        self.at[key] = len(self)


def run_review(
    tasks: Sequence[Task],
    progress: Callable[[float, str], None] | None = None,
) -> tuple[list[DecisionReview], bool]:
    """Measure the tasks in order: (the rows, partial). Ctrl-C (``StopOnInterrupt``) stops after
    the decision in flight (a decision whose own measure was cut short is marked ``partial``):
    the rows so far are kept and ``partial`` is True. ``progress(weight done, label)`` is called
    before each decision (weight 0) and after it."""
    rows: list[DecisionReview] = []
    with StopOnInterrupt():
        for i, task in enumerate(tasks, 1):
            if stop_requested():
                return rows, True
            if progress is not None:
                progress(0.0, f"{task.phase}: {task.place}")
            row = task.run()
            row.index = i
            rows.append(row)
            if progress is not None:
                progress(task.weight, f"{task.phase}: {task.place}")
            if row.partial or stop_requested():
                return rows, i < len(tasks) or row.partial
    return rows, False


def _estimate_dict(e: Estimate) -> dict:
    def num(x: float):
        return x if math.isfinite(x) else None

    return {"mean": num(e.mean), "se": num(e.se), "ci95": [num(e.lo), num(e.hi)], "n": e.n}


def card_place(trick: int, before: Sequence[str]) -> str:
    """Where a card decision is: ``"trick 3, lead"`` or ``"trick 3, after AS 7S"`` (the cards
    already in the trick)."""
    return f"trick {trick}, " + ("lead" if not before else "after " + " ".join(before))


def card_task(
    index: int,
    trick: int,
    place: str,
    card: int,
    name: Callable[[int], str],
    make_state: Callable[[], object],
    values: Callable[[object], object],
    exact_values: Callable[[object], object] | None = None,
    weight: float = 1.0,
) -> Task:
    """The task of a card decision (phase ``play``): ``card`` (printed by ``name``) played at
    ``place`` of trick ``trick``, from the position ``make_state()``.

    ``values(state)`` values every legal card over the worlds the player could not tell apart:
    an object with ``values`` (card -> Estimate), ``samples`` (card -> its value in each world,
    the same worlds for every card), ``exact`` (every such world counted) and ``notes`` (how, in
    words). The cost is the best card's value minus his, paired on those worlds; a card as good
    as the best costs nothing and is the advice. ``exact_values(state)``, given when every hand
    is known, is the ``ActionValues`` of each card on the true deal: the exact cost and best
    card (the lowest card of the top value). A forced card costs nothing."""
    done = name(card)
    exact = exact_values is not None

    def run() -> DecisionReview:
        t0 = time.perf_counter()
        state = make_state()
        legal = state.legal_actions()
        if len(legal) == 1:
            return DecisionReview(
                index,
                "play",
                place,
                done,
                best=done,
                cost=exact_estimate(0.0),
                exact_cost=0.0 if exact else None,
                exact_best=done if exact else None,
                forced=True,
                method="the only legal card",
                seconds=time.perf_counter() - t0,
                context={"trick": trick},
            )
        vals = values(state)
        ranking = sorted(legal, key=lambda c: (-vals.values[c].mean, c))
        best = ranking[0]
        if vals.values[card].mean == vals.values[best].mean:
            best = card  # as good as the best: no cost, the player's card is advised too
        a, b = vals.samples[best], vals.samples[card]
        if vals.exact:
            cost = exact_estimate(float(np.mean(a.astype(np.float64) - b)), len(a))
        else:
            cost = Estimate.paired(a, b)
        dd = {}
        exact_cost = exact_best = None
        if exact:
            dd = {c: v.mean for c, v in exact_values(state).values.items()}
            top = max(dd.values())
            exact_cost = top - dd[card]
            exact_best = name(card if dd[card] == top else min(c for c in dd if dd[c] == top))
        alts = [
            Alternative(
                name(c),
                vals.values[c]
                if not vals.exact
                else exact_estimate(vals.values[c].mean, vals.values[c].n),
                dd.get(c),
                "yours" if c == card else "",
            )
            for c in ranking
        ]
        return DecisionReview(
            index,
            "play",
            place,
            done,
            best=name(best),
            cost=cost,
            exact_cost=exact_cost,
            exact_best=exact_best,
            alternatives=alts,
            method="; ".join(vals.notes),
            seconds=time.perf_counter() - t0,
            partial=bool(getattr(vals, "facts", {}).get("partial")),
            context={"trick": trick},
        )

    return Task("play", place, done, run, weight)
