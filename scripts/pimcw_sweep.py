"""pimcw's parameters against pimc: mirrored pairs of pimcw (parameters varied) against
pimc at its defaults, both players exchanging by ``--exchange``; one line per setting.

python scripts/pimcw_sweep.py --pairs 3000 --seed 13 '{"oversample": 16}' '{"worlds": 32}'
python scripts/pimcw_sweep.py --pairs 1000 --opponent heuristic '{"epsilon": 0.3}'

Each setting is a JSON object of pimcw parameters (the rest at the registry's defaults);
``--opponent`` plays the other seat (default pimc). Prints pimcw's mean net per deal over the
opponent with its 95% half-width and the wall time (the first setting includes compiling).
"""

from __future__ import annotations

import argparse
import json
import time

from piquet_sim.core.game.strategy import Choice, Strategy
from piquet_sim.piquet import policies as P
from piquet_sim.piquet.match import head_to_head


def strategy(name: str, play: str, exchange: str, params: dict | None = None) -> Strategy:
    P.get("play", play)  # a known play policy
    return Strategy.of(name, exchange=exchange, declare="all", play=Choice.of(play, params))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("settings", nargs="+", help="JSON objects of pimcw parameters")
    ap.add_argument("--pairs", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--exchange", default="heuristic")
    ap.add_argument("--opponent", default="pimc", help="the other seat's play policy")
    args = ap.parse_args(argv)
    other = strategy(args.opponent, args.opponent, args.exchange)
    for text in args.settings:
        params = json.loads(text)
        mine = strategy("pimcw", "pimcw", args.exchange, params)
        t = time.perf_counter()
        net = head_to_head(mine, other, args.pairs, args.seed).to_dict()["net_per_deal"]
        print(
            f"{params} vs {args.opponent}, {args.pairs} pairs, seed {args.seed}: "
            f"{net['mean']:+.3f} ± {1.96 * net['se']:.3f} ({time.perf_counter() - t:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
