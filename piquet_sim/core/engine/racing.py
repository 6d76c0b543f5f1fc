"""Racing candidates on common random numbers: which of many choices is best, measured on the
same sampled worlds, spending samples where they decide something.

:func:`run_race` is the one race driver. It gives every alive candidate the worlds
``0 .. target-1`` (always a shared prefix) in calls of a game's sampling step, ``sample(alive,
start, n)``, of at most ``budget`` evaluations each, reporting progress and stopping at the
deadline or on Ctrl-C between calls; after each round a selection rule, ``select(alive,
worlds)``, keeps the candidates that go on and says whether the race stops or how many worlds
the next round reaches. The driver logs every round.

:func:`race` is the plain race of evaluator values: ``evaluate(alive, start, n)`` values every
alive candidate on worlds ``start .. start+n-1`` (the same worlds for all: common random
numbers) and returns float64[len(alive), m], the value of each candidate on each of the
``m <= n`` worlds that were usable. Its rule (:class:`HalvingRule`):

* a candidate is dropped when the leader beats it by more than ``drop_z`` paired standard errors
  on the worlds they share; the ``confident`` best always go on;
* while more than ``floor`` remain, the worse half by mean goes too (successive halving);
* survivors get more worlds (doubling while many remain; then what the precision target needs)
  until the ``confident`` best have a standard error at most ``precision``, ``max_samples``
  worlds, the deadline, or Ctrl-C.

:func:`compare_leaders` then gives each leader's probability of being truly best (normal
approximation to the joint law of the means on shared worlds) and the paired gap of the best to
the second. Larger values are better.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .backend import stop_requested
from .stats import Z95

P_BEST_DRAWS = 20_000


@dataclass(frozen=True)
class RaceSettings:
    """When a race drops candidates and when it stops (values are in the evaluator's units).
    The driver reads ``max_samples``, ``budget``, ``deadline`` and ``first_round``; the rest are
    the selection rule's."""

    precision: float | None  # stop when the `confident` best have this standard error
    max_samples: int  # most worlds any candidate gets
    floor: int = 10  # successive halving stops at this many candidates
    budget: int = 60_000  # evaluations per call of the sampling step, at most
    deadline: float | None = None  # time.perf_counter() value after which the race stops
    first_round: int = 64  # worlds every candidate gets before any is dropped
    confident: int = 5  # how many best candidates the precision target applies to
    drop_z: float = 3.0  # a candidate is dropped at this many paired SEs behind the leader


@dataclass(frozen=True)
class Selection:
    """A selection rule's verdict after a round: the candidates that go on (indices, sorted),
    why the race stops ("precision", "samples", "indifference"; None: it goes on), when it goes
    on the worlds every survivor has by the end of the next round, and for a rule with an
    indifference zone the candidates it judged tied with the leader."""

    alive: np.ndarray
    stop: str | None
    target: int
    tied: np.ndarray | None = None  # an indifference stop: the candidates tied with the leader


#: ``sample(alive, start, n)``: evaluate the ``alive`` candidates on worlds start..start+n-1
#: and keep what the rule needs (the driver keeps nothing).
SampleStep = Callable[[np.ndarray, int, int], None]
#: ``select(alive, worlds)``: after a round in which every alive candidate reached ``worlds``.
SelectRule = Callable[[np.ndarray, int], Selection]


@dataclass
class RaceRun:
    """What the driver did: ``alive``, the candidates still racing at the end; ``reason``,
    "precision", "samples", "indifference", "time limit" or "interrupted"; ``evaluations``
    (candidate-worlds); ``worlds`` every alive candidate reached; ``log``, one entry per
    completed round; ``tied``, the last verdict's candidates tied with the leader (None when the
    rule judges no ties)."""

    alive: np.ndarray
    reason: str
    evaluations: int
    worlds: int
    log: list[dict] = field(default_factory=list)
    tied: np.ndarray | None = None


class _Stop(Exception):
    pass


def run_race(
    n_candidates: int,
    sample: SampleStep,
    select: SelectRule,
    settings: RaceSettings,
    phase: str = "race",
    progress: Callable[[dict], None] | None = None,
) -> RaceRun:
    """Race ``n_candidates`` candidates (module docstring) until the rule stops the race, the
    deadline passes or Ctrl-C. ``progress`` is called after every sampling call with {"phase",
    "round" (0-based), "alive", "worlds", "target", "evaluations" (of the call)}; the log's
    entries are {"phase", "round" (1-based), "worlds", "alive", "kept"}."""
    s = settings
    alive = np.arange(n_candidates)
    seen = 0  # worlds 0..seen-1 evaluated by every alive candidate
    evaluations = 0
    rounds = 0
    log: list[dict] = []
    tied = None
    target = min(s.first_round, s.max_samples)
    while True:
        try:
            while seen < target:
                step = max(1, min(target - seen, s.budget // len(alive)))
                sample(alive, seen, step)
                seen += step
                evaluations += step * len(alive)
                if progress is not None:
                    progress(
                        {
                            "phase": phase,
                            "round": rounds,
                            "alive": len(alive),
                            "worlds": seen,
                            "target": target,
                            "evaluations": step * len(alive),
                        }
                    )
                if s.deadline is not None and time.perf_counter() > s.deadline:
                    raise _Stop("time limit")
                if stop_requested():
                    raise _Stop("interrupted")
        except _Stop as stop:
            reason = str(stop)
            break
        except KeyboardInterrupt:
            reason = "interrupted"
            break
        rounds += 1
        verdict = select(alive, seen)
        log.append(
            {
                "phase": phase,
                "round": rounds,
                "worlds": seen,
                "alive": len(alive),
                "kept": len(verdict.alive),
            }
        )
        alive = verdict.alive
        tied = verdict.tied
        if verdict.stop is not None:
            reason = verdict.stop
            break
        target = verdict.target
    return RaceRun(alive, reason, evaluations, seen, log, tied)


class WorldValues:
    """A sampling step that keeps an evaluator's values: ``evaluate(alive, start, n)`` returns
    float64[len(alive), m], each alive candidate's value on the ``m <= n`` usable worlds."""

    def __init__(self, n_candidates: int, evaluate: Callable[[np.ndarray, int, int], np.ndarray]):
        self.evaluate = evaluate
        self.parts: list[list[np.ndarray]] = [[] for _ in range(n_candidates)]

    def __call__(self, alive: np.ndarray, start: int, n: int) -> None:
        vals = self.evaluate(alive, start, n)
        for i, c in enumerate(alive):
            self.parts[c].append(vals[i])

    def of(self, c: int) -> np.ndarray:
        """Candidate c's values on the worlds it saw (empty if none)."""
        return np.concatenate(self.parts[c]) if self.parts[c] else np.zeros(0)


class HalvingRule:
    """The plain race's selection rule (module docstring) over the values of ``values``."""

    def __init__(self, settings: RaceSettings, values: WorldValues):
        self.s = settings
        self.values = values

    def __call__(self, alive: np.ndarray, seen: int) -> Selection:
        s = self.s
        mat = np.stack([self.values.of(c) for c in alive]).astype(np.float64)
        n = mat.shape[1]
        means = mat.mean(axis=1)
        sds = mat.std(axis=1, ddof=1) if n > 1 else np.full(len(alive), np.inf)
        order = np.argsort(-means, kind="stable")
        top = order[: min(s.confident, len(alive))]
        if s.precision is not None and n > 1 and np.all(sds[top] / math.sqrt(n) <= s.precision):
            return Selection(alive, "precision", seen)
        if seen >= s.max_samples:
            return Selection(alive, "samples", seen)
        diff = mat[order[0]] - mat
        d_mean = diff.mean(axis=1)
        d_se = diff.std(axis=1, ddof=1) / math.sqrt(n) if n > 1 else np.full(len(mat), np.inf)
        keep = ~(d_mean > s.drop_z * d_se)
        keep[order[: s.confident]] = True  # the best always go on (their SEs are the target)
        if keep.sum() > s.floor:  # successive halving while many remain
            ranked = [i for i in order if keep[i]]
            cut = max(s.floor, (len(ranked) + 1) // 2)
            keep[:] = False
            keep[ranked[:cut]] = True
        kept = alive[np.sort(np.flatnonzero(keep))]
        if len(kept) > s.floor:
            nxt = 2 * seen
        else:
            kept_sd = sds[[i for i in order if keep[i]][: min(s.confident, len(kept))]]
            need = seen
            if s.precision is not None and np.all(np.isfinite(kept_sd)):
                need = int(math.ceil(1.05 * (kept_sd.max() / s.precision) ** 2))
            nxt = max(seen + s.first_round, min(need, 4 * seen))
        return Selection(kept, None, min(s.max_samples, nxt))


@dataclass
class RaceResult:
    """A plain race (:func:`race`): the driver's run and ``values[c]``, candidate c's values on
    the worlds it saw (a prefix shared by all that were alive as long)."""

    run: RaceRun
    values: list[np.ndarray]


def race(
    n_candidates: int,
    evaluate: Callable[[np.ndarray, int, int], np.ndarray],
    settings: RaceSettings,
    phase: str = "race",
    progress: Callable[[dict], None] | None = None,
) -> RaceResult:
    """Race ``n_candidates`` candidates on ``evaluate``'s values with :class:`HalvingRule`."""
    values = WorldValues(n_candidates, evaluate)
    run = run_race(n_candidates, values, HalvingRule(settings, values), settings, phase, progress)
    return RaceResult(run, [values.of(c) for c in range(n_candidates)])


def compare_leaders(values: list[np.ndarray], seed: int) -> tuple[list[float | None], dict]:
    """(probability each leader is truly best, comparison dict) for leaders given best first by
    their values on shared worlds (the shortest prefix is used). The dict holds the worlds, the
    paired gap of the first to the second with its SE and 95% interval, whether the two are
    identical on every world, and whether they can be told apart (interval above 0). With fewer
    than two shared worlds (a race stopped in its first batch) there is nothing to compare:
    the probabilities are None and the dict says so."""
    if len(values) < 2:
        return [1.0] * len(values), {"distinguishable": True, "note": "only one candidate"}
    n = min(len(x) for x in values)
    if n < 2:
        note = f"{n} shared world{'s' if n != 1 else ''}: too few to compare"
        return [None] * len(values), {"worlds": n, "distinguishable": False, "note": note}
    mat = np.stack([x[:n] for x in values]).astype(np.float64)
    means = mat.mean(axis=1)
    cov = np.cov(mat) / n
    rng = np.random.default_rng(seed)
    draws = rng.multivariate_normal(means, cov, size=P_BEST_DRAWS, method="eigh")
    # ties (identical candidates on every world) share the win
    best = draws.max(axis=1, keepdims=True)
    wins = (draws >= best - 1e-12).astype(float)
    wins /= wins.sum(axis=1, keepdims=True)
    p_best = [float(p) for p in wins.mean(axis=0)]
    d = mat[0] - mat[1]
    gap = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else float("inf")
    lo, hi = gap - Z95 * se, gap + Z95 * se
    return p_best, {
        "worlds": n,
        "p_best": p_best,
        "gap_to_second": gap,
        "gap_ci95": [lo, hi],
        "gap_se": se,
        "identical_on_every_world": bool(np.all(d == 0)),
        "distinguishable": bool(lo > 0),
    }
