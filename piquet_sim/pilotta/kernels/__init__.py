"""Pilotta's numba kernels (no printing, no pandas): tables, declarations, tricks, scoring,
auction, dealing, play policies, the simulated round and game, odds counters and the solver."""
