"""``kernels.draws.draw`` is ``core.rng.bounded`` at half the hashing: the same value and the
same stream state after it, from every chunk offset (the two chunks of a draw in one word or
across two) and for bounds small and large (rejections included)."""

from __future__ import annotations

import numpy as np

from piquet_sim.core.engine.rng import bounded, stream_key
from piquet_sim.pilotta.kernels.draws import draw


def test_draw_is_bounded():
    bounds = (1, 2, 3, 4, 7, 24, 32, 1000, 65_537, 3_000_000_019, (1 << 32) - 1)
    for k in range(40):
        key = np.uint64(stream_key(np.int64(7), np.int64(k)))
        for start in range(8):
            for n in bounds:
                a = np.array([start], dtype=np.int64)
                b = np.array([start], dtype=np.int64)
                for _ in range(6):
                    assert draw(key, a, np.int64(n)) == bounded(key, b, np.int64(n))
                    assert a[0] == b[0]
