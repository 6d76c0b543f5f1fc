"""An optimisation barrier for branch-free code: :func:`opaque` returns its argument unchanged,
but the compiler can no longer see how it was computed. A 0 / -1 mask built from a comparison
then stays a mask: LLVM would otherwise fold ``points & mask`` back into ``key > other ?
points : 0`` and emit a branch around the points' table loads, which mispredicts when the
comparison is random data (who wins a class of a random deal)."""

from __future__ import annotations

from llvmlite import ir
from numba.extending import intrinsic


@intrinsic
def opaque(typingctx, value):
    """``value`` itself, through an empty inline-assembly statement (no instruction emitted)."""

    def codegen(context, builder, signature, args):
        ty = args[0].type
        return builder.asm(ir.FunctionType(ty, [ty]), "", "=r,0", [args[0]], False, "opaque")

    return value(value), codegen
