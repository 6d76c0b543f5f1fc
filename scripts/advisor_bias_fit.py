"""Can a bias correction of the heuristic screen stand in for a pimc refine?

Reads the stored rows of ``scripts/advisor_agreement.py`` (no kernel runs). Every pimc-refined
candidate of the strong reference carries its pimc EV and its heuristic EV on the same worlds;
their difference (pimc minus heuristic, centred per hand) is the heuristic play model's bias for
that discard. A ridge regression per role fits it from features of the kept cards on the
training hands (index < ``--split``) and is tested on the others:

* R² of the fitted bias, training and held-out hands;
* the agreement with the strong top when the default's stored screen (its best ``K`` by
  heuristic EV) is re-ranked by heuristic EV + fitted bias, for several ``K``;
* the same with the measured bias in place of the fit (an oracle: the ceiling of any
  correction of the default's screen, whatever its features).

Points: the advising player's net deal points.

Example:
  python scripts/advisor_bias_fit.py results/advisor_agreement.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from piquet_sim.core.engine.stats import wilson_interval
from piquet_sim.piquet.cards import parse_cards

FEATURES = (
    "cards discarded",
    "longest kept suit",
    "kept voids",
    "kept singletons",
    "kept doubletons",
    "kept aces",
    "kept kings",
    "kept queens",
    "kept bare kings (no ace, singleton)",
    "kept short queens (no ace or king, at most 2)",
    "suits discarded from",
    "cards discarded from the longest dealt suit",
    "suits voided by the discard",
    "ten or higher discarded",
)
ACE, KING, QUEEN, TEN = 7, 6, 5, 3


def features(hand: int, discard: int) -> list[float]:
    """The :data:`FEATURES` of keeping ``hand`` minus ``discard`` (masks)."""
    keep = hand & ~discard

    def length(mask: int, suit: int) -> int:
        return ((mask >> (8 * suit)) & 0xFF).bit_count()

    def has(mask: int, suit: int, rank: int) -> bool:
        return bool((mask >> (8 * suit + rank)) & 1)

    kept = [length(keep, s) for s in range(4)]
    dealt = [length(hand, s) for s in range(4)]
    thrown = [length(discard, s) for s in range(4)]
    suits = range(4)
    return [
        discard.bit_count(),
        max(kept),
        sum(n == 0 for n in kept),
        sum(n == 1 for n in kept),
        sum(n == 2 for n in kept),
        sum(has(keep, s, ACE) for s in suits),
        sum(has(keep, s, KING) for s in suits),
        sum(has(keep, s, QUEEN) for s in suits),
        sum(has(keep, s, KING) and not has(keep, s, ACE) and kept[s] == 1 for s in suits),
        sum(
            has(keep, s, QUEEN) and not (has(keep, s, ACE) or has(keep, s, KING)) and kept[s] <= 2
            for s in suits
        ),
        sum(n > 0 for n in thrown),
        thrown[int(np.argmax(dealt))],
        sum(dealt[s] > 0 and kept[s] == 0 for s in suits),
        sum(has(discard, s, r) for s in suits for r in range(TEN, ACE + 1)),
    ]


def measured_bias(row: dict) -> dict[str, float]:
    """Discard -> pimc EV minus heuristic EV (same worlds) of the strong reference's refined
    candidates that raced at least the first round."""
    return {
        c[0]: c[1] - c[6]
        for c in row["strong_ranking"]
        if c[4] == "pimc" and c[6] is not None and c[3] >= 64
    }


def design(rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """(features, bias), both centred per hand, of every measured candidate of ``rows``."""
    xs, ys = [], []
    for r in rows:
        bias = measured_bias(r)
        if len(bias) < 3:
            continue
        hand = parse_cards(r["hand"], 12)
        x = np.array([features(hand, parse_cards(d)) for d in bias], float)
        y = np.array(list(bias.values()))
        xs.append(x - x.mean(axis=0))
        ys.append(y - y.mean())
    return np.vstack(xs), np.concatenate(ys)


def fit(rows: list[dict], ridge: float) -> np.ndarray:
    x, y = design(rows)
    return np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)


def r_squared(rows: list[dict], w: np.ndarray) -> float:
    x, y = design(rows)
    return float(1 - ((y - x @ w) ** 2).sum() / (y**2).sum())


def agreement(rows: list[dict], correct, k: int) -> tuple[int, int]:
    """(hands whose re-ranked top equals the strong top, hands): the default's best ``k`` by
    heuristic EV, re-ranked by EV + ``correct(row, discard)`` (None: leave the candidate out)."""
    hits = 0
    for r in rows:
        scored = []
        for c in r["default_ranking"][:k]:
            extra = correct(r, c[0])
            if extra is not None:
                scored.append((c[1] + extra, c[0]))
        top = max(scored)[1] if scored else r["default_top"]
        hits += top == r["strong_top"]
    return hits, len(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", type=Path, nargs="+", help="advisor_agreement.py outputs")
    ap.add_argument("--split", type=int, default=100, help="training hands: index below this")
    ap.add_argument("--ridge", type=float, nargs="+", default=[1.0, 5.0, 20.0, 100.0])
    args = ap.parse_args()
    rows = sorted(
        (r for f in args.results for r in json.loads(f.read_text())["rows"]),
        key=lambda r: r["index"],
    )
    train = [r for r in rows if r["index"] < args.split]
    test = [r for r in rows if r["index"] >= args.split]
    ks = (1, 3, 5, 10, 40)
    print(f"training hands {len(train)}, held-out hands {len(test)}; agreement for K = {ks}")
    for ridge in args.ridge:
        w = {
            role: fit([r for r in train if r["role"] == role], ridge)
            for role in ("elder", "younger")
        }

        def fitted(r: dict, d: str, w: dict = w) -> float:
            return float(
                np.array(features(parse_cards(r["hand"], 12), parse_cards(d))) @ w[r["role"]]
            )

        r2 = {
            role: (
                round(r_squared([r for r in train if r["role"] == role], w[role]), 3),
                round(r_squared([r for r in test if r["role"] == role], w[role]), 3),
            )
            for role in w
        }
        held = [agreement(test, fitted, k)[0] for k in ks]
        print(f"ridge {ridge}: R² (train, held out) {r2}; held-out agreement {held} of {len(test)}")
        aces = FEATURES.index("kept aces")
        print(
            f"  bias per kept ace: elder {w['elder'][aces]:+.2f}, younger {w['younger'][aces]:+.2f}"
        )
    for name, part in (("training", train), ("held-out", test)):
        base, n = agreement(part, lambda r, d: 0.0, 1)
        lo, hi = wilson_interval(base, n)
        oracle = [agreement(part, lambda r, d: measured_bias(r).get(d), k)[0] for k in ks]
        print(
            f"{name}: default {base}/{n} [{lo:.2f}, {hi:.2f}]; with the measured bias "
            f"(oracle) {oracle}"
        )


if __name__ == "__main__":
    main()
