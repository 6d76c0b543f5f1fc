"""Pure-Python builders of the solvers' per-suit lookup tables (built once at import, read by
the kernels): a suit is a byte of ranks, ``o`` the ranks still out, ``h`` the ones a player
holds among them.

* :func:`subsets`: every ``h`` a table over ``(o, h)`` has a row for;
* :func:`compress`: ``h`` packed to the positions of ``o`` (the key of a holding: which of the
  cards out it holds, whatever their ranks);
* :func:`run_representatives`: one card of each run of ``h``'s cards that are adjacent among the
  cards out (the other cards of a run win or lose the same tricks, so a search tries one), a
  game's ``cut`` splitting runs where equal power is not equal value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator


def subsets(o: int) -> Iterator[int]:
    """Every subset of the bits of ``o``, ``o`` itself first and 0 last."""
    h = o
    while True:
        yield h
        if h == 0:
            return
        h = (h - 1) & o


def compress(h: int, o: int) -> int:
    """The bits of ``h`` at the set positions of ``o``, packed from bit 0 up (a byte's PEXT)."""
    out, k = 0, 0
    for r in range(8):
        if o >> r & 1:
            if h >> r & 1:
                out |= 1 << k
            k += 1
    return out


def run_representatives(h: int, o: int, cut: Callable[[int, int], bool]) -> int:
    """The highest card of each run of ``h``: rank ``r`` of ``h`` stands for its run unless the
    next rank out above it is also ``h``'s and ``cut(r, next)`` is false (the two cards are
    not interchangeable in the game's scoring)."""
    reps = 0
    for r in range(8):
        if not h >> r & 1:
            continue
        nxt = next((r2 for r2 in range(r + 1, 8) if o >> r2 & 1), None)
        if nxt is None or not h >> nxt & 1 or cut(r, nxt):
            reps |= 1 << r
    return reps


__all__ = ["compress", "run_representatives", "subsets"]
