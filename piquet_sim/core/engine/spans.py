"""How a parallel driver splits ``n`` items (deals, worlds, rounds) over its ``prange`` spans.

One definition for every game's drivers: with ``per = ceil(n / n_spans)``, span ``s`` of
``n_spans`` covers items ``s * per`` up to ``(s + 1) * per - 1``, cut at ``n - 1``. The spans
tile ``0 .. n - 1`` in order, each item once; the last spans may be empty (5 items over 4 spans:
2, 2, 1, 0). Which span computes an item never changes the item (streams are keyed by (seed, item
index)); the split decides only which span's scratch and solver tables serve it.
"""

from __future__ import annotations

from .jit import njit_inline


@njit_inline
def span_range(n, n_spans, s):
    """(first, count) of span ``s`` (0-based) of ``n`` items over ``n_spans`` spans (>= 1);
    ``count`` is 0 for an empty span, and ``first`` is then past the items."""
    per = (n + n_spans - 1) // n_spans
    first = s * per
    return first, max(0, min(per, n - first))


__all__ = ["span_range"]
