"""Calibrate the Pitch threshold bidder's hand estimate against the bid advisor.

For random six-card hands (seat 0, 4 players, uniform prior, heuristic play) the advisor's
expected points as the bidder in the hand's best suit (by the estimate) are compared with the
estimate itself; a least-squares fit of the advisor's points on the estimate's six terms gives
the ``parametric`` bidder's weights. Also prints the threshold bidder's mean winning bid and
its make rate in simulated rounds.

    python scripts/pitch_calibrate.py --hands 300 --worlds 400 --seed 7
"""

from __future__ import annotations

import argparse

import numpy as np

from piquet_sim.pitch import cards as C
from piquet_sim.pitch.bid import advise_bid
from piquet_sim.pitch.kernels.bidding import HIGH_TENTHS, LOW_TENTHS, best_suit, estimate
from piquet_sim.pitch.kernels.simulate import simulate_rounds
from piquet_sim.pitch.kernels.tricks import mask_game_points
from piquet_sim.pitch.layouts import RoundRec
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.rules import Rules


def terms(hand: int, suit: int) -> list[float]:
    t = hand & C.suit_cards(suit)
    ranks = [r for r in range(13) if t >> (16 * suit + r) & 1]
    return [
        HIGH_TENTHS[max(ranks)],
        LOW_TENTHS[min(ranks)],
        9.0 * (9 in ranks),
        8.0 * (4 in ranks),
        3.0 * (len(ranks) - 1),
        mask_game_points(np.int64(hand)) / 3.0,
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--worlds", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rules = Rules(players=4)
    recs, _ = simulate_rounds(a.seed, 0, a.hands, rules.to_array(), make_policy("random"), False)
    x, y, est = [], [], []
    for r in recs:
        hand = int(r[RoundRec.HANDS])
        suit = int(best_suit(np.int64(hand)))
        adv = advise_bid(hand, 4, 0, [], rules, prior="uniform", worlds=a.worlds, seed=a.seed)
        study = next(s for s in adv.suits if s.suit == C.SUITS[suit])
        x.append(terms(hand, suit))
        y.append(study.expected_points.mean)
        est.append(estimate(np.int64(hand), suit) / 10.0)
    x, y, est = np.array(x), np.array(y), np.array(est)
    print(f"hands {len(y)}: estimate mean {est.mean():.3f}, advisor E[points] mean {y.mean():.3f}")
    print(f"estimate - advisor: mean {np.mean(est - y):+.3f}, sd {np.std(est - y):.3f}")
    for lo, hi in ((0, 2), (2, 3), (3, 4), (4, 5), (5, 7)):
        sel = (est >= lo) & (est < hi)
        if sel.any():
            print(f"  estimate in [{lo}, {hi}): n {sel.sum():4d}, advisor {y[sel].mean():.3f}")
    design = np.column_stack([x / 10.0, np.ones(len(y))])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    names = ["high", "low", "jack", "six", "length", "game", "intercept"]
    print(
        "fit (weights on the estimate's terms):", dict(zip(names, np.round(coef, 3), strict=True))
    )
    sim, _ = simulate_rounds(
        a.seed, 0, 200_000, rules.to_array(), make_policy("threshold", "heuristic"), False
    )
    bid = sim[:, RoundRec.BID]
    print(
        f"threshold bidder, 200,000 rounds: mean winning bid {bid.mean():.3f}, "
        f"made {sim[:, RoundRec.MADE].mean():.3f}"
    )


if __name__ == "__main__":
    main()
