"""Fit the ``heuristic`` exchange policy's keep values (``piquet/heuristic_exchange.py``).

The policy is the greedy exchange's keep-value rule (``kernels/exchange.py``) with its eleven
weights refitted for what the hands are worth under ``heuristic`` play. Objective: the mean net
points per deal, over mirrored deal pairs (``match.mirrored_chunk``; common random numbers:
every candidate meets the same deals and the same opponent), of a strategy exchanging with the
candidate weights against one exchanging with the greedy defaults, both playing ``heuristic``
and declaring everything. Coordinate search: each weight in turn moves by +-step; a move is
kept when it beats the current weights on the same deals by more than two standard errors of
the paired difference; steps halve after each sweep.

Run: ``python scripts/fit_heuristic_exchange.py --pairs 100000 --sweeps 3 --seed 11``
(prints the weights to paste into ``piquet/heuristic_exchange.py`` and the validation match
on a fresh seed).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from piquet_sim.core.game.strategy import Choice, Strategy
from piquet_sim.piquet.match import head_to_head, mirrored_chunk
from piquet_sim.piquet.policies import GREEDY_DEFAULTS, GREEDY_WEIGHTS

#: Initial step per weight (the rank weight is per rank step, so smaller).
STEPS = (0.1, 0.5, 0.2, 0.5, 0.1, 1.0, 0.3, 0.3, 0.3, 0.5, 0.3)


def strategy(name: str, weights) -> Strategy:
    """Greedy-rule exchange with ``weights``, declare all, heuristic play (both seats)."""
    greedy = Choice.of("greedy", dict(zip(GREEDY_WEIGHTS, map(float, weights), strict=True)))
    return Strategy.of(
        name,
        "greedy-rule exchange with fitted weights, heuristic play",
        exchange=greedy,
        declare="all",
        play="heuristic",
    )


def pair_nets(weights, seed: int, pairs: int) -> np.ndarray:
    """Per pair: the candidate's net over the greedy defaults, both seats summed (points)."""
    nets, _ = mirrored_chunk(
        strategy("candidate", weights), strategy("greedy", GREEDY_DEFAULTS), seed, 0, pairs
    )
    return nets[:, 0].astype(np.float64) - nets[:, 1].astype(np.float64)


def fit(seed: int, pairs: int, sweeps: int) -> tuple[float, ...]:
    """Coordinate search from the greedy defaults (see module docstring)."""
    theta = np.array(GREEDY_DEFAULTS, dtype=np.float64)
    steps = np.array(STEPS)
    current = pair_nets(theta, seed, pairs)
    for sweep in range(sweeps):
        for i, name in enumerate(GREEDY_WEIGHTS):
            for sign in (1.0, -1.0):
                cand = theta.copy()
                cand[i] = max(0.0, cand[i] + sign * steps[i])
                if cand[i] == theta[i]:
                    continue
                nets = pair_nets(cand, seed, pairs)
                diff = (nets - current) / 2
                mean, se = diff.mean(), diff.std(ddof=1) / np.sqrt(pairs)
                keep = mean > 2 * se
                print(
                    f"sweep {sweep} {name:>10} {theta[i]:.2f} -> {cand[i]:.2f}: "
                    f"{mean:+.4f} +- {se:.4f} per deal {'kept' if keep else ''}",
                    flush=True,
                )
                if keep:
                    theta, current = cand, nets
                    break
        steps /= 2
    print(f"fit vs greedy defaults (fit seed): {current.mean() / 2:+.4f} per deal")
    return tuple(round(float(w), 3) for w in theta)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100_000, help="mirrored pairs per evaluation")
    ap.add_argument("--sweeps", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11, help="fit seed (validation uses seed 1)")
    ap.add_argument("--validate", type=int, default=200_000, help="validation pairs (seed 1)")
    args = ap.parse_args()
    t0 = time.time()
    weights = fit(args.seed, args.pairs, args.sweeps)
    print("weights:", weights)
    r = head_to_head(
        strategy("fitted", weights), strategy("greedy", GREEDY_DEFAULTS), args.validate
    )
    net = r.to_dict()["net_per_deal"]
    print(
        f"validation, seed 1, {args.validate} pairs: fitted over greedy exchange "
        f"{net['mean']:+.3f} [{net['ci95'][0]:+.3f}, {net['ci95'][1]:+.3f}] per deal "
        f"({time.time() - t0:.0f} s)"
    )


if __name__ == "__main__":
    main()
