"""JIT flags, set in one place for every kernel."""

from __future__ import annotations

import numba

#: Serial kernels: cached to disk, GIL released so callers may thread them.
njit = numba.njit(cache=True, nogil=True)

#: Parallel drivers (prange over chunks of deals).
njit_parallel = numba.njit(cache=True, nogil=True, parallel=True)
