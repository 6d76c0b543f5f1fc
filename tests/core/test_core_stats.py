"""core.stats against hand-worked values and exact binomial coverage."""

from __future__ import annotations

import math

import numpy as np

from piquet_sim.core.engine.stats import (
    Z95,
    format_p,
    mean_ci,
    paired_difference,
    proportion,
    wilson_interval,
)


def test_wilson_hand_worked():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and math.isclose(hi, 0.27753, abs_tol=1e-4)
    lo, hi = wilson_interval(5, 10)
    assert math.isclose(lo, 0.23659, abs_tol=1e-4) and math.isclose(hi, 0.76341, abs_tol=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_coverage_is_near_95_percent_exactly():
    """Exact coverage of the interval for p = 0.3, n = 200, summed over the binomial law."""
    n, p = 200, 0.3
    cover = 0.0
    for k in range(n + 1):
        lo, hi = wilson_interval(k, n)
        if lo <= p <= hi:
            cover += math.comb(n, k) * p**k * (1 - p) ** (n - k)
    assert 0.93 < cover < 0.97


def test_mean_ci_from_sums_equals_the_direct_computation():
    x = np.array([1.0, 4.0, -2.0, 7.0, 3.0])
    d = mean_ci(x.sum(), (x * x).sum(), len(x))
    se = x.std(ddof=1) / math.sqrt(len(x))
    assert math.isclose(d["mean"], x.mean()) and math.isclose(d["se"], se)
    assert math.isclose(d["ci95"][1] - d["mean"], Z95 * se)


def test_paired_difference_and_p_value():
    a = np.array([3.0, 5.0, 4.0, 6.0])
    d = paired_difference(a, a - 1.0)
    assert d["mean"] == 1.0 and d["se"] == 0.0 and d["p"] == 0.0 and d["n"] == 4
    d = paired_difference(np.array([1.0, -1.0, 2.0, -2.0]), np.zeros(4))
    assert d["mean"] == 0.0 and d["p"] == 1.0


def test_proportion_and_format_p():
    assert proportion(3, 4)["p"] == 0.75 and proportion(3, 4)["count"] == 3
    assert format_p(1e-9) == "p < 0.0001" and format_p(0.0005) == "p < 0.001"
    assert format_p(0.034) == "p = 0.034"


def test_estimate_forms_agree_with_the_dict_helpers():
    from piquet_sim.core.engine.stats import Estimate, mean_ci, paired_difference, wilson_interval

    rng = np.random.default_rng(3)
    x = rng.normal(2.0, 3.0, 500)
    e = Estimate.of_sample(x)
    d = mean_ci(float(x.sum()), float((x * x).sum()), len(x))
    assert e.n == 500
    assert math.isclose(e.mean, d["mean"]) and math.isclose(e.se, d["se"], rel_tol=1e-9)
    k = rng.integers(-20, 21, 500)  # integer tallies: the exact sums agree with the float ones
    dk = mean_ci(float(k.sum()), float((k * k).sum()), len(k))
    ek = Estimate.of_sums(int(k.sum()), int((k * k).sum()), len(k))
    assert math.isclose(ek.mean, dk["mean"]) and math.isclose(ek.se, dk["se"], rel_tol=1e-9)
    y = x + rng.normal(0.5, 1.0, 500)
    pe = Estimate.paired(y, x)
    assert pe.to_dict() == {**paired_difference(y, x)}
    assert pe.lo < 0.5 < pe.hi and pe.p < 1e-6
    r = Estimate.proportion(30, 100)
    assert (r.mean, r.n, (r.lo, r.hi)) == (0.3, 100, wilson_interval(30, 100))
    assert math.isclose(r.se, math.sqrt(0.3 * 0.7 / 100))
    assert math.isinf(Estimate.of_sample(np.array([1.0])).se)
    assert Estimate.of_sample(np.array([])).n == 0


def test_estimate_of_integer_sums_equals_the_sample_estimate():
    """From exact integer sums (any chunking merges to the same sums) the estimate is the
    sample's; one value gives an infinite interval and none NaN, as for a sample."""
    from piquet_sim.core.engine.stats import Estimate

    rng = np.random.default_rng(5)
    for n in (2, 3, 50, 1000):
        x = rng.integers(-160, 260, n)
        for scale in (1.0, 0.5):
            a = Estimate.of_sums(int(x.sum()), int((x * x).sum()), n, scale)
            b = Estimate.of_sample(x * scale)
            got = [a.mean, a.se, *a.to_dict()["ci95"]]
            want = [b.mean, b.se, *b.to_dict()["ci95"]]
            for u, v in zip(got, want, strict=True):
                assert math.isclose(u, v, rel_tol=1e-9, abs_tol=1e-12)
            assert a.n == n
    assert Estimate.of_sums(7, 49, 1).se == math.inf
    assert math.isnan(Estimate.of_sums(0, 0, 0).mean)
