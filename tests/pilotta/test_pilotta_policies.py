"""The one policy registry (``policies.py``): kernel ids, parameter names against the kernels'
layouts, and strategies (built-in and from files) validated against it by type and range before
any work, each mistake one line with exit code 2."""

from __future__ import annotations

import json

import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.strategy import StrategyError
from piquet_sim.pilotta import layouts
from piquet_sim.pilotta import policies as P
from piquet_sim.pilotta import strategies as S
from piquet_sim.pilotta.api import make_setup


def test_kernel_ids_keep_their_numbers():
    """The ids kernels compare against (module constants derived from the registry)."""
    assert (P.PLAY_RANDOM, P.PLAY_GREEDY, P.PLAY_HEURISTIC, P.PLAY_DD, P.PLAY_PIMC) == (
        0,
        1,
        2,
        3,
        4,
    )
    assert (P.DECL_ALL, P.DECL_NO_TIERCE) == (0, 1)
    assert (P.AUCTION_RANDOM, P.AUCTION_FIXED, P.AUCTION_THRESHOLD, P.AUCTION_MONTECARLO) == (
        0,
        1,
        2,
        3,
    )
    assert P.AUCTION_ADVISOR == 4
    assert P.ROUND_PLAY_POLICIES == ("random", "greedy", "heuristic", "pimc")
    assert P.PLAIN_PLAY_POLICIES == ("random", "greedy", "heuristic")


def test_parameter_names_follow_the_kernel_layouts():
    """The kernels read the threshold and Monte Carlo parameters by ``BidParam``/``MCParam``:
    the registry's order must be theirs, and every row fits a Setup's parameter slots."""
    threshold = P.get("auction", "threshold").params
    assert [m.name.lower() for m in layouts.BidParam if m.name != "LEN"] == list(threshold)
    montecarlo = P.get("auction", "montecarlo").params
    assert [m.name.lower() for m in layouts.MCParam if m.name != "LEN"] == list(montecarlo)
    assert all(len(p.params) <= layouts.N_AUCTION_PARAMS for p in P.REGISTRY)
    assert layouts.N_AUCTION_PARAMS == P.N_PARAMS


def test_auction_params_array_and_bounds():
    assert P.auction_params("threshold").tolist() == [35, 8, 10, 5, 0, 20, 0, 0]
    assert P.auction_params("threshold", {"base": 45}).tolist()[:2] == [45, 8]
    assert P.auction_params("random", (500, 2)).tolist()[:2] == [500, 2]
    for policy, params in (
        ("random", {"max_raise": 0}),
        ("fixed", {"suit": 4}),
        ("montecarlo", {"worlds": 0}),
        ("montecarlo", {"margin": float("nan")}),
        ("threshold", {"base": 2.5}),
        ("threshold", {"nope": 1}),
        ("threshold", (1, 2, 3, 4, 5, 6, 7, 8)),
    ):
        with pytest.raises(InputError):
            P.auction_params(policy, params)
    with pytest.raises(InputError, match="worlds"):
        make_setup("threshold", "pimc", "heuristic", worlds=(0, 6))
    with pytest.raises(InputError, match="cannot play simulated rounds"):
        make_setup("threshold", "dd", "heuristic")
    with pytest.raises(InputError, match="declare"):
        make_setup(declare=("all", "some"))


def test_builtin_strategies_round_trip_through_the_file_form():
    for name, s in S.REGISTRY.items():
        again = S.BOOK.from_dict(json.loads(json.dumps(S.BOOK.to_dict(s))))
        assert again == s, name
        S.setup(s, s)  # every built-in makes a valid Setup


BAD_FILES = {
    "auction = 5": ("auction = 5\n", "auction must be a policy name or a table"),
    "auction unknown": ('auction = "psychic"\n', "unknown auction policy 'psychic'"),
    "play_params = 5": ('play = "pimc"\nplay_params = 5\n', "play_params must be a table"),
    "params list": ('[auction]\npolicy = "threshold"\nparams = [1, 2]\n', "must be a table"),
    "declare list": ('declare = ["all"]\n', "declare must be a policy name"),
    "margin nan": (
        '[auction]\npolicy = "montecarlo"\nparams = { margin = nan }\n',
        "margin must be a finite number",
    ),
    "pimc worlds 0": ('play = "pimc"\nplay_params = { worlds = 0 }\n', "worlds must be 1 to"),
    "montecarlo worlds 0": (
        '[auction]\npolicy = "montecarlo"\nparams = { worlds = 0 }\n',
        "worlds must be 1 to",
    ),
    "base text": ('[auction]\nparams = { base = "45" }\n', "base must be a number"),
    "base bool": ("[auction]\nparams = { base = true }\n", "base must be a number"),
    "base half": ("[auction]\nparams = { base = 40.5 }\n", "must be a whole number"),
    "unknown param": ("[auction]\nparams = { nope = 1 }\n", "no parameter 'nope'"),
    "heuristic worlds": ("play_params = { worlds = 3 }\n", "no parameter 'worlds'"),
    "oracle play": ('play = "dd"\n', "cannot play simulated rounds"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_strategy_file_is_one_line_and_exit_2(run_main, tmp_path, case):
    body, message = BAD_FILES[case]
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\n' + body)
    with pytest.raises(StrategyError, match=message.replace("(", r"\(")):
        S.BOOK.load(path)
    for args in (("batch", str(path), "heuristic"), ("game", "heuristic", str(path))):
        code, out, err = run_main("pilotta", *args, "-n", "10")
        assert code == 2 and out == "", (case, args)
        assert err.count("\n") == 1 and message in err and "Traceback" not in err, err


def test_json_strategy_file_with_nan(run_main, tmp_path):
    path = tmp_path / "mine.json"
    path.write_text('{"name": "m", "auction": {"policy": "threshold", "params": {"ten": NaN}}}')
    code, out, err = run_main("pilotta", "tournament", "heuristic", str(path), "-n", "10")
    assert code == 2 and "finite" in err and err.count("\n") == 1


def test_good_strategy_file_normalises_whole_numbers(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(
        'name = "ok"\nplay = "pimc"\nplay_params = { worlds = 3.0 }\n'
        '[auction]\npolicy = "montecarlo"\nparams = { worlds = 8, margin = -5 }\n'
    )
    s = S.BOOK.load(path)
    assert s.params("play") == {"worlds": 3} and s.params("auction") == {"worlds": 8, "margin": -5}
    assert S.worlds(s) == 3 and S.is_slow(s)
    setup = S.setup(s, S.BOOK.resolve("heuristic"))
    assert setup[layouts.Setup.WORLDS_NS] == 3
    assert setup[layouts.Setup.AUCTION_NS] == P.AUCTION_MONTECARLO


def test_cli_choices_come_from_the_registry(run_main):
    code, out, _ = run_main("pilotta", "bid", "--help")
    assert code == 0
    for name in P.names("play"):
        assert name in out


def test_strategies_command(run_main, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")  # every column shown (at 80 the widest are dropped)
    code, out, _ = run_main("pilotta", "strategies", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == set(S.REGISTRY)
    assert data["pimc"]["play"] == "pimc" and data["cautious"]["auction"]["params"] == {
        "margin": 20
    }
    code, out, _ = run_main("pilotta", "strategies")
    assert code == 0 and "cautious" in out
    for row in P.REGISTRY:  # every policy a file may name, with its ranges
        assert row.name in out
    flat = " ".join(out.split())
    assert "worlds=6 (1-1000, whole)" in flat and "bid_permille=350 (0-1000, whole)" in flat
