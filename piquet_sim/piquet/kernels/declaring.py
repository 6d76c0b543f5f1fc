"""Declaration policies: which masks a player declares his point, sequences and sets from.

A policy is an id plus a float64 parameter array (``policies.py``), like every stage policy. The
result is the three masks of ``kernels.declarations.score_declarations`` (mask 0 sinks the
class; a mask without some cards declares a lesser combination).

* ``all``: declare everything.
* ``sink``: sink whole classes: ``params[0]``, ``params[1]``, ``params[2]`` non-zero sink
  the point, the sequences, the sets.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit_inline
from ..policies import DECL_SINK

FULL_MASK = np.int64(0xFFFFFFFF)


@njit_inline
def declaration_masks(policy, params, hand):
    """(point mask, sequence mask, sets mask) the player declares from."""
    if policy == DECL_SINK:
        point = FULL_MASK if params[0] == 0 else np.int64(0)
        seq = FULL_MASK if params[1] == 0 else np.int64(0)
        sets = FULL_MASK if params[2] == 0 else np.int64(0)
        return point, seq, sets
    return FULL_MASK, FULL_MASK, FULL_MASK
