"""Racing candidates on common random numbers: which of many choices is best, measured on the
same sampled worlds, spending samples where they decide something.

A game supplies the candidates (by index) and a world evaluator: ``evaluate(alive, start, n)``
values every alive candidate on worlds ``start .. start+n-1`` (the same worlds for all: common
random numbers) and returns float64[len(alive), m], the value of each candidate on each of the
``m <= n`` worlds that were usable. :class:`Race` then runs rounds:

* every alive candidate gets the worlds ``0 .. target-1`` (always a shared prefix);
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
    """When a race drops candidates and when it stops (values are in the evaluator's units)."""

    precision: float | None  # stop when the `confident` best have this standard error
    max_samples: int  # most worlds any candidate gets
    floor: int = 10  # successive halving stops at this many candidates
    budget: int = 60_000  # evaluations per call of the evaluator, at most
    deadline: float | None = None  # time.perf_counter() value after which the race stops
    first_round: int = 64  # worlds every candidate gets before any is dropped
    confident: int = 5  # how many best candidates the precision target applies to
    drop_z: float = 3.0  # a candidate is dropped at this many paired SEs behind the leader


@dataclass
class RaceResult:
    """``alive``: candidates still racing at the end (indices); ``values[c]``: candidate c's
    values on the worlds it saw (a prefix shared by all that were alive as long); ``reason``:
    "precision", "samples", "time limit" or "interrupted"; ``log``: one entry per round."""

    alive: np.ndarray
    values: list[np.ndarray]
    reason: str
    evaluations: int
    log: list[dict] = field(default_factory=list)


class _Stop(Exception):
    pass


class Race:
    """One race of ``n_candidates`` candidates (see the module docstring). ``progress`` is
    called after every evaluator call with {"phase", "round", "alive", "worlds", "target",
    "evaluations"}."""

    def __init__(
        self,
        n_candidates: int,
        evaluate: Callable[[np.ndarray, int, int], np.ndarray],
        settings: RaceSettings,
        phase: str = "race",
        progress: Callable[[dict], None] | None = None,
    ):
        self.evaluate = evaluate
        self.s = settings
        self.phase = phase
        self.progress = progress
        self.values: list[list[np.ndarray]] = [[] for _ in range(n_candidates)]
        self.alive = np.arange(n_candidates)
        self.seen = 0  # worlds 0..seen-1 evaluated by every alive candidate
        self.evaluations = 0
        self.round = 0
        self.log: list[dict] = []

    def run(self) -> RaceResult:
        """Race until a stopping rule holds; returns what was measured."""
        target = min(self.s.first_round, self.s.max_samples)
        reason = "samples"
        while True:
            try:
                self._sample_to(target)
            except _Stop as stop:
                reason = str(stop)
                break
            except KeyboardInterrupt:
                reason = "interrupted"
                break
            self.round += 1
            done, target = self._select()
            if done is not None:
                reason = done
                break
        values = [np.concatenate(x) if x else np.zeros(0) for x in self.values]
        return RaceResult(self.alive, values, reason, self.evaluations, self.log)

    def _sample_to(self, target: int) -> None:
        """Evaluate the alive candidates on worlds seen..target-1, in steps within the budget."""
        while self.seen < target:
            step = max(1, min(target - self.seen, self.s.budget // len(self.alive)))
            vals = self.evaluate(self.alive, self.seen, step)
            for i, c in enumerate(self.alive):
                self.values[c].append(vals[i])
            self.seen += step
            self.evaluations += step * len(self.alive)
            if self.progress is not None:
                self.progress(
                    {
                        "phase": self.phase,
                        "round": self.round,
                        "alive": len(self.alive),
                        "worlds": self.seen,
                        "target": target,
                        "evaluations": step * len(self.alive),
                    }
                )
            if self.s.deadline is not None and time.perf_counter() > self.s.deadline:
                raise _Stop("time limit")
            if stop_requested():
                raise _Stop("interrupted")

    def _select(self) -> tuple[str | None, int]:
        """After a round: (stop reason or None, next target); drops the clear losers."""
        s = self.s
        mat = np.stack([np.concatenate(self.values[c]) for c in self.alive]).astype(np.float64)
        n = mat.shape[1]
        means = mat.mean(axis=1)
        sds = mat.std(axis=1, ddof=1) if n > 1 else np.full(len(self.alive), np.inf)
        order = np.argsort(-means, kind="stable")
        top = order[: min(s.confident, len(self.alive))]
        entry = {
            "phase": self.phase,
            "round": self.round,
            "worlds": self.seen,
            "alive": len(self.alive),
        }
        if s.precision is not None and n > 1 and np.all(sds[top] / math.sqrt(n) <= s.precision):
            self.log.append(entry | {"kept": len(self.alive)})
            return "precision", self.seen
        if self.seen >= s.max_samples:
            self.log.append(entry | {"kept": len(self.alive)})
            return "samples", self.seen
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
        self.alive = self.alive[np.sort(np.flatnonzero(keep))]
        self.log.append(entry | {"kept": len(self.alive)})
        if len(self.alive) > s.floor:
            nxt = 2 * self.seen
        else:
            kept_sd = sds[[i for i in order if keep[i]][: min(s.confident, len(self.alive))]]
            need = self.seen
            if s.precision is not None and np.all(np.isfinite(kept_sd)):
                need = int(math.ceil(1.05 * (kept_sd.max() / s.precision) ** 2))
            nxt = max(self.seen + s.first_round, min(need, 4 * self.seen))
        return None, min(s.max_samples, nxt)


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
