"""The ``heuristic`` exchange policy's table: the greedy keep-value rule's eleven weights
(``policies.GREEDY_WEIGHTS``, ``kernels/exchange.py``) refitted for hands played out by the
``heuristic`` play policy. Data only.

Fit (``scripts/fit_heuristic_exchange.py``): coordinate search from the greedy defaults on the
mean net points per deal over mirrored deal pairs, candidate weights against the greedy
defaults, both sides playing ``heuristic`` and declaring everything (common random numbers: each
candidate meets the same deals); a move is kept only when it gains more than two standard errors
of the paired difference. Quality, on a fresh seed (:data:`FIT`): +0.62 points per deal
[0.59, 0.66] over the greedy exchange, 200,000 mirrored pairs, both sides playing heuristic. What
the fit changed: sequences are worth less to keep (1.1 -> 0.6), singletons are thrown less
readily (0.5 -> 0.05), high ranks and a long point suit count more, pairs of tens-or-higher less.
"""

from __future__ import annotations

#: Fitted weights, in ``policies.GREEDY_WEIGHTS`` order.
HEURISTIC_EXCHANGE_WEIGHTS = (0.15, 1.0, 0.6, 0.6, 0.1, 3.0, 0.25, 0.3, 0.05, 1.7, 0.3)

#: How the table was fitted and what it gains (points per deal against the greedy exchange,
#: both sides playing ``heuristic``; 95% interval).
FIT = {
    "command": "python scripts/fit_heuristic_exchange.py --pairs 60000 --sweeps 2 --seed 11",
    "fit_seed": 11,
    "fit_pairs": 60_000,
    "moves_kept": "point_len 0.4->0.6, seq 1.1->0.6, singleton 0.5->0.2->0.05, "
    "rank 0.1->0.15, set2 0.4->0.25",
    "fit_gain_per_deal": 0.632,
    "validation_seed": 1,
    "validation_pairs": 200_000,
    "net_per_deal": 0.624,
    "ci95": (0.593, 0.655),
}
