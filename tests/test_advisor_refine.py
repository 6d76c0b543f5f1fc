"""The pimc refine's options on hand-made values (no kernel runs): ``refine_all`` keeps every
candidate racing, the indifference zone stops the race on a settled near-tie and only then."""

from __future__ import annotations

import math

import numpy as np
import pytest

from piquet_sim.cli import main
from piquet_sim.core.engine.racing import RaceSettings
from piquet_sim.piquet.advisor import RACE_Z, AdviceError, AdviceRequest, advise
from piquet_sim.piquet.advisor_refine import (
    CONTROL_MAX,
    _Refine,
    indifference_verdict,
    refine_settings,
)
from piquet_sim.piquet.rules import Rules

HAND = "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
N_CONTROL, N_PIMC = 4096, 256


def test_indifference_verdict_ties_worse_and_unsettled():
    """Tied: |gap| + z SE <= delta (either sign); worse: gap > z SE; the race stops only when
    every candidate is one or the other and one at least is tied."""
    z, delta = 3.0, 1.0
    assert indifference_verdict({1: (0.2, 0.1), 2: (5.0, 1.0)}, delta, z) == (True, [1])
    assert indifference_verdict({1: (-0.2, 0.1)}, delta, z) == (True, [1])
    assert indifference_verdict({1: (0.2, 0.27)}, delta, z) == (False, [])  # 0.2 + 0.81 > 1
    # one settled tie, one pair neither tied nor worse (0.5 + 0.75 > 1, 0.5 < 0.75): go on
    assert indifference_verdict({1: (0.1, 0.1), 2: (0.5, 0.25)}, delta, z) == (False, [1])
    assert indifference_verdict({2: (5.0, 1.0)}, delta, z) == (False, [])  # no tie: no stop
    assert indifference_verdict({}, delta, z) == (False, [])


def _refine(offsets, spreads, drop_z=RACE_Z, indifference=None, precision=0.01):
    """A refine whose candidate i has the same control values as candidate 0 and pimc values
    lower by ``offsets[i]`` plus a ±``spreads[i]`` alternation: its paired gap to candidate 0
    is exactly the offset, its SE about spread / sqrt(N_PIMC)."""
    rng = np.random.default_rng(0)
    h0 = rng.normal(0.0, 20.0, N_CONTROL)
    p0 = h0[:N_PIMC] + rng.normal(0.0, 5.0, N_PIMC)
    sign = np.where(np.arange(N_PIMC) % 2 == 0, 1.0, -1.0)
    ref = object.__new__(_Refine)
    ref.s = RaceSettings(precision, 10**6, first_round=64, drop_z=drop_z)
    ref.indifference = indifference
    ref.h = [h0.copy() for _ in offsets]
    ref.p = [p0 - off - a * sign for off, a in zip(offsets, spreads, strict=True)]
    ref.valid = np.ones(N_CONTROL, dtype=bool)
    ref.n_control = CONTROL_MAX  # the control is never extended here
    return ref


def test_a_settled_near_tie_stops_the_refine_and_is_reported():
    ref = _refine([0.0, 0.1, 10.0], [0.0, 1.0, 1.0], indifference=1.0)
    verdict = ref.select(np.arange(3), N_PIMC)
    assert verdict.stop == "indifference" and list(verdict.alive) == [0, 1]
    assert list(verdict.tied) == [1]


def test_an_unsettled_pair_keeps_the_refine_going():
    # gap 0.5 with SE ~0.25 at z 3: neither within 1 point nor clearly worse
    ref = _refine([0.0, 0.1, 0.5], [0.0, 1.0, 4.0], indifference=1.0)
    verdict = ref.select(np.arange(3), N_PIMC)
    assert verdict.stop is None and list(verdict.alive) == [0, 1, 2]
    assert list(verdict.tied) == [1]
    # a wider zone settles it
    wide = _refine([0.0, 0.1, 0.5], [0.0, 1.0, 4.0], indifference=2.0)
    assert wide.select(np.arange(3), N_PIMC).stop == "indifference"


def test_without_the_zone_a_near_tie_races_on_to_the_precision():
    ref = _refine([0.0, 0.1, 10.0], [0.0, 1.0, 1.0])
    verdict = ref.select(np.arange(3), N_PIMC)
    assert verdict.stop is None and verdict.tied is None and list(verdict.alive) == [0, 1]


def _request(**options):
    return AdviceRequest.make(
        HAND,
        "elder",
        None,
        "pimc",
        None,
        0.5,
        None,
        "greedy",
        1,
        Rules(),
        None,
        False,
        20,
        None,
        0.0,
        **options,
    )


def test_refine_all_drops_no_candidate():
    """The race's drop test removes the clearly worse candidate; with ``refine_all`` (its
    settings' drop threshold infinite) it stays until the precision target."""
    race = refine_settings(_request())
    assert race.drop_z == RACE_Z
    assert list(_refine([0.0, 10.0], [0.0, 1.0]).select(np.arange(2), N_PIMC).alive) == [0]
    every = refine_settings(_request(refine_all=True))
    assert every.drop_z == math.inf
    keep = _refine([0.0, 10.0], [0.0, 1.0], drop_z=every.drop_z)
    assert list(keep.select(np.arange(2), N_PIMC).alive) == [0, 1]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"play": "heuristic", "refine_all": True},
        {"play": "dd", "indifference": 1.0},
        {"play": "pimc", "indifference": 0.0},
    ],
)
def test_refine_options_are_checked(kwargs):
    with pytest.raises(AdviceError):
        advise(HAND, samples=16, **kwargs)


def test_refine_options_are_refused_in_one_line_without_pimc():
    for args in (["--refine-all", "--play", "heuristic"], ["--indifference", "1", "--play", "dd"]):
        with pytest.raises(SystemExit) as exc:
            main(["discard", HAND, *args])
        assert exc.value.code == 2


def test_advise_reports_the_zones_ties_and_refines_all():
    """End to end (one pimc round of 64 worlds on 4 discards): with ``refine_all`` every refined
    discard is a finalist; with a wide zone too the race stops on it and names the tied
    discards, each one a finalist other than the best."""
    r = advise(HAND, play="pimc", samples=64, precision=None, refine=4, refine_all=True)
    refined = [c for c in r.candidates if c.play == "pimc"]
    assert len(refined) == 4 and all(c.finalist for c in refined)
    assert "indifference" not in r.comparison
    wide = advise(
        HAND, play="pimc", samples=64, precision=None, refine=4, refine_all=True, indifference=12.0
    )
    zone = wide.comparison["indifference"]
    assert wide.stop_reason == "indifference" and zone["delta"] == 12.0
    finalists = [c.to_dict(False)["discard"] for c in wide.candidates if c.finalist]
    assert zone["tied_with_best"] and all(d in finalists[1:] for d in zone["tied_with_best"])


def test_the_refine_takes_the_screen_finalists_before_a_noisy_early_drop():
    """A discard dropped after the screen's first round with a lucky high mean does not take a
    refine place from a finalist: finalists first, then the dropped by how long they raced."""
    from piquet_sim.piquet.advisor import _refine
    from piquet_sim.piquet.advisor_worlds import CandidateResult
    from piquet_sim.piquet.kernels import layouts as L

    def cand(discard, ev, n, finalist):
        sums = np.zeros(L.ADV_LEN, dtype=np.float64)
        sums[L.ADV_N], sums[L.ADV_NET] = n, ev * n
        return CandidateResult(discard, 0, sums, "heuristic", finalist)

    results = [
        cand(1, 9.0, 64, False),  # dropped early, a lucky mean
        cand(2, 5.0, 4096, True),
        cand(4, 4.0, 4096, True),
        cand(8, 6.0, 1024, False),  # dropped later
    ]
    chosen = []

    def race_best(sub):
        chosen.extend(int(d) for d in sub)
        raise _Chosen

    class _Chosen(Exception):
        pass

    request = AdviceRequest.__new__(AdviceRequest)
    object.__setattr__(request, "refine", 3)
    with pytest.raises(_Chosen):
        _refine(request, np.array([1, 2, 4, 8]), results, race_best, [])
    assert chosen == [2, 4, 8]
