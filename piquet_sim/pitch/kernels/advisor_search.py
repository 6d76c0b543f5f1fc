"""The bid advisor's kernel with a search play (``pimc`` or ``dd``, ``kernels/pimc.py``): the
same worlds, candidates, auctions and records as ``kernels/advisor.py`` (its helpers), every
play-out by the search play. Kept apart so the fast advisor never compiles the search.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ..layouts import SEATS, RuleSlot
from .advisor import (
    ADV_LEN,
    CACHE_LEN,
    REC_LEN,
    cached_play,
    candidate_auction,
    draw_world,
    keep_play,
    record,
    reuse_play,
)
from .pimc import new_search_play_work, play_out_search
from .round import new_round_work
from .scoring import score_tricks


@njit
def search_world_span(seed, w, rules, policy, query, out, misses):
    """World ``w`` (as ``advisor.world_span``) with the search play: its outcomes into ``out``
    (int64[m, AdviceRec.LEN]), 1 into ``misses[0]`` when it stayed inconsistent."""
    n = rules[RuleSlot.PLAYERS]
    work = new_round_work()
    spw = new_search_play_work()
    rec = np.zeros(REC_LEN, dtype=np.int64)
    dealt = np.zeros(SEATS, dtype=np.int64)
    m = query.cands.shape[0]
    cache = np.zeros((m, CACHE_LEN), dtype=np.int64)
    key, miss = draw_world(seed, w, n, policy, query, work, dealt)
    misses[0] = miss
    start = work.state[0]
    for j in range(m):
        work.state[0] = start
        bidder, bid, trump = candidate_auction(n, policy, query, j, dealt, work, key)
        state = work.state[0]
        i = cached_play(cache, j, bidder, trump, state)
        if i >= 0:
            played = reuse_play(cache, i, j, work)
        else:
            played = play_out_search(rules, policy, work, key, bidder, trump, spw)
            keep_play(cache, j, work, bidder, trump, state, played)
        score_tricks(dealt, bidder, bid, played, work.tricks, work.winners, rules, rec)
        record(out[j], rec, query.seat, n, bidder, bid)


@njit_parallel
def advise_worlds_search(seed, first, count, rules, policy, query):
    """As ``advisor.advise_worlds`` with the search play, for worlds ``first ..
    first+count-1`` (row i is world first+i); one world per task (a world's play-outs cost
    tens of milliseconds), the same whatever the thread count or the split into calls."""
    m = query.cands.shape[0]
    out = np.zeros((count, m, ADV_LEN), dtype=np.int64)
    misses = np.zeros(count, dtype=np.int64)
    for i in prange(count):
        search_world_span(seed, first + i, rules, policy, query, out[i], misses[i:])
    return out, misses
