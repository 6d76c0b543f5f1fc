"""Arguments that travel together through Piquet's kernels, bundled as namedtuples (numba passes
them like tuples; a flat namedtuple of arrays may enter a ``prange`` body, a nested one may not).

* :data:`Env` (constant for a run): the rules array and every lookup table.
* :data:`Stages`: the stage policies of a deal (ids and parameters, rows ``STAGE_*``).
* :data:`Workspace` (one per thread): the run's :data:`Env` and the solver's transposition table
  and search stacks (built inside a kernel, so the nesting never crosses a ``prange`` boundary).
* :data:`Scratch` (one per thread): the arrays a simulated deal writes into.
* :data:`Worlds`: sampled worlds of the advisor and the sinking study.
* :data:`OwnEnv`: the rules and suit tables, a span's own copies (``simple_deal``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..rules import RuleSlot
from . import layouts as L

#: rules int32[RULE_LEN]; suit: tables.SUIT_TABLES; pairs: tables.DECL_PAIRS; keytab reptab
#: qttab low8 pop8: solver_tt.
Env = namedtuple("Env", "rules suit pairs keytab reptab qttab low8 pop8")

#: ids int32[STAGE_LEN], params float64[STAGE_LEN, STAGE_PARAMS].
Stages = namedtuple("Stages", "ids params")

#: env (an Env), the table tt int64[2 ** (bits + 1)], the move stack and its scores
#: int32[MAX_LEVELS, MAX_MOVES], search frames int64[MAX_LEVELS, FR_LEN], counters
#: int64[SOLVE_LEN], history int32[2, 32] and flags int64[1] (the solver's F_* techniques).
Workspace = namedtuple("Workspace", "env tt moves scores frames stats hist flags")

#: pack int8[32], state int64[1] (stream position), decl int32[DECL_LEN], play int32[PO_LEN],
#: rec int32[REC_LEN], masks int64[2, 3] (each seat's declaration masks), know_e / know_y
#: int64[KNOW_LEN] (each seat's knowledge of the other), pimc int64[PIMC_LEN] (sampler counts),
#: line int8[24] (cards played: lead, reply per trick), worlds int64[2, PW_LEN] (pimc's worlds
#: kept across a seat's decisions).
Scratch = namedtuple("Scratch", "pack state decl play rec masks know_e know_y pimc line worlds")

#: opp int64[n] (opponent's dealt hand), talons int8[n, 8], s0 int64[n] (stream position after
#: the world), e_disc int64[n] (elder's forced discard, -1 when the player is elder), valid
#: bool[n].
Worlds = namedtuple("Worlds", "opp talons s0 e_disc valid")

#: rules int32[RULE_LEN]; suit: tables.SUIT_TABLES. What the bundle-free loop's steps read of an
#: Env, as copies on its span's stack (``simple_deal.own_env``): the other tables are heap
#: arrays every thread shares, whose reference counts a call would touch.
OwnEnv = namedtuple("OwnEnv", "rules suit")


def make_env(rules_array: np.ndarray) -> Env:
    """The constant bundle of a run from ``Rules.to_array()``."""
    from .solver_tt import KEYTAB, LOW8, POP8, QTTAB, REPTAB
    from .tables import DECL_PAIRS, SUIT_TABLES

    rules_array = np.asarray(rules_array, dtype=np.int32)
    assert rules_array.shape == (RuleSlot.LEN,)
    return Env(rules_array, SUIT_TABLES, DECL_PAIRS, KEYTAB, REPTAB, QTTAB, LOW8, POP8)


def make_stages(ids: np.ndarray, params: np.ndarray) -> Stages:
    """The Stages bundle of policy arrays (checked shapes and dtypes)."""
    ids = np.ascontiguousarray(ids, dtype=np.int32)
    params = np.ascontiguousarray(params, dtype=np.float64)
    assert ids.shape == (L.STAGE_LEN,) and params.shape == (L.STAGE_LEN, L.STAGE_PARAMS)
    return Stages(ids, params)
