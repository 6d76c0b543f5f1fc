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
from .declarations import FULL, carte_blanche, score_declarations

#: Everyone declares everything.
ALL = (FULL, FULL, FULL)


@njit
def _score_chunk(seed, first, count, env, row):
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    rec = np.zeros(L.DECL_LEN, dtype=np.int32)
    e_sum = 0
    y_sum = 0
    e_rep = 0
    y_rep = 0
    for i in range(first, first + count):
        elder, younger = deal_hands(seed, i, pack, state)
        cb = (carte_blanche(elder), carte_blanche(younger))
        score_declarations(elder, younger, cb, ALL, ALL, env, rec)
        for k in range(L.DP_BLOCK):
            e_sum += rec[L.DECL_ELDER + k]
            y_sum += rec[L.DECL_YOUNGER + k]
        e_rep += rec[L.DECL_ELDER + L.DP_REPIQUE] > 0
        y_rep += rec[L.DECL_YOUNGER + L.DP_REPIQUE] > 0
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
