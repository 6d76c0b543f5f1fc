"""The core's lookup of a game's play deciders by policy name: the policy's own class where
the game has one, else the kernel decider; unknown names refused by the game's registry."""

import pytest

from piquet_sim.core.game.position import KernelPlay, PlayDeciders
from piquet_sim.games import GAME_PACKAGES


class _Registry:
    def get(self, stage, name):
        if name not in ("own", "plain"):
            raise ValueError(f"unknown {stage} policy {name!r}")
        return name


def _lookup():
    return PlayDeciders(
        _Registry(),
        {"own": lambda params=None, **extra: ("own", params, extra)},
        lambda name, params=None, **extra: ("kernel", name, params, extra),
    )


def test_a_policy_with_its_own_class_gets_it():
    assert _lookup()("own", {"a": 1.0}) == ("own", {"a": 1.0}, {})


def test_a_policy_without_a_class_gets_the_kernel_decider():
    assert _lookup()("plain") == ("kernel", "plain", None, {})


def test_kernel_asks_for_the_kernel_twin_of_a_class():
    assert _lookup()("own", kernel=True) == ("kernel", "own", None, {})


def test_a_games_own_arguments_reach_either_maker():
    look = _lookup()
    assert look("own", row=3) == ("own", None, {"row": 3})
    assert look("plain", others="random") == ("kernel", "plain", None, {"others": "random"})


def test_an_unknown_name_is_refused_by_the_registry():
    with pytest.raises(ValueError, match="unknown play policy"):
        _lookup()("nope")


def test_a_kernel_maker_binds_the_games_dispatcher_to_each_policys_id_and_row():
    seen = []

    def policy(name, params=None, **extra):
        seen.append((name, params, extra))
        return {"plain": 4, "other": 5}[name], [9.0]

    make = KernelPlay.maker(lambda d, state, seat: 10 * d.id + seat, policy, draws=True, who="x")
    play = make("plain", {"a": 1.0}, row=3)
    assert seen == [("plain", {"a": 1.0}, {"row": 3})]
    assert (play.name, play.id, play.params, play.draws, play.who) == ("plain", 4, [9.0], True, "x")
    assert play.card(None, 2) == 42


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_registered_play_policy_of_every_game_has_a_decider_named_for_it(game):
    import importlib

    deciders = importlib.import_module(f"piquet_sim.{game}.deciders")
    policies = importlib.import_module(f"piquet_sim.{game}.policies")
    for name in policies.REGISTRY.stage("play"):
        assert deciders.play_decider(name).name == name
