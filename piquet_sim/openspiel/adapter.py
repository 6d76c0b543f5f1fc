"""Any game's :class:`piquet_sim.core.game.position.State` as an OpenSpiel Python game.

The deal is OpenSpiel chance: one chance node per card dealt (uniform over the cards not yet
dealt, in the game's deal order), after which the game's own ``State`` is built from the cards
(:attr:`Spec.from_deal`) and every decision is one of its actions. Information-state strings are
the seat's ``observation`` (JSON), which holds everything the seat has seen; information-state
tensors are the seat's own cards and the history as the seat saw it (an action the state says
the seat did not see, such as a discard, shows only who acted). ``resample_from_infostate``
redeals through the game's world sampler (``State.resample``), the one its pimc players use,
which OpenSpiel's Python IS-MCTS needs (its C++ ``ISMCTSBot`` crashes on a Python game without
it). Returns are the game's own points (``State.returns``).

Needs the ``openspiel`` extra (``pip install "piquet-sim[openspiel]"``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyspiel

from ..core.game.position import CHANCE
from ..core.game.position import State as GameState


@dataclass(frozen=True)
class Spec:
    """What OpenSpiel needs to know of one game.

    short_name / long_name: its OpenSpiel names; players: seats (the default; a ``players``
    parameter may change it); pack: cards in the pack (chance outcomes are card indices);
    cards_each: cards dealt to each seat, one hand after another, then ``extra`` more (a
    talon); from_deal(cards, params) -> State: the game's position after the deal (cards in
    deal order); actions: the size of its action space; max_length: the most decisions in a deal;
    utility: (min, max) of a seat's returns; zero_sum: whether returns always sum to 0;
    params: OpenSpiel game parameters and their defaults (e.g. ``{"players": 4}``)."""

    short_name: str
    long_name: str
    players: int
    pack: int
    cards_each: int
    extra: int
    from_deal: Callable[[list[int], dict], GameState]
    actions: int
    max_length: int
    utility: tuple[float, float]
    zero_sum: bool
    params: dict
    card_ids: tuple[int, ...] = ()  # the pack's card indices (default 0..pack-1)

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card index of the pack (the chance outcomes)."""
        return self.card_ids or tuple(range(self.pack))

    def game_type(self) -> pyspiel.GameType:
        return pyspiel.GameType(
            short_name=self.short_name,
            long_name=self.long_name,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=(
                pyspiel.GameType.Utility.ZERO_SUM
                if self.zero_sum
                else pyspiel.GameType.Utility.GENERAL_SUM
            ),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=self.players,
            min_num_players=self.players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=self.params,
        )

    def dealt(self, players: int) -> int:
        """Cards dealt at a table of ``players``."""
        return self.cards_each * players + self.extra

    def seat_of(self, index: int, players: int) -> int:
        """The seat the ``index``-th card dealt goes to (-1: the talon)."""
        seat = index // self.cards_each
        return seat if seat < players else -1

    def game_info(self, players: int) -> pyspiel.GameInfo:
        return pyspiel.GameInfo(
            num_distinct_actions=self.actions,
            max_chance_outcomes=self.pack,
            num_players=players,
            min_utility=float(self.utility[0]),
            max_utility=float(self.utility[1]),
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=self.dealt(players) + self.max_length,
        )


def make_game_class(spec: Spec) -> type:
    """The ``pyspiel.Game`` subclass of one game (registered by :func:`register`)."""

    class Game(pyspiel.Game):
        # class attributes only: OpenSpiel may hand a state another Python wrapper of its game
        def __init__(self, params=None):
            values = {**spec.params, **(params or {})}
            players = int(values.get("players", spec.players))
            super().__init__(spec.game_type(), spec.game_info(players), values)

        @property
        def values(self) -> dict:
            return {**spec.params, **self.get_parameters()}

        @property
        def players(self) -> int:
            return self.num_players()

        def new_initial_state(self):
            return AdaptedState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer(self, iig_obs_type)

    Game.spec = spec
    Game.__name__ = Game.__qualname__ = f"{spec.short_name}_game"
    return Game


class AdaptedState(pyspiel.State):
    """One OpenSpiel state: the deal so far (chance), then the game's ``State``."""

    def __init__(self, game, dealt: list[int] | None = None, inner: GameState | None = None):
        super().__init__(game)
        self._game = game
        self.dealt = list(dealt or [])
        self.inner = inner
        self.steps: list[tuple[int, int]] = []  # (actor, action) after the deal

    # ---- the OpenSpiel State API
    def current_player(self):
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        if self.inner.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        player = self.inner.current_player()
        return pyspiel.PlayerId.CHANCE if player == CHANCE else player

    def _legal_actions(self, player):
        return sorted(self.inner.legal_actions())

    def chance_outcomes(self):
        left = sorted(set(self._game.spec.cards) - set(self.dealt))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action):
        if self.inner is None:
            self.dealt.append(int(action))
            if len(self.dealt) == self._game_dealt():
                self.inner = self._game.spec.from_deal(list(self.dealt), self._game.values)
            return
        self.steps.append((self.inner.current_player(), int(action)))
        self.inner.apply(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE or self.inner is None:
            return f"deal:{action}"
        return self.inner.action_to_string(int(action))

    def is_terminal(self):
        return self.inner is not None and self.inner.is_terminal()

    def returns(self):
        """Each seat's points for the deal, once it is over (terminal rewards: 0 before)."""
        if not self.is_terminal():
            return [0.0] * self._game.players
        return [float(x) for x in self.inner.returns()]

    def rewards(self):
        return self.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the same for ``player_id`` (same information-state string), hidden cards
        redealt by the game's world sampler."""
        if self.inner is None:
            return self.clone()
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else 0
        rng = np.random.default_rng([seed, len(self.steps), player_id])
        out = AdaptedState(self._game, self.dealt, self.inner.resample(player_id, rng))
        out.steps = list(self.steps)
        return out

    def clone(self):
        out = AdaptedState(
            self._game, self.dealt, None if self.inner is None else self.inner.clone()
        )
        out.steps = list(self.steps)
        return out

    def __str__(self):
        if self.inner is None:
            return f"dealing: {len(self.dealt)} of {self._game_dealt()} cards"
        return json.dumps(self._public(), sort_keys=True)

    # ---- helpers
    def _game_dealt(self) -> int:
        return self._game.spec.dealt(self._game.players)

    def _public(self) -> dict:
        return {"history": [self.inner.action_to_string(a) for _, a in self.steps]}

    def info_string(self, player: int) -> str:
        if self.inner is None:
            seat_of = self._game.spec.seat_of
            own = [c for i, c in enumerate(self.dealt) if seat_of(i, self._game.players) == player]
            return json.dumps({"dealing": len(self.dealt), "own": sorted(own)})
        return json.dumps(self.inner.observation(player), sort_keys=True, default=str)


class Observer:
    """OpenSpiel's observer interface: a string (the seat's observation) and a tensor (the
    seat's own cards, then one row per history step: who acted and, when the seat saw it,
    what)."""

    def __init__(self, game, iig_obs_type):
        self.game = game
        spec = game.spec
        self.rows = spec.max_length
        self.width = game.players + spec.actions
        size = spec.pack + self.rows * self.width
        self.tensor = np.zeros(size, np.float32)
        self.dict = {
            "own_cards": self.tensor[: spec.pack],
            "history": self.tensor[spec.pack :].reshape(self.rows, self.width),
        }

    def set_from(self, state: AdaptedState, player: int) -> None:
        self.tensor.fill(0)
        game = self.game
        for i, card in enumerate(state.dealt):
            if game.spec.seat_of(i, game.players) == player:
                self.dict["own_cards"][card] = 1
        if state.inner is None:
            return
        visible = getattr(state.inner, "is_visible", None)
        for row, (actor, action) in enumerate(state.steps[: self.rows]):
            self.dict["history"][row, actor] = 1
            if visible is None or visible(player, row):
                self.dict["history"][row, game.players + action] = 1

    def string_from(self, state: AdaptedState, player: int) -> str:
        return state.info_string(player)


def register(spec: Spec) -> type:
    """Register one game with OpenSpiel (``pyspiel.load_game(spec.short_name)``); returns its
    game class. Registering twice is harmless."""
    cls = make_game_class(spec)
    if spec.short_name not in pyspiel.registered_names():
        pyspiel.register_game(spec.game_type(), cls)
    return cls
