"""Fixed-size scratch arrays on the calling kernel's stack: no heap allocation and no reference
counts, for the small per-deal buffers of the hot loops (a heap ``np.empty`` per call costs more
than the work it holds for). Wrap the pointer with ``numba.carray``; the memory lives until the
calling kernel returns, so never hand such an array out of it."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _stack_of(size: int, item):
    @intrinsic
    def stack(typingctx):
        def codegen(context, builder, signature, args):
            return cgutils.alloca_once(builder, context.get_value_type(item), size=size)

        return types.CPointer(item)(), codegen

    return stack


def stack_words(size: int):
    """An intrinsic returning a pointer to ``size`` uint64 words on the caller's stack."""
    return _stack_of(size, types.uint64)


def stack_bytes(size: int):
    """An intrinsic returning a pointer to ``size`` int8 on the caller's stack (a pack)."""
    return _stack_of(size, types.int8)


def stack_int64(size: int):
    """An intrinsic returning a pointer to ``size`` int64 on the caller's stack."""
    return _stack_of(size, types.int64)


def _as(item, bits_type):
    """An intrinsic returning its pointer argument cast to a pointer to ``item``."""

    @intrinsic
    def cast(typingctx, ptr):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], ir.PointerType(bits_type))

        return types.CPointer(item)(ptr), codegen

    return cast


#: The same memory as int32 (a uint64 pointer read as its two 32-bit halves each). With
#: ``numba.carray(ptr, shape)`` this gives the typed array of any shape that ``view`` and
#: ``reshape`` gave, without their run-time checks, whose overloads a process compiles for each
#: signature before its first kernel runs.
as_int32 = _as(types.int32, ir.IntType(32))

#: The same memory as float64 (as :data:`as_int32`).
as_float64 = _as(types.float64, ir.DoubleType())

#: The same memory as uint16 (a uint64 pointer read as its four 16-bit lanes each).
as_uint16 = _as(types.uint16, ir.IntType(16))
