"""Equal-time ladders: outside players against ours on mirrored deals, each player's count
(our pimc's worlds, IS-MCTS's simulations, a timed bot's milliseconds) set by measured time so
both sides spend about the same time a move, resumable from the results file it writes. Time is
the process's CPU time a move (:class:`.arena.TimedPlay`): on a machine other jobs share,
wall-clock time says more about the load than about the player (both are recorded).

A player (:class:`Player`) is a spec as the user gave it and, when its cost is a count, how to
build it at any count. :func:`calibrate` plays a few probe deals (their own deals, apart from
the match's) at two counts, fits milliseconds a move as a line in the count and picks the count
giving the budget. :func:`ladder` plays every row (outside player v one of ours) deal by deal
in the arena's seatings (:func:`.arena.deal_margin`), each deal's margin kept, and writes the
results file (:class:`LadderFile`) as it goes: run again with the same file, the finished deals
are skipped and new ones appended, with the calibrated counts read back, so an interrupted run
resumed ends where an uninterrupted one does (every player reseeded per deal and seating:
``new_deal``; players timed by the clock, such as colver's IS-MCTS, repeat only as far as the
machine's speed does).
"""

from __future__ import annotations

import json
import os
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..engine.backend import Cancel, StopOnInterrupt
from ..engine.errors import InputError
from ..engine.stats import Estimate
from ..game.position import Decider
from .arena import DealStopped, TimedPlay, deal_margin, play_deal
from .external import Arena

#: Probe deals are drawn from indices above this, apart from any match's deals.
PROBE_BASE = 1_000_000


@dataclass(frozen=True)
class Player:
    """One side of a ladder row: ``spec`` as given (``colver:isdd``, ``ismcts:100``, ``pimc``);
    ``make(count)`` its decider (``count`` None: the spec's own); ``unit`` the name of its count
    (``worlds``, ``simulations``, ``ms``) when ``--budget-ms`` may set it, "" when fixed;
    ``bounds`` the count's range."""

    spec: str
    outside: bool
    make: Callable[[int | None], Decider]
    unit: str = ""
    bounds: tuple[int, int] = (1, 1 << 30)

    def name(self, count: int | None) -> str:
        """Our player's row name at ``count`` (an outside player's is its decider's)."""
        return self.spec if count is None else f"{self.spec}:{self.unit}={count}"


def outside_player(
    game: str, spec: str, budgeted: bool, decider_of: Callable[[str, str], Decider]
) -> Player:
    """An outside player ``kind:bot[:count]`` (:data:`.arena.EXTERNAL`): when ``budgeted`` and
    the spec names no count for a bot its kind counts (``ExternalKind.counts``), the count is
    left to the calibration (``decider_of(game, spec)`` builds a decider)."""
    from .arena import EXTERNAL, split_spec

    kind, bot, count = split_spec(spec)
    entry = EXTERNAL.get(kind)
    counted = entry.counts.get(bot) if entry is not None else None
    if not budgeted or count is not None or counted is None:
        return Player(spec, True, lambda _n: decider_of(game, spec))
    unit, lo = counted

    def make(n: int | None) -> Decider:
        return decider_of(game, spec if n is None else ":".join(filter(None, (kind, bot, str(n)))))

    return Player(spec, True, make, unit, (lo, 1 << 30))


def our_player(arena: Arena, spec: str, budgeted: bool) -> Player:
    """One of our play policies, ``name`` or ``name:<param>=<value>,...`` (``pimc:worlds=20``:
    the count fixed, as an outside player's ``ismcts:100``; ``pimc:own=1``: another of its
    parameters, the count still left to the calibration); a count not given is left to the
    calibration when ``budgeted`` (``arena.counts``: each counted policy's unit and range).
    InputError, one line, for a count the policy does not take or out of its range, or a
    parameter its registry refuses."""
    name, _, given = spec.partition(":")
    params: dict[str, float] = {}
    counted = arena.counts.get(name)
    for item in filter(None, given.split(",")):
        key, _, value = item.partition("=")
        if counted is not None and key == counted[0]:
            lo, hi = counted[1], counted[2]
            if not value.isdigit() or not lo <= int(value) <= hi:
                raise InputError(f"{spec}: {key} is a whole number from {lo} to {hi}")
            params[key] = int(value)
            continue
        try:
            params[key] = float(value)
        except ValueError:
            raise InputError(f"{spec}: {key} takes a number") from None
        try:
            arena.our_play(name, params)  # the registry's check: one line
        except Exception as exc:  # noqa: BLE001 - any refusal is the same one line
            if isinstance(exc, ValueError) and key in str(exc):  # the registry's own words
                raise InputError(f"{spec}: {exc}") from None
            takes = f"takes {counted[0]}=N" if counted else "takes no count"
            raise InputError(f"{spec}: {name} {takes}") from None
    fixed = counted is not None and counted[0] in params
    if fixed or not budgeted or counted is None:
        label = spec if params else name
        return Player(label, False, lambda _n: arena.our_play(name, params or None))
    unit, lo, hi = counted

    def make(n: int | None) -> Decider:
        chosen = params if n is None else {**params, unit: n}
        return arena.our_play(name, chosen or None)

    return Player(spec if params else name, False, make, unit, (lo, hi))


# ---------------------------------------------------------------------- calibration
def _probe(arena: Arena, player: Player, count: int, deals: int, cancel: Cancel) -> dict:
    """CPU (and wall-clock) milliseconds a move of ``player`` at ``count`` over ``deals``
    probe deals in every seating, on its side of a match (an outside player on the seats a
    seating gives it, ours on the others) against our heuristic, after one seating unmeasured
    (a first move loads compiled kernels)."""
    timed = TimedPlay(player.make(count))
    mine = arena.seat(timed)
    field_ = arena.seat(arena.our_play("heuristic"))
    warm = arena.seatings[0]
    stop = lambda: cancel.is_set  # noqa: E731 - read before each move
    try:
        seats = [mine if m == player.outside else field_ for m in warm]
        play_deal(arena.deal(PROBE_BASE - 1), seats, stop=stop)
        timed.moves, timed.seconds, timed.cpu_seconds = 0, 0.0, 0.0
        for j in range(deals):
            for k, seating in enumerate(arena.seatings):
                if cancel.is_set:
                    break
                _new_deal(timed, PROBE_BASE + j, 0, k)
                seats = [mine if m == player.outside else field_ for m in seating]
                play_deal(arena.deal(PROBE_BASE + j), seats, stop=stop)
    except DealStopped:  # Ctrl-C: the probe's moves so far are its measure
        pass
    return {
        "count": count,
        "ms_per_move": round(timed.cpu_seconds_per_move * 1e3, 3),
        "wall_ms_per_move": round(timed.seconds_per_move * 1e3, 3),
        "moves": timed.moves,
    }


def count_for_budget(probes: list[dict], budget_ms: float, most: float) -> float:
    """The count whose CPU milliseconds a move is ``budget_ms``, from ``probes`` (``count``,
    ``ms_per_move``): the least-squares line through every probe when they hold two counts or
    more and it rises, else the last probe scaled in proportion (``most`` when it took no
    time). A line through all the probes, not through the last two: two probes of close counts
    on a loaded machine can give a slope far off (counts 370 and 305 at 606 and 583 ms said 78
    for 500 ms, where 305 alone scales to 262)."""
    counts = np.array([p["count"] for p in probes], dtype=float)
    ms = np.array([p["ms_per_move"] for p in probes], dtype=float)
    if len(set(counts)) > 1:
        slope, intercept = np.polyfit(counts, ms, 1)
        if slope > 0:
            return (budget_ms - intercept) / slope
    return counts[-1] * budget_ms / ms[-1] if ms[-1] > 0 else most


def calibrate(
    arena: Arena,
    player: Player,
    budget_ms: float,
    deals: int = 3,
    cancel: Cancel | None = None,
    probes: int = 3,
    tolerance: float = 0.15,
) -> dict:
    """The count of ``player`` whose CPU time a move is ``budget_ms`` milliseconds: a first
    probe (at 4, or at the budget for a count in ms), then up to ``probes`` - 1 more, each at
    the count :func:`count_for_budget` gives (the line through the probes so far), clamped to
    the player's bounds; it stops once a probe is within ``tolerance`` of the budget, and
    answers the count the last line gives. Returns ``{"count", "unit",
    "budget_ms", "probes": [{"count", "ms_per_move" (CPU), "wall_ms_per_move", "moves"}, …]}``
    (a count at a bound may miss the budget: the probes say by how much)."""
    cancel = cancel or Cancel()
    lo, hi = player.bounds

    def clamp(x: float) -> int:
        return int(min(hi, max(lo, round(x))))

    def next_count(done: list[dict]) -> int:
        return clamp(count_for_budget(done, budget_ms, hi))

    done = [_probe(arena, player, clamp(budget_ms if player.unit == "ms" else 4), deals, cancel)]
    count = next_count(done)
    while len(done) < probes and not cancel.is_set:
        if abs(done[-1]["ms_per_move"] - budget_ms) <= tolerance * budget_ms:
            count = done[-1]["count"]
            break
        if count in {p["count"] for p in done}:
            break
        done.append(_probe(arena, player, count, deals, cancel))
        count = next_count(done)
    return {"count": count, "unit": player.unit, "budget_ms": budget_ms, "probes": done}


# ---------------------------------------------------------------------- the results file
@dataclass
class LadderFile:
    """A ladder's results file (JSON): the run's settings (``game``, ``rules``, ``seed``,
    ``budget_ms``, ``perspective``), the commands that made it, each calibrated player's count
    (``calibration``: spec -> :func:`calibrate`'s dict) and the rows, each with its per-deal
    margins (deals 0, 1, … in order) and timing totals, so a run can continue it."""

    path: Path | None
    data: dict = field(default_factory=dict)

    @classmethod
    def open(
        cls, path: str | Path | None, arena: Arena, seed: int, budget_ms: float | None
    ) -> LadderFile:
        """The file at ``path`` (new when absent); InputError when it was made with another
        game, rules, seed or budget (its rows would not continue)."""
        settings = {
            "game": arena.game,
            "rules": arena.rules,
            "seed": seed,
            "budget_ms": budget_ms,
        }
        path = Path(path) if path else None
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text())
            except (OSError, ValueError) as e:
                raise InputError(f"--resume {path}: not a results file ({e})") from None
            for key, value in settings.items():
                if data.get(key) != value:
                    raise InputError(
                        f"--resume {path}: made with {key} {data.get(key)!r}, not {value!r} "
                        "(its deals would not continue): give another file"
                    )
            return cls(path, data)
        data = settings | {
            "perspective": arena.perspective,
            "commands": [],
            "calibration": {},
            "rows": [],
        }
        return cls(path, data)

    def row(self, a: str, b: str) -> dict | None:
        """The stored row of outside spec ``a`` against our spec ``b``."""
        for r in self.data["rows"]:
            if (r.get("a_spec"), r.get("b_spec")) == (a, b):
                return r
        return None

    def save(self) -> None:
        """Write the file (atomically: a temporary file renamed over it)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self.data, indent=1) + "\n")
        os.replace(tmp, self.path)


# ---------------------------------------------------------------------- the ladder
def _deal_key(seed: int, deal: int, seating: int) -> int:
    return zlib.crc32(f"{seed}:{deal}:{seating}".encode())


def _new_deal(decider: Decider, seed: int, deal: int, seating: int) -> None:
    """Reseed a player that draws from its own stream (``new_deal(key)``) for one deal and
    seating, so its decisions there do not depend on the deals played before."""
    hook = getattr(decider, "new_deal", None)
    if hook is not None:
        hook(_deal_key(seed, deal, seating))


@dataclass
class _Row:
    a: Player
    b: Player
    counts: tuple[int | None, int | None]
    stored: dict
    theirs: TimedPlay | None = None
    mine: TimedPlay | None = None
    seats: tuple[Decider, Decider] | None = None

    def sides(self, arena: Arena) -> tuple[TimedPlay, TimedPlay, Decider, Decider]:
        if self.seats is None:
            self.theirs = self.theirs or TimedPlay(self.a.make(self.counts[0]))
            self.mine = TimedPlay(self.b.make(self.counts[1]))
            a, b = arena.seat(self.theirs), arena.seat(self.mine)
            a.name, b.name = self.stored["a"], self.stored["b"]
            self.seats = (a, b)
        return self.theirs, self.mine, *self.seats


def _new_row(a: Player, theirs: Decider, b: Player, counts, arena: Arena, budget_ms) -> dict:
    return {
        "a": theirs.name,
        "b": b.name(counts[1]),
        "a_spec": a.spec,
        "b_spec": b.spec,
        "counts": {"a": counts[0], "b": counts[1]},
        "budget_ms": budget_ms,
        "deals": 0,
        "margin_per_deal": None,
        "seconds_per_move": {"a": 0.0, "b": 0.0},
        "cpu_seconds_per_move": {"a": 0.0, "b": 0.0},
        "moves": {"a": 0, "b": 0},
        "move_seconds": {"a": 0.0, "b": 0.0},
        "move_cpu_seconds": {"a": 0.0, "b": 0.0},
        "external": True,
        "oracle": False,
        "b_oracle": b.spec in arena.oracles,
        "seconds": 0.0,
        "partial": False,
        "margins": [],
    }


def _settle(row: dict, theirs: TimedPlay, mine: TimedPlay, base: dict) -> None:
    """The row's estimate and timing from its margins and the totals before this run
    (``base``) plus this run's clocks."""
    x = np.asarray(row["margins"], dtype=np.float64)
    row["deals"] = len(x)
    row["margin_per_deal"] = Estimate.of_sample(x).to_dict() if len(x) else None
    for side, clock in (("a", theirs), ("b", mine)):
        moves = base["moves"][side] + clock.moves
        seconds = base["move_seconds"][side] + clock.seconds
        cpu = base["move_cpu_seconds"][side] + clock.cpu_seconds
        row["moves"][side] = moves
        row["move_seconds"][side] = round(seconds, 4)
        row["move_cpu_seconds"][side] = round(cpu, 4)
        row["seconds_per_move"][side] = seconds / moves if moves else 0.0
        row["cpu_seconds_per_move"][side] = cpu / moves if moves else 0.0
    row["oracle"] = theirs.oracle


def ladder(
    arena: Arena,
    outside: Sequence[Player],
    ours: Sequence[Player],
    deals: int,
    seed: int = 1,
    budget_ms: float | None = None,
    results: LadderFile | None = None,
    block: int | None = None,
    calibration_deals: int = 3,
    progress: Callable[[int], None] | None = None,
    on_row: Callable[[dict], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    cancel: Cancel | None = None,
    save_every: float = 10.0,
) -> LadderFile:
    """Each outside player against each of ours on deals 0..``deals``-1 (each in every seating
    of ``arena``), continuing ``results`` (its finished deals skipped, new ones appended; its
    calibrated counts reused). With ``budget_ms``, every counted player not yet calibrated is
    (:func:`calibrate`) first. Rows take turns ``block`` deals at a time (None: row after row).
    ``progress(1)`` after each deal, ``on_row(row)`` when a row reaches ``deals``,
    ``on_note(text)`` for the calibration's results. The file is saved every ``save_every``
    seconds and at the end; Ctrl-C (``cancel``) stops after the deal in flight, its rows
    marked partial."""
    cancel = cancel or Cancel()
    results = results or LadderFile(None, {"rows": [], "calibration": {}})
    calibration = results.data.setdefault("calibration", {})
    rows: list[_Row] = []
    with StopOnInterrupt() as guard:

        def halt() -> bool:
            return guard.stop or cancel.is_set

        for player in (*outside, *ours):
            if budget_ms is None or not player.unit or player.spec in calibration:
                continue
            if guard.stop or cancel.is_set:
                break
            measured = calibrate(arena, player, budget_ms, calibration_deals, cancel)
            if cancel.is_set:  # stopped while probing: not a count to keep or reuse
                break
            calibration[player.spec] = measured
            results.save()
            if on_note is not None:
                c = calibration[player.spec]
                probes = ", ".join(
                    f"{p['count']} {player.unit}: {p['ms_per_move']:.1f} ms" for p in c["probes"]
                )
                on_note(f"{player.spec}: {c['count']} {player.unit} a move (CPU {probes})")

        def count(p: Player) -> int | None:
            c = calibration.get(p.spec) if budget_ms is not None and p.unit else None
            return None if c is None else int(c["count"])

        for a in outside:
            for b in ours:
                stored = results.row(a.spec, b.spec)
                theirs = None
                if stored is None:  # joins the file with its first deal
                    theirs = TimedPlay(a.make(count(a)))
                    stored = _new_row(a, theirs, b, (count(a), count(b)), arena, budget_ms)
                rows.append(_Row(a, b, (count(a), count(b)), stored, theirs))
        bases = {id(r): json.loads(json.dumps(r.stored)) for r in rows}
        block = block or deals
        last_save = time.monotonic()
        stopped = guard.stop or cancel.is_set
        for start in range(0, deals, block):
            for row in rows:
                stored = row.stored
                done = len(stored["margins"])
                end = min(start + block, deals)
                if done >= end or stopped:
                    continue
                theirs, mine, a, b = row.sides(arena)
                t0 = time.perf_counter()
                for i in range(max(done, start), end):
                    if halt():
                        stopped = True
                        break

                    def reseed(k: int, i: int = i, players=(theirs, mine)) -> None:
                        for player in players:
                            _new_deal(player, seed, i, k)

                    try:
                        margin = deal_margin(
                            lambda i=i: arena.deal(i), a, b, arena.seatings, None, halt, reseed
                        )
                    except DealStopped:  # Ctrl-C in the deal: given up, not counted
                        stopped = True
                        break
                    if not stored["margins"]:
                        results.data["rows"].append(stored)
                    stored["margins"].append(round(margin, 6))
                    stored["seconds"] = round(stored["seconds"] + time.perf_counter() - t0, 2)
                    t0 = time.perf_counter()
                    _settle(stored, theirs, mine, bases[id(row)])
                    if progress is not None:
                        progress(1)
                    if time.monotonic() - last_save > save_every:
                        results.save()
                        last_save = time.monotonic()
                if len(stored["margins"]) >= deals and on_row is not None:
                    on_row(stored)
        for row in rows:
            row.stored["partial"] = len(row.stored["margins"]) < deals
        results.data["partial"] = bool(stopped)
        if stopped:
            cancel.set()
    results.save()
    return results


__all__ = [
    "PROBE_BASE",
    "LadderFile",
    "Player",
    "calibrate",
    "ladder",
    "our_player",
    "outside_player",
]
