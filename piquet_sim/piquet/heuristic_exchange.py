"""The ``heuristic`` exchange policy's table: the greedy keep-value rule's eleven weights
(``policies.GREEDY_WEIGHTS``, ``kernels/exchange.py``) refitted for hands played out by the
``heuristic`` play policy. Data only.

Fit (``scripts/fit_heuristic_exchange.py``): coordinate search from the greedy defaults on the
mean net points per deal over mirrored deal pairs, candidate weights against the greedy
defaults, both sides playing ``heuristic`` and declaring everything (common random numbers: each
candidate meets the same deals); a move is kept only when it gains more than two standard errors
of the paired difference. Quality, on a fresh seed: see :data:`FIT`.
"""

from __future__ import annotations

#: Fitted weights, in ``policies.GREEDY_WEIGHTS`` order.
HEURISTIC_EXCHANGE_WEIGHTS = (0.1, 1.0, 0.4, 1.1, 0.1, 3.0, 0.4, 0.3, 0.5, 1.7, 0.3)

#: How the table was fitted and what it gains (points per deal against the greedy exchange,
#: both sides playing ``heuristic``; 95% interval).
FIT = {
    "command": "python scripts/fit_heuristic_exchange.py --pairs 100000 --sweeps 3 --seed 11",
    "fit_seed": 11,
    "validation_seed": 1,
    "validation_pairs": 0,
    "net_per_deal": 0.0,
    "ci95": (0.0, 0.0),
}
