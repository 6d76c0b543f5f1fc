"""Piquet's strategies: the built-ins, the file format (JSON and TOML, sink lists and positional
parameters), inline specs, and the mapping to stage policies."""

from __future__ import annotations

import json

import numpy as np
import pytest

from piquet_sim.core.game.strategy import StrategyError
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
from piquet_sim.piquet.strategies import BOOK, REGISTRY, kernel_arrays, summary, uses_solver

from_dict, load, resolve = BOOK.from_dict, BOOK.load, BOOK.resolve


def _stage(s, stage: str, role: str = "elder") -> tuple:
    """(policy, parameters in the registry's order) of a stage as ``role`` plays it."""
    from piquet_sim.piquet.strategies import _values

    c = s.choice(stage, role)
    return c.policy, _values(stage, c) if c.params else ()


def test_registry_has_the_named_strategies():
    for name in ("greedy", "max", "random", "dd-play", "sink-sets", "sink-point"):
        assert name in REGISTRY
        assert REGISTRY[name].description
    assert uses_solver(REGISTRY["dd-play"])
    assert not uses_solver(REGISTRY["greedy"])
    assert REGISTRY["sink-sets"].policy("declare", "elder") == "sink"


def test_a_stage_left_out_is_the_strongest_fast_policy():
    """A strategy file that names no exchange or play gets the heuristic ones (greedy before);
    the built-ins keep their stages (greedy is greedy)."""
    s = from_dict({"name": "bare"})
    for role in ("elder", "younger"):
        assert s.policy("exchange", role) == s.policy("play", role) == "heuristic"
    assert s.policy("declare", "elder") == "all"
    assert summary(REGISTRY["heuristic"]) == "heuristic / all / heuristic"
    assert summary(REGISTRY["greedy"]) == "greedy / all / greedy"
    assert summary(REGISTRY["max"]) == "max / all / greedy"
    assert summary(REGISTRY["sink-sets"]) == "greedy / sink(0, 0, 1) / greedy"
    assert REGISTRY["sink-sets"].policy("exchange", "elder") == "greedy"
    y = REGISTRY["younger-sinks-sets"]
    assert (y.policy("exchange", "elder"), y.policy("play", "younger")) == ("greedy", "greedy")
    assert summary(y) == "greedy / all|sink(0, 0, 1) / greedy"


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
        assert from_dict(json.loads(json.dumps(BOOK.to_dict(s)))) == s


def test_greedy_weights_by_name(tmp_path):
    data = {
        "name": "g2",
        "exchange": {"policy": "greedy", "params": {"draw": 2.5}},
        "play": "greedy",
    }
    s = from_dict(data)
    w = np.array(_stage(s, "exchange")[1])
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
    assert _stage(sj, "declare")[1] == (1.0, 0.0, 0.0) == _stage(st, "declare")[1]
    assert sj.policy("declare", "younger") == "sink"
    assert st.policy("declare", "younger") == "all"
    assert st.description == "sinks the point as elder"


@pytest.mark.parametrize(
    "data, message",
    [
        ({"exchange": "greedy"}, "'name' is required"),
        ({"name": "x", "exchange": "best"}, "unknown exchange policy"),
        ({"name": "x", "play": "clever"}, "unknown play policy"),
        (
            {"name": "x", "exchange": {"policy": "greedy", "params": {"zeal": 1}}},
            "'greedy' has no parameter 'zeal'",
        ),
        ({"name": "x", "exchange": {"policy": "max", "params": [1]}}, "'max' takes no parameters"),
        ({"name": "x", "declare": {"policy": "sink", "sink": ["tricks"]}}, "'sink' must list"),
        ({"name": "x", "exchange": {"policy": "greedy", "params": [1, 2]}}, "a list of 11"),
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
    assert uses_solver(s) and _stage(s, "play")[1] == (6, 2000, 0, 4, 2.0, 1)
    ids, params = kernel_arrays(s, REGISTRY["greedy"])
    assert params[L.STAGE_ELDER_PLAY, :3].tolist() == [6.0, 2000.0, 0.0]
    assert REGISTRY["pimc-play"].policy("play") == "pimc"
    with pytest.raises(StrategyError, match="'pimc' has no parameter 'depth'"):
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


def test_inline_specs_name_a_policy_on_the_heuristic_strategy():
    """``pimcw:worlds=32`` is pimcw play with 32 worlds, the rest the heuristic strategy's; a
    stage may be named, several joined by ``+``; built-in names come first."""
    s = resolve("pimcw:worlds=32")
    assert s.name == "pimcw:worlds=32" and s.params("play") == {"worlds": 32}
    assert s.policy("exchange") == "heuristic" and s.policy("declare") == "all"
    two = resolve("exchange.greedy:draw=2+play.pimc")
    assert (two.policy("exchange"), two.params("exchange"), two.policy("play")) == (
        "greedy",
        {"draw": 2.0},
        "pimc",
    )
    assert resolve("greedy") is REGISTRY["greedy"]
    for bad, message in (
        ("pimcw:worlds=0", "worlds must be 1 to"),
        ("pimcw:worlds", "not param=value"),
        ("play.clever", "no policy of piquet"),
        ("nonsense:x=1", "unknown strategy"),
    ):
        with pytest.raises(StrategyError, match=message):
            resolve(bad)
