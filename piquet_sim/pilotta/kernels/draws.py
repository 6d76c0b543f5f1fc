"""Uniform draws from a round's stream, as :func:`piquet_sim.core.engine.rng.bounded` makes them, at
half its hashing.

``bounded`` builds each 32-bit draw from two 16-bit chunks ``c`` and ``c + 1`` of the stream,
hashing the chunk's 64-bit word for each (``word(key, c >> 2)``). The two chunks are in the same
word unless ``c % 4 == 3``, so :func:`draw` hashes that word once: the same numbers (a test
holds it on every chunk offset and many bounds), one SplitMix64 instead of two for three draws
in four. Random play and the random bidder draw here (about 30 draws a round).

The core's ``bounded`` could do the same for every game; it is kept there unchanged.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ...core.engine.rng import word

_LOW32 = np.uint64(0xFFFFFFFF)
_LOW16 = np.uint64(0xFFFF)
_S16 = np.uint64(16)
_S32 = np.uint64(32)


@njit
def draw(key, state, n):
    """Uniform integer in [0, n) for 1 <= n < 2**32: ``core.rng.bounded(key, state, n)``, the
    same value and the same ``state`` after it."""
    nn = np.uint64(n)
    while True:
        c = state[0]
        state[0] = c + 2
        q = c & 3
        w = word(key, c >> 2)
        if q != 3:
            r = (w >> np.uint64(16 * q)) & _LOW32
        else:
            r = (w >> np.uint64(48)) | ((word(key, (c >> 2) + 1) & _LOW16) << _S16)
        m = r * nn
        low = m & _LOW32
        if low >= nn or low >= ((np.uint64(1) << _S32) - nn) % nn:
            return np.int64(m >> _S32)
