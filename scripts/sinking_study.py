"""Batch study of sinking: which holdings it pays to sink and what it is worth on average.

Writes results/sinking_study.csv (the summary table by role, choice and holding) and
results/sinking_study.png. Usage: python scripts/sinking_study.py [--hands 100] [--worlds 6]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from piquet_sim.piquet.sinking import study, study_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=6)
    ap.add_argument("--pimc-worlds", type=int, default=4)
    ap.add_argument("--play", default="pimc")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    df = study(args.hands, worlds=args.worlds, play=args.play, pimc_worlds=args.pimc_worlds,
               seed=args.seed)  # fmt: skip
    table = study_table(df)
    out = ROOT / "results"
    out.mkdir(exist_ok=True)
    table.round(3).to_csv(out / "sinking_study.csv", index=False)
    by_choice = df.groupby(["choice", "role"])["gain"].mean().unstack("role")
    conceal = df.groupby(["choice", "role"])["concealment"].mean().unstack("role")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    by_choice.plot.barh(ax=axes[0])
    axes[0].set_xlabel("mean gain over declaring all (points per deal)")
    axes[0].axvline(0, color="k", lw=0.8)
    conceal.plot.barh(ax=axes[1], legend=False)
    axes[1].set_xlabel("of which concealment (play, beyond double dummy)")
    axes[1].axvline(0, color="k", lw=0.8)
    fig.suptitle(f"Sinking: {args.hands} hands per role, {args.worlds} worlds each, "
                 f"play {args.play}")  # fmt: skip
    fig.tight_layout()
    fig.savefig(out / "sinking_study.png", dpi=90)
    print(table.round(2).to_string(index=False))
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
