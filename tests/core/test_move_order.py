"""The solvers' shared move ordering keeps a row best first, ties in the order generated: the
insertion kernel against Python's stable sort on random scores (many ties among few values)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet_sim.core.engine.move_order import insert_by_score


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=-3, max_value=3), min_size=0, max_size=16))
def test_insertion_keeps_the_row_best_first_with_ties_in_generation_order(scores_in):
    moves = np.full(16, -1, dtype=np.int8)
    scores = np.zeros(16, dtype=np.int64)
    k = 0
    for move, score in enumerate(scores_in):
        k = insert_by_score(moves, scores, k, move, score)
    expected = sorted(range(len(scores_in)), key=lambda m: -scores_in[m])  # stable
    assert k == len(scores_in)
    assert moves[:k].tolist() == expected
    assert scores[:k].tolist() == [scores_in[m] for m in expected]
