"""The kernels' binomial coefficient against Python's exact one, and the ratio Pitch's world
sampler takes from it against the float product it used to compute."""

from __future__ import annotations

import math

from piquet_sim.core.engine.combinatorics import n_choose


def test_n_choose_is_the_exact_binomial_and_zero_outside():
    for n in range(53):
        for k in range(-1, n + 2):
            want = math.comb(n, k) if 0 <= k <= n else 0
            assert n_choose(n, k) == want, (n, k)


def _float_product(a: int, r: int) -> float:
    v = 1.0
    for i in range(r):
        v = v * (a - i) / (i + 1)
    return v


def test_a_ratio_of_two_counts_is_the_float_products_ratio_to_the_bit():
    # a hand of up to six cards drawn from the cards a seat may hold: exact counts, the same
    # float as the running product (every step an exact integer below 2**53)
    for r in range(7):
        for b in range(r, 53):
            for a in range(r, b):
                assert n_choose(a, r) / n_choose(b, r) == _float_product(a, r) / _float_product(
                    b, r
                ), (a, b, r)
