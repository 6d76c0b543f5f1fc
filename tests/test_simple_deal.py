"""The bundle-free full deal (``kernels/simple_deal.py``) gives exactly the records of the
general loop for every mix of greedy and random play with each exchange and declaration policy
and rules option, whatever the span count (heuristic seats: test_heuristic.py); ``simulation``
routes every solver-free play to it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from piquet_sim.piquet.kernels.bundles import make_env
from piquet_sim.piquet.kernels.simple_deal import simple_simulate_records
from piquet_sim.piquet.kernels.simulate import simulate_records
from piquet_sim.piquet.policies import policies as stage_policies
from piquet_sim.piquet.rules import Rules
from piquet_sim.piquet.simulation import SIMPLE_PLAYS, Policies, records_kernel

CASES = [
    (Policies(), Rules()),
    (
        Policies(
            elder_play="random",
            younger_play="greedy",
            elder_exchange="random",
            younger_exchange="max",
        ),
        Rules(lead_points="ten_or_higher", carte_rouge=True),
    ),
    (
        Policies(
            elder_play="greedy",
            younger_play="random",
            elder_exchange="heuristic",
            younger_exchange="random",
            elder_declare="sink",
            declare_params={"elder": np.array([1.0, 0.0, 1.0])},
        ),
        Rules(younger_must_exchange=False),
    ),
    (
        Policies(
            elder_play="random",
            younger_play="random",
            elder_exchange="max",
            younger_exchange="greedy",
            younger_declare="sink",
            declare_params={"younger": np.array([0.0, 1.0, 0.0])},
        ),
        Rules(carte_rouge=True, younger_must_exchange=False, lead_points="ten_or_higher"),
    ),
]


@pytest.mark.parametrize("policies, rules", CASES)
def test_simple_records_equal_the_general_loop(policies, rules):
    assert records_kernel(policies) is simple_simulate_records
    stages, env = policies.stages(), make_env(rules.to_array())
    a = simple_simulate_records(11, 500, 20_000, stages, env, 8, 1)
    b = simulate_records(11, 500, 20_000, stages, env, 8, 1)
    assert a.shape == b.shape and np.array_equal(a, b)
    assert np.array_equal(a[777:], simple_simulate_records(11, 1277, 19_223, stages, env, 3, 1))


def test_other_plays_keep_their_kernels():
    assert records_kernel(Policies(elder_play="heuristic")) is simple_simulate_records
    assert records_kernel(Policies(elder_play="pimc")) is simulate_records
    env = make_env(Rules().to_array())
    with pytest.raises(ValueError):
        simple_simulate_records(1, 0, 10, Policies(younger_play="dd").stages(), env, 2, 1)


def test_every_registered_play_has_a_records_kernel():
    for name, policy in stage_policies("play").items():
        assert policy.needs_solver or name in SIMPLE_PLAYS, name


def test_a_play_outside_both_loops_is_refused():
    unrouted = SimpleNamespace(uses_solver=False, policy=lambda stage, role: "new")
    with pytest.raises(ValueError, match="'new'.*no kernel plays it"):
        records_kernel(unrouted)
