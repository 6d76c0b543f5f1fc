"""core.racing: the race driver, the plain race and compare_leaders on hand-made values (no
kernel runs)."""

from __future__ import annotations

import math
import time
import warnings

import numpy as np
import pytest

from piquet_sim.core.engine.backend import StopOnInterrupt
from piquet_sim.core.engine.racing import RaceSettings, Selection, compare_leaders, race, run_race


@pytest.mark.parametrize("n", [0, 1])
def test_leaders_without_two_shared_worlds_are_not_compared(n):
    """A race stopped in its first batch (Ctrl-C during a refine) leaves leaders with no shared
    worlds: no "Mean of empty slice" warning, no probabilities, no gap."""
    values = [np.arange(5, dtype=float), np.zeros(n), np.ones(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p_best, cmp = compare_leaders(values, seed=1)
    assert p_best == [None, None, None]
    assert cmp["worlds"] == n and not cmp["distinguishable"] and "gap_to_second" not in cmp


def test_leaders_on_shared_worlds_get_probabilities_and_the_gap():
    a = np.array([3.0, 4.0, 5.0, 6.0])
    p_best, cmp = compare_leaders([a, a - 10, a[:3]], seed=1)
    assert cmp["worlds"] == 3 and cmp["gap_to_second"] == pytest.approx(10.0)
    assert sum(p_best) == pytest.approx(1.0) and p_best[1] == pytest.approx(0.0)
    assert cmp["identical_on_every_world"] is False and cmp["distinguishable"] is True  # SE 0


class _Script:
    """A sampling step that records its calls and a rule that plays back fixed verdicts."""

    def __init__(self, verdicts, interrupt_at=None):
        self.calls, self.seen_by_rule = [], []
        self.verdicts = list(verdicts)
        self.interrupt_at = interrupt_at

    def sample(self, alive, start, n):
        self.calls.append((list(alive), start, n))
        if len(self.calls) == self.interrupt_at:
            raise KeyboardInterrupt

    def select(self, alive, worlds):
        self.seen_by_rule.append((list(alive), worlds))
        return self.verdicts.pop(0)


def test_driver_gives_shared_prefixes_within_the_budget_and_logs_each_round():
    """Calls of at most ``budget`` evaluations, every alive candidate on the same worlds, the
    rule's survivors and targets followed, its stop reason returned, rounds logged 1-based and
    reported 0-based while sampling."""
    script = _Script(
        [Selection(np.array([0, 1]), None, 10), Selection(np.array([1]), "precision", 10)]
    )
    events = []
    settings = RaceSettings(None, 100, budget=6, first_round=4)
    run = run_race(3, script.sample, script.select, settings, "test", events.append)
    assert script.calls == [
        ([0, 1, 2], 0, 2),
        ([0, 1, 2], 2, 2),
        ([0, 1], 4, 3),
        ([0, 1], 7, 3),
    ]
    assert script.seen_by_rule == [([0, 1, 2], 4), ([0, 1], 10)]
    assert run.reason == "precision" and list(run.alive) == [1] and run.worlds == 10
    assert run.evaluations == 2 * 3 * 2 + 2 * 2 * 3 == sum(e["evaluations"] for e in events)
    assert [(e["round"], e["worlds"], e["target"]) for e in events] == [
        (0, 2, 4),
        (0, 4, 4),
        (1, 7, 10),
        (1, 10, 10),
    ]
    assert run.log == [
        {"phase": "test", "round": 1, "worlds": 4, "alive": 3, "kept": 2},
        {"phase": "test", "round": 2, "worlds": 10, "alive": 2, "kept": 1},
    ]


def test_driver_returns_the_last_verdicts_ties():
    """An indifference stop's tied candidates reach the run; a rule without ties leaves None."""
    tie = Selection(np.array([0, 2]), "indifference", 4, np.array([2]))
    script = _Script([Selection(np.arange(3), None, 4, np.array([1])), tie])
    run = run_race(3, script.sample, script.select, RaceSettings(None, 100, first_round=2))
    assert run.reason == "indifference" and list(run.tied) == [2]
    plain = _Script([Selection(np.arange(2), "precision", 2)])
    assert run_race(2, plain.sample, plain.select, RaceSettings(None, 100)).tied is None


def test_driver_first_round_is_capped_by_max_samples():
    script = _Script([Selection(np.arange(2), "samples", 3)])
    run = run_race(2, script.sample, script.select, RaceSettings(None, 3, first_round=64))
    assert script.calls == [([0, 1], 0, 3)] and run.reason == "samples"


def test_driver_stops_at_the_deadline_after_the_call_in_flight():
    script = _Script([])
    settings = RaceSettings(None, 100, budget=2, deadline=time.perf_counter() - 1.0)
    run = run_race(2, script.sample, script.select, settings)
    assert run.reason == "time limit" and len(script.calls) == 1 and run.log == []
    assert run.worlds == 1 and run.evaluations == 2 and list(run.alive) == [0, 1]


def test_driver_stops_on_ctrl_c_raised_or_requested(monkeypatch):
    """A KeyboardInterrupt in the sampling step (or the progress callback) and a first Ctrl-C
    (the stop flag) both end the race as "interrupted" with what was measured."""
    settings = RaceSettings(None, 100, budget=2, first_round=8)
    script = _Script([], interrupt_at=3)
    run = run_race(2, script.sample, script.select, settings)
    assert run.reason == "interrupted" and len(script.calls) == 3 and run.worlds == 2

    monkeypatch.setattr(StopOnInterrupt, "requested", True)
    script = _Script([])
    run = run_race(2, script.sample, script.select, settings)
    assert run.reason == "interrupted" and len(script.calls) == 1 and run.worlds == 1


def test_plain_race_drops_a_clear_loser_and_stops_at_the_precision():
    """Three candidates of means 0, -0.1 and -5 (SD 1): the last is dropped after the first
    round; the two others go on, on the same worlds, until both have SE <= 0.05."""
    worlds = np.random.default_rng(3).normal(0.0, 1.0, (3, 4096)) + np.array([[0], [-0.1], [-5]])

    def evaluate(alive, start, n):
        return worlds[alive, start : start + n]

    settings = RaceSettings(0.05, 4096, floor=3, confident=2)  # no halving
    result = race(3, evaluate, settings, "test")
    run = result.run
    assert run.reason == "precision" and list(run.alive) == [0, 1]
    assert run.log[0] == {"phase": "test", "round": 1, "worlds": 64, "alive": 3, "kept": 2}
    assert len(result.values[2]) == 64 and np.array_equal(result.values[2], worlds[2, :64])
    n = run.worlds
    assert all(np.array_equal(result.values[c], worlds[c, :n]) for c in (0, 1))
    assert np.all(worlds[:2, :n].std(axis=1, ddof=1) / math.sqrt(n) <= 0.05)
    assert n < 4096  # stopped by the precision, not the sample cap
