"""Ratings from a round robin's pairwise results, for every game's ladder: a least-squares fit
of the margins (points) and a Bradley-Terry fit of the wins (Elo).

* :func:`fit_points`: ``margin[i, j] ~ r[i] - r[j]``, each match weighted by 1 / SE**2, the
  reference at 0, the SEs from the fit's covariance: on points, the linear (Thurstone-like)
  analogue of a Bradley-Terry fit;
* :func:`fit_bradley_terry`: strengths from wins (a tied deal half to each) by the
  minorise-maximise iteration, as Elo points (400 log10 of the strength ratio), the reference
  at 0, SEs from the observed information.
"""

from __future__ import annotations

import itertools
import math

import numpy as np


def fit_points(margins: np.ndarray, ses: np.ndarray, ref: int) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least squares ``margins[i, j] ~ r[i] - r[j]`` over the played pairs (i < j with a
    finite positive SE), ``r[ref] = 0``: (ratings, their SEs)."""
    k = len(margins)
    free = [i for i in range(k) if i != ref]
    rows, ys, ws = [], [], []
    for i, j in itertools.combinations(range(k), 2):
        if not (np.isfinite(ses[i, j]) and ses[i, j] > 0):
            continue
        x = np.zeros(k)
        x[i], x[j] = 1.0, -1.0
        rows.append(x[free])
        ys.append(margins[i, j])
        ws.append(1.0 / ses[i, j] ** 2)
    r = np.zeros(k)
    se = np.zeros(k)
    if not rows:
        return r, se
    X, y, W = np.array(rows), np.array(ys), np.diag(ws)
    cov = np.linalg.pinv(X.T @ W @ X)
    r[free] = cov @ X.T @ W @ y
    se[free] = np.sqrt(np.clip(np.diag(cov), 0, None))
    return r, se


def fit_bradley_terry(
    wins: np.ndarray, ref: int, iters: int = 500
) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry strengths from ``wins[i, j]`` (deals i won against j, ties halved) by the
    minorise-maximise iteration; returned as Elo points (400 log10), ``ref`` at 0, with SEs from
    the inverse observed information (reference fixed)."""
    k = len(wins)
    games = wins + wins.T
    p = np.ones(k)
    total = wins.sum(axis=1)
    for _ in range(iters):
        denom = np.array(
            [sum(games[i, j] / (p[i] + p[j]) for j in range(k) if j != i) for i in range(k)]
        )
        new = np.where(denom > 0, np.maximum(total, 1e-9) / np.where(denom > 0, denom, 1), p)
        new /= new[ref]
        if np.allclose(new, p, rtol=1e-12, atol=0):
            p = new
            break
        p = new
    theta = np.log(p)
    info = np.zeros((k, k))
    for i, j in itertools.combinations(range(k), 2):
        q = p[i] * p[j] / (p[i] + p[j]) ** 2 * games[i, j]
        info[i, i] += q
        info[j, j] += q
        info[i, j] -= q
        info[j, i] -= q
    free = [i for i in range(k) if i != ref]
    se = np.zeros(k)
    cov = np.linalg.pinv(info[np.ix_(free, free)])
    se[free] = np.sqrt(np.clip(np.diag(cov), 0, None))
    scale = 400 / math.log(10)
    return (theta - theta[ref]) * scale, se * scale


__all__ = ["fit_bradley_terry", "fit_points"]
