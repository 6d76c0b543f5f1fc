"""Review a played deal, for every game: each of one player's decisions with what it cost.

A game turns its deal record into a list of :class:`Task` (one per decision of the reviewed
player: what he did, and a function that measures it), and this module runs them
(:func:`run_review`), sums the costs by phase and renders the :class:`Review` as text, JSON or a
self-contained HTML page that shows the deal trick by trick with the costs.

What a decision's row holds (:class:`DecisionReview`), in the game's unit (deal points for the
reviewed player: his minus his opponents'):

* ``done``: what the player did; ``best``: what the advisor recommends with what the player
  could know (worlds consistent with what he saw);
* ``cost``: the advisor's best value minus the value of what he did, an :class:`Estimate` with
  its 95% interval (paired on the same worlds where the game can; 0 when he did the advised
  thing); ``exact_cost``: with every hand known, the exact cost (double-dummy) where the game
  computes it;
* ``alternatives``: the options ranked, each with its value (and exact value).

The summary (:meth:`Review.summary`) adds the costs of each phase (the decisions are measured on
independent samples: standard errors add in quadrature) and names the three costliest
decisions. A review stopped by Ctrl-C keeps the decisions measured so far and says so
(``partial``).

Deal records are typed as lines ``key: value`` (:func:`record_lines`: ``#`` starts a comment,
``;`` separates clauses on a line) or written as JSON (:func:`read_record`); each game documents
its keys (``docs/review.md``) and raises :class:`RecordError` naming the place of a fault.
"""

from __future__ import annotations

import html
import json
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .engine.backend import StopOnInterrupt, stop_requested
from .engine.cards import Pack, cards_to_mask
from .engine.errors import InputError
from .engine.stats import Z95, Estimate

#: How many of the costliest decisions the summary names.
COSTLIEST = 3


class RecordError(InputError):
    """A deal record that does not parse or breaks the rules: the message names the place (a
    line of the text form or a key of the JSON form) and what is wrong, in one line."""


# ---------------------------------------------------------------------- records


@dataclass(frozen=True)
class Clause:
    """One ``key: value`` clause of a text record: the key (lower case, single spaces), the
    value (stripped) and the line it is on (1-based)."""

    key: str
    value: str
    line: int

    @property
    def place(self) -> str:
        return f"line {self.line} ({self.key})"


def record_lines(text: str) -> list[Clause]:
    """The clauses of a text record: one ``key: value`` per line or several separated by ``;``;
    ``#`` starts a comment; blank lines are skipped. A clause without a colon is a
    :class:`RecordError` naming its line."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        for part in line.split(";"):
            part = part.strip()
            if not part:
                continue
            if ":" not in part:
                raise RecordError(f"line {n}: {part!r} is not 'key: value'")
            key, value = part.split(":", 1)
            key = re.sub(r"\s+", " ", key.strip().lower())
            out.append(Clause(key, value.strip(), n))
    return out


def read_record(path: Path | str) -> tuple[str, object]:
    """A record file's contents: ``("json", object)`` when it holds JSON (a ``.json`` name or
    text starting with ``{``), else ``("text", str)``. Unreadable files and bad JSON are
    :class:`RecordError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"cannot read {path}: {err}") from None
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            return "json", json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(
                f"{path} is not JSON: {err.msg} (line {err.lineno}, column {err.colno})"
            ) from None
    return "text", text


def record_error(place: str, message: str) -> RecordError:
    """A :class:`RecordError` at ``place`` (a line or a key): ``"place: message"``."""
    return RecordError(f"{place}: {message}")


def raw_clauses(
    text: str, key_of: Callable[[str], str | None], keys_help: str
) -> tuple[dict, dict]:
    """A text record's clauses by canonical key: (key -> value, key -> place).
    ``key_of(typed key)`` is the canonical key, None for an unknown one (a RecordError quoting
    ``keys_help``); a key given twice is a RecordError naming both places."""
    raw: dict = {}
    places: dict = {}
    for clause in record_lines(text):
        key = key_of(clause.key)
        if key is None:
            raise RecordError(f"{clause.place}: unknown key {clause.key!r} ({keys_help})")
        if key in raw:
            raise RecordError(f"{clause.place}: given twice (first at {places[key]})")
        raw[key] = clause.value
        places[key] = clause.place
    return raw, places


class Record:
    """What every game's record class (a dataclass) shares: ``dealt`` (the dealt hands by seat,
    None where the record does not give one) and ``places`` (canonical key -> where it was
    written: errors name it)."""

    dealt: list
    places: dict

    @property
    def full(self) -> bool:
        """Every hand known: the deal can be replayed card by card."""
        return all(h is not None for h in self.dealt)

    def place(self, key: str) -> str:
        """Where ``key`` was written (the key itself when it was not)."""
        return self.places.get(key, key)


class Replay:
    """A record being replayed from ``state``: :meth:`act` keeps the position before each
    action (``steps``: (state, action, place)) and turns an illegal action into a RecordError
    at its place."""

    def __init__(self, state: object):
        self.state = state
        self.steps: list[tuple] = []

    def act(self, action: int, place: str) -> None:
        self.steps.append((self.state.clone(), action, place))
        try:
            self.state.apply(action)
        except InputError as err:
            raise record_error(place, str(err)) from None


def dealt_hand(value: object, place: str, pack: Pack, size: int) -> int:
    """The mask of a dealt hand given as text or a JSON list of card strings: exactly ``size``
    distinct cards of ``pack``, else a RecordError at ``place``."""
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    try:
        cards = pack.parse_list(str(value))
    except InputError as err:
        raise record_error(place, str(err)) from None
    if len(cards) != size:
        raise record_error(place, f"a dealt hand is {size} cards, got {len(cards)}")
    return cards_to_mask(cards)


# ---------------------------------------------------------------------- rows


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


# ---------------------------------------------------------------------- the review


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
        return render_text(self)

    def html(self) -> str:
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
            context={"trick": trick},
        )

    return Task("play", place, done, run, weight)


# ---------------------------------------------------------------------- text


def fmt_cost(e: Estimate | None) -> str:
    """A cost as printed: ``+1.25``, ``0``, or ``-`` when not measured."""
    if e is None or not math.isfinite(e.mean):
        return "-"
    if e.mean == 0 and e.se == 0:
        return "0"
    return f"{e.mean:+.2f}"


def fmt_interval(e: Estimate | None) -> str:
    """A 95% interval: ``[+0.1, +2.4]``; ``±0`` without sampling error (every world
    counted)."""
    if e is None or not math.isfinite(e.mean):
        return ""
    if e.se == 0:
        return "±0"
    if not math.isfinite(e.lo):
        return "(one world)"
    return f"[{e.lo:+.2f}, {e.hi:+.2f}]"


def fmt_exact(x: float | None) -> str:
    if x is None:
        return "-"
    return "0" if x == 0 else f"{x:+g}"


def _table(headers: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]

    def line(cells):
        parts = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return [line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def render_text(rv: Review) -> str:
    """The review as plain text: a header, one row per decision, the summary by phase and the
    costliest decisions."""
    has_exact = any(d.exact_cost is not None for d in rv.decisions)
    out = [f"{rv.title}: {rv.player}'s decisions"]
    state = f"{len(rv.decisions)} of {rv.total} decisions reviewed"
    if rv.partial:
        state += " (PARTIAL: stopped by Ctrl-C)"
    if rv.phase_units:
        out.append(f"{state} in {rv.seconds:.1f} s. {rv.unit}.")
    else:
        out.append(f"{state} in {rv.seconds:.1f} s. Unit: {rv.unit}.")
    out.append(
        "Cost: the advised option's value minus that of what was done, over the worlds the "
        "player could not tell apart (95% interval; ±0: every such world counted)"
        + ("; dd cost: on the true deal, every hand known (double-dummy)." if has_exact else ".")
    )
    out += [f"Note: {n}" for n in rv.notes]
    out.append("")
    headers = ["#", "phase", "where", "done", "advised", "cost", "95% interval"]
    if has_exact:
        headers += ["dd cost", "dd best"]
    rows = []
    for d in rv.decisions:
        best = "(forced)" if d.forced else (d.best or "-")
        if d.agrees and not d.forced:
            best = "= " + best
        interval = "" if d.agrees else fmt_interval(d.cost)
        row = [str(d.index), d.phase, d.place, d.done, best, fmt_cost(d.cost), interval]
        if d.partial:
            row[6] += " partial"
        if has_exact:
            row += [fmt_exact(d.exact_cost), d.exact_best or "-"]
        rows.append(row)
    out += _table(headers, rows, {0, 5})
    out.append("")
    s = rv.summary()
    out.append("Points lost by phase")
    srows = []
    for ph, v in s["phases"].items():
        c = v["cost"]
        interval = "±0" if c["se"] == 0 else f"[{c['ci95'][0]:+.2f}, {c['ci95'][1]:+.2f}]"
        row = [ph, str(v["decisions"]), f"{v['agree']}", f"{c['mean']:+.2f}", interval]
        if has_exact:
            ex = v["exact_cost"]
            row.append("-" if ex is None else f"{ex:+g} ({v['exact_decisions']})")
        if rv.phase_units:
            row.append(v["unit"])
        srows.append(row)
    sh = ["phase", "decisions", "as advised", "points lost", "95% interval"]
    if has_exact:
        sh.append("dd cost (decisions)")
    if rv.phase_units:
        sh.append("unit")
    out += _table(sh, srows, {1, 2, 3})
    out.append("")
    if s["costliest"]:
        out.append("Costliest decisions")
        for c in s["costliest"]:
            e = c["cost"]
            lo, hi = e["ci95"]
            interval = "±0" if e["se"] == 0 else f"[{lo:+.2f}, {hi:+.2f}]"
            ex = "" if c["exact_cost"] is None else f"; dd {fmt_exact(c['exact_cost'])}"
            unit = f" {c['unit']}" if rv.phase_units else ""
            out.append(
                f"  #{c['index']} {c['place']}: {c['done']} (advised {c['best']}), "
                f"{e['mean']:+.2f}{unit} {interval}{ex}"
            )
    else:
        out.append("No decision cost anything the advisor could measure.")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------- HTML

_CARD = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")
_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 70rem; margin: 1.5rem auto;
       padding: 0 1rem; color: #222; line-height: 1.4; }
h1, h2, h3 { font-family: Helvetica, Arial, sans-serif; }
h2 { border-bottom: 1px solid #bbb; padding-bottom: .2rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.card { font-family: Helvetica, Arial, sans-serif; font-weight: bold; white-space: nowrap; }
.red { color: #c0142b; } .black { color: #111; }
.mine { background: #eef4ff; }
.cost { display: inline-block; min-width: 3.2rem; padding: 0 .3rem; border-radius: .3rem;
        font-family: Helvetica, Arial, sans-serif; font-size: .8rem; text-align: center; }
.c0 { background: #d8f0d8; } .c1 { background: #fff1b8; } .c2 { background: #ffd2a8; }
.c3 { background: #ffb3b3; } .cx { background: #eee; }
.partial { color: #a00; font-weight: bold; }
.note { color: #555; font-size: .9rem; }
details { margin: .2rem 0; } summary { cursor: pointer; }
"""


def card_html(text: str) -> str:
    """A card string (``"TH"``, ``"10H"``, ``"AS"``) with its suit symbol, red or black;
    anything else escaped as it is."""
    m = _CARD.match(str(text).strip().upper())
    if not m:
        return html.escape(str(text))
    rank, suit = m.groups()
    rank = "10" if rank == "T" else rank
    colour = "red" if suit in "HD" else "black"
    return f'<span class="card {colour}">{rank}{_SUIT_SYMBOL[suit]}</span>'


_CARD_IN_TEXT = re.compile(r"(?<![\w])(10|[2-9TJQKA])([SHDC])(?![\w])")


def cards_html(text: str) -> str:
    """A text with every card in it decorated (:func:`card_html`), the rest escaped."""
    out, last = [], 0
    text = str(text)
    for m in _CARD_IN_TEXT.finditer(text):
        out.append(html.escape(text[last : m.start()]))
        out.append(card_html(m.group(0)))
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def _cost_class(d: DecisionReview, scale: float = 1.0) -> str:
    c = d.exact_cost if d.cost is None else d.cost.mean
    if c is None or not math.isfinite(c):
        return "cx"
    c *= scale
    if c <= 0.05:
        return "c0"
    if c < 1:
        return "c1"
    if c < 3:
        return "c2"
    return "c3"


def _badge_of(d: DecisionReview, scale: float = 1.0) -> str:
    tip = f"#{d.index} {d.place}: {d.done}; advised {d.best or '-'}"
    if d.cost is not None:
        tip += f"; cost {fmt_cost(d.cost)} {fmt_interval(d.cost)}"
    if d.exact_cost is not None:
        tip += f"; dd {fmt_exact(d.exact_cost)}"
    label = "forced" if d.forced else fmt_cost(d.cost)
    if d.cost is None and d.exact_cost is not None:
        label = fmt_exact(d.exact_cost)
    return (
        f'<a href="#d{d.index}" class="cost {_cost_class(d, scale)}" title="{html.escape(tip)}" '
        f'data-decision="{d.index}">{html.escape(label)}</a>'
    )


def _alt_interval(a: Alternative) -> str:
    if a.value is None or a.value.se == 0:
        return ""
    return html.escape(fmt_interval(a.value))


def render_html(rv: Review) -> str:
    """The review as one self-contained HTML page (inline CSS, no script): the summary, the deal
    step by step (``deal["phases"]``: items of text with the decisions they hold) and trick by
    trick (``deal["tricks"]``: each card, the reviewed player's with its cost), then every
    decision with its alternatives."""
    by_index = {d.index: d for d in rv.decisions}
    e = html.escape

    def _badge(d: DecisionReview) -> str:  # the costs coloured on one scale
        return _badge_of(d, rv.rank_scale.get(d.phase, 1.0))

    body = [f"<h1>{e(rv.title)}</h1>"]
    status = f"{len(rv.decisions)} of {rv.total} decisions of {e(rv.player)} reviewed"
    if rv.partial:
        status += ' <span class="partial" id="partial">partial: stopped by Ctrl-C</span>'
    unit = f"{rv.unit}." if rv.phase_units else f"Unit: {rv.unit}."
    body.append(f'<p id="status">{status} in {rv.seconds:.1f} s. {e(unit)}</p>')
    for n in rv.notes:
        body.append(f'<p class="note">{e(n)}</p>')
    has_exact = any(d.exact_cost is not None for d in rv.decisions)

    # summary
    s = rv.summary()
    body.append(
        '<h2 id="summary">Summary</h2><table id="phases"><tr><th>phase</th>'
        "<th>decisions</th><th>as advised</th><th>points lost</th><th>95% interval</th>"
        + ("<th>dd cost (decisions)</th>" if has_exact else "")
        + ("<th>unit</th>" if rv.phase_units else "")
        + "</tr>"
    )
    for ph, v in s["phases"].items():
        c = v["cost"]
        interval = "±0" if c["se"] == 0 else f"[{c['ci95'][0]:+.2f}, {c['ci95'][1]:+.2f}]"
        row = (
            f'<tr data-phase="{e(ph)}"><td>{e(ph)}</td><td class="num">{v["decisions"]}</td>'
            f'<td class="num">{v["agree"]}</td><td class="num">{c["mean"]:+.2f}</td>'
            f'<td class="num">{interval}</td>'
        )
        if has_exact:
            ex = v["exact_cost"]
            ex_text = "-" if ex is None else f"{ex:+g} ({v['exact_decisions']})"
            row += f'<td class="num">{ex_text}</td>'
        if rv.phase_units:
            row += f"<td>{e(v['unit'])}</td>"
        body.append(row + "</tr>")
    body.append("</table>")
    if s["costliest"]:
        body.append('<p>Costliest decisions:</p><ol id="costliest">')
        for c in s["costliest"]:
            d = by_index[c["index"]]
            body.append(
                f'<li><a href="#d{d.index}">#{d.index} {e(d.place)}</a>: '
                f"{cards_html(d.done)} (advised {cards_html(d.best or '-')}) {_badge(d)}</li>"
            )
        body.append("</ol>")

    # the deal
    deal = rv.deal
    body.append('<h2 id="deal">The deal</h2>')
    hands = deal.get("hands") or []
    if hands:
        body.append('<table id="hands"><tr><th>hand</th><th>cards</th></tr>')
        for h in hands:
            cls = ' class="mine"' if h.get("seat") == rv.player else ""
            body.append(
                f"<tr{cls}><td>{e(h.get('label', h.get('seat', '')))}</td>"
                f"<td>{' '.join(card_html(c) for c in h.get('cards', []))}</td></tr>"
            )
        body.append("</table>")
    for ph in deal.get("phases") or []:
        body.append(f'<h3>{e(ph["title"])}</h3><ul class="steps">')
        for item in ph.get("items", []):
            d = by_index.get(item.get("decision"))
            badge = f" {_badge(d)}" if d is not None else ""
            body.append(f"<li>{cards_html(item['text'])}{badge}</li>")
        body.append("</ul>")
    tricks = deal.get("tricks") or []
    if tricks:
        seats = deal.get("seats") or []
        body.append('<h3>Tricks</h3><table id="tricks"><tr><th>trick</th>')
        body += [f"<th>{e(s_)}</th>" for s_ in seats]
        notes = any(t.get("note") for t in tricks)
        body.append("<th>won by</th>" + ("<th>note</th>" if notes else "") + "</tr>")
        for t in tricks:
            cells = {c["seat"]: c for c in t.get("cards", [])}
            row = [
                f'<tr class="trick" data-trick="{t["number"]}"><td class="num">{t["number"]}</td>'
            ]
            for s_ in seats:
                c = cells.get(s_)
                if c is None:
                    row.append("<td></td>")
                    continue
                lead = " (led)" if c.get("led") else ""
                d = by_index.get(c.get("decision"))
                badge = f" {_badge(d)}" if d is not None else ""
                cls = ' class="mine"' if s_ == rv.player else ""
                row.append(f"<td{cls}>{card_html(c['card'])}{e(lead)}{badge}</td>")
            row.append(f"<td>{e(t.get('winner') or '')}</td>")
            if notes:
                row.append(f"<td>{e(t.get('note') or '')}</td>")
            row.append("</tr>")
            body.append("".join(row))
        body.append("</table>")
    for line in deal.get("result") or []:
        body.append(f'<p class="result">{e(line)}</p>')

    # decisions
    body.append('<h2 id="decisions">Decisions</h2>')
    body.append(
        '<table id="rows"><tr><th>#</th><th>phase</th><th>where</th><th>done</th>'
        "<th>advised</th><th>cost</th><th>95% interval</th>"
        + ("<th>dd cost</th><th>dd best</th>" if has_exact else "")
        + "<th>alternatives</th></tr>"
    )
    for d in rv.decisions:
        alts = "".join(
            f"<tr><td>{cards_html(a.action)}</td>"
            f'<td class="num">{"" if a.value is None else f"{a.value.mean:+.2f}"}</td>'
            f'<td class="num">{_alt_interval(a)}</td>'
            f'<td class="num">{"" if a.exact is None else f"{a.exact:+g}"}</td>'
            f"<td>{e(a.note)}</td></tr>"
            for a in d.alternatives
        )
        detail = ""
        if alts:
            detail = (
                f"<details><summary>{len(d.alternatives)} options</summary><table>"
                "<tr><th>option</th><th>value</th><th>95% interval</th><th>exact</th>"
                f'<th></th></tr>{alts}</table><p class="note">{e(d.method)}</p></details>'
            )
        elif d.method:
            detail = f'<span class="note">{e(d.method)}</span>'
        advised = "forced" if d.forced else cards_html(d.best or "-")
        interval = ("" if d.agrees else fmt_interval(d.cost)) + (" (partial)" if d.partial else "")
        row = (
            f'<tr id="d{d.index}" class="decision" data-phase="{e(d.phase)}">'
            f'<td class="num">{d.index}</td><td>{e(d.phase)}</td><td>{e(d.place)}</td>'
            f"<td>{cards_html(d.done)}</td><td>{advised}</td><td>{_badge(d)}</td>"
            f'<td class="num">{e(interval)}</td>'
        )
        if has_exact:
            row += (
                f'<td class="num">{e(fmt_exact(d.exact_cost))}</td>'
                f"<td>{cards_html(d.exact_best or '-')}</td>"
            )
        body.append(row + f"<td>{detail}</td></tr>")
    body.append("</table>")
    body.append(
        '<p class="note">Cost colours: <span class="cost c0">0</span> as good as the advice, '
        '<span class="cost c1">&lt; 1</span>, <span class="cost c2">&lt; 3</span>, '
        '<span class="cost c3">3 or more</span> points (expected; exact when only that is '
        "known).</p>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{e(rv.title)}</title><style>{CSS}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


__all__ = [
    "COSTLIEST",
    "Alternative",
    "Clause",
    "DecisionReview",
    "Record",
    "RecordError",
    "Replay",
    "Review",
    "ReviewBar",
    "Task",
    "Tasks",
    "card_html",
    "card_place",
    "card_task",
    "choose_player",
    "dealt_hand",
    "difference",
    "exact_estimate",
    "raw_clauses",
    "read_record",
    "record_error",
    "record_lines",
    "render_html",
    "render_text",
    "review",
    "review_options",
    "run_command",
    "run_review",
    "settings_from",
    "write_outputs",
]


# ---------------------------------------------------------------------- commands


class ReviewBar:
    """A progress bar on stderr for a review: decisions weighted by their expected seconds,
    the decision in flight named (``bar(weight done, label)``, :func:`run_review`)."""

    def __init__(self, tasks: Sequence[Task], quiet: bool = False):
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn("[bold]review"),
            BarColumn(),
            TextColumn("{task.fields[done]}/{task.fields[n]}"),
            TextColumn("{task.fields[label]}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            disable=quiet,
            transient=True,
        )
        self.n = len(tasks)
        self.done = 0
        total = sum(t.weight for t in tasks) or 1.0
        self.task = self.progress.add_task("review", total=total, done=0, n=self.n, label="")

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def __call__(self, weight: float, label: str) -> None:
        if weight:
            self.done += 1
        self.progress.update(self.task, advance=weight, done=self.done, label=label)


def write_outputs(rv: Review, as_json: bool, html_path: Path | None) -> None:
    """Print the review (text, or JSON with ``as_json``) and write its page to ``html_path``."""
    import click

    from .app.cli import echo_json

    if html_path is not None:
        Path(html_path).write_text(rv.html(), encoding="utf-8")
    if as_json:
        echo_json(rv.to_dict())
    else:
        click.echo(rv.text(), nl=False)
        if html_path is not None:
            click.echo(f"Page written to {html_path}")


def review_options(
    defaults: object,
    quick: object,
    page: str,
    most_worlds: int,
    quick_help: str,
    max_seconds: bool = False,
) -> Callable:
    """A ``review`` command's measuring options, in this order: ``--worlds``,
    ``--exact-limit``, ``--max-seconds`` (with ``max_seconds``), ``--quick`` and ``--html
    FILE``. ``defaults`` and ``quick`` are the game's ``ReviewSettings()`` and its ``QUICK``
    (the help quotes both; the numbers default to None: not given, :func:`settings_from`);
    ``page``: what the page shows ("deal", "round"); ``most_worlds``: the largest
    ``--worlds``."""
    import click

    from .app.cli import OutputPath

    options = [
        click.option(
            "--worlds",
            type=click.IntRange(1, most_worlds),
            default=None,
            help=f"Worlds sampled for a card decision when there are too many to enumerate "
            f"[default: {defaults.worlds}; {quick.worlds} with --quick].",
        ),
        click.option(
            "--exact-limit",
            type=click.IntRange(0, 1_000_000),
            default=None,
            help=f"Enumerate every world of a card decision when there are at most this many "
            f"[default: {defaults.exact_limit}; {quick.exact_limit} with --quick].",
        ),
    ]
    if max_seconds:
        options.append(
            click.option(
                "--max-seconds",
                type=click.FloatRange(0, min_open=True),
                default=None,
                help=f"Stop solving more worlds of a card decision after this long (at least "
                f"16) [default: {defaults.max_seconds:g}; {quick.max_seconds:g} with --quick].",
            )
        )
    options += [
        click.option("--quick", is_flag=True, help=quick_help),
        click.option(
            "--html",
            "html_path",
            type=OutputPath(suffixes=(".html", ".htm")),
            default=None,
            help=f"Also write a page showing the {page} trick by trick with the costs.",
        ),
    ]

    def decorate(func: Callable) -> Callable:
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def settings_from(defaults: object, quick: object, use_quick: bool, **given: object) -> object:
    """A review's settings: ``quick`` with ``use_quick``, else ``defaults``, with every ``given``
    value that is not None in place of the setting of its name."""
    base = (quick if use_quick else defaults).to_dict()
    return type(defaults)(**{**base, **{k: v for k, v in given.items() if v is not None}})


def choose_player(rec: object, seat: int | None) -> None:
    """``--player``: review ``seat``'s decisions instead of the record's ``player`` (None: keep
    it); without every hand only the record's player can be (a one-line usage error)."""
    import click

    if seat is None:
        return
    if not rec.full and seat != rec.player:
        raise click.UsageError("only the record's player can be reviewed without every hand")
    rec.player = seat


def run_command(
    game: object,
    rec: object,
    rules: object,
    settings: object,
    quiet: bool,
    as_json: bool,
    html_path: Path | None,
) -> None:
    """A ``review`` command's work: the game's review module ``game`` (its ``review_tasks``,
    ``entry_kernels`` and ``review_from_tasks``) measures ``rec`` under a progress bar (a
    compile notice first on a cold cache), then the review is printed and its page written
    (:func:`write_outputs`)."""
    from .app.cli import compile_notice

    tasks, deal, notes = game.review_tasks(rec, rules, settings)
    compile_notice(*game.entry_kernels(), quiet=quiet or as_json, expect="a few minutes")
    with ReviewBar(tasks, quiet=quiet) as bar:
        rv = game.review_from_tasks(rec, rules, settings, tasks, deal, notes, progress=bar)
    write_outputs(rv, as_json, html_path)
