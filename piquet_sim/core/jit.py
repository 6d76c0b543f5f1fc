"""JIT flags, set in one place for every kernel."""

from __future__ import annotations

import numba

#: Serial kernels: cached to disk, GIL released so callers may thread them.
njit = numba.njit(cache=True, nogil=True)

#: Parallel drivers (prange over chunks of deals).
njit_parallel = numba.njit(cache=True, nogil=True, parallel=True)

#: Small hot helpers, inlined into their callers at numba level: a cached kernel calling into
#: another module's kernel is an opaque call (array arguments passed as structs, refcounts),
#: which costs more than the work in these helpers.
njit_inline = numba.njit(cache=True, nogil=True, inline="always")
