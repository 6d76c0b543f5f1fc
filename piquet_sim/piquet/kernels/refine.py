"""The advisor's pimc refine play: the trick loop with pimc seats and the screening play's
parts, so a first ``discard`` (pimc refine, the default) compiles the pimc player and little
else beside the screen.

:func:`pimc_play_deal` is ``play.play_deal`` with a card dispatcher holding only pimc (no
double-dummy branch) and heuristic seats played by ``heuristic.table_turn`` (no general
arithmetic): the same cards for :func:`pimc_only` stages. :func:`pimc_finish_deal` is
``simulate.finish_deal`` with the screen's separately compiled exchange and declaration
kernels (``screen.screen_exchange``, ``screen.screen_declare``), which the screen has
compiled or loaded already, so the refine loads them instead of inlining its own copies. The
advisor chooses in Python (:func:`pimc_only`); other solver stages (dd) take the full
dispatcher, ``kernels/advisor.evaluate``.
"""

from __future__ import annotations

from ...core.engine.jit import njit, njit_inline
from ..policies import PLAY_GREEDY, PLAY_HEURISTIC, PLAY_PIMC, PLAY_RANDOM
from . import layouts as L
from .bundles import Stages
from .declarations import carte_blanche
from .heuristic import table_turn
from .play import choose_lead, choose_reply, pimc_card, trick_loop
from .screen import screen_declare, screen_exchange, table_only
from .simulate import finish_play_with

#: The plays :func:`pimc_play_deal` plays as ``play.play_deal`` does: the trick loop's own
#: (random, greedy, heuristic) and pimc; any other (dd, a new solver play) takes the full one.
REFINE_PLAYS = (PLAY_RANDOM, PLAY_GREEDY, PLAY_HEURISTIC, PLAY_PIMC)


def pimc_only(stages: Stages) -> bool:
    """True when every play seat of ``stages`` plays one of ``REFINE_PLAYS`` and every heuristic
    seat is at depth 0 without tilt (``screen.table_only``): :func:`pimc_play_deal` then plays
    the cards of ``play.play_deal``."""
    rows = (L.STAGE_ELDER_PLAY, L.STAGE_YOUNGER_PLAY)
    return table_only(stages) and all(stages.ids[r] in REFINE_PLAYS for r in rows)


@njit
def refine_card(policy, params, seat, view, hands, key, state, ws, sc):
    """The trick loop's card dispatcher (``play.player_card``'s arguments) for pimc seats; the
    loop plays random, greedy and heuristic seats itself, and a dd seat never reaches it
    (:func:`pimc_only`; it would play greedy)."""
    own, _, lead, _, _, played, _, _ = view
    if policy == PLAY_PIMC:
        return pimc_card(params, seat, view, key, state, ws, sc)
    if lead < 0:
        return choose_lead(PLAY_GREEDY, own, played, key, state)
    return choose_reply(PLAY_GREEDY, own, lead, played, key, state)


@njit
def pimc_play_deal(elder, younger, stages, start, key, state, ws, sc):
    """``play.play_deal`` (same arguments, record and net) for :func:`pimc_only` stages."""
    return trick_loop(elder, younger, stages, start, key, state, ws, sc, refine_card, table_turn)


@njit_inline
def pimc_finish_deal(elder, younger, talon, key, stages, ws, sc, forced):
    """``simulate.finish_deal`` (same arguments, steps and record) for :func:`pimc_only`
    stages, the exchange and declarations by the screen's kernels."""
    cb = (carte_blanche(elder), carte_blanche(younger))
    exchange = screen_exchange(elder, younger, talon, key, sc.state, stages, ws.env, forced)
    screen_declare(exchange, cb, stages, ws.env, sc)
    return finish_play_with(exchange, talon, stages, key, ws, sc, pimc_play_deal)
