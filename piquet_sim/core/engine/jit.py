"""JIT flags, set in one place for every kernel, and the cache directory they share.

Importing this module (every kernel module does, before defining a kernel) points numba's cache
at a directory keyed on a hash of the kernel sources (:mod:`.jit_cache`): an update that changes
any of them compiles afresh instead of mixing old cached callers with new callees. The choice
is also put in the environment (``NUMBA_CACHE_DIR``), so child processes use the same directory
and a later reload of numba's configuration keeps it. It also makes numba's inliner skip copying
each freshly translated callee (:mod:`.jit_inline`: the same code, compiled several times faster
for deeply inlined kernels), and link each kernel's callees as they were before LLVM's module
optimization (:mod:`.jit_link`: a kernel loaded from the cache then runs the code the compiling
process ran, not a slower re-optimized copy). That choice changes the cached code, so it is part
of the directory's key. While a kernel compiles, Python's full garbage collections are rarer
(:mod:`.jit_gc`: the same kernels, compiled without walking the whole heap every few hundred
thousand allocations).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numba
import numpy as np

from . import jit_cache, jit_gc, jit_inline, jit_interrupt, jit_link, jit_profile

jit_link.install()

#: The numba cache directory of this process's kernels (None: numba's default locations).
CACHE_DIR = jit_cache.choose(
    Path(__file__).resolve().parents[2],  # the piquet_sim package
    os.environ,
    (numba.__version__, np.__version__, sys.version, f"link_unoptimized={jit_link.active()}"),
)
if CACHE_DIR is not None:
    os.environ[jit_cache.ROOT_ENV] = str(jit_cache.cache_root(os.environ))
    os.environ["NUMBA_CACHE_DIR"] = os.environ[jit_cache.CHOSEN_ENV] = str(CACHE_DIR)
    numba.config.CACHE_DIR = str(CACHE_DIR)
jit_inline.install()
jit_gc.install()  # fewer full garbage collections while kernels compile
jit_profile.install_from_env()  # a compile profile when PIQUET_COMPILE_PROFILE names a dir
jit_interrupt.listen()  # a Ctrl-C while a kernel compiles ends an armed process at once

#: Serial kernels: cached to disk, GIL released so callers may thread them.
njit = numba.njit(cache=True, nogil=True)

#: Parallel drivers (prange over chunks of deals).
njit_parallel = numba.njit(cache=True, nogil=True, parallel=True)

#: Small hot helpers that take arrays, inlined into their callers at numba level: a call into
#: another kernel that LLVM does not inline passes each array as a struct, with refcounts,
#: which costs more than the work in these helpers. A helper of scalars only (ints and masks in,
#: ints out) is better plain ``njit``: LLVM inlines it into its callers all the same, while
#: numba's inlining translates and types it again at every call site (Pitch's max^n search
#: compiled in 35 s with its scalar helpers inlined by numba, about 20 s without; same speed).
njit_inline = numba.njit(cache=True, nogil=True, inline="always")

#: Kernels that allocate nothing and only read or write arrays their caller owns (search loops):
#: compiled without numba's reference counting, whose atomic increments and decrements on every
#: array handed to a helper cost Pitch's max^n about 70% of its time (perf). An allocation in
#: such a kernel fails to compile rather than leak.
njit_no_refcount = numba.njit(cache=True, nogil=True, _nrt=False)
