"""Piquet's deal: 12 cards to elder, 12 to younger, 8 to the talon, from a shuffled 32-card pack.

Pack positions 0..11 are elder's, 12..23 younger's, 24..31 the talon in draw order (elder's five
first, then younger's three). Deal i of a seed is shuffled from the stream (seed, i) of
``core.rng``; later draws of the deal (exchange, play) continue that stream.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit_inline, njit_parallel
from ...core.rng import shuffle_pack, stream_key

N_PACK = 32
HAND = 12  # elder holds pack positions 0..11, younger 12..23, the talon 24..31


@njit_inline
def deal_full(seed, index, pack, state):
    """Deal ``index`` of ``seed``: returns (elder mask, younger mask) from pack positions 0..11
    and 12..23; the talon in draw order is ``pack[24:32]`` (elder's five first, then
    younger's three). ``state`` is left for further draws of the same deal's stream."""
    shuffle_pack(stream_key(seed, index), pack, state)
    elder = np.int64(0)
    younger = np.int64(0)
    for i in range(HAND):
        elder |= np.int64(1) << pack[np.uint64(i)]
        younger |= np.int64(1) << pack[np.uint64(HAND + i)]
    return elder, younger


#: The hands alone (same cards as ``deal_full``; kept as a name for callers that ignore the talon).
deal_hands = deal_full


@njit_parallel
def deal_batch(seed, start, n):
    """Deals start..start+n-1: (elder int64[n], younger int64[n], talon int8[n, 8] in draw
    order). Identical whatever the thread count (each deal has its own stream)."""
    elders = np.empty(n, dtype=np.int64)
    youngers = np.empty(n, dtype=np.int64)
    talons = np.empty((n, 8), dtype=np.int8)
    n_chunks = min(n, 64)
    per = (n + n_chunks - 1) // n_chunks if n_chunks else 0
    for c in prange(n_chunks):
        pack = np.empty(N_PACK, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        for i in range(c * per, min(n, (c + 1) * per)):
            elders[i], youngers[i] = deal_full(seed, start + i, pack, state)
            for t in range(8):
                talons[i, t] = pack[24 + t]
    return elders, youngers, talons
