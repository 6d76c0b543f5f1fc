"""The screening play: the trick loop with only the fast play policies (random, greedy,
heuristic), so a kernel that screens many candidates never compiles the exact solver or pimc.

:func:`screen_play_deal` is ``play.play_deal`` with a card dispatcher that holds no solver
branch (``play.trick_loop`` plays random, greedy and heuristic seats itself, with the same choice
functions and random draws, hence the same cards). A solver policy (dd, pimc) must never reach
it; it would be played as greedy. Callers choose this path only when no seat's policy
``needs_solver`` (``policies.py``).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit, njit_inline, njit_parallel
from ..policies import PLAY_GREEDY
from . import layouts as L
from .declarations import carte_blanche
from .play import choose_lead, choose_reply, new_scratch, trick_loop
from .simulate import declare_after, exchange_stage, finish_play_with, simulate_deal_with
from .solver import new_workspace


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
    return trick_loop(elder, younger, stages, start, key, state, ws, sc, screen_card)


@njit
def screen_exchange(elder, younger, talon, key, state, stages, env, forced):
    """``simulate.exchange_stage`` as a kernel of its own (compiled once, not inlined)."""
    return exchange_stage(elder, younger, talon, key, state, stages, env, forced)


@njit
def screen_declare(exchange, cb, stages, env, sc):
    """``simulate.declare_after`` as a kernel of its own."""
    declare_after(exchange, cb, stages, env, sc)


@njit_inline
def screen_finish_play(exchange, talon, stages, key, ws, sc):
    """``simulate.finish_play`` with the screening play (the trick loop a kernel of its own)."""
    return finish_play_with(exchange, talon, stages, key, ws, sc, screen_play_deal)


@njit_inline
def screen_finish_deal(elder, younger, talon, key, stages, ws, sc, forced):
    """``simulate.finish_deal`` with the screening play (same arguments, steps and record), its
    stages compiled as separate kernels: inlined into one, the deal compiled several times
    slower (the first run's path)."""
    cb = (carte_blanche(elder), carte_blanche(younger))
    exchange = screen_exchange(elder, younger, talon, key, sc.state, stages, ws.env, forced)
    screen_declare(exchange, cb, stages, ws.env, sc)
    return screen_finish_play(exchange, talon, stages, key, ws, sc)


@njit
def _simulate_span(seed, first, count, stages, env, tt_bits, out, row0):
    ws = new_workspace(env, tt_bits, tt_bits > 1)
    sc = new_scratch()
    for i in range(count):
        simulate_deal_with(seed, first + i, stages, ws, sc, screen_play_deal)
        for f in range(L.REC_LEN):
            out[row0 + i, f] = sc.rec[f]


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
            _simulate_span(seed, start + first, count, stages, env, tt_bits, out, first)
    return out
