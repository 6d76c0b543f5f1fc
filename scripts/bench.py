"""Run the benchmarks and merge their rows into results/bench.json.

python scripts/bench.py                 # every workload
python scripts/bench.py --only deal+declarations --quick

Rows go to results/bench.json under the current directory (the path is printed). Without the
Dask extra the "odds backends" row is skipped with a note; the others run.
"""

from __future__ import annotations

import sys

from piquet_sim.cli import main

if __name__ == "__main__":
    main(["bench", *sys.argv[1:]])
