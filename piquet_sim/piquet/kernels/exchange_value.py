"""The value of exchanging k cards: the same deals finished with forced exchange sizes.

A *cell* fixes how many cards elder takes (``e_take``: 1..5, or -1 for elder's own exchange
policy) and how many younger takes (``y_take``: a count, or -1 for younger's policy). A forced
count k discards the k cards of lowest greedy keep value (``exchange.greedy_keys`` with the
seat's greedy weights from ``params``) and draws k from the talon, through the forced-discard
masks of ``simulate.finish_deal`` (a seat plays pimc, pimcw or dd) or of
``simple_deal.exchange_step`` (every other play). Every cell replays the same deal from the same
point of its random stream, so differences between cells are paired (common random numbers).

Per deal and cell the driver writes (net score elder minus younger, cards elder took, cards
younger took) into int16[n, C, 3].
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import stream_key
from . import layouts as L
from .deal import deal_full
from .declarations import carte_blanche
from .exchange import HAND, greedy_keys
from .play import general_of, new_scratch, play_deal
from .simple_deal import (
    deal_work,
    declare_step,
    exchange_step,
    own_env,
    own_stages,
    pair_records,
    play_step,
    plays_fast,
    record_step,
)
from .simulate import finish_deal_with
from .solver import new_workspace


@njit
def lowest_discard(hand, n, younger, params, tables):
    """Mask of the ``n`` cards of ``hand`` with the lowest greedy keep values (ties to the lower
    card index, as the greedy policy breaks them); ``younger`` 1 for younger's values."""
    keys = np.empty(HAND + 1, dtype=np.int64)
    m, _ = greedy_keys(hand, younger, params, tables, keys)
    discard = np.int64(0)
    for i in range(m):
        place = 0
        for j in range(m):
            place += keys[j] < keys[i]
        if place < n:
            discard |= np.int64(1) << (keys[i] & 31)
    return discard


@njit
def _value_span(seed, first, count, cells, stages, ws, out, row0):
    """Deals ``first ..`` into rows ``row0 ..`` of ``out``, through ``simulate``'s stages and
    ``play.play_deal`` (stages where a seat plays pimc, pimcw or dd; the others take
    :func:`_fast_value_span`)."""
    sc = new_scratch()
    suit = ws.env.suit
    e_take, y_take = cells
    e_masks = np.zeros(9, dtype=np.int64)
    y_masks = np.zeros(9, dtype=np.int64)
    e_params = stages.params[L.STAGE_ELDER_EXCHANGE]
    y_params = stages.params[L.STAGE_YOUNGER_EXCHANGE]
    for i in range(count):
        index = first + i
        elder, younger = deal_full(seed, index, sc.pack, sc.state)
        key = stream_key(seed, index)
        s0 = sc.state[0]
        for k in range(9):
            # int64 seats, not literals: one compiled signature for both
            e_masks[k] = lowest_discard(elder, k, np.int64(0), e_params, suit)
            y_masks[k] = lowest_discard(younger, k, np.int64(1), y_params, suit)
        for c in range(e_take.shape[0]):
            sc.state[0] = s0
            ed = np.int64(-1) if e_take[c] < 0 else e_masks[e_take[c]]
            yd = np.int64(-1) if y_take[c] < 0 else y_masks[y_take[c]]
            forced = (ed, yd)
            finish_deal_with(elder, younger, sc.pack[24:32], key, stages, ws, sc, forced, play_deal)
            out[row0 + i, c, L.XV_NET] = sc.rec[L.REC_NET]
            out[row0 + i, c, L.XV_E_TOOK] = sc.rec[L.REC_ELDER + L.RF_TAKEN]
            out[row0 + i, c, L.XV_Y_TOOK] = sc.rec[L.REC_YOUNGER + L.RF_TAKEN]


@njit
def _fast_value_span(seed, first, count, cells, stages, env, out, row0, general):
    """:func:`_value_span` for stages where each seat plays greedy, random or heuristic
    (``simple_deal.plays_fast``): the same rows, through the deal steps of the mirrored matches
    and parties (``simple_deal.exchange_step`` with the cell's forced discards,
    ``declare_step``, ``play_step``), which ``simple_deal`` holds to ``simulate``'s records.
    Why not ``simulate.finish_deal`` as :func:`_value_span`: inlined here it typed and
    compiled every stage again (this kernel's own compile was the report's largest, 9-11
    CPU-s), while the step kernels are compiled once for the report's tournament and parties
    already. ``general``: as ``play.play_fast``'s."""
    own = own_env(env)
    seats = own_stages(stages)
    work = deal_work()
    pack, _, state = work
    recs = pair_records()
    talon = pack[24:32]
    e_take, y_take = cells
    e_masks = np.zeros(9, dtype=np.int64)
    y_masks = np.zeros(9, dtype=np.int64)
    e_params = seats.params[L.STAGE_ELDER_EXCHANGE]
    y_params = seats.params[L.STAGE_YOUNGER_EXCHANGE]
    for i in range(count):
        index = first + i
        elder, younger = deal_full(seed, index, pack, state)
        key = stream_key(seed, index)
        s0 = state[0]
        cb = (carte_blanche(elder), carte_blanche(younger))
        for k in range(9):
            # int64 seats, not literals: one compiled signature for both
            e_masks[k] = lowest_discard(elder, k, np.int64(0), e_params, own.suit)
            y_masks[k] = lowest_discard(younger, k, np.int64(1), y_params, own.suit)
        for c in range(e_take.shape[0]):
            state[0] = s0
            ed = np.int64(-1) if e_take[c] < 0 else e_masks[e_take[c]]
            yd = np.int64(-1) if y_take[c] < 0 else y_masks[y_take[c]]
            ex = exchange_step(elder, younger, talon, seats, key, state, own, (ed, yd))
            d = declare_step(ex[0], ex[1], cb, seats, own)
            played = play_step(ex, talon, d, seats, key, work, own, general)
            record_step(recs, 0, ex, d, played)
            out[row0 + i, c, L.XV_NET] = recs[0, L.REC_NET]
            out[row0 + i, c, L.XV_E_TOOK] = recs[0, L.REC_ELDER + L.RF_TAKEN]
            out[row0 + i, c, L.XV_Y_TOOK] = recs[0, L.REC_YOUNGER + L.RF_TAKEN]


@driver(_fast_value_span, _value_span, new_workspace)
def exchange_values(seed, start, n, e_take, y_take, stages, env, n_spans, tt_bits):
    """Deals start..start+n-1 of ``seed`` finished once per cell (``e_take[C]``, ``y_take[C]``
    int64: forced counts or -1 for the policy): int16[n, C, XV_LEN] rows (net elder minus
    younger, elder's take, younger's take). A forced younger count must be legal after elder's
    (forced) take; the caller checks. ``n_spans`` spans on threads (``core.engine.jit_threads``),
    each with its own solver workspace of ``2**tt_bits`` entries when a seat plays pimc, pimcw
    or dd (else :func:`_fast_value_span`, which compiles no solver play)."""
    n_cells = e_take.shape[0]
    out = np.zeros((n, n_cells, L.XV_LEN), dtype=np.int16)
    cells = (e_take, y_take)
    if plays_fast.py_func(stages.ids):
        general = general_of(stages)  # None: the heuristic's general arithmetic is not compiled

        def work(s: int, first: int, count: int) -> None:
            _fast_value_span(seed, start + first, count, cells, stages, env, out, first, general)

    else:

        def work(s: int, first: int, count: int) -> None:
            ws = new_workspace(env, tt_bits, tt_bits > 1)
            _value_span(seed, start + first, count, cells, stages, ws, out, first)

    for_spans(n, n_spans, work)
    return out
