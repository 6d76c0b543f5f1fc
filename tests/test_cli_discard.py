"""`piquet discard`: the table and the reasons, the JSON shape, and bad input as one line on
stderr with exit code 2."""

from __future__ import annotations

import json

import pytest

CERTAIN = "AS KS QS JS TS 9S 8S 7S AH AD AC 9H"
HAND = "AH KH 9H 7H QS TS 8S JD 9D 8C 7C KC"


def test_table_names_the_winner_and_why(run_main):
    code, out, _ = run_main(
        "discard", CERTAIN, "--play", "heuristic", "--samples", "128", "--quiet"
    )
    assert code == 0
    assert "1,585 legal discards" in out and "as elder" in out
    first_row = next(line for line in out.splitlines() if line.strip().startswith("1 "))
    assert "H:9" in first_row
    assert "Best: discard 9H" in out and "Why:" in out


def test_json_lists_every_candidate_best_first(run_main):
    code, out, err = run_main(
        "discard", CERTAIN, "--play", "heuristic", "--samples", "64", "--json"
    )
    assert code == 0 and err == ""
    d = json.loads(out)
    assert d["hand"][0] == "AS" and d["role"] == "elder"
    assert len(d["candidates"]) == 1585
    best = d["candidates"][0]
    assert best["discard"] == ["9H"] and len(best["keep"]) == 11
    for key in ("ev", "ci95", "samples", "p_pique", "p_repique", "p_capot"):
        assert key in best


def test_younger_json_and_acceptance(run_main):
    code, out, _ = run_main(
        "discard",
        HAND,
        "--younger",
        "--elder-took",
        "4",
        "--play",
        "heuristic",
        "--samples",
        "64",
        "--json",
        "--younger-may-pass",
    )
    assert code == 0
    d = json.loads(out)
    assert d["role"] == "younger" and d["elder_took"] == 4
    assert 0 < d["acceptance_rate"] <= 1
    assert any(c["discard"] == [] for c in d["candidates"])
    assert all(len(c["discard"]) <= 4 for c in d["candidates"])


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["discard", "AS KS"], "12 cards"),
        (["discard", HAND, "--younger"], "--elder-took"),
        (["discard", HAND, "--elder-took", "3"], "--younger"),
        (["discard", HAND, "--play", "best"], "--play"),
        (["discard", HAND, "--younger", "--elder-took", "6"], "elder-took"),
        (["discard", HAND, "--younger", "--elder-took", "2", "--elder-model", "max"], "unlikely"),
    ],
)
def test_bad_input_is_one_line_exit_2(run_main, args, fragment):
    code, out, err = run_main(*args, "--quiet")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and err.startswith("piquet: error:")


def test_pimc_play_refines_the_best(run_main):
    """`--play pimc` was offered in --help and refused; it now refines through the registry."""
    code, out, _ = run_main(
        "discard",
        CERTAIN,
        "--samples",
        "16",
        "--play",
        "pimc",
        "--refine",
        "2",
        "--json",
    )
    assert code == 0
    d = json.loads(out)
    assert d["play"] == "pimc"
    assert d["candidates"][0]["play"] == "pimc"


def test_help_has_an_example(run_main):
    code, out, _ = run_main("discard", "--help")
    assert code == 0 and "Example" in out and "piquet discard" in out
    assert "--play heuristic" in out and "pimc" in out


def _settings(monkeypatch, run_main, *args) -> dict:
    """The keywords ``piquet discard CERTAIN *args`` hands to ``advise`` (nothing is run)."""
    from piquet_sim.piquet.cli import discard as D

    seen = {}

    def fake(hand, **kw):
        seen.update(kw)
        raise D.AdviceError("stop")

    monkeypatch.setattr(D, "warm_up", lambda *a, **k: None)
    monkeypatch.setattr(D, "advise", fake)
    code, _, _ = run_main("discard", CERTAIN, "--quiet", *args)
    assert code == 2
    return seen


def test_default_is_a_pimc_refine_of_ten_to_se_05(monkeypatch, run_main):
    kw = _settings(monkeypatch, run_main)
    assert (kw["play"], kw["refine"], kw["precision"]) == ("pimc", 10, 0.5)
    kw = _settings(monkeypatch, run_main, "--play", "pimc", "--refine", "20", "--precision", "0.5")
    assert (kw["play"], kw["refine"], kw["precision"]) == ("pimc", 20, 0.5)
    kw = _settings(monkeypatch, run_main, "--play", "heuristic")
    assert (kw["play"], kw["precision"]) == ("heuristic", 0.5)  # the screen's defaults
    kw = _settings(monkeypatch, run_main, "--play", "dd")
    assert (kw["play"], kw["refine"], kw["precision"]) == ("dd", 20, 0.5)
    kw = _settings(monkeypatch, run_main, "--score", "84:61", "--deal", "5")
    assert (kw["play"], kw["precision"]) == ("heuristic", 0.5)  # the partie: the screen


def test_advise_defaults_match_the_command():
    from piquet_sim.piquet.advisor import DEFAULT, PartieGoal, default_settings

    assert default_settings(None, DEFAULT, None, None) == ("pimc", 0.5, 10)
    assert default_settings("heuristic", DEFAULT, None, None)[:2] == ("heuristic", 0.5)
    assert default_settings(None, None, 3, None) == ("pimc", None, 3)
    goal = PartieGoal(84, 61, 5)
    assert default_settings(None, DEFAULT, None, goal)[:2] == ("heuristic", 0.5)
    # pimc asked for with the partie: the precision in the partie's units, as before default8
    assert default_settings("pimc", DEFAULT, None, goal) == ("pimc", 0.5, 20)


def test_first_run_prints_the_screen_ranking_before_the_pimc_answer(monkeypatch, run_main):
    """On a cold cache with pimc, the warm-up calls back once the screen can run: the command
    prints the heuristic screen's ranking (marked as such) before the pimc ranking; with
    --json only the answer is printed."""
    from piquet_sim.piquet.cli import discard as D

    real = D.advise
    plays = []

    def advise(hand, **kw):
        plays.append(kw["play"])
        if kw["play"] == "pimc":
            raise D.AdviceError("stop")  # the answer itself is tested elsewhere
        return real(hand, **{**kw, "samples": 64})

    monkeypatch.setattr(D, "warm_up", lambda *a, preliminary=None, **k: preliminary())
    monkeypatch.setattr(D, "advise", advise)
    code, out, _ = run_main("discard", CERTAIN, "--quiet")
    assert code == 2 and plays == ["heuristic", "pimc"]
    assert D.SCREEN_FIRST in out and "play heuristic" in out and D.PIMC_AFTER in out
    plays.clear()
    code, out, _ = run_main("discard", CERTAIN, "--quiet", "--json")
    assert code == 2 and plays == ["pimc"] and D.SCREEN_FIRST not in out


def test_best_sentence_and_why_when_the_runner_up_was_dropped(monkeypatch, run_main):
    """A race whose runner-up left early (one finalist: no paired gap) still ends with the
    "Best:" sentence, saying the others were dropped, and the "Why" table."""
    from piquet_sim.piquet.cli import discard as D

    real = D.advise

    def advise(hand, **kw):
        result = real(hand, **{**kw, "samples": 64})
        result.comparison.pop("gap_to_second", None)  # as when the runner-up was dropped
        return result

    monkeypatch.setattr(D, "warm_up", lambda *a, **k: None)
    monkeypatch.setattr(D, "advise", advise)
    code, out, _ = run_main("discard", CERTAIN, "--quiet", "--play", "heuristic")
    assert code == 0
    assert "Best: discard" in out and "dropped as clearly worse" in out
    assert "Why: components" in out
