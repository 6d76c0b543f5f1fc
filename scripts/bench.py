"""Run the benchmarks and merge their rows into results/bench.json.

python scripts/bench.py                 # every workload
python scripts/bench.py --only deal+declarations --quick
"""

from __future__ import annotations

import sys

from piquet_sim.cli import main

if __name__ == "__main__":
    main(["bench", *sys.argv[1:]])
