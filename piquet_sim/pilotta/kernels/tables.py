"""Small lookup tables every Pilotta kernel reads, built once with plain Python at import.

numba freezes module-level arrays into the compiled code as constants, which suits these small
tables (at most 256 x 4 entries). Indices:

* ``STRENGTH[t, r]``: place of natural rank ``r`` (0 seven .. 7 ace) in its suit's play order,
  ``t`` = 1 in the trump suit, 0 elsewhere (0 = lowest);
* ``ABOVE[t, s]``: natural-rank mask (8 bits) of the ranks stronger than strength ``s`` in
  that order; ``ABOVE[t, 8]`` is 0xFF (row 8 stands for "nothing to beat");
* ``POINTS[k, t, r]``: card points of rank ``r``; ``k`` = 1 under ``trump_kq_points = (3, 2)``;
* ``TRUMP_HOLDING_POINTS[k, h]``: trump card points of the natural holding ``h``;
* ``CAPOTS[i]``: card points of a capot by the ``capot_points`` slot (250, 252);
* ``SEQ_RUNS[h]``: the sequences of an 8-bit natural holding ``h``: (length, top rank) of its
  first and second run of three or more consecutive ranks (length 0 when absent; a suit of 8
  cards holds at most two runs).
"""

from __future__ import annotations

import numpy as np

from ..cards import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_STRENGTH, trump_points
from ..rules import CAPOT_POINTS


def _above(order: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(9, dtype=np.int64)
    for s in range(8):
        out[s] = sum(1 << r for r in range(8) if order[r] > s)
    out[8] = 0xFF
    return out


def _runs(h: int) -> tuple[int, int, int, int]:
    runs = []
    r = 0
    while r < 8:
        if h >> r & 1:
            start = r
            while r < 8 and h >> r & 1:
                r += 1
            if r - start >= 3:
                runs.append((r - start, r - 1))
        else:
            r += 1
    runs += [(0, 0)] * (2 - len(runs))
    return runs[0][0], runs[0][1], runs[1][0], runs[1][1]


STRENGTH = np.array([PLAIN_STRENGTH, TRUMP_STRENGTH], dtype=np.int64)
ABOVE = np.stack([_above(PLAIN_STRENGTH), _above(TRUMP_STRENGTH)])
POINTS = np.array(
    [[PLAIN_POINTS, trump_points((4, 3))], [PLAIN_POINTS, trump_points((3, 2))]], dtype=np.int64
)
CAPOTS = np.array(CAPOT_POINTS, dtype=np.int64)
SEQ_RUNS = np.array([_runs(h) for h in range(256)], dtype=np.int64)
#: Value of a four of a kind by natural rank (sevens and eights score nothing).
FOUR_VALUE = np.array([0, 0, 150, 100, 200, 100, 100, 100], dtype=np.int64)
#: Trump card points of an 8-bit natural holding: ``TRUMP_HOLDING_POINTS[k, h]``.
TRUMP_HOLDING_POINTS = np.array(
    [
        [sum(int(POINTS[k, 1, r]) for r in range(8) if h >> r & 1) for h in range(256)]
        for k in (0, 1)
    ],
    dtype=np.int64,
)
