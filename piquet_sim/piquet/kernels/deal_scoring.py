"""Random deals scored on declarations alone (no exchange, no play): the core-engine workload.

Parallel shape: a serial chunk worker, a ``prange`` driver writing one row per chunk, a serial
merge by the caller. Deal i is keyed by (seed, start + i), so sums do not depend on chunking.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from . import layouts as L
from .deal import deal_hands
from .declarations import FULL, carte_blanche, declaration_points

#: Everyone declares everything.
ALL = (FULL, FULL, FULL)


@njit
def _score_chunk(seed, first, count, env, row):
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    e_sum = 0
    y_sum = 0
    e_rep = 0
    y_rep = 0
    for i in range(first, first + count):
        elder, younger = deal_hands(seed, i, pack, state)
        cb = (carte_blanche(elder), carte_blanche(younger))
        e, y, _ = declaration_points(elder, younger, cb, ALL, ALL, env)
        e_sum += e[0] + e[1] + e[2] + e[3] + e[4] + e[5]
        y_sum += y[0] + y[1] + y[2] + y[3] + y[4] + y[5]
        e_rep += e[L.DP_REPIQUE] > 0
        y_rep += y[L.DP_REPIQUE] > 0
    row[L.DSUM_DEALS] = count
    row[L.DSUM_ELDER_TOTAL] = e_sum
    row[L.DSUM_YOUNGER_TOTAL] = y_sum
    row[L.DSUM_ELDER_REPIQUE] = e_rep
    row[L.DSUM_YOUNGER_REPIQUE] = y_rep


@njit_parallel
def score_random_deals(seed, start, n, n_chunks, env):
    """Sums over deals start..start+n-1 as int64[n_chunks, DSUM_LEN]; caller sums the rows."""
    rows = np.zeros((n_chunks, L.DSUM_LEN), dtype=np.int64)
    per = (n + n_chunks - 1) // n_chunks
    for c in prange(n_chunks):
        first = start + c * per
        count = min(per, start + n - first)
        if count > 0:
            _score_chunk(seed, first, count, env, rows[c])
    return rows
