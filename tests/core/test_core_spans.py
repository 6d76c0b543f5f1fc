"""``core.spans.span_range`` (the split every parallel driver uses) against a plain-Python twin
written from slices, and the property reproducibility rests on: the spans tile the items."""

from __future__ import annotations

import math

import numpy as np

from piquet_sim.core.engine.jit import njit
from piquet_sim.core.engine.spans import span_range


@njit
def _all_spans(n, n_spans):
    out = np.empty((n_spans, 2), dtype=np.int64)
    for s in range(n_spans):
        out[s, 0], out[s, 1] = span_range(n, n_spans, s)
    return out


def _twin(n: int, n_spans: int) -> list[list[int]]:
    """The items of each span: consecutive slices of ceil(n / n_spans) items."""
    per = math.ceil(n / n_spans)
    return [list(range(n))[s * per : (s + 1) * per] for s in range(n_spans)]


def _items(first: int, count: int) -> list[int]:
    assert count >= 0
    return list(range(first, first + count))


def test_the_kernel_matches_its_twin():
    for n in range(0, 70):
        for n_spans in range(1, 40):
            got = _all_spans(n, n_spans)
            assert [_items(f, c) for f, c in got] == _twin(n, n_spans), (n, n_spans)


def test_the_spans_tile_the_items_in_order():
    for n, n_spans in [(0, 8), (5, 4), (1000, 64), (10**6 + 7, 32), (63, 64), (2**40 + 3, 7)]:
        got = _all_spans(n, n_spans)
        assert got[:, 1].sum() == n and (got[:, 1] >= 0).all()
        ends = got[:, 0] + got[:, 1]
        filled = got[:, 1] > 0
        assert (got[1:, 0][filled[1:]] == ends[:-1][filled[1:]]).all()
        assert not filled.any() or got[0, 0] == 0


def test_a_hand_worked_split():
    # 5 items over 4 spans: 2, 2, 1 and an empty span past the items
    assert [tuple(r) for r in _all_spans(5, 4)] == [(0, 2), (2, 2), (4, 1), (6, 0)]
    assert span_range.py_func(5, 4, 3) == (6, 0)
