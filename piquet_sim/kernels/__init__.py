"""numba kernels: pure functions on integer masks and small arrays. No printing, no Python objects."""
