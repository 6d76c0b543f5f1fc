"""OpenSpiel's players as our :class:`~piquet_sim.core.game.position.Decider`: an outside engine's
decisions on our positions, for matches and ladders (:mod:`piquet_sim.core.study.arena`)."""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..core.game.position import Decider
from ..core.game.position import State as GameState
from .adapter import AdaptedState


class IsmctsDecider(Decider):
    """OpenSpiel's Python information-set MCTS (``ISMCTSBot``: UCT, random rollouts, worlds
    from our ``resample_from_infostate``) with ``simulations`` per decision; seeded."""

    def __init__(self, game_name: str, simulations: int, seed: int = 1, params=None):
        self.game = pyspiel.load_game(game_name, params or {})
        self.rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rng)
        self.bot = ismcts.ISMCTSBot(
            game=self.game,
            evaluator=evaluator,
            uct_c=2.0,
            max_simulations=simulations,
            random_state=self.rng,
        )
        # worlds from the bot's own seeded stream (OpenSpiel's default resampler hands each
        # world a freshly, randomly seeded sampler: the decisions would not repeat)
        self.bot.set_resampler(
            lambda state, player: state.resample_from_infostate(player, self.rng.uniform)
        )
        self.name = f"ismcts-{simulations}"

    def new_deal(self, key: int) -> None:
        """Reseed the search's stream (worlds, rollouts, ties) for one deal, so its decisions
        there do not depend on the deals it played before."""
        self.rng.seed(key & 0xFFFFFFFF)

    def choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return int(self.bot.step(AdaptedState(self.game, [], state.clone())))


def external_decider(game: str, arg: str, seed: int = 1) -> Decider:
    """The ``ismcts:<simulations>`` external player of the ladders (any of the three games):
    OpenSpiel's IS-MCTS with that many simulations a move (default 100)."""
    from ..core.engine.errors import InputError

    if arg and not arg.isdigit():
        raise InputError(f"ismcts:{arg}: the budget is a whole number of simulations a move")
    return IsmctsDecider(f"python_{game}", int(arg or 100), seed=seed)
