"""Strategies: the registry, the file format (JSON and TOML), and the mapping to stage policies."""

from __future__ import annotations

import json

import numpy as np
import pytest

from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels.exchange import GREEDY_DEFAULT_PARAMS
from piquet_sim.piquet.policies import (
    DECL_ALL,
    DECL_SINK,
    EXCH_GREEDY,
    EXCH_MAX,
    EXCH_RANDOM,
    GREEDY_WEIGHTS,
    PLAY_GREEDY,
    PLAY_RANDOM,
)
from piquet_sim.piquet.strategies import (
    REGISTRY,
    StrategyError,
    from_dict,
    kernel_arrays,
    load,
    resolve,
)


def test_registry_has_the_named_strategies():
    for name in ("greedy", "max", "random", "dd-play", "sink-sets", "sink-point"):
        assert name in REGISTRY
        assert REGISTRY[name].description
    assert REGISTRY["dd-play"].uses_solver
    assert not REGISTRY["greedy"].uses_solver
    assert REGISTRY["sink-sets"].elder.declare.policy == "sink"


def test_a_stage_left_out_is_the_strongest_fast_policy():
    """Issue 37: a strategy file that names no exchange or play gets the heuristic ones (greedy
    before); the built-ins keep their stages (greedy is greedy)."""
    s = from_dict({"name": "bare"})
    assert s.elder.exchange.policy == s.younger.exchange.policy == "heuristic"
    assert s.elder.play.policy == s.younger.play.policy == "heuristic"
    assert s.elder.declare.policy == "all"
    assert REGISTRY["heuristic"].summary() == "heuristic / all / heuristic"
    assert REGISTRY["greedy"].summary() == "greedy / all / greedy"
    assert REGISTRY["max"].summary() == "max / all / greedy"
    assert REGISTRY["sink-sets"].elder.exchange.policy == "greedy"
    y = REGISTRY["younger-sinks-sets"]
    assert (y.elder.exchange.policy, y.younger.play.policy) == ("greedy", "greedy")


def test_elder_stages_come_from_the_elder_strategy():
    ids, params = kernel_arrays(REGISTRY["max"], REGISTRY["random"])
    assert ids[L.STAGE_ELDER_EXCHANGE] == EXCH_MAX
    assert ids[L.STAGE_YOUNGER_EXCHANGE] == EXCH_RANDOM
    assert ids[L.STAGE_ELDER_PLAY] == PLAY_GREEDY
    assert ids[L.STAGE_YOUNGER_PLAY] == PLAY_RANDOM
    ids, params = kernel_arrays(REGISTRY["greedy"], REGISTRY["sink-sets"])
    assert ids[L.STAGE_ELDER_DECLARE] == DECL_ALL
    assert ids[L.STAGE_YOUNGER_DECLARE] == DECL_SINK
    assert list(params[L.STAGE_YOUNGER_DECLARE, :3]) == [0.0, 0.0, 1.0]  # sink the sets only
    assert ids[L.STAGE_ELDER_EXCHANGE] == EXCH_GREEDY
    assert np.allclose(
        params[L.STAGE_ELDER_EXCHANGE, : GREEDY_DEFAULT_PARAMS.size], GREEDY_DEFAULT_PARAMS
    )


def test_seat_override_applies_to_that_seat_only():
    s = REGISTRY["younger-sinks-sets"]
    ids, _ = kernel_arrays(s, s)
    assert ids[L.STAGE_ELDER_DECLARE] == DECL_ALL
    assert ids[L.STAGE_YOUNGER_DECLARE] == DECL_SINK


def test_file_form_round_trips():
    for s in REGISTRY.values():
        assert from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_greedy_weights_by_name(tmp_path):
    data = {
        "name": "g2",
        "exchange": {"policy": "greedy", "params": {"draw": 2.5}},
        "play": "greedy",
    }
    s = from_dict(data)
    w = np.array(s.elder.exchange.params)
    assert w[GREEDY_WEIGHTS.index("draw")] == 2.5
    others = [i for i in range(len(GREEDY_WEIGHTS)) if GREEDY_WEIGHTS[i] != "draw"]
    assert np.array_equal(w[others], GREEDY_DEFAULT_PARAMS[others])
    _, params = kernel_arrays(s, REGISTRY["greedy"])
    assert params[L.STAGE_ELDER_EXCHANGE, GREEDY_WEIGHTS.index("draw")] == 2.5
    assert (
        params[L.STAGE_YOUNGER_EXCHANGE, GREEDY_WEIGHTS.index("draw")] == GREEDY_DEFAULT_PARAMS[9]
    )


def test_json_and_toml_files(tmp_path):
    j = tmp_path / "mine.json"
    j.write_text(json.dumps({"name": "mine", "declare": {"policy": "sink", "sink": ["point"]}}))
    t = tmp_path / "mine.toml"
    t.write_text(
        'name = "mine"\ndescription = "sinks the point as elder"\n'
        'exchange = "greedy"\nplay = "greedy"\n'
        '[elder]\ndeclare = { policy = "sink", sink = ["point"] }\n'
    )
    sj, st = load(j), resolve(str(t))
    assert sj.elder.declare.params == (1.0, 0.0, 0.0) == st.elder.declare.params
    assert sj.younger.declare.policy == "sink"
    assert st.younger.declare.policy == "all"
    assert st.description == "sinks the point as elder"


@pytest.mark.parametrize(
    "data, message",
    [
        ({"exchange": "greedy"}, "'name' is required"),
        ({"name": "x", "exchange": "best"}, "unknown exchange policy"),
        ({"name": "x", "play": "clever"}, "unknown play policy"),
        (
            {"name": "x", "exchange": {"policy": "greedy", "params": {"zeal": 1}}},
            "unknown greedy parameter",
        ),
        ({"name": "x", "exchange": {"policy": "max", "params": [1]}}, "'max' takes no parameters"),
        ({"name": "x", "declare": {"policy": "sink", "sink": ["tricks"]}}, "'sink' must list"),
        ({"name": "x", "declare": {"policy": "all", "sink": ["sets"]}}, "needs declare policy"),
        ({"name": "x", "colour": "red"}, "unknown key"),
        ({"name": "x", "elder": {"colour": "red"}}, "may only set"),
    ],
)
def test_bad_strategies_are_clear_errors(data, message):
    with pytest.raises(StrategyError, match=message):
        from_dict(data)


def test_unknown_names_and_bad_files(tmp_path):
    with pytest.raises(StrategyError, match="unknown strategy"):
        resolve("nonsense")
    with pytest.raises(StrategyError, match="no such file"):
        resolve(str(tmp_path / "missing.json"))
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"name": "caf\xe9"}'.encode("latin-1"))
    with pytest.raises(StrategyError, match="not UTF-8 text"):
        resolve(str(latin))
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(StrategyError, match="not valid TOML"):
        load(bad)
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(StrategyError, match="not valid JSON"):
        load(bad)


def test_pimc_is_a_strategy_play_with_parameters():
    """Every play policy of the registry is accepted in a strategy file, pimc with its worlds
    per decision; the parameters reach the kernel's params row of that seat."""
    s = from_dict({"name": "p", "play": {"policy": "pimc", "params": {"worlds": 6}}})
    # worlds 6 as given; max_attempts, adaptive (off), race, race_z and keep at their defaults
    assert s.uses_solver and s.elder.play.params == (6.0, 2000.0, 0.0, 4.0, 2.0, 1.0)
    ids, params = kernel_arrays(s, REGISTRY["greedy"])
    assert params[L.STAGE_ELDER_PLAY, :3].tolist() == [6.0, 2000.0, 0.0]
    assert REGISTRY["pimc-play"].elder.play.policy == "pimc"
    with pytest.raises(StrategyError, match="unknown pimc parameter 'depth'"):
        from_dict({"name": "p", "play": {"policy": "pimc", "params": {"depth": 3}}})


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"worlds": 0}, "parameter worlds must be 1 to 10000, got 0"),
        ({"worlds": -5}, "parameter worlds must be 1 to 10000, got -5"),
        ({"worlds": 1e9}, "parameter worlds must be 1 to 10000"),
        ({"worlds": 2.5}, "parameter worlds must be a whole number, got 2.5"),
        ({"race_z": float("nan")}, "parameter race_z must be a finite number"),
    ],
)
def test_absurd_parameters_are_refused_before_work(params, message):
    """pimc with worlds 0, -5 or 1e9 used to play as a broken player (or no deal at all)."""
    with pytest.raises(StrategyError, match=message):
        from_dict({"name": "p", "play": {"policy": "pimc", "params": params}})
