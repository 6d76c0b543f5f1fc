"""Dealing a round: the 32 cards shuffled from the stream (seed, round index) of ``core.rng``,
seat p (0 N, 1 E, 2 S, 3 W) taking pack positions 8p .. 8p+7. Later draws of the round
(auction, random play) continue the same stream, so a round depends only on (seed, index)."""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.rng import hand_mask, shuffle_pack, stream_key

N_PACK = 32


@njit_inline
def deal_round(key, pack, state, hands):
    """Shuffle with stream ``key`` (``state`` int64[1] left at the next unused chunk) and write
    the four hands (natural masks) into ``hands`` (int64[4], seat order N E S W)."""
    shuffle_pack(key, pack, state)
    for p in range(4):
        hands[p] = hand_mask(pack, 8 * p, 8, 8, 8)


@njit
def deal_index(seed, index, hands):
    """The four hands of round ``index`` of ``seed`` into ``hands`` (int64[4])."""
    pack = np.empty(N_PACK, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    deal_round(stream_key(seed, index), pack, state, hands)


def deal_hands(seed: int, index: int) -> np.ndarray:
    """The four hands (int64[4] natural masks, N E S W) of round ``index`` of ``seed``."""
    hands = np.zeros(4, dtype=np.int64)
    deal_index(np.int64(seed), np.int64(index), hands)
    return hands
