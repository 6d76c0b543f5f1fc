"""The shape of Pitch's commands (one game interface): every command that plays or
scores offers every rules option of the rows (``--target`` where whole games are played), the
options reach the library as one ``Rules``, sample sizes are ``-n`` (``--deals``; ``--rounds``
kept where it was the name), ``batch`` takes A and B as arguments, and a bad policy parameter
is one line and exit 2 before any work. The library calls are stubbed: no kernel runs here."""

from __future__ import annotations

import importlib
import json

import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.pitch.cli import pitch
from piquet_sim.pitch.rules import SPEC, Rules

HAND = "AS JS 6S 2S KH TD"
HANDS3 = ("AS KS 2S 3H", "JS 6S TH 9H", "QS 3S AH KH")
#: Commands that play or score, and whether they play whole games (``--target``).
PLAYING = {
    "batch": False,
    "solve": False,
    "bid": True,
    "game": True,
    "tournament": True,
    "report": True,
    "play": False,
}


def _params(command: str) -> dict[str, list[str]]:
    # get_command, not .commands: core.cli.LazyGroup.commands fails (KeyError) when a module it
    # imports registers several commands (cli/match.py: strategies, game, tournament) unless
    # that module was imported before
    return {p.name: p.opts for p in pitch.get_command(None, command).params}


@pytest.mark.parametrize("command, game", sorted(PLAYING.items()))
def test_every_rules_option_is_offered(command, game):
    params = _params(command)
    for option in SPEC.options:
        if option.scope == "deal" or (option.scope == "game" and game):
            assert option.name in params, (command, option.name)
            assert option.cli_flag().split("/")[0] in params[option.name]
        elif option.scope == "game":
            assert option.name not in params, (command, option.name)
    assert ("players" in params) == (command != "solve")  # solve counts the hands given


@pytest.mark.parametrize(
    "command, flags",
    [
        ("batch", ("-n", "--deals", "--rounds")),
        ("odds", ("-n", "--deals", "--rounds")),
        ("report", ("-n", "--deals", "--rounds")),
        ("bid", ("-n", "--deals")),
        ("game", ("-n", "--games")),
        ("tournament", ("-n", "--games")),
    ],
)
def test_sample_sizes_are_n(command, flags):
    params = _params(command)
    name = "games" if "--games" in flags else "deals"
    assert tuple(params[name]) == flags
    for option in ("seed", "as_json", "quiet"):
        assert option in params, (command, option)


#: Where the study commands (batch, game, tournament) start their work.
STUDY = "core.app.study_commands"


class Stop(InputError):
    """Raised by a stub once it has what the command passed it."""


def _stub(monkeypatch, module, name: str, seen: dict):
    def stub(*args, **kwargs):
        seen["args"], seen["kwargs"] = args, kwargs
        raise Stop("stopped here")

    monkeypatch.setattr(module, name, stub)


def _rules_passed(seen: dict) -> Rules:
    given = (*seen["args"], *seen["kwargs"].values())
    given += tuple(getattr(a, "rules", None) for a in given)  # a study's MatchSpec
    found = [a for a in given if isinstance(a, Rules)]
    assert len(found) == 1, seen
    return found[0]


RULE_ARGS = ("--players", "5", "--must-follow", "--low-to", "capturer", "--game-tie", "bidder")
WANT = Rules(5, True, "capturer", "bidder")


@pytest.mark.parametrize(
    "module, function, args, game",
    [
        (STUDY, "play_match", ("batch", "threshold", "random", "-n", "10"), False),
        ("pitch.cli.bid", "advise_bid", ("bid", HAND, "--seat", "0", "-n", "10"), True),
        (STUDY, "play_match", ("game", "threshold", "cautious", "-n", "10"), True),
        (STUDY, "play_tournament", ("tournament", "threshold", "bold", "-n", "10"), True),
        ("pitch.cli.report", "build", ("report", "--games", "10", "-n", "100"), True),
    ],
)
def test_rules_options_reach_the_library(
    run_main, monkeypatch, tmp_path, module, function, args, game
):

    mod = importlib.import_module(f"piquet_sim.{module}")
    seen: dict = {}
    _stub(monkeypatch, mod, function, seen)
    monkeypatch.setattr(mod, "compile_notice", lambda *a, **k: False)
    extra = ("--target", "21") if game else ()
    out = ("--out", str(tmp_path / "r")) if module.endswith("report") else ()
    code, _, err = run_main("pitch", *args, *RULE_ARGS, *extra, *out)
    assert code == 2 and "stopped here" in err, err
    assert _rules_passed(seen) == (WANT.replace(target=21) if game else WANT)


def test_solve_takes_the_players_from_the_hands(run_main, monkeypatch):
    from piquet_sim.pitch.cli import solve as S

    seen: dict = {}
    _stub(monkeypatch, S, "solve", seen)
    code, _, err = run_main("pitch", "solve", *HANDS3, "--trump", "S", "--low-to", "capturer")
    assert code == 2 and "stopped here" in err, err
    assert _rules_passed(seen) == Rules(3, low_to="capturer")
    code, _, err = run_main("pitch", "solve", *HANDS3, "--players", "3")
    assert code == 2 and "No such option" in err


@pytest.mark.parametrize(
    "args, message",
    [
        (("batch", "threshold:margin=nan", "threshold"), "margin must be a finite number"),
        (("batch", "threshold", "montecarlo:worlds=0"), "worlds must be 1 to 4096"),
        (("batch", "--table", "threshold:margin=inf"), "margin must be a finite number"),
        (("batch", "montecarlo:worlds=1.5"), "worlds must be a whole number"),
        (("batch", "threshold:margin"), "not param=value"),
        (("batch", "--table", "montecarlo"), "one seat at a table"),
        (("game", "threshold:margin=nan", "cautious"), "margin must be a finite number"),
        (("game", "montecarlo:worlds=0", "threshold"), "worlds must be 1 to 4096"),
        (("tournament", "threshold", "parametric:jack=nan"), "jack must be a finite"),
        (("report", "threshold:margin=nan"), "margin must be a finite number"),
        (("bid", HAND, "--seat", "0", "--play", "pimc", "--pimc-worlds", "0"), "1<=x<=1024"),
        (("game", "threshold", "cautious", "--target", "0"), "1<=x<=1000"),
        (("batch", "--players", "7"), "3<=x<=6"),
    ],
)
def test_bad_parameters_are_one_line_before_any_work(run_main, monkeypatch, args, message):
    """Refused before any kernel: the library's entry points are stubbed to fail the test."""
    from piquet_sim.pitch import batch, match, report

    def never(*a, **k):
        raise AssertionError("work started")

    for module, name in (
        (batch, "duel_rounds"),
        (match, "play_games"),
        (report, "simulate_rounds"),
    ):
        monkeypatch.setattr(module, name, never)
    code, out, err = run_main("pitch", *args)
    assert code == 2 and message in err and "Traceback" not in err, (args, err)
    assert len(err.strip().splitlines()) == 1, err
    assert out == ""


def test_strategy_file_with_a_bad_parameter(run_main, tmp_path):
    f = tmp_path / "nan.json"
    f.write_text(json.dumps({"bid": {"policy": "threshold", "params": {"margin": float("nan")}}}))
    code, _, err = run_main("pitch", "game", str(f), "threshold", "-n", "10")
    assert code == 2 and "margin must be a finite number" in err
    assert len(err.strip().splitlines()) == 1


def test_strategies_lists_the_policies_and_their_ranges(run_main):
    code, out, _ = run_main("pitch", "strategies")
    text = " ".join(out.split())
    assert code == 0 and "cautious" in text
    assert "worlds=16 (1-4096, whole)" in text and "worlds=8 (1-1024, whole)" in text
    code, out, _ = run_main("pitch", "strategies", "--json")
    assert code == 0 and set(json.loads(out)) >= {"threshold", "fitted", "montecarlo"}
