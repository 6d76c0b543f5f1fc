"""The core's policy registry type: lookups, kernel ids and parameter checks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from piquet_sim.core.game.registry import Policy, PolicyError, Registry

ROWS = (
    Policy("play", "random", 0, "a uniform legal card"),
    Policy(
        "play",
        "pimc",
        1,
        "sampled worlds",
        ("worlds", "margin"),
        (16.0, 0.0),
        bounds=((1, 1000), (-50, 50)),
        integers=("worlds",),
        needs_solver=True,
    ),
    Policy("bid", "pass", 0, "always pass"),
)
REG = Registry("Toy", ("bid", "play"), ROWS)


def test_lookups_and_ids():
    assert REG.names("play") == ("random", "pimc")
    assert REG.names("play", needs_solver=True) == ("pimc",)
    assert REG.ids("play") == {"random": 0, "pimc": 1}
    assert REG.id("bid", "pass") == 0
    assert REG.by_id("play", 1).name == "pimc"
    with pytest.raises(PolicyError, match="unknown play policy 'dd'; choose from random, pimc"):
        REG.get("play", "dd")


def test_repeated_ids_or_unknown_stages_are_refused():
    with pytest.raises(ValueError, match="repeat"):
        Registry("Bad", ("play",), (ROWS[0], Policy("play", "other", 0, "same id")))
    with pytest.raises(ValueError, match="unknown stage"):
        Registry("Bad", ("play",), ROWS)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([0], "worlds must be 1 to 1000, got 0"),
        ([2.5], "worlds must be a whole number, got 2.5"),
        ([math.nan], "worlds must be a finite number"),
        ([8, math.inf], "margin must be a finite number"),
        ([True], "worlds must be a number, got True"),
        (["45"], "worlds must be a number, got '45'"),
        ([8, 1, 2], "takes 2 parameter"),
        ({"depth": 3}, "has no parameter 'depth'"),
    ],
)
def test_bad_parameters_name_the_policy_and_parameter(values, message):
    with pytest.raises(PolicyError, match=message):
        REG.get("play", "pimc").check_params(values)


def test_good_parameters_fill_defaults():
    pimc = REG.get("play", "pimc")
    assert pimc.check_params(None) == (16.0, 0.0)
    assert pimc.check_params([8]) == (8, 0.0)
    assert pimc.check_params({"margin": -2.5}) == (16.0, -2.5)
    assert pimc.check_params([np.int64(4), np.float64(1.5)]) == (4, 1.5)
