"""Bit helpers on card masks held in int64 (32-card and 52-card packs), shared by every kernel."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from .jit import njit, njit_inline


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count of an int64 (one ``popcnt`` where the CPU has it)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    if x == types.int64:
        return types.int64(types.int64), codegen
    return None


@njit
def popcount(x):
    """Number of set bits of a mask held in an int64 (the CPU's ``popcnt``; same value as
    :func:`popcount32` / :func:`popcount64` on their masks)."""
    return _ctpop(np.int64(x))


@njit
def popcount32(x):
    """Number of set bits of a 32-bit mask held in an int64."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit
def low_index(m):
    """Index of the lowest set bit of a non-zero mask (one tzcnt: card picks are random data,
    so a branchy bit search mispredicts)."""
    return np.int64(trailing_zeros(np.int64(m)))


@njit
def high_index(m):
    """Index of the highest set bit of a non-zero mask (one lzcnt)."""
    return np.int64(63 - leading_zeros(np.int64(m)))


@njit
def select_bit(m, k):
    """Index of the k-th (0-based, from the lowest) set bit of a 32-bit mask holding more
    than k bits: a rank search down the popcount tree, branch-free (k is random data)."""
    a = m - ((m >> 1) & 0x55555555)  # 2-bit counts
    b = (a & 0x33333333) + ((a >> 2) & 0x33333333)  # 4-bit counts
    c = (b + (b >> 4)) & 0x0F0F0F0F  # 8-bit counts
    d = (c + (c >> 8)) & 0x00FF00FF  # 16-bit counts
    pos = np.int64(0)
    n = d & 0xFF
    t = np.int64(k >= n)
    pos += 16 * t
    k -= n * t
    n = (c >> pos) & 0xFF
    t = np.int64(k >= n)
    pos += 8 * t
    k -= n * t
    n = (b >> pos) & 0xF
    t = np.int64(k >= n)
    pos += 4 * t
    k -= n * t
    n = (a >> pos) & 0x3
    t = np.int64(k >= n)
    pos += 2 * t
    k -= n * t
    n = (m >> pos) & 0x1
    pos += np.int64(k >= n)
    return pos


@njit
def popcount64(x):
    """Number of set bits of a mask held in an int64 (52-card hands use bits up to 60)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit
def select_bit64(m, k):
    """Index of the k-th (0-based, from the lowest) set bit of a mask holding more than k bits."""
    for _ in range(k):
        m &= m - 1
    return low_index(m)


@njit_inline
def cards_outside(mask, out):
    """Write the cards of a 32-card pack that ``mask`` does not hold into ``out``, in ascending
    index; returns how many (the unseen cards of a hand, the pool a world is dealt from)."""
    n = 0
    for c in range(32):
        if not (mask >> c) & 1:
            out[n] = c
            n += 1
    return n
