"""Time a mirrored deal of pimc and pimcw settings against pimc:
milliseconds of wall time a deal (both seats, numba's threads), after a warm-up match that
compiles the kernels; heuristic exchange on both sides.

python scripts/pimcw_timing.py
"""

from __future__ import annotations

import time

from pimcw_sweep import strategy

from piquet_sim.piquet.match import head_to_head

STRONG = {"worlds": 32, "oversample": 64, "exchange_epsilon": 0.1, "exchange_draws": 32}


def main() -> None:
    pimc = strategy("pimc", "pimc", "heuristic")
    rows = [
        (strategy("heuristic", "heuristic", "heuristic"), 3000),
        (pimc, 3000),
        (strategy("pimcw (defaults)", "pimcw", "heuristic"), 1000),
        (strategy("pimcw 32 worlds", "pimcw", "heuristic", {"worlds": 32}), 1000),
        (strategy("pimcw-strong", "pimcw", "heuristic", STRONG), 300),
    ]
    for a, pairs in rows:
        head_to_head(a, pimc, 5, 99)
        t = time.perf_counter()
        head_to_head(a, pimc, pairs, 13)
        ms = 1000 * (time.perf_counter() - t) / (2 * pairs)
        print(f"{a.name} v pimc: {ms:.2f} ms a deal ({pairs} mirrored pairs)", flush=True)


if __name__ == "__main__":
    main()
