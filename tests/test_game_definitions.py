"""Every game the application serves, and a toy game defined only through the core's
definition, hold to the contract (``core.game.definition``): consistent facts; a deal from a
seed played to its end by random legal actions within the facts (action numbers, length,
returns); a deal from cards in deal order; the record grammar writing and reading back a
played deal; the play example and the review settings; and the toy game gets the core's
``play``, ``review``, study commands (``strategies``, ``batch``, ``tournament``) and OpenSpiel
game with nothing written for them but its strategies."""

from __future__ import annotations

import json

import numpy as np
import pytest
from toy_game.cli import GAME as TOY_GAME
from toy_game.definition import DEFINITION as TOY

from piquet_sim.core.game.definition import GameDefinition, ReviewSettings
from piquet_sim.games import GAME_PACKAGES, games

DEFINITIONS = {g.name: g.definition() for g in games() if g.definition_ref} | {"toy": TOY}


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_a_game_holds_to_the_definition(name):
    game = DEFINITIONS[name]
    assert isinstance(game, GameDefinition)
    f = game.facts
    assert f.name == name and f.players[0] <= len(f.seats) <= f.players[1]
    assert len(f.cards) == f.pack.n_cards and max(f.cards) < f.index_space <= f.actions
    rules = game.rules_class()
    rng = np.random.default_rng(7)
    for index in range(3):
        state = game.new_state(11, index, rules)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal and all(0 <= a < f.actions for a in legal)
            state.apply(int(rng.choice(legal)))
            steps += 1
        assert steps <= f.longest
        assert all(f.utility[0] <= r <= f.utility[1] for r in state.returns())
        if f.zero_sum:
            assert sum(state.returns()) == 0
        codec = game.codec
        rec = codec.from_state(state, 0)
        text = codec.text(rec)
        assert codec.text(codec.parse(text, rules)) == text
        assert codec.text(codec.parse_json(json.loads(json.dumps(codec.json(rec))), rules)) == text
    deck = list(rng.permutation(f.cards))
    dealt = game.state_from_cards(deck, rules)
    assert not dealt.is_terminal() and dealt.legal_actions()
    defaults, quick = game.review_settings
    assert isinstance(defaults, ReviewSettings) and isinstance(quick, ReviewSettings)
    assert set(quick.to_dict()) == set(defaults.to_dict())
    assert game.play_example.seat in f.seats
    assert game.policies.stage("play")


def _invoke(group, args):
    import contextlib
    import io

    from piquet_sim.core.app.cli import run_main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            run_main(group, list(args), "toy")
        except SystemExit as exc:
            return exc.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_the_toy_game_gets_play_from_the_core():
    ex = TOY.play_example
    code, out, err = _invoke(TOY_GAME.click_group(), [*ex.args(), "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["best"] in ("KS", "QH") and data["exact"] and len(data["cards"]) == 2
    code, out, err = _invoke(TOY_GAME.click_group(), ex.args())
    assert code == 0 and "Play " in out
    code, _, err = _invoke(TOY_GAME.click_group(), ["play", "KS", "--seat", "first"])
    assert code == 2 and "--history" in err


def test_the_toy_game_gets_review_from_the_core(tmp_path):
    state = TOY.new_state(3, 0, TOY.rules_class())
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions())))
    full = tmp_path / "deal.txt"
    full.write_text(TOY.codec.text(TOY.codec.from_state(state, 1)))
    code, out, err = _invoke(TOY_GAME.click_group(), ["review", str(full), "--json", "--quiet"])
    assert code == 0, err
    data = json.loads(out)
    assert data["decisions_total"] == 4 and all(
        d["exact_cost"] is not None for d in data["decisions"]
    )
    one = tmp_path / "mine.txt"
    one.write_text(TOY.codec.text(TOY.codec.from_state(state, 1, every_hand=False)))
    code, out, err = _invoke(TOY_GAME.click_group(), ["review", str(one), "--json", "--quiet"])
    assert code == 0, err
    assert json.loads(out)["decisions_total"] == 4
    bad = tmp_path / "bad.txt"
    bad.write_text("player: first\nfirst: KS QS JS TS\ntricks: AS-KH\n")
    code, _, err = _invoke(TOY_GAME.click_group(), ["review", str(bad), "--quiet"])
    assert code == 2 and "line 3" in err and len(err.strip().splitlines()) == 1


def test_the_toy_game_gets_the_study_commands_from_the_core(tmp_path):
    group = TOY_GAME.click_group()
    code, out, err = _invoke(group, ["strategies", "--json"])
    assert code == 0, err
    assert set(json.loads(out)) == {"random", "greedy", "dd"}
    code, out, err = _invoke(group, ["batch", "dd", "random", "-n", "40", "--json", "-q"])
    assert code == 0, err
    match = json.loads(out)
    assert match["deals"] == 40 and not match["partial"]
    # the oracle sees both hands: it takes more tricks than a random player, clearly
    assert match["margin_per_deal"]["ci95"][0] > 0
    again = ["batch", "dd", "random", "-n", "40", "--json", "-q", "--chunk", "7"]
    assert json.loads(_invoke(group, again)[1])["margin_per_deal"] == match["margin_per_deal"]
    args = ["tournament", "random", "greedy", "dd", "-n", "20", "--json", "-q"]
    code, out, err = _invoke(group, [*args, "--out", str(tmp_path / "t.csv")])
    assert code == 0, err
    t = json.loads(out)
    assert [s["strategy"] for s in t["standings"]][0] == "dd" and len(t["matches"]) == 3
    assert (tmp_path / "t.csv").read_text().count("\n") == 4
    code, _, err = _invoke(group, ["batch", "dd", "nonesuch", "-n", "4"])
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_the_toy_game_gets_an_openspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    from piquet_sim.openspiel.adapter import register
    from piquet_sim.openspiel.games import spec_of

    spec = spec_of(TOY)
    register(spec)
    game = pyspiel.load_game(spec.short_name)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAME_PACKAGES)
def test_a_play_decider_asked_before_the_play_says_so_in_one_line(name):
    from piquet_sim.core.engine.errors import InputError

    game = DEFINITIONS[name]
    state = game.new_state(3, 0, game.rules_class())
    assert state.phase != "play"
    with pytest.raises(InputError, match=f"decides in the play, not in the {state.phase}"):
        game.play_decider("heuristic").choose(state)
