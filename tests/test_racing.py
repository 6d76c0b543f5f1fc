"""core.racing.compare_leaders on hand-made values (no kernel runs)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from piquet_sim.core.racing import compare_leaders


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
