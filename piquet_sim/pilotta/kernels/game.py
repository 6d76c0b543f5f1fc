"""A game to the target (351 by default) as a small state machine on an int64 array
(:class:`layouts.Game`), and a batch of whole simulated games.

``game_reset`` then, while ``state[Game.DONE] == 0``: play the round dealt by
``state[Game.DEALER]`` and ``game_add`` its game points (0, 0 for a thrown-in round). The game
ends after a round in which a team has reached the target with more points than the other;
both at or above the target with equal totals (not settled by the spec): play on.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ..layouts import GAME_LEN, ROUND_LEN, Game, RoundRec, Score
from ..rules import RuleSlot
from .auction import sampling_of
from .simulate import BATCH_CHUNKS, round_scratch, simulate_round_in

#: Round keys reserved per game: round r of game g is stream g * GAME_STRIDE + 4 r + dealer.
GAME_STRIDE = 4096
MAX_ROUNDS = 1000  # a guard (4 * MAX_ROUNDS < GAME_STRIDE); games end in about a dozen rounds


@njit
def game_reset(state, dealer):
    state[Game.NS] = 0
    state[Game.EW] = 0
    state[Game.ROUNDS] = 0
    state[Game.DEALER] = dealer
    state[Game.DONE] = 0
    state[Game.WINNER] = -1


@njit
def game_add(state, ns, ew, rules):
    """Add one round's game points; pass the deal on; decide the end of the game."""
    state[Game.NS] += ns
    state[Game.EW] += ew
    state[Game.ROUNDS] += 1
    state[Game.DEALER] = (state[Game.DEALER] + 1) % 4
    target = rules[RuleSlot.GAME_TARGET]
    a = state[Game.NS]
    b = state[Game.EW]
    if (a >= target or b >= target) and a != b:
        state[Game.DONE] = 1
        state[Game.WINNER] = 0 if a > b else 1
    elif state[Game.ROUNDS] >= MAX_ROUNDS:
        state[Game.DONE] = 1


@njit
def _games_chunk(seed, start, lo, hi, setup, rules, out, sampling):
    rec = np.zeros(ROUND_LEN, dtype=np.int64)
    plays = np.zeros(32, dtype=np.int8)
    legal_n = np.zeros(32, dtype=np.int8)
    state = np.zeros(GAME_LEN, dtype=np.int64)
    scratch = round_scratch()
    for i in range(lo, hi):
        g = start + i
        game_reset(state, 0)
        r = 0
        while state[Game.DONE] == 0:
            # index ≡ dealer (mod 4): simulate_round deals round i from seat i % 4
            index = g * GAME_STRIDE + 4 * r + state[Game.DEALER]
            simulate_round_in(seed, index, setup, rules, rec, plays, legal_n, scratch, sampling)
            if rec[RoundRec.BIDDER] < 0:
                game_add(state, 0, 0, rules)
            else:
                game_add(
                    state,
                    rec[RoundRec.SCORE + Score.TOTAL_NS],
                    rec[RoundRec.SCORE + Score.TOTAL_EW],
                    rules,
                )
            r += 1
        for j in range(GAME_LEN):
            out[i, j] = state[j]


@driver(_games_chunk)
def simulate_games(seed, start, n, setup, rules):
    """Whole games ``start .. start+n-1`` of ``seed`` (first dealer North): int64[n, GAME_LEN]
    final states, fixed chunks on threads (``core.engine.jit_threads``). Round r of game g uses
    stream index g * GAME_STRIDE + 4 r + dealer."""
    out = np.zeros((n, GAME_LEN), dtype=np.int64)
    sampled = sampling_of(setup)  # None: the sampling bidders are not compiled

    def work(ch: int, lo: int, count: int) -> None:
        _games_chunk(seed, start, lo, lo + count, setup, rules, out, sampled)

    for_spans(n, min(n, BATCH_CHUNKS), work)
    return out
