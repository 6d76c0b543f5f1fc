"""Array copies for kernels, written as loops.

numba's slice assignment from an array (``dst[:] = src``) checks the shapes at run time and
compiles the formatting of its shape-mismatch message (str, join and repr of ints): about 2
CPU-s of a cold run, in every command whose kernels hold one. These loops copy the same
elements without it; callers pass arrays of the same shape.
"""

from __future__ import annotations

from .jit import njit_inline


@njit_inline
def copy_into(dst, src):
    """``dst[:] = src`` for 1-d arrays of the same length."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@njit_inline
def copy_rows(dst, src):
    """``dst[:, :] = src`` for 2-d arrays of the same shape."""
    for r in range(dst.shape[0]):
        for c in range(dst.shape[1]):
            dst[r, c] = src[r, c]
