"""Card masks in plain Python, for the games' API modules (positions, deciders, reviews).

A mask holds card ``i`` as bit ``i`` (:mod:`.cards`; the mask of some cards is
:func:`.cards.cards_to_mask`); these helpers take any non-negative Python int. Kernels have
their own, compiled, in :mod:`.bits`. This module stays out of the kernels' imports, so that
editing it never invalidates their cache (:mod:`.jit_cache`).
"""

from __future__ import annotations


def mask_bits(mask: int) -> list[int]:
    """Card indices of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_count(mask: int) -> int:
    """Number of cards in a mask."""
    return bin(mask).count("1")


__all__ = ["mask_bits", "mask_count"]
