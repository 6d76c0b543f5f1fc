"""Fixed-size scratch arrays on the calling kernel's stack: no heap allocation and no reference
counts, for the small per-deal buffers of the hot loops (a heap ``np.empty`` per call costs more
than the work it holds for). Wrap the pointer with ``numba.carray``; the memory lives until the
calling kernel returns, so never hand such an array out of it."""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def stack_words(size: int):
    """An intrinsic returning a pointer to ``size`` uint64 words on the caller's stack."""

    @intrinsic
    def stack(typingctx):
        def codegen(context, builder, signature, args):
            return cgutils.alloca_once(builder, context.get_value_type(types.uint64), size=size)

        return types.CPointer(types.uint64)(), codegen

    return stack
