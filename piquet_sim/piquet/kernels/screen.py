"""The screening play: the trick loop with only the fast play policies (random, greedy,
heuristic), so a kernel that screens many candidates never compiles the exact solver or pimc.

:func:`screen_play_deal` is ``play.play_deal`` with a card dispatcher that holds no solver
branch (``play.trick_loop`` plays random, greedy and heuristic seats itself, with the same choice
functions and random draws, hence the same cards). A solver policy (dd, pimc) must never reach
it; it would be played as greedy. Callers choose this path only when no seat's policy
``needs_solver`` (``policies.py``).

Heuristic seats at depth 0 without tilt (the defaults: the advisor's screen, most
simulations) are played by ``heuristic.table_turn`` in the ``table_*`` kernels, which never
compile the heuristic's general arithmetic (about a third of the trick loop's first
compilation); :func:`table_only` tells whether a ``Stages`` bundle may take them (the same
numbers), and callers choose in Python (``simulation.records_kernel``, the advisor). The
advisor's screen (:func:`screen_finish_deal`) takes table stages only; other heuristic
parameters are evaluated by the full dispatcher.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_inline, njit_parallel
from ..policies import PLAY_GREEDY, PLAY_HEURISTIC
from . import layouts as L
from .bundles import Stages
from .declarations import carte_blanche
from .heuristic import heuristic_turn, table_turn
from .play import choose_lead, choose_reply, new_scratch, trick_loop
from .simulate import declare_after, exchange_stage, finish_play_with, simulate_deal_with
from .solver import new_workspace


def table_only(stages: Stages) -> bool:
    """True when every heuristic play seat of ``stages`` is at depth 0 without tilt (params
    depth 0.0 and bias strictly between -1 and 1: ``heuristic.seat_setup`` truncates it to an
    integer), so the ``table_*`` kernels give the numbers of the ``screen_*`` ones."""
    for row in (L.STAGE_ELDER_PLAY, L.STAGE_YOUNGER_PLAY):
        if stages.ids[row] == PLAY_HEURISTIC:
            depth, bias = stages.params[row, 0], stages.params[row, 2]
            if not (depth == 0.0 and -1.0 < bias < 1.0):
                return False
    return True


@njit
def screen_card(policy, params, seat, view, hands, key, state, ws, sc):
    """The trick loop's card dispatcher (``play.player_card``'s arguments) for the screening
    play: never called for random, greedy or heuristic seats (``play.trick_loop`` plays those
    itself), so it holds no rule of its own; a solver policy reaching it plays greedy."""
    own, _, lead, _, _, played, _, _ = view
    if lead < 0:
        return choose_lead(PLAY_GREEDY, own, played, key, state)
    return choose_reply(PLAY_GREEDY, own, lead, played, key, state)


@njit
def screen_play_deal(elder, younger, stages, start, key, state, ws, sc):
    """``play.play_deal`` for random, greedy and heuristic seats only (same arguments, same
    record, same net)."""
    return trick_loop(
        elder, younger, stages, start, key, state, ws, sc, screen_card, heuristic_turn
    )


@njit
def table_play_deal(elder, younger, stages, start, key, state, ws, sc):
    """:func:`screen_play_deal` for heuristic seats at depth 0 without tilt (:func:`table_only`):
    without the heuristic's general arithmetic."""
    return trick_loop(elder, younger, stages, start, key, state, ws, sc, screen_card, table_turn)


@njit
def screen_exchange(elder, younger, talon, key, state, stages, env, forced):
    """``simulate.exchange_stage`` as a kernel of its own (compiled once, not inlined)."""
    return exchange_stage(elder, younger, talon, key, state, stages, env, forced)


@njit
def screen_declare(exchange, cb, stages, env, sc):
    """``simulate.declare_after`` as a kernel of its own."""
    declare_after(exchange, cb, stages, env, sc)


@njit_inline
def screen_finish_deal(elder, younger, talon, key, stages, ws, sc, forced):
    """``simulate.finish_deal`` with the screening play for :func:`table_only` stages (same
    arguments, steps and record; the advisor's screen), its stages compiled as separate
    kernels: inlined into one, the deal compiled several times slower (the first run's path)."""
    cb = (carte_blanche(elder), carte_blanche(younger))
    exchange = screen_exchange(elder, younger, talon, key, sc.state, stages, ws.env, forced)
    screen_declare(exchange, cb, stages, ws.env, sc)
    return finish_play_with(exchange, talon, stages, key, ws, sc, table_play_deal)


@njit_inline
def _span_with(seed, first, count, stages, env, tt_bits, out, row0, play):
    """Deals ``first .. first+count-1`` of ``seed`` into rows ``row0 ..`` of ``out``, each
    played by ``play``."""
    ws = new_workspace(env, tt_bits, tt_bits > 1)
    sc = new_scratch()
    for i in range(count):
        simulate_deal_with(seed, first + i, stages, ws, sc, play)
        for f in range(L.REC_LEN):
            out[row0 + i, f] = sc.rec[f]


@njit
def _screen_span(seed, first, count, stages, env, tt_bits, out, row0):
    _span_with(seed, first, count, stages, env, tt_bits, out, row0, screen_play_deal)


@njit
def _table_span(seed, first, count, stages, env, tt_bits, out, row0):
    _span_with(seed, first, count, stages, env, tt_bits, out, row0, table_play_deal)


@njit_parallel
def screen_simulate_records(seed, start, n, stages, env, n_spans, tt_bits):
    """``simulate.simulate_records`` (same arguments, same records) for stages whose plays are
    all fast (random, greedy, heuristic): never compiles the exact solver or pimc."""
    out = np.zeros((n, L.REC_LEN), dtype=np.int16)
    per = (n + n_spans - 1) // n_spans
    for s in prange(n_spans):
        first = s * per
        count = min(per, n - first)
        if count > 0:
            _screen_span(seed, start + first, count, stages, env, tt_bits, out, first)
    return out


@njit_parallel
def table_simulate_records(seed, start, n, stages, env, n_spans, tt_bits):
    """:func:`screen_simulate_records` for :func:`table_only` stages (same records)."""
    out = np.zeros((n, L.REC_LEN), dtype=np.int16)
    per = (n + n_spans - 1) // n_spans
    for s in prange(n_spans):
        first = s * per
        count = min(per, n - first)
        if count > 0:
            _table_span(seed, start + first, count, stages, env, tt_bits, out, first)
    return out
