"""Lookup tables over every 8-bit suit holding, built once at import with plain numpy.

``SUIT_TABLES[row, holding]`` (int32); ``holding`` bit r = rank r of one suit (0 seven .. 7 ace).
Kernels take the whole array as an argument (numba freezes globals at compile time).
"""

from __future__ import annotations

import numpy as np

from ..cards import PIPS

T_COUNT = 0  # number of cards in the holding
T_PIPS = 1  # pip total (A 11, K Q J T 10, 9 8 7 at face)
T_POINT_KEY = 2  # count * 128 + pips; compares points of one suit (0 for a void)
T_SEQ_BEST = 3  # best run of 3+: length * 8 + top rank; 0 if none
T_SEQ_SCORE = 4  # points of every run of 3+ in the holding (tierce 3 .. huitieme 18)
T_SEQ_CARDS = 5  # bits of the holding that lie in runs of 3+
T_HIGH_BIT = 6  # index of the highest set bit; -1 for 0
T_SEQ_COUNT = 7  # number of runs of 3+
T_DECL = 8  # the three declaration fields in one word: see DECL_* below
N_TABLE_ROWS = 9

#: ``T_DECL`` packs point key << DECL_POINT_SHIFT | best sequence << DECL_SEQ_SHIFT | sequence
#: points, so one lookup per suit gives all three (point key < 2**11, the others < 2**8).
DECL_POINT_SHIFT = 16
DECL_SEQ_SHIFT = 8
DECL_FIELD = 0xFF

#: Points of a sequence by length (index = length); tierce 3, quart 4, quint 15 .. huitieme 18.
SEQUENCE_POINTS = (0, 0, 0, 3, 4, 15, 16, 17, 18)


def _runs(holding: int) -> list[tuple[int, int]]:
    """Maximal runs of consecutive ranks as (length, top rank)."""
    runs = []
    length = 0
    for rank in range(9):
        if rank < 8 and holding >> rank & 1:
            length += 1
        elif length:
            runs.append((length, rank - 1))
            length = 0
    return runs


def build_suit_tables() -> np.ndarray:
    """All per-holding tables stacked as an int32 array of shape (N_TABLE_ROWS, 256)."""
    tables = np.zeros((N_TABLE_ROWS, 256), dtype=np.int32)
    for h in range(256):
        count = bin(h).count("1")
        pips = sum(PIPS[r] for r in range(8) if h >> r & 1)
        long_runs = [(n, top) for n, top in _runs(h) if n >= 3]
        tables[T_COUNT, h] = count
        tables[T_PIPS, h] = pips
        tables[T_POINT_KEY, h] = count * 128 + pips if count else 0
        tables[T_SEQ_BEST, h] = max((n * 8 + top for n, top in long_runs), default=0)
        tables[T_SEQ_SCORE, h] = sum(SEQUENCE_POINTS[n] for n, _ in long_runs)
        tables[T_SEQ_CARDS, h] = sum(((1 << n) - 1) << (top - n + 1) for n, top in long_runs)
        tables[T_HIGH_BIT, h] = h.bit_length() - 1
        tables[T_SEQ_COUNT, h] = len(long_runs)
        tables[T_DECL, h] = (
            (int(tables[T_POINT_KEY, h]) << DECL_POINT_SHIFT)
            | (int(tables[T_SEQ_BEST, h]) << DECL_SEQ_SHIFT)
            | int(tables[T_SEQ_SCORE, h])
        )
    return tables


SUIT_TABLES = build_suit_tables()


def build_pair_table(suit_tables: np.ndarray) -> np.ndarray:
    """``T_DECL`` of two suits at once: int32[65536], indexed by a hand's 16 bits of suits 0-1
    (or 2-3): the larger point key and best sequence of the two holdings, their sequence
    points summed (two sequences score at most 36, inside ``DECL_FIELD``). Half the table
    loads of :func:`~.declarations.declaration_keys` (256 KB: it lives in L2, not L1)."""
    one = suit_tables[T_DECL].astype(np.int64)
    index = np.arange(1 << 16)
    low, high = one[index & 0xFF], one[index >> 8]
    point = np.maximum(low >> DECL_POINT_SHIFT, high >> DECL_POINT_SHIFT)
    seq = np.maximum((low >> DECL_SEQ_SHIFT) & DECL_FIELD, (high >> DECL_SEQ_SHIFT) & DECL_FIELD)
    seq_points = (low & DECL_FIELD) + (high & DECL_FIELD)
    assert seq_points.max() <= DECL_FIELD
    return ((point << DECL_POINT_SHIFT) | (seq << DECL_SEQ_SHIFT) | seq_points).astype(np.int32)


DECL_PAIRS = build_pair_table(SUIT_TABLES)
