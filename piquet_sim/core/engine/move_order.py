"""Move ordering shared by the games' exact solvers: each solver scores the moves it generates
and keeps them in a row, best first, by insertion (a node has at most a handful of moves, so
insertion beats any sort and needs no scratch)."""

from __future__ import annotations

from .jit import njit_inline


@njit_inline
def insert_by_score(moves, scores, k, move, score):
    """Insert ``move`` with ``score`` into the first ``k`` entries of the rows ``moves`` and
    ``scores``, kept in descending score, a tie after the moves already there (the generation
    order breaks ties); returns ``k + 1``."""
    j = k
    while j > 0 and scores[j - 1] < score:
        moves[j] = moves[j - 1]
        scores[j] = scores[j - 1]
        j -= 1
    moves[j] = move
    scores[j] = score
    return k + 1
