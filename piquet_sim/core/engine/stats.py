"""Statistics every study reports with: one z, one Wilson interval, means with standard errors
from streamed sums, paired differences, p-values and how they are printed.

Every estimate the project prints carries its sample count and a 95% interval: proportions get
Wilson score intervals (sound near 0 and 1), means get normal intervals from the sample's spread.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: The 97.5% quantile of the standard normal: every 95% interval in the project uses it.
Z95 = 1.959964


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; (0, 1) when n is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def wilson_band(k: np.ndarray, n: int, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise Wilson interval of counts ``k`` out of ``n`` (for plotted distributions)."""
    p = k / max(n, 1)
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def proportion(successes: int, n: int, exact: float | None = None) -> dict:
    """{"p", "ci95" (Wilson), "count"} of a rate out of n, and "exact" (the combinatorial
    value beside the estimate) when given."""
    k = int(successes)
    out = {"p": k / n if n else float("nan"), "ci95": list(wilson_interval(k, n)), "count": k}
    if exact is not None:
        out["exact"] = exact
    return out


def mean_ci(total: float, total_sq: float, n: int, scale: float = 1.0) -> dict:
    """Mean, standard error and 95% interval of n values from their sum and sum of squares,
    all multiplied by ``scale``."""
    if n == 0:
        nan = float("nan")
        return {"mean": nan, "se": nan, "ci95": [nan, nan]}
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    se = math.sqrt(var / n)
    m, s = mean * scale, se * abs(scale)
    return {"mean": m, "se": s, "ci95": [m - Z95 * s, m + Z95 * s]}


def sample_mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high): the 95% normal interval of a sample's mean (infinite for n = 1)."""
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(np.mean(x))
    half = Z95 * float(np.std(x, ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return m, m - half, m + half


def paired_difference(a: np.ndarray, b: np.ndarray) -> dict:
    """Mean of ``a - b`` over common samples (common random numbers), its standard error, 95%
    interval, two-sided p-value against 0, and the sample count."""
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    n = len(d)
    mean = float(d.mean()) if n else math.nan
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    p = p_two_sided(mean / se) if n > 1 and se > 0 else (1.0 if mean == 0 else 0.0)
    return {"mean": mean, "se": se, "ci95": [mean - Z95 * se, mean + Z95 * se], "p": p, "n": n}


def p_two_sided(z: float) -> float:
    """Two-sided normal p-value of a z statistic."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def format_p(p: float) -> str:
    """``p < 0.0001`` style for small values, two significant digits otherwise."""
    if p < 1e-4:
        return "p < 0.0001"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}"


@dataclass(frozen=True)
class Estimate:
    """One estimate as every study reports it: the mean (a proportion for rates), its standard
    error, its 95% interval (``lo``, ``hi``: normal for means, Wilson for proportions) and the
    sample count ``n``; ``p`` is the two-sided p-value against 0 of a paired difference.
    Perspective and units are the caller's to state."""

    mean: float
    se: float
    lo: float
    hi: float
    n: int
    p: float | None = None

    @property
    def ci95(self) -> list[float]:
        return [self.lo, self.hi]

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    @classmethod
    def of_sample(cls, x: np.ndarray) -> Estimate:
        """The mean of a sample (infinite interval for one value, NaN for none)."""
        x = np.asarray(x, dtype=np.float64)
        n = len(x)
        if n == 0:
            return cls(math.nan, math.nan, math.nan, math.nan, 0)
        m = float(x.mean())
        se = float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
        return cls(m, se, m - Z95 * se, m + Z95 * se, n)

    @classmethod
    def of_sums(cls, total: int, total_sq: int, n: int, scale: float = 1.0) -> Estimate:
        """The mean of n integers (times ``scale``) from their sum and sum of squares, kept
        exact integers until the variance (so tallies merged from any chunking give the same
        figures); as :meth:`of_sample` for 0 or 1 values."""
        if n == 0:
            return cls(math.nan, math.nan, math.nan, math.nan, 0)
        mean = total / n * scale
        if n == 1:
            return cls(mean, math.inf, -math.inf, math.inf, 1)
        var = (n * total_sq - total * total) / (n * (n - 1))
        se = math.sqrt(max(var, 0.0) / n) * abs(scale)
        return cls(mean, se, mean - Z95 * se, mean + Z95 * se, n)

    @classmethod
    def paired(cls, a: np.ndarray, b: np.ndarray) -> Estimate:
        """The mean of ``a - b`` over common samples, with its p-value against 0."""
        d = paired_difference(a, b)
        return cls(d["mean"], d["se"], *d["ci95"], d["n"], d["p"])

    @classmethod
    def proportion(cls, successes: int, n: int) -> Estimate:
        """A rate out of n with its Wilson interval (``se`` the binomial one)."""
        k = int(successes)
        p = k / n if n else math.nan
        se = math.sqrt(p * (1 - p) / n) if n else math.nan
        return cls(p, se, *wilson_interval(k, n), int(n))

    def to_dict(self) -> dict:
        """{"mean", "se", "ci95", "n"} (and "p" for a paired difference), JSON-ready."""
        d = {"mean": self.mean, "se": self.se, "ci95": self.ci95, "n": self.n}
        if self.p is not None:
            d["p"] = self.p
        return d
