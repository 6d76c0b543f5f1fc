"""``core.barrier.opaque``: the value passes through unchanged (any integer width)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from piquet_sim.core.engine.barrier import opaque


@numba.njit
def _through(x):
    return opaque(x)


@numba.njit
def _masked(points, a, b):
    # the use the barrier exists for: a comparison's 0 / -1 mask kept as a mask
    return points & opaque(-np.int64(a > b))


@pytest.mark.parametrize(
    "value",
    [np.int64(-5), np.int64(2**62 + 3), np.uint64(2**64 - 1), np.int32(-7), np.uint8(200)],
)
def test_opaque_returns_its_argument(value):
    assert _through(value) == value


def test_a_barred_mask_keeps_the_points_only_when_the_key_wins():
    assert _masked(np.int64(17), 5, 3) == 17
    assert _masked(np.int64(17), 3, 5) == 0
    assert _masked(np.int64(17), 4, 4) == 0
