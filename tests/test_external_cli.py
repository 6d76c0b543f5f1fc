"""`piquet pilotta external` and `piquet pitch external` (core.external_cli): outside players
against our play policies on mirrored deals, rows marked external (skipped without the extras),
one line and exit 2 for a bad spec or a missing extra, Ctrl-C keeping what finished."""

from __future__ import annotations

import importlib.util
import json
import os
import signal

import pytest

from piquet_sim.core.app import external_cli
from piquet_sim.core.game.position import Decider


def _json(run_main, *args: str) -> dict:
    code, out, err = run_main(*args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("as_json", [True, False])
def test_pilotta_external(run_main, as_json, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")  # each row on one line
    pytest.importorskip("colver")
    pytest.importorskip("pyspiel")
    args = ["pilotta", "external", "colver:heuristic,ismcts:2", "--against", "random,dd"]
    args += ["-n", "2", "--quiet"]
    if not as_json:
        code, out, err = run_main(*args)
        assert code == 0, err
        assert "colver-heuristic (external)" in out and "dd (oracle)" in out
        assert "game points per deal minus ours" in " ".join(out.split())
        return
    data = _json(run_main, *args)
    assert data["rules"] == "contree preset" and not data["partial"]
    pairs = [(r["a"], r["b"]) for r in data["rows"]]
    assert pairs == [
        ("colver-heuristic", "random"),
        ("colver-heuristic", "dd"),
        ("ismcts-2", "random"),
        ("ismcts-2", "dd"),
    ]
    for r in data["rows"]:
        assert r["external"] and r["deals"] == 2 and r["margin_per_deal"]["n"] == 2
        assert r["seconds_per_move"]["a"] > 0 and r["moves"]["a"] > 0
        assert r["b_oracle"] == (r["b"] == "dd")


def test_pitch_external_at_five_players(run_main):
    """IS-MCTS at a table of 5 (its OpenSpiel game sized to the table: the default-size game
    has 4 seats and failed on seat 4)."""
    pytest.importorskip("pyspiel")
    data = _json(
        run_main,
        "pitch",
        "external",
        "ismcts:2",
        "--against",
        "heuristic",
        "-n",
        "1",
        "--players",
        "5",
        "--quiet",
    )
    assert data["rules"] == "5 players"
    (row,) = data["rows"]
    assert (row["a"], row["b"], row["deals"], row["external"]) == ("ismcts-2", "heuristic", 1, True)
    assert row["moves"]["a"] > 0 and row["moves"]["b"] > 0


@pytest.mark.parametrize("game", ["pilotta", "pitch"])
def test_help_has_an_example(run_main, game):
    code, out, _ = run_main(game, "external", "--help")
    assert code == 0 and "Example:" in out and f"piquet {game} external ismcts:" in out


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["pitch", "external", "nosuch:1"], "unknown external player"),
        (["pitch", "external", "colver:heuristic"], "does not play pitch"),
        (["pilotta", "external", "ismcts:lots"], "whole number of simulations"),
        (["pilotta", "external", "ismcts:2", "--against", "nobody"], "unknown play policy"),
        (["pitch", "external", ","], "give an external player"),
        (["pitch", "external", "ismcts:2", "--against", "heuristic:worlds=3"], "no parameter"),
        (["pitch", "external", "ismcts:2", "--against", "pimc:own=3"], "own must be 0 to 1"),
        (["pitch", "external", "ismcts:2", "--against", "pimc:worlds=0"], "a whole number from"),
        (["pilotta", "external", "ismcts:2", "--against", "pimc:sims=9"], "pimc takes worlds=N"),
    ],
)
def test_bad_specs_one_line_exit_2(run_main, args, text):
    code, out, err = run_main(*args, "-n", "1")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and text in err, err


def test_missing_extra_one_line_exit_2(run_main, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "colver" else real(name, *a)
    )
    code, _, err = run_main("pilotta", "external", "colver:heuristic", "-n", "1")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "needs the peers extra" in err


class _CtrlC(Decider):
    """Plays the first legal card and presses Ctrl-C on its first decision of deal 1 (in the
    fifth state it is asked about, after the four seatings of a Pitch deal 0 at 4 players):
    that deal is given up, deal 0 kept."""

    name = "ctrl-c"

    def __init__(self):
        self.states: list = []  # kept, so that no id is reused
        self.pressed = False

    def choose(self, state) -> int:
        if all(s is not state for s in self.states):
            self.states.append(state)
        if len(self.states) == 5 and not self.pressed:
            self.pressed = True
            os.kill(os.getpid(), signal.SIGINT)
        return state.legal_actions()[0]


def test_ctrl_c_keeps_the_rows_finished(run_main, monkeypatch):
    """Ctrl-C in the first match: its finished deal kept, the deal in flight given up, marked
    partial, the second match skipped, exit 130."""
    monkeypatch.setattr(external_cli, "external_decider", lambda game, spec, seed: _CtrlC())
    code, out, _ = run_main(
        "pitch", "external", "any", "--against", "random,heuristic", "-n", "3", "--quiet", "--json"
    )
    assert code == 130
    data = json.loads(out)
    assert data["partial"]
    (row,) = data["rows"]
    assert row["b"] == "random" and row["partial"] and row["deals"] == 1


def test_a_count_given_inline_is_fixed_and_names_the_row():
    """``--against pimc:worlds=12``: our player at that count whatever the budget (not left to
    the calibration), its row named by the spec."""
    from types import SimpleNamespace

    from piquet_sim.core.study.ladder import our_player

    arena = SimpleNamespace(
        counts={"pimc": ("worlds", 1, 1024)}, our_play=lambda name, params=None: (name, params)
    )
    fixed = our_player(arena, "pimc:worlds=12", budgeted=True)
    assert fixed.unit == "" and fixed.name(None) == "pimc:worlds=12"
    assert fixed.make(None) == ("pimc", {"worlds": 12})
    calibrated = our_player(arena, "pimc", budgeted=True)
    assert calibrated.unit == "worlds" and calibrated.make(30) == ("pimc", {"worlds": 30})
    own = our_player(arena, "pimc:own=1", budgeted=True)  # another parameter: still calibrated
    assert own.unit == "worlds" and own.make(30) == ("pimc", {"own": 1.0, "worlds": 30})
    both = our_player(arena, "pimc:worlds=16,own=1", budgeted=True)
    assert both.unit == "" and both.make(None) == ("pimc", {"worlds": 16, "own": 1.0})


def test_against_keeps_a_policy_spec_with_several_parameters_whole():
    from piquet_sim.core.app.external_cli import _names

    assert _names("heuristic, pimc:worlds=16,own=1,pimc", ["heuristic", "pimc"]) == [
        "heuristic", "pimc:worlds=16,own=1", "pimc",
    ]  # fmt: skip
