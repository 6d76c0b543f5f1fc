"""The advisor's screening play: the trick loop with only the fast play policies (random,
greedy, heuristic at depth 0 without tilt), so the screen of many candidate discards never
compiles the exact solver, pimc or the heuristic's general arithmetic.

:func:`table_play_deal` is ``play.play_deal`` with a card dispatcher that holds no solver
branch (``play.trick_loop`` plays random, greedy and heuristic seats itself, with the same choice
functions and random draws, hence the same cards) and heuristic seats played by
``heuristic.table_turn`` (about a third of the trick loop's first compilation saved). A solver
policy (dd, pimc) must never reach it; it would be played as greedy. :func:`table_only` tells
whether a ``Stages`` bundle may take it (the same numbers); the advisor chooses in Python and
evaluates other stages by the full dispatcher. Simulated records of the fast plays take the
bundle-free loop of ``simple_deal`` instead.
"""

from __future__ import annotations

from ...core.engine.jit import njit, njit_inline
from ..policies import PLAY_GREEDY
from .bundles import Stages
from .declarations import carte_blanche
from .heuristic import table_turn
from .play import simple_card, table_heuristic, trick_loop
from .simulate import declare_after, exchange_stage, finish_play_with


def table_only(stages: Stages) -> bool:
    """True when every heuristic play seat of ``stages`` is at depth 0 without tilt
    (``play.table_heuristic``), so :func:`table_play_deal` gives the numbers of
    ``play.play_deal``."""
    return table_heuristic(stages)


@njit
def screen_card(policy, params, seat, view, hands, key, state, ws, sc):
    """The trick loop's card dispatcher (``play.player_card``'s arguments) for the screening
    play: never called for random, greedy or heuristic seats (``play.trick_loop`` plays those
    itself), so it holds no rule of its own; a solver policy reaching it plays greedy."""
    return simple_card(PLAY_GREEDY, view, key, state)


@njit
def table_play_deal(elder, younger, stages, start, key, state, ws, sc):
    """``play.play_deal`` (same arguments, same record, same net) for random and greedy seats
    and heuristic seats at depth 0 without tilt (:func:`table_only`): without the solver plays
    or the heuristic's general arithmetic."""
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
