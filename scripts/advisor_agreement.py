"""How often the advisor's default agrees with a stronger, slower setting, and what it loses.

For each of ``--hands`` random dealt hands (fixed seed; even-numbered hands are elder's, odd
ones younger's after elder took ``--elder-took``):

* the default: ``advise(hand, role, play=DEFAULT_PLAY)`` with the CLI's default precision;
* the strong setting: the default ranking's best ``--top`` discards re-valued with pimc play
  (both players, ``--pimc-worlds`` sampled worlds per decision) on the same ``--worlds`` common
  worlds; its top choice is the discard with the highest pimc mean.

Reported: the share of hands where the two top choices agree (Wilson 95% interval), and the
mean EV lost when they differ, in the strong setting's own estimates (pimc means; points are
the advising player's net deal points: own minus the opponent's). The loss is the strong top's
mean minus the default top's on the shared worlds, so it carries the winner's curse of taking a
maximum (an upper estimate); its SE is over hands.

Because the strong top is itself chosen on ``--worlds`` noisy worlds, two more figures per hand:

* ``close``: the two tops agree, or the strong top's lead over the default's is within 1.96 SE
  of its paired difference (the strong setting cannot tell them apart);
* ``holdout_loss``: the strong top's mean minus the default top's on ``--holdout`` fresh worlds
  (other seeds), an estimate of the loss free of the winner's curse (it can be negative).

Results go to ``--out`` (JSON, written after every hand, so a cut run keeps what finished).

Example (run it in the background; about 10-20 CPU-s a hand):
  python scripts/advisor_agreement.py --hands 200 --top 4 --worlds 48 \
      --out results/advisor_agreement.json
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from piquet_sim.core.stats import wilson_interval
from piquet_sim.piquet.advisor import DEFAULT_PLAY, advise, world_values
from piquet_sim.piquet.cards import format_cards


def random_hands(n: int, seed: int) -> list[int]:
    """``n`` 12-card hands (masks) drawn uniformly from the 32-card pack."""
    rng = np.random.default_rng(seed)
    return [int(sum(1 << int(c) for c in rng.choice(32, 12, replace=False))) for _ in range(n)]


def one_hand(i: int, hand: int, args: argparse.Namespace) -> dict:
    """The default's and the strong setting's top discards for hand ``i``, and the loss."""
    role = "elder" if i % 2 == 0 else "younger"
    took = None if role == "elder" else args.elder_took
    t0 = time.process_time()
    w0 = time.perf_counter()
    default = advise(hand, role=role, elder_took=took, play=DEFAULT_PLAY, seed=args.seed + i)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    top = [c.discard for c in default.candidates[: args.top]]
    nets, info = world_values(
        hand,
        top,
        role,
        took,
        "pimc",
        n_worlds=args.worlds,
        seed=args.seed + 10_000 + i,
    )
    x = nets[:, info["valid"]].astype(np.float64)
    means = x.mean(axis=1)
    best = int(np.argmax(means))
    diff = x[best] - x[0]
    se = float(diff.std(ddof=1) / math.sqrt(diff.size)) if diff.size > 1 else None
    close = best == 0 or (se is not None and means[best] - means[0] <= 1.96 * se)
    holdout, holdout_se, holdout_n = 0.0, 0.0, 0
    if best != 0 and args.holdout > 0:
        h_nets, h_info = world_values(
            hand,
            [top[best], top[0]],
            role,
            took,
            "pimc",
            n_worlds=args.holdout,
            seed=args.seed + 20_000 + i,
        )
        h = h_nets[:, h_info["valid"]].astype(np.float64)
        hd = h[0] - h[1]
        holdout, holdout_n = float(hd.mean()), int(hd.size)
        holdout_se = float(hd.std(ddof=1) / math.sqrt(hd.size)) if hd.size > 1 else None
    return {
        "hand": format_cards(hand),
        "role": role,
        "elder_took": took,
        "default_top": format_cards(top[0]),
        "strong_top": format_cards(top[best]),
        "agree": best == 0,
        "loss": float(means[best] - means[0]),
        "loss_se": se,
        "close": bool(close),
        "holdout_loss": holdout,
        "holdout_loss_se": holdout_se,
        "holdout_worlds": holdout_n,
        "strong_means": [round(float(m), 3) for m in means],
        "worlds": int(x.shape[1]),
        "default_cpu_s": round(cpu, 2),
        "default_wall_s": round(wall, 2),
    }


def summary(rows: list[dict], args: argparse.Namespace, seconds: float) -> dict:
    n = len(rows)
    agree = sum(r["agree"] for r in rows)
    losses = np.array([r["loss"] for r in rows]) if rows else np.zeros(0)
    differ = losses[[not r["agree"] for r in rows]] if rows else losses
    close = sum(r["close"] for r in rows)
    held = np.array([r["holdout_loss"] for r in rows]) if rows else np.zeros(0)
    return {
        "command": "python scripts/advisor_agreement.py "
        + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if k != "out"),
        "default": f"play {DEFAULT_PLAY}, precision 0.5 (the discard command's default)",
        "strong": f"the default's best {args.top} re-valued with pimc play "
        f"({args.pimc_worlds} worlds per decision, the pimc defaults) on {args.worlds} common "
        f"worlds; hold-out loss on {args.holdout} fresh worlds",
        "perspective": "the advising player's net deal points (own minus the opponent's)",
        "hands": n,
        "requested": args.hands,
        "agreement": agree / n if n else None,
        "agreement_ci95": list(wilson_interval(agree, n)) if n else None,
        "close_or_agree": close / n if n else None,
        "close_or_agree_ci95": list(wilson_interval(close, n)) if n else None,
        "mean_loss_when_differ": float(differ.mean()) if differ.size else 0.0,
        "holdout_loss_per_hand": float(held.mean()) if n else None,
        "holdout_loss_per_hand_se": float(held.std(ddof=1) / math.sqrt(n)) if n > 1 else None,
        "mean_loss_per_hand": float(losses.mean()) if n else None,
        "mean_loss_per_hand_se": float(losses.std(ddof=1) / math.sqrt(n)) if n > 1 else None,
        "default_median_wall_s": float(np.median([r["default_wall_s"] for r in rows]))
        if rows
        else None,
        "default_median_cpu_s": float(np.median([r["default_cpu_s"] for r in rows]))
        if rows
        else None,
        "seconds": round(seconds, 1),
        "rows": rows,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--top", type=int, default=6, help="default's best discards re-valued")
    ap.add_argument("--worlds", type=int, default=64, help="common worlds of the pimc values")
    ap.add_argument("--pimc-worlds", type=int, default=16, help="pimc worlds per decision")
    ap.add_argument("--elder-took", type=int, default=5, help="for the younger hands")
    ap.add_argument(
        "--holdout", type=int, default=96, help="fresh worlds for the loss when the tops differ"
    )
    ap.add_argument("--out", type=Path, default=Path("results/advisor_agreement.json"))
    args = ap.parse_args()
    if args.pimc_worlds != 16:
        raise SystemExit("--pimc-worlds: only the pimc default (16) is wired in this script")
    t0 = time.perf_counter()
    rows: list[dict] = []
    for i, hand in enumerate(random_hands(args.hands, args.seed)):
        rows.append(one_hand(i, hand, args))
        args.out.write_text(json.dumps(summary(rows, args, time.perf_counter() - t0), indent=1))
        r = rows[-1]
        print(
            f"{i + 1}/{args.hands} {r['role']} agree={r['agree']} close={r['close']} "
            f"loss={r['loss']:+.2f} holdout={r['holdout_loss']:+.2f}",
            flush=True,
        )
    s = summary(rows, args, time.perf_counter() - t0)
    print(
        f"agreement {s['agreement']:.3f} {s['agreement_ci95']}, close or agree "
        f"{s['close_or_agree']:.3f}, mean loss when they differ "
        f"{s['mean_loss_when_differ']:.3f}, per hand {s['mean_loss_per_hand']:.3f}, hold-out "
        f"per hand {s['holdout_loss_per_hand']:.3f}"
    )


if __name__ == "__main__":
    main()
