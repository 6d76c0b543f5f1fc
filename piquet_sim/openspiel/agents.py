"""OpenSpiel's players as our :class:`~piquet_sim.core.position.Decider`: an outside engine's
decisions on our positions, for matches and ladders (:mod:`piquet_sim.core.arena`)."""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..core.position import Decider
from ..core.position import State as GameState
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
        self.name = f"ismcts-{simulations}"

    def choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return int(self.bot.step(AdaptedState(self.game, [], state.clone())))
