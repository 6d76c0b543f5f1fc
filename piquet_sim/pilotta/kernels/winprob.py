"""P(winning the game) from a score, for the bid advisor's ``--score``.

Rounds are taken as independent draws from one distribution of (team A's, team B's) game
points (the dealer's rotation and the score's influence on bidding are ignored). Then
``V[a, b]``, the probability that A wins from a:b before a round (both below the target), solves
``V[a, b] = sum_k p_k W(a + x_k, b + y_k)``, where ``W`` is 1 / 0 when the round ends the
game for A / B, 1/2 when both reach the target with equal totals (the rules play on; treated as
even), else ``V`` again. A round adding nothing (thrown in) is a self-loop, divided out.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit


@njit
def win_table(xs, ys, ps, target):
    """``V`` float64[target, target] from the round outcomes ``(xs[k], ys[k])`` of probability
    ``ps[k]`` (game points of A and B)."""
    t = target
    v = np.zeros((t, t))
    for a in range(t - 1, -1, -1):
        for b in range(t - 1, -1, -1):
            acc = 0.0
            stay = 0.0
            for k in range(ps.shape[0]):
                a2 = a + xs[k]
                b2 = b + ys[k]
                if a2 < t and b2 < t:
                    if a2 == a and b2 == b:
                        stay += ps[k]
                    else:
                        acc += ps[k] * v[a2, b2]
                elif a2 == b2:
                    acc += 0.5 * ps[k]
                elif a2 > b2:
                    acc += ps[k]
            v[a, b] = acc / (1.0 - stay) if stay < 1.0 else 0.5
    return v


@njit
def win_after(v, a, b, target):
    """P(A wins) once a round has brought the score to a:b."""
    if a >= target or b >= target:
        if a == b:
            return 0.5
        return 1.0 if a > b else 0.0
    return v[a, b]
