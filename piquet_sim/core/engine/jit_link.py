"""numba's library linking with each callee's IR as it stood before module optimization.

numba finalizes a compiled function's library by linking in the modules of the libraries it
calls and running the full LLVM module pipeline over the result; the module it hands on for
linking (and stores in the disk cache beside the object code) is that optimized one. So a callee
n levels down is optimized n + 1 times, and the copies differ: the declarations chunk worker under
``score_random_deals`` (prange driver, parfor gufunc, its wrapper) came out 8% longer and slower.

In the compiling process this never shows: the linked copies are weak (``linkonce_odr``) and the
JIT resolves calls to them to the callee's own library, loaded first. A process that loads the
caller from numba's cache has only the caller's object, so it runs the re-optimized copies: on
the Xeon host 58-63 ns instead of 40-43 ns of CPU per deal.

:func:`install` keeps a copy of each library's module as linked, before module optimization,
and hands that on for linking (and caching) instead. Every copy of a function is then one
optimization of the same IR, so a caller loaded from the cache runs the code the compiling
process ran. The patch is applied only when numba's sources read as expected (else numba is left
alone); ``PIQUET_NUMBA_LINK_OPTIMIZED=1`` keeps numba's behaviour. It changes the code cached
kernels contain, so :mod:`.jit` keys the cache directory on it.
"""

from __future__ import annotations

import inspect
import os

from llvmlite import binding as ll
from numba.core import codegen

#: Set to 1 to link numba's optimized modules (compare, or rule this patch out).
KEEP_ENV = "PIQUET_NUMBA_LINK_OPTIMIZED"

_ORIGINAL = {}
_SNAPSHOT = "_piquet_linked_unoptimized"


def _optimize_final_module(self):
    # the module as linked: this library's functions (already function-optimized) and its
    # callees' modules as they were handed on, before any module pass
    setattr(self, _SNAPSHOT, self._final_module.clone())
    return _ORIGINAL["_optimize_final_module"](self)


def _get_module_for_linking(self):
    self._ensure_finalized()
    unoptimized = getattr(self, _SNAPSHOT, None)
    if self._shared_module is None and unoptimized is not None:
        # what numba does to its optimized module: exported definitions may be linked many times
        for fn in unoptimized.functions:
            if not fn.is_declaration and fn.linkage == ll.Linkage.external:
                fn.linkage = "linkonce_odr"
        self._shared_module = unoptimized
        setattr(self, _SNAPSHOT, None)
    return _ORIGINAL["_get_module_for_linking"](self)


def _applies() -> bool:
    """True when numba's code library reads as this patch expects."""
    library = codegen.CPUCodeLibrary
    try:
        finalize = inspect.getsource(library.finalize)
        for_linking = inspect.getsource(library._get_module_for_linking)
        optimize = inspect.getsource(library._optimize_final_module)
    except (OSError, TypeError, AttributeError):
        return False
    link = finalize.find("._get_module_for_linking()")
    return (
        0 <= link < finalize.find("self._optimize_final_module()")
        and "if self._shared_module is not None:" in for_linking
        and "return self._shared_module" in for_linking
        and "self._final_module" in optimize
    )


def install() -> bool:
    """Link unoptimized modules (once per process); returns whether the patch is active."""
    if _ORIGINAL:
        return True
    if os.environ.get(KEEP_ENV) == "1" or not _applies():
        return False
    library = codegen.CPUCodeLibrary
    for name, patch in (
        ("_optimize_final_module", _optimize_final_module),
        ("_get_module_for_linking", _get_module_for_linking),
    ):
        _ORIGINAL[name] = getattr(library, name)
        setattr(library, name, patch)
    return True


def active() -> bool:
    """True when :func:`install` patched numba in this process."""
    return bool(_ORIGINAL)
