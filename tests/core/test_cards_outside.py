"""The unseen cards of a 32-card hand, as the samplers list them: the kernel against the
complement taken in Python, on random masks and the two extremes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet_sim.core.engine.bits import cards_outside


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 32) - 1))
def test_cards_outside_lists_the_complement_in_ascending_order(mask):
    out = np.full(32, -1, dtype=np.int8)
    n = cards_outside(np.int64(mask), out)
    expected = [c for c in range(32) if not mask >> c & 1]
    assert n == len(expected)
    assert out[:n].tolist() == expected
    assert (out[n:] == -1).all()  # nothing written past the count


def test_cards_outside_of_the_empty_and_the_full_hand():
    out = np.zeros(32, dtype=np.int64)
    assert cards_outside(np.int64(0), out) == 32 and out.tolist() == list(range(32))
    assert cards_outside(np.int64((1 << 32) - 1), out) == 0
