"""The report's defaults."""

from __future__ import annotations

#: The report's strategies when none are given; the first (the strongest fast strategy,
#: heuristic exchange and play) is the one the odds and exchange sections describe.
DEFAULT_STRATEGIES = ("heuristic", "greedy", "max", "sink-sets", "sink-point", "random")
DEFAULT_DEALS = 200_000
ELDER_MAX = 5
TALON = 8
#: Names a batch study of ``piquet_sim.sinking`` may go by (the first one found is used).
SINKING_MODULE = f"{__package__.rsplit('.', 1)[0]}.sinking"
SINKING_FUNCTIONS = ("batch_study", "sinking_study", "study", "batch")
