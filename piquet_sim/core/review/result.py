"""A reviewed deal (:class:`Review`): its decisions, the points lost per phase and the costliest
decisions, as JSON, text (:mod:`.text`) or a page (:mod:`.page`)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..engine.stats import Z95
from .decisions import DecisionReview, Task, _estimate_dict, run_review

#: How many of the costliest decisions the summary names.
COSTLIEST = 3


@dataclass
class Review:
    """A reviewed deal: the game, the player, the unit, the record (its JSON form), the page's
    view of the deal (``deal``, :func:`render_html`), the rows, whether Ctrl-C cut it short and
    the settings it ran with."""

    game: str
    title: str
    player: str
    unit: str
    record: dict
    deal: dict
    decisions: list[DecisionReview]
    total: int
    partial: bool = False
    seconds: float = 0.0
    settings: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    phases: tuple[str, ...] = ()
    #: a phase's unit when phases differ (Pilotta: calls in game points, cards in card points):
    #: totals are then per unit; ``rank_scale`` puts costs in one unit to rank them
    phase_units: dict[str, str] = field(default_factory=dict)
    rank_scale: dict[str, float] = field(default_factory=dict)

    def unit_of(self, phase: str) -> str:
        return self.phase_units.get(phase, self.unit)

    def summary(self) -> dict:
        """Points lost per phase (the sum of the decisions' costs with its 95% interval, the
        exact sum where every decision of the phase has one), the decisions that agree with the
        advisor, the total (one per unit when the phases' units differ), and the three
        costliest decisions (by expected cost, ``rank_scale`` applied)."""
        phases = list(self.phases) or sorted({d.phase for d in self.decisions})
        for d in self.decisions:
            if d.phase not in phases:
                phases.append(d.phase)
        per_phase = {}
        for ph in phases:
            rows = [d for d in self.decisions if d.phase == ph]
            if rows:
                per_phase[ph] = _phase_sum(rows) | {"unit": self.unit_of(ph)}
        units = list(dict.fromkeys(self.unit_of(ph) for ph in phases))
        if len(units) <= 1:
            per_phase["total"] = _phase_sum(self.decisions) | {"unit": self.unit}
        else:
            for u in units:
                rows = [d for d in self.decisions if self.unit_of(d.phase) == u]
                if rows:
                    per_phase[f"total ({u})"] = _phase_sum(rows) | {"unit": u}
        ranked = sorted(
            (d for d in self.decisions if d.cost is not None and not d.forced),
            key=lambda d: (-d.cost.mean * self.rank_scale.get(d.phase, 1.0), d.index),
        )
        costliest = [
            {
                "index": d.index,
                "phase": d.phase,
                "place": d.place,
                "done": d.done,
                "best": d.best,
                "cost": _estimate_dict(d.cost),
                "exact_cost": d.exact_cost,
                "unit": self.unit_of(d.phase),
            }
            for d in ranked[:COSTLIEST]
            if d.cost.mean > 0
        ]
        return {"phases": per_phase, "costliest": costliest}

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "player": self.player,
            "unit": self.unit,
            "phase_units": {ph: self.unit_of(ph) for ph in self.phases},
            "partial": self.partial,
            "decisions_reviewed": len(self.decisions),
            "decisions_total": self.total,
            "seconds": round(self.seconds, 3),
            "settings": self.settings,
            "notes": list(self.notes),
            "summary": self.summary(),
            "decisions": [d.to_dict() for d in self.decisions],
            "record": self.record,
            "deal": self.deal,
        }

    def text(self) -> str:
        from .text import render_text

        return render_text(self)

    def html(self) -> str:
        from .page import render_html

        return render_html(self)


def _phase_sum(rows: list[DecisionReview]) -> dict:
    measured = [d for d in rows if d.cost is not None]
    mean = sum(d.cost.mean for d in measured)
    se = math.sqrt(sum(d.cost.se**2 for d in measured if math.isfinite(d.cost.se)))
    exact_rows = [d for d in rows if d.exact_cost is not None]
    return {
        "decisions": len(rows),
        "measured": len(measured),
        "agree": sum(1 for d in rows if d.agrees),
        "cost": {"mean": mean, "se": se, "ci95": [mean - Z95 * se, mean + Z95 * se]},
        "exact_cost": sum(d.exact_cost for d in exact_rows) if exact_rows else None,
        "exact_decisions": len(exact_rows),
    }


def review(
    game: str,
    title: str,
    player: str,
    unit: str,
    record: dict,
    deal: dict,
    tasks: Sequence[Task],
    progress: Callable[[float, str], None] | None = None,
    settings: dict | None = None,
    notes: list[str] | None = None,
    phases: tuple[str, ...] = (),
    phase_units: dict[str, str] | None = None,
    rank_scale: dict[str, float] | None = None,
) -> Review:
    """Run :func:`run_review` over ``tasks`` and wrap the rows in a :class:`Review`."""
    t0 = time.perf_counter()
    rows, partial = run_review(tasks, progress)
    return Review(
        game=game,
        title=title,
        player=player,
        unit=unit,
        record=record,
        deal=deal,
        decisions=rows,
        total=len(tasks),
        partial=partial,
        seconds=time.perf_counter() - t0,
        settings=dict(settings or {}),
        notes=list(notes or []),
        phases=phases,
        phase_units=dict(phase_units or {}),
        rank_scale=dict(rank_scale or {}),
    )
