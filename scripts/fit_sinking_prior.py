"""Fit the sinking prior of ``piquet_sim/piquet/sunk.py`` to the sinking study.

``results/sinking_study.csv`` (``scripts/sinking_study.py``) gives, per role, choice and
holding, the share of hands on which sinking (or declaring the lesser) measured better than
declaring all. The prior says a player sinks or declares the lesser with probability
``rate * exp(-points given up / temperature)``; the points given up are the nominal value of
what the choice leaves out (``sunk.nominal_points``: a point's cards, a sequence's or a set's
score). Fitted by maximum likelihood (binomial, the shares times the hands), on a grid.

Usage: python scripts/fit_sinking_prior.py [--csv results/sinking_study.csv]
"""

from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEQUENCES = {"tierce": 3, "quart": 4, "quint": 15, "sixieme": 16, "septieme": 17, "huitieme": 18}
LESSER = {3: 3, 4: 1, 15: 11, 16: 1, 17: 1, 18: 1}  # a sequence's score minus its lesser's


def given_up(choice: str, holding: str) -> int | None:
    """The points a choice gives up on a holding (None: not a one-class choice)."""
    sink = choice.startswith("sink")
    if "point" in choice:
        return int(holding.split()[-1]) if sink else 1
    if "sequence" in choice:
        value = SEQUENCES.get(holding)
        return None if value is None else (value if sink else LESSER[value])
    if "set" in choice:
        value = 14 if holding == "quatorze" else 3
        return value if sink else (11 if value == 14 else 3)
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--csv", type=Path, default=ROOT / "results" / "sinking_study.csv")
    args = ap.parse_args()
    data = []
    for row in csv.DictReader(args.csv.open()):
        points = given_up(row["choice"], row["holding"])
        if points is not None:
            hands = int(row["hands"])
            data.append((points, hands, round(float(row["share_better"]) * hands)))
    best = None
    for rate in (i / 100 for i in range(1, 100)):
        for temperature in (i / 4 for i in range(1, 200)):
            ll = 0.0
            for points, n, k in data:
                q = min(max(rate * math.exp(-points / temperature), 1e-9), 1 - 1e-9)
                ll += k * math.log(q) + (n - k) * math.log(1 - q)
            if best is None or ll > best[0]:
                best = (ll, rate, temperature)
    ll, rate, temperature = best
    hands = sum(n for _, n, _ in data)
    print(f"rate {rate}, temperature {temperature} points ({len(data)} holdings, {hands} hands)")
    print(f"log-likelihood {ll:.1f}")


if __name__ == "__main__":
    main()
