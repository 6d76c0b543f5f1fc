"""Strategies are read once, by the core, for every game: built-in names, files (JSON, TOML,
each game's older spellings) and inline specs, every policy and parameter checked against the
game's registry before any work, every failure one line."""

from __future__ import annotations

import json

import pytest

from piquet_sim.core.game.strategy import Choice, Strategy, StrategyError
from piquet_sim.pilotta.strategies import BOOK as PILOTTA
from piquet_sim.piquet.strategies import BOOK as PIQUET
from piquet_sim.pitch.strategies import BOOK as PITCH

BOOKS = {"piquet": PIQUET, "pilotta": PILOTTA, "pitch": PITCH}

#: an inline spec per game and what it chooses (stage, policy, parameters)
INLINE = {
    "piquet": ("pimcw:worlds=32", "play", "pimcw", {"worlds": 32}),
    "pilotta": ("threshold:base=40,margin=5", "auction", "threshold", {"base": 40, "margin": 5}),
    "pitch": ("threshold:margin=-0.5", "bid", "threshold", {"margin": -0.5}),
}


@pytest.mark.parametrize("game", BOOKS)
def test_inline_specs_work_in_every_game(game):
    book = BOOKS[game]
    spec, stage, policy, params = INLINE[game]
    s = book.resolve(spec)
    assert s.name == spec and (s.policy(stage), s.params(stage)) == (policy, params)
    base = book.builtins[book.base]
    others = [x for x in book.registry.stages if x != stage]
    assert all(s.choice(x) == base.choice(x) for x in others)


@pytest.mark.parametrize("game", BOOKS)
def test_every_built_in_round_trips_through_its_file_form(game, tmp_path):
    book = BOOKS[game]
    for name, s in book.builtins.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(book.to_dict(s)))
        assert book.load(path) == s, name
        assert book.resolve(name) is s


@pytest.mark.parametrize(
    "game, text, stage, want",
    [
        # Pilotta's pimc worlds beside the play policy, and a bidder table without a policy
        (
            "pilotta",
            'name = "p"\nplay = "pimc"\nplay_params = { worlds = 3 }\n',
            "play",
            Choice.of("pimc", {"worlds": 3}),
        ),
        (
            "pilotta",
            "[auction]\nparams = { base = 45 }\n",
            "auction",
            Choice.of("threshold", {"base": 45}),
        ),
        # Pitch's [bid] table
        (
            "pitch",
            '[bid]\npolicy = "threshold"\nparams = { margin = -1 }\n',
            "bid",
            Choice.of("threshold", {"margin": -1.0}),
        ),
        # Piquet's sink list and its parameters in the registry's order
        (
            "piquet",
            'declare = { policy = "sink", sink = ["sets"] }\n',
            "declare",
            Choice.of("sink", {"point": 0.0, "sequence": 0.0, "sets": 1.0}),
        ),
        (
            "piquet",
            'play = { policy = "heuristic", params = [1, 0, 0.5, 5] }\n',
            "play",
            Choice.of(
                "heuristic", {"depth": 1.0, "capot_defence": 0, "discard_bias": 0.5, "endgame": 5}
            ),
        ),
    ],
)
def test_older_file_spellings_still_load(game, text, stage, want, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    s = BOOKS[game].load(path)
    assert s.choice(stage) == want
    assert s.name == "p" if "name" in text else s.name == "mine"  # the stem when unnamed


def test_a_role_overrides_only_its_seat_and_equal_overrides_say_nothing():
    s = PIQUET.from_dict({"name": "x", "play": "greedy", "younger": {"play": "random"}})
    assert (s.policy("play", "elder"), s.policy("play", "younger")) == ("greedy", "random")
    same = PIQUET.from_dict({"name": "y", "elder": {"play": "dd"}, "younger": {"play": "dd"}})
    assert same.policy("play") == "dd" and not same.roles
    plain = Strategy.of("z", roles={"elder": {"play": "greedy"}}, play="greedy")
    assert not plain.roles


@pytest.mark.parametrize(
    "game, spec, message",
    [
        ("piquet", "pimcw:worlds=0", "worlds must be 1 to"),
        ("piquet", "dd:worlds=3", "takes no parameters"),
        ("pilotta", "dd", "cannot play simulated rounds"),
        ("pilotta", "threshold:base=40.5", "must be a whole number"),
        ("pitch", "pimc:worlds=4", "cannot play simulated rounds"),
        ("pitch", "threshold:margin=nan", "must be a finite number"),
        ("pitch", "threshold:margin", "not param=value"),
        ("pitch", "nonsense", "unknown strategy"),
        ("pilotta", "missing.toml", "no such file"),
    ],
)
def test_bad_strategies_are_one_line_errors(game, spec, message):
    with pytest.raises(StrategyError, match=message) as info:
        BOOKS[game].resolve(spec)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("game", BOOKS)
def test_unknown_keys_and_policies_in_files_are_refused(game):
    book = BOOKS[game]
    stage = book.registry.stages[0]
    for data, message in (
        ({"name": "x", "colour": 1}, "unknown key 'colour'"),
        ({"name": "x", stage: "psychic"}, f"unknown {stage} policy 'psychic'"),
        ({"name": "x", stage: 5}, "must be a policy name or a table"),
    ):
        with pytest.raises(StrategyError, match=message):
            book.from_dict(data)


def test_builtins_fill_the_stages_a_row_leaves_out_in_the_stored_order():
    from piquet_sim.core.game.strategy import builtin_strategies

    stages = {"bid": "threshold", "declare": "all", "play": "heuristic"}
    quiet, bold = builtin_strategies(
        stages,
        ("quiet", "keeps tierces", {"declare": "no-tierce"}),
        ("bold", "bids more", {"play": "greedy", "bid": Choice.of("threshold", {"margin": -1})}),
    )
    assert [s for s, _ in quiet.stages] == ["bid", "declare", "play"]
    assert quiet == Strategy.of(
        "quiet", "keeps tierces", bid="threshold", declare="no-tierce", play="heuristic"
    )
    assert [s for s, _ in bold.stages] == ["bid", "declare", "play"]
    assert bold.choice("bid").given == {"margin": -1} and bold.policy("play") == "greedy"


def test_a_builtin_naming_a_stage_the_game_lacks_is_refused():
    from piquet_sim.core.game.strategy import builtin_strategies

    with pytest.raises(ValueError, match="no stage exchange"):
        builtin_strategies({"bid": "threshold"}, ("odd", "", {"exchange": "greedy"}))
