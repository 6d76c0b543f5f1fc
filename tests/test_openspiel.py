"""The games as OpenSpiel Python games (the ``openspiel`` extra; CI installs it): OpenSpiel's own
conformance simulation (``pyspiel.random_sim_test``) and a full deal under its Python IS-MCTS,
which needs ``resample_from_infostate``."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from piquet_sim.openspiel.games import register_all, specs  # noqa: E402

register_all()
NAMES = [spec.short_name for spec in specs()]


@pytest.mark.parametrize("name", NAMES)
def test_random_simulations_pass_openspiel_checks(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


class _SeededSampler:
    """Stands for ``pyspiel.UniformProbabilitySampler``, which IS-MCTS builds at each resample
    and which seeds itself from the system: the deal a test plays then repeats."""

    def __init__(self, rng: np.random.RandomState):
        self.rng = rng

    def __call__(self, low: float = 0.0, high: float = 1.0):
        return lambda: self.rng.uniform(low, high)


def _play_with_ismcts(name: str, seed: int):
    """One deal: IS-MCTS (10 simulations) at seat 0, uniform random moves elsewhere, every
    draw from ``seed``; the final state and the bot's decisions."""
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game=game, evaluator=evaluator, uct_c=2.0, max_simulations=10, random_state=rng
    )
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            decisions += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
    return game, state, decisions


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_plays_a_full_deal(name, monkeypatch):
    monkeypatch.setattr(
        pyspiel, "UniformProbabilitySampler", _SeededSampler(np.random.RandomState(3))
    )
    game, state, decisions = _play_with_ismcts(name, 7)
    assert decisions > 0
    assert len(state.returns()) == game.num_players()


def test_pilotta_resampling_finds_a_world_after_random_play(monkeypatch):
    """A deal whose random play left a seat barred from trumps it did not over-trump with:
    IS-MCTS resamples it at every decision (the sampler once gave up here)."""
    monkeypatch.setattr(
        pyspiel, "UniformProbabilitySampler", _SeededSampler(np.random.RandomState(0))
    )
    game, state, _ = _play_with_ismcts("python_pilotta", 7)
    assert state.is_terminal()


@pytest.mark.parametrize("name", NAMES)
def test_resampled_states_look_the_same_to_the_player(name):
    """IS-MCTS keys its tree on the information state: a resampled world must show the player
    exactly what the real one does, with the same legal actions."""
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(11)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 20:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        worlds = [
            state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            for _ in range(3)
        ]
        for world in worlds:
            assert world.information_state_string(player) == key
            assert world.legal_actions() == state.legal_actions()
        checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
    assert checked > 0


@pytest.mark.parametrize("players", [3, 6])
def test_pitch_takes_the_player_count_as_a_parameter(players):
    game = pyspiel.load_game("python_pitch", {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_ismcts_decider_repeats_and_reads_no_hidden_card():
    """The IS-MCTS decider draws its worlds from its own seeded stream: the same seed leads
    the same card, and swapping East's and South's hands (hidden from North; deals where
    nobody announced anything) changes nothing. The swap moves cards a cheat would see."""
    from piquet_sim.openspiel.agents import IsmctsDecider
    from piquet_sim.pilotta.actions import DECLARE, PASS, bid_action
    from piquet_sim.pilotta.position import PilottaState

    def lead(hands):
        state = PilottaState.from_hands(hands, dealer=3)
        for action in (bid_action(0, 0), PASS, PASS, PASS):
            state.apply(action)
        while state.phase == "declare":
            state.apply(DECLARE)
        quiet = not any(state.shown[1:]) and not any(state.announced[1:])
        return IsmctsDecider("python_pilotta", 20, seed=5).choose(state), quiet

    compared = 0
    for index in range(12):
        hands = list(PilottaState.from_deal(9, index).dealt)
        (a, quiet_a), (b, quiet_b) = lead(hands), lead([hands[0], hands[2], hands[1], hands[3]])
        if quiet_a and quiet_b:
            compared += 1
            assert a == b == lead(hands)[0], index
    assert compared >= 3
