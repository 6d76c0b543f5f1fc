"""numba's ``inline="always"`` inliner without its defensive copies of a fresh callee IR.

For each call site of an ``inline="always"`` function, numba's ``InlineWorker.inline_function``
translates the callee afresh (``run_untyped_passes``) and hands that new IR to ``inline_ir``,
which deep-copies it block by block, twice, before splicing it in. Each block's deep copy copies
the whole variable scope again, so the cost grows as blocks x variables, and nested inlining
repeats it at every level: measured, about two thirds of the declarations kernel's compile time.
An IR translated for one call site belongs to that site alone, so there the copies protect
nothing. :func:`install` skips them on that path only: ``inline_ir`` called from anywhere else
(numba's overload inliner, which reuses its IR) keeps its copies, and so do the untyped passes
run inside ``inline_function``.

The generated code is the same (same LLVM IR; ``tests/core/test_jit_inline.py``). The patch is
applied only when numba's sources read as expected (else numba is left alone: slower compiles,
same numbers); ``PIQUET_NUMBA_INLINE_COPIES=1`` keeps numba's copies.
"""

from __future__ import annotations

import copy
import inspect
import os
import threading
from contextlib import contextmanager

from numba.core import inline_closurecall, ir

#: Set to 1 to keep numba's copies (compare, or rule this patch out).
KEEP_ENV = "PIQUET_NUMBA_INLINE_COPIES"

_state = threading.local()  # .fresh: inside inline_ir on a fresh callee IR; .copies: counted
_ORIGINAL = {}


def _fresh() -> bool:
    return getattr(_state, "fresh", False)


class _CopyModule:
    """``copy`` as ``inline_closurecall`` sees it: a block of a fresh callee IR is not copied."""

    def __getattr__(self, name):
        return getattr(copy, name)

    @staticmethod
    def deepcopy(x, memo=None):
        if type(x) is ir.Block and _fresh():
            return x
        if type(x) is ir.Block:
            _state.copies = getattr(_state, "copies", 0) + 1
        return copy.deepcopy(x, memo)


@contextmanager
def _flag(value: bool):
    before = _fresh()
    _state.fresh = value
    try:
        yield
    finally:
        _state.fresh = before


def _inline_function(self, *args, **kwargs):
    with _flag(not getattr(_state, "keep", False)):
        return _ORIGINAL["inline_function"](self, *args, **kwargs)


def _run_untyped_passes(self, *args, **kwargs):
    with _flag(False):  # the callee's own pipeline (its nested inlining included) is untouched
        return _ORIGINAL["run_untyped_passes"](self, *args, **kwargs)


def _applies() -> bool:
    """True when numba's inliner reads as this patch expects."""
    worker = inline_closurecall.InlineWorker
    try:
        inline_ir = inspect.getsource(worker.inline_ir)
        inline_function = inspect.getsource(worker.inline_function)
    except (OSError, TypeError, AttributeError):
        return False
    return (
        inline_closurecall.copy is copy
        and "def copy_ir" in inline_ir
        and "copy.deepcopy(" in inline_ir
        and "self.run_untyped_passes(" in inline_function
        and "self.inline_ir(" in inline_function
    )


def install() -> bool:
    """Skip the copies (once per process); returns whether the patch is active."""
    if _ORIGINAL:
        return True
    if os.environ.get(KEEP_ENV) == "1" or not _applies():
        return False
    worker = inline_closurecall.InlineWorker
    _ORIGINAL["inline_function"] = worker.inline_function
    _ORIGINAL["run_untyped_passes"] = worker.run_untyped_passes
    worker.inline_function = _inline_function
    worker.run_untyped_passes = _run_untyped_passes
    inline_closurecall.copy = _CopyModule()
    return True


def active() -> bool:
    """True when :func:`install` patched numba in this process."""
    return bool(_ORIGINAL)


@contextmanager
def copies_kept():
    """numba's own behaviour (every callee IR copied) inside the block."""
    keep = getattr(_state, "keep", False)
    _state.keep = True
    try:
        yield
    finally:
        _state.keep = keep


def block_copies() -> int:
    """Blocks deep-copied by the inliner in this thread so far (those the patch let through)."""
    return getattr(_state, "copies", 0)
