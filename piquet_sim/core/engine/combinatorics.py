"""Counting card subsets inside kernels: how many ways to choose cards, exact in int64."""

from __future__ import annotations

from .jit import njit


@njit
def n_choose(n, k):
    """The binomial coefficient C(n, k) (0 when k < 0 or k > n), exact: each step's product
    is C(n, i) (n - i), divisible by i + 1, so the division never rounds."""
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r
