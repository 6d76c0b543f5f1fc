"""Random deals scored on declarations alone (no exchange, no play): the core-engine workload.

Parallel shape: a serial chunk worker, a ``prange`` driver writing one row per chunk, a serial
merge by the caller. Deal i is keyed by (seed, start + i), so sums do not depend on chunking.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.barrier import opaque
from ...core.jit import njit, njit_inline, njit_parallel
from ...core.spans import span_range
from . import layouts as L
from .deal import deal_full, deal_pair
from .declarations import (
    FULL,
    carte_blanche,
    declaration_points_under,
    declaration_totals,
    may_carte_rouge,
)

#: Everyone declares everything.
ALL = (FULL, FULL, FULL)


@njit_inline
def _add(sums, e, y):
    """Add one deal's points (elder's and younger's DP_BLOCK tuples) to ``sums`` = (elder total,
    younger total, elder repiques, younger repiques)."""
    return (
        sums[0] + e[0] + e[1] + e[2] + e[3] + e[4] + e[5],
        sums[1] + y[0] + y[1] + y[2] + y[3] + y[4] + y[5],
        sums[2] + (e[L.DP_REPIQUE] > 0),
        sums[3] + (y[L.DP_REPIQUE] > 0),
    )


@njit
def _totals_with_rouge(elder, younger, env):
    """:func:`declarations.declaration_totals` under the carte rouge rule, from the general
    scoring: a call of its own, so the loop (rule off) keeps only the lean code."""
    cb = (carte_blanche(elder), carte_blanche(younger))
    e, y, _ = declaration_points_under(elder, younger, cb, ALL, ALL, env, True)
    return _add((0, 0, 0, 0), e, y)


@njit_inline
def _plus(sums, x):
    return (sums[0] + x[0], sums[1] + x[1], sums[2] + x[2], sums[3] + x[3])


@njit_inline
def _score_range(seed, first, end, env, carte_rouge):
    """Sums of deals first..end-1, dealt two at a time (``deal.deal_pair``), the odd last one
    alone; no array is touched per deal but the stack packs. Each deal adds (elder total,
    younger total, elder repiqued, younger repiqued): ``declarations.declaration_totals``, or
    under carte rouge the general scoring through a call. ``env`` appears in the loop only as
    that call's argument: handed to an inlined helper, its seven arrays were reference counted
    (atomically) on every deal."""
    tables = env.suit
    sums = (0, 0, 0, 0)
    i = first
    while i + 1 < end:
        e0, y0, e1, y1 = deal_pair(seed, i)
        x0 = declaration_totals(e0, y0, tables)
        x1 = declaration_totals(e1, y1, tables)
        if carte_rouge:
            # the hands through ``opaque``: else the compiler shares the scoring's per-suit
            # values with this rare branch and keeps them (on the stack) through the loop
            e0, y0, e1, y1 = opaque(e0), opaque(y0), opaque(e1), opaque(y1)
            if may_carte_rouge(e0, tables) | may_carte_rouge(y0, tables):
                x0 = _totals_with_rouge(e0, y0, env)
            if may_carte_rouge(e1, tables) | may_carte_rouge(y1, tables):
                x1 = _totals_with_rouge(e1, y1, env)
        sums = _plus(_plus(sums, x0), x1)
        i += 2
    if i < end:
        pack = np.empty(32, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        elder, younger = deal_full(seed, i, pack, state)
        x = declaration_totals(elder, younger, tables)
        if carte_rouge and (may_carte_rouge(elder, tables) | may_carte_rouge(younger, tables)):
            x = _totals_with_rouge(elder, younger, env)
        sums = _plus(sums, x)
    return sums


@njit
def _score_chunk(seed, first, count, env, row):
    """Sums of deals first..first+count-1 into ``row``. The carte rouge rule is read once, outside
    the loop. (Compiling the loop twice, once per value of the rule, ran 2-3% faster but doubled
    the kernel's cold compile: 7.3 -> 13.5 CPU-s.)"""
    carte_rouge = env.rules[L.RULE_CARTE_ROUGE] != 0
    sums = _score_range(seed, first, first + count, env, carte_rouge)
    row[L.DSUM_DEALS] = count
    row[L.DSUM_ELDER_TOTAL] = sums[0]
    row[L.DSUM_YOUNGER_TOTAL] = sums[1]
    row[L.DSUM_ELDER_REPIQUE] = sums[2]
    row[L.DSUM_YOUNGER_REPIQUE] = sums[3]


@njit_parallel
def score_random_deals(seed, start, n, n_chunks, env):
    """Sums over deals start..start+n-1 as int64[n_chunks, DSUM_LEN]; caller sums the rows."""
    rows = np.zeros((n_chunks, L.DSUM_LEN), dtype=np.int64)
    for c in prange(n_chunks):
        first, count = span_range(n, n_chunks, c)
        if count > 0:
            _score_chunk(seed, start + first, count, env, rows[c])
    return rows
