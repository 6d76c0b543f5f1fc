"""numba kernels: pure functions on integer masks and small arrays; no printing, no objects."""
