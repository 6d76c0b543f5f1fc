"""P(winning the game to ``target``) from a score, for the bid advisor's ``--score``: games
played on from that score by drawing whole rounds from a pool of simulated rounds.

The policies never look at the score, so the rounds of a game are independent draws of one
distribution once the seats are fixed; a pool of ``R`` simulated rounds (seat-relative score
changes, bidder, made) stands for it. A continuation from (scores per player, next dealer)
draws round after round from the pool (seat ``s`` of a round dealt by ``d`` is player
``(d + 1 + s) % n``), until a bidder makes his bid at ``target`` or more. Continuation ``g``
uses the stream (seed, g) whatever the start, so every start is valued on the same draws
(common random numbers across the candidates that lead to them). A game still unfinished after
``MAX_ROUNDS`` counts as not won.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import bounded, stream_key
from ..layouts import SEATS

MAX_ROUNDS = 400
#: Pool row: score change per seat (6 slots), bidder seat, 1 when he made his bid.
POOL_BIDDER = SEATS
POOL_MADE = SEATS + 1
POOL_LEN = SEATS + 2


@njit
def play_on(pool, start, dealer, me, n, target, key, state, scores):
    """1 when player ``me`` wins a game continued from ``start`` (scores per player) with
    ``dealer`` dealing the next round, else 0."""
    for p in range(n):
        scores[p] = start[p]
    d = dealer
    for _ in range(MAX_ROUNDS):
        r = pool[bounded(key, state, pool.shape[0])]
        for s in range(n):
            scores[(d + 1 + s) % n] += r[s]
        if r[POOL_MADE]:
            winner = (d + 1 + r[POOL_BIDDER]) % n
            if scores[winner] >= target:
                return 1 if winner == me else 0
        d = (d + 1) % n
    return 0


@njit
def _win_rows(pool, starts, first, end, game, out):
    """Rows ``first .. end-1`` of :func:`win_chances`; ``game`` = (dealer, me, target, games,
    seed)."""
    dealer, me, target, games, seed = game
    n = starts.shape[1]
    scores = np.zeros(SEATS, dtype=np.int64)
    state = np.zeros(1, dtype=np.int64)
    for i in range(first, end):
        won = 0
        for g in range(games):
            state[0] = 0
            won += play_on(
                pool, starts[i], dealer, me, n, target, stream_key(seed, g), state, scores
            )
        out[i] = won / games


#: Chunks of :func:`win_chances` (the values never depend on it).
WIN_CHUNKS = 64


@driver(_win_rows)
def win_chances(pool, starts, dealer, me, target, games, seed):
    """P(``me`` wins) from each start row of ``starts`` (int64[k, n] scores per player, the
    next round dealt by ``dealer``), over ``games`` continuations each: float64[k]. Chunks of
    rows on threads (``core.engine.jit_threads``)."""
    k = starts.shape[0]
    out = np.zeros(k)
    game = (dealer, me, target, games, seed)

    def work(ch: int, first: int, count: int) -> None:
        _win_rows(pool, starts, first, first + count, game, out)

    for_spans(k, min(k, WIN_CHUNKS), work)
    return out
