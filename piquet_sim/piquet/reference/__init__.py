"""Plain-Python reference versions of the rules, for tests only (slow, obvious, no numba).

Nothing here imports :mod:`piquet_sim.kernels`; the code is written from ``docs/rules/piquet.md``
directly
so that comparing it with the kernels checks both.
"""

from .declarations import describe, score_deal

__all__ = ["describe", "score_deal"]
