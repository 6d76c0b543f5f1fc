"""Pitch's numba kernels: numba only, no printing. Masks are int64; layouts in ``..layouts``."""
