"""Random deals scored on declarations alone (no exchange, no play): the core-engine workload.

Parallel shape: a serial chunk worker, a driver running it on threads writing one row per chunk,
a serial merge by the caller. Deal i is keyed by (seed, start + i), so sums do not depend on
chunking.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ..rules import RuleSlot
from . import layouts as L
from .deal import BLOCK, N_WORDS, deal_block
from .declarations import (
    FULL,
    carte_blanche,
    declaration_keys_of_pairs,
    declaration_points_under,
    may_carte_rouge,
    totals_from_keys,
)

#: Everyone declares everything.
ALL = (FULL, FULL, FULL)


# Rows of the block workspace (int64[BLOCK_ROWS, deal.BLOCK], one column per deal): the hands
# (``deal.deal_block`` writes rows 0 and 1), then each hand's (point key, sequence key, sequence
# points) from ``declarations.declaration_keys_of_pairs``.
B_ELDER, B_YOUNGER, B_E_PK, B_E_QK, B_E_QS, B_Y_PK, B_Y_QK, B_Y_QS = range(8)
BLOCK_ROWS = 8


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
    scoring."""
    cb = (carte_blanche(elder), carte_blanche(younger))
    e, y, _ = declaration_points_under(elder, younger, cb, ALL, ALL, env, True)
    return _add((0, 0, 0, 0), e, y)


@njit_inline
def _plus(sums, x):
    return (sums[0] + x[0], sums[1] + x[1], sums[2] + x[2], sums[3] + x[3])


@njit_inline
def _minus(sums, x):
    return (sums[0] - x[0], sums[1] - x[1], sums[2] - x[2], sums[3] - x[3])


@njit
def _read_keys(block, n, pairs):
    """Rows B_E_PK.. of the block's first n deals: each hand's keys (table loads, scalar; two
    suits a load, ``tables.DECL_PAIRS``: 1.4 ns a deal less than a suit a load, Xeon)."""
    for d in range(n):
        elder = block[B_ELDER, d]
        younger = block[B_YOUNGER, d]
        e_keys = declaration_keys_of_pairs(elder, pairs)
        y_keys = declaration_keys_of_pairs(younger, pairs)
        block[B_E_PK, d], block[B_E_QK, d], block[B_E_QS, d] = e_keys
        block[B_Y_PK, d], block[B_Y_QK, d], block[B_Y_QS, d] = y_keys


@njit_inline
def _column_totals(block, d):
    """``declarations.totals_from_keys`` of the block's deal ``d``, from its stored keys."""
    return totals_from_keys(
        block[B_ELDER, d],
        block[B_YOUNGER, d],
        (block[B_E_PK, d], block[B_E_QK, d], block[B_E_QS, d]),
        (block[B_Y_PK, d], block[B_Y_QK, d], block[B_Y_QS, d]),
    )


@njit
def _block_totals(block, n):
    """Sums over the block's first n deals of :func:`_column_totals`: one loop the compiler
    vectorizes (about 9 ns a deal less than scoring each deal as it is dealt, Xeon)."""
    s0 = np.int64(0)
    s1 = np.int64(0)
    s2 = np.int64(0)
    s3 = np.int64(0)
    for d in range(n):
        x = _column_totals(block, d)
        s0 += x[0]
        s1 += x[1]
        s2 += x[2]
        s3 += x[3]
    return s0, s1, s2, s3


@njit
def _rouge_correction(block, n, env):
    """What the carte rouge rule changes in the block's sums: for each deal where a hand may
    score carte rouge (``declarations.may_carte_rouge``; for the others the lean totals are
    exact), the general scoring's totals less the lean ones (:func:`_column_totals`)."""
    tables = env.suit
    sums = (0, 0, 0, 0)
    for d in range(n):
        elder = block[B_ELDER, d]
        younger = block[B_YOUNGER, d]
        if may_carte_rouge(elder, tables) | may_carte_rouge(younger, tables):
            sums = _plus(sums, _totals_with_rouge(elder, younger, env))
            sums = _minus(sums, _column_totals(block, d))
    return sums


@njit
def _score_chunk(seed, first, count, env, row):
    """Sums of deals first..first+count-1 into ``row``, a block of deals at a time: dealt
    (``deal.deal_block``), keys read, then totalled in one vectorized loop."""
    carte_rouge = env.rules[RuleSlot.CARTE_ROUGE] != 0
    words = np.empty((N_WORDS + 1, BLOCK), dtype=np.uint64)
    block = np.empty((BLOCK_ROWS, BLOCK), dtype=np.int64)
    sums = (0, 0, 0, 0)
    done = 0
    while done < count:
        n = min(BLOCK, count - done)
        deal_block(seed, first + done, n, words, block)
        _read_keys(block, n, env.pairs)
        sums = _plus(sums, _block_totals(block, n))
        if carte_rouge:
            sums = _plus(sums, _rouge_correction(block, n, env))
        done += n
    row[L.DSUM_DEALS] = count
    row[L.DSUM_ELDER_TOTAL] = sums[0]
    row[L.DSUM_YOUNGER_TOTAL] = sums[1]
    row[L.DSUM_ELDER_REPIQUE] = sums[2]
    row[L.DSUM_YOUNGER_REPIQUE] = sums[3]


@driver(_score_chunk)
def score_random_deals(seed, start, n, n_chunks, env):
    """Sums over deals start..start+n-1 as int64[n_chunks, DSUM_LEN]; caller sums the rows.
    The chunks run on threads (``core.engine.jit_threads``)."""
    rows = np.zeros((n_chunks, L.DSUM_LEN), dtype=np.int64)

    def work(c: int, first: int, count: int) -> None:
        _score_chunk(seed, start + first, count, env, rows[c])

    for_spans(n, n_chunks, work)
    return rows
