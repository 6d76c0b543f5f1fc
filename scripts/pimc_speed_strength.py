"""pimc settings against a baseline setting on mirrored deals: strength and CPU time.

Each candidate setting (a full pimc parameter row: worlds, max_attempts, adaptive, race, race_z,
keep; missing trailing entries are 0) plays ``--pairs`` mirrored deal pairs against the baseline
row (``match.head_to_head``: greedy exchange, every declaration, pimc play on both sides, same
deals for every candidate: common random numbers). Printed per candidate: points per deal of the
candidate minus the baseline (from the candidate's side, net of the opponent's points) with its
SE and 95% interval, and the pairs played; then each row's median CPU ms per pimc deal on one
core (``bench.sinking.pimc_deals``, both seats playing that row, ``--timing-deals`` deals,
baseline timed in the same run) with the ratio to the baseline.

Example (about 1-2 CPU-minutes per candidate at 1,000 pairs):
  python scripts/pimc_speed_strength.py --pairs 1000 --candidate 16,2000,0,3,2,1
"""

from __future__ import annotations

import argparse
import json

from piquet_sim.core.game.strategy import Choice, Strategy
from piquet_sim.piquet.bench.sinking import pimc_deals
from piquet_sim.piquet.match import head_to_head
from piquet_sim.piquet.policies import REGISTRY

BASELINE = (16.0, 2000.0, 0.0, 4.0, 2.0, 1.0)  # pimc's registry defaults (policies.py)


def _strategy(name: str, row: tuple[float, ...]) -> Strategy:
    pimc = Choice.of("pimc", dict(zip(REGISTRY.get("play", "pimc").params, row, strict=True)))
    return Strategy.of(name, f"pimc {row}", exchange="greedy", declare="all", play=pimc)


def _row(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in text.split(","))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--candidate", action="append", required=True, help="pimc row, comma list")
    ap.add_argument("--baseline", default=",".join(f"{x:g}" for x in BASELINE))
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--timing-deals", type=int, default=0, help="0: skip the CPU timing")
    args = ap.parse_args()
    base = _row(args.baseline)
    out = []
    for text in args.candidate:
        row = _row(text)
        r = head_to_head(_strategy("cand", row), _strategy("base", base), args.pairs, args.seed)
        net = r.to_dict()["net_per_deal"]
        out.append({"candidate": row, "baseline": base, "pairs": r.played, "net": net})
        print(json.dumps(out[-1]), flush=True)
    if args.timing_deals:
        t_base = pimc_deals(args.timing_deals, 16, params=base)["cpu_median_ms"]
        print(json.dumps({"row": base, "cpu_median_ms": t_base}), flush=True)
        for text in args.candidate:
            t = pimc_deals(args.timing_deals, 16, params=_row(text))["cpu_median_ms"]
            print(json.dumps({"row": _row(text), "cpu_median_ms": t, "ratio": t_base / t}))


if __name__ == "__main__":
    main()
