"""CPU per node of Pitch's max^n on the bench's rounds (not a test: a timing aid).

Solves ``pitch.bench._positions(n, count)`` with ``KP.solve_maxn`` (a fresh ``make_work(18)``
per repeat, ``new_generation`` before each round) and prints the median CPU ms per round,
total nodes, ns per node (CPU) and a hash of every round's value and node count.

    python scripts/maxn_cpu.py --players 4 --count 40 --repeat 5
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from piquet_sim.pitch import bench
from piquet_sim.pitch.kernels import position as KP
from piquet_sim.pitch.kernels.search_node import F_ALL, F_TIE_FULL, make_work
from piquet_sim.pitch.kernels.search_tt import new_generation
from piquet_sim.pitch.layouts import SearchStat
from piquet_sim.pitch.rules import Rules


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--full", action="store_true", help="full-order tie rule")
    a = ap.parse_args()
    flags = F_ALL | (F_TIE_FULL if a.full else 0)
    rules = Rules(players=a.players).to_array()
    positions = bench._positions(a.players, a.count)
    warm = make_work(12)
    KP.solve_maxn(positions[0], rules, warm, flags)
    meds, totals = [], []
    digest = ""
    nodes_total = 0
    for _ in range(a.repeat):
        work = make_work(18)
        h = hashlib.sha256()
        cpu = []
        nodes_total = 0
        for pos in positions:
            new_generation(work.gen, work.tt)
            work.stats[:] = 0
            c0 = time.process_time()
            v = KP.solve_maxn(pos, rules, work, flags)
            cpu.append(time.process_time() - c0)
            nn = int(work.stats[SearchStat.NODES])
            nodes_total += nn
            h.update(f"{int(v)},{nn};".encode())
        digest = h.hexdigest()[:16]
        meds.append(float(np.median(cpu)) * 1e3)
        totals.append(sum(cpu))
    best_total = min(totals)
    print(
        f"players={a.players} rounds={a.count} median_ms(med of {a.repeat})="
        f"{np.median(meds):.2f} min_med={min(meds):.2f} nodes={nodes_total} "
        f"ns/node(best total)={best_total / nodes_total * 1e9:.1f} hash={digest}"
    )


if __name__ == "__main__":
    main()
