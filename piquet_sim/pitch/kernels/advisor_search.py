"""The bid advisor's kernel with a search play (``pimc`` or ``dd``, ``kernels/pimc.py``): the
same world loop as ``kernels/advisor.py`` (``world_outcomes``), every play-out by the search
play. Kept apart so the fast advisor never compiles the search.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, run_spans
from .advisor import ADV_LEN, new_world_scratch, world_outcomes
from .pimc import new_search_play_work, play_out_search
from .round import new_round_work


@njit
def search_world_span(seed, w, rules, policy, query, out, misses):
    """World ``w`` (``advisor.world_outcomes``) with the search play: its outcomes into ``out``
    (int64[m, AdviceRec.LEN]), 1 into ``misses[0]`` when it stayed inconsistent."""
    work = new_round_work()
    scratch = new_world_scratch(query.cands.shape[0])
    spw = new_search_play_work()
    misses[0] = world_outcomes(
        seed, w, rules, policy, query, work, scratch, out, play_out_search, spw
    )


@driver(search_world_span)
def advise_worlds_search(seed, first, count, rules, policy, query):
    """As ``advisor.advise_worlds`` with the search play, for worlds ``first ..
    first+count-1`` (row i is world first+i); one world per task on threads
    (``core.engine.jit_threads``; a world's play-outs cost tens of milliseconds), the same
    whatever the thread count or the split into calls."""
    m = query.cands.shape[0]
    out = np.zeros((count, m, ADV_LEN), dtype=np.int64)
    misses = np.zeros(count, dtype=np.int64)

    def run(i: int) -> None:
        search_world_span(seed, first + i, rules, policy, query, out[i], misses[i:])

    run_spans(run, count)
    return out, misses
