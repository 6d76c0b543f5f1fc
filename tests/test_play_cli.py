"""`piquet play`: the --help example answers, text and JSON histories give the same answer, a
forced card is answered at once, sampled worlds follow the seed, and impossible histories are
one line on stderr with exit code 2."""

from __future__ import annotations

import json
import re

import pytest

from piquet_sim.piquet.definition import DEFINITION

EXAMPLE_HAND = DEFINITION.play_example.hand
EXAMPLE_HISTORY = DEFINITION.play_example.history

YOUNGER = ("play", EXAMPLE_HAND, "--younger", "--history", EXAMPLE_HISTORY)
FORCED_HAND = "KS QS 9S KH"
FORCED = (
    "discard: JS 7H 9D TD 9C; took: KH 9S AD 7S JH; left: -; younger took: 3; "
    "point: his AH QH TH 9H 8H; sequence: mine; sets: mine; "
    "tricks: AC-8C KC-JC AD-8D QC-QD TC-KD JD-8S 7S-AS AH-JH; lead: 8H"
)


def test_the_help_example_is_the_tested_one(run_main):
    code, out, _ = run_main("play", "--help")
    assert code == 0
    flat = " ".join(out.replace("\\\n", " ").split())  # as pasted: continued lines joined
    assert f'piquet play "{EXAMPLE_HAND}" --seat younger --history "' in flat
    assert " ".join(EXAMPLE_HISTORY.split()) in flat


def test_the_example_names_the_best_card_and_why(run_main):
    code, out, err = run_main(*YOUNGER)
    assert code == 0, err
    assert "Play QS: cashes the master" in out
    assert "every world enumerated" in out
    for card in ("QS", "7H", "AD", "QD", "TD"):
        assert re.search(rf"\b{card}\b", out)


def test_json_and_the_json_history_give_the_same_answer(run_main, tmp_path):
    code, out, _ = run_main(*YOUNGER, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["best"] == "QS" and data["role"] == "younger" and data["trick"] == 5
    assert data["exact"] and 0 < data["worlds"] <= data["possible_worlds"]
    assert data["lead"] is None and not data["forced"]
    means = [c["mean"] for c in data["cards"]]
    assert means == sorted(means, reverse=True) and len(means) == 8
    assert data["margin"]["over"] == data["cards"][1]["card"] and data["margin"]["mean"] > 0
    assert data["seconds"] >= 0  # reported; its speed is a benchmark row, not a test
    history = {
        "discard": ["7S", "8S", "7D", "8C"],
        "took": "TD QS 7H AS",
        "talon": [],
        "elder_took": 4,
        "declarations": {
            "point": {"own": "declare", "result": "his", "cards": ["KC", "QC", "JC", "TC", "9C"]},
            "sequence": "his KC QC JC TC 9C",
            "sets": "mine",
        },
        "tricks": [["9C", "AC"], ["AS", "TS"], ["KS", "JS"], ["AH", "TH"]],
    }
    path = tmp_path / "history.json"
    path.write_text(json.dumps(history))
    code, out2, _ = run_main(
        "play", EXAMPLE_HAND, "--younger", "--history-json", str(path), "--json"
    )
    assert code == 0
    again = json.loads(out2)
    assert again["cards"] == data["cards"] and again["why"] == data["why"]


def test_a_forced_card_is_answered_at_once(run_main):
    code, out, _ = run_main("play", FORCED_HAND, "--history", FORCED, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["forced"] and data["best"] == "KH" and data["worlds"] == 0
    assert data["why"] == "the only legal card"
    code, out, _ = run_main("play", FORCED_HAND, "--history", FORCED)
    assert "Play KH: the only legal card" in out


def test_sampled_worlds_follow_the_seed(run_main):
    args = (*YOUNGER, "--exact-limit", "0", "--worlds", "300", "--json")
    a = json.loads(run_main(*args, "--seed", "5")[1])
    b = json.loads(run_main(*args, "--seed", "5")[1])
    c = json.loads(run_main(*args, "--seed", "6")[1])
    assert not a["exact"] and a["worlds"] == 300
    assert a["cards"] == b["cards"]
    assert a["cards"] != c["cards"]
    top = a["cards"][0]
    assert top["ci95"][0] <= top["mean"] <= top["ci95"][1] and top["se"] > 0
    code, out, _ = run_main(*YOUNGER, "--exact-limit", "0", "--worlds", "300")
    assert code == 0 and "95% interval" in out and "worlds drawn" in out


def test_a_time_limit_stops_solving_sampled_worlds(run_main):
    """``--max-seconds``: no new block of sampled worlds once the time is spent (it was taken
    and ignored: every world was solved)."""
    args = (*YOUNGER, "--exact-limit", "0", "--worlds", "300", "--json")
    code, out, err = run_main(*args, "--max-seconds", "0.0001")
    assert code == 0, err
    data = json.loads(out)
    assert not data["exact"] and 16 <= data["worlds"] < 300
    assert "stopped after" in data["method"] and "time budget 0.0001 s" in data["method"]


def _with(old: str, new: str) -> str:
    assert old in EXAMPLE_HISTORY
    return EXAMPLE_HISTORY.replace(old, new)


REVOKE_HAND = EXAMPLE_HAND.replace("JH", "AC")  # AC kept, JH played to the nine of clubs


@pytest.mark.parametrize(
    "args, message",
    [
        ((EXAMPLE_HAND, "--younger"), "say what has happened"),
        ((EXAMPLE_HAND, "--younger", "--history", _with("AH-TH", "AH-QS")), "twice"),
        ((EXAMPLE_HAND, "--history", EXAMPLE_HISTORY), "'elder took' is your own count"),
        ((EXAMPLE_HAND, "--younger", "--history", "discard 7S"), "is not 'key: value'"),
        ((REVOKE_HAND, "--younger", "--history", _with("9C-AC", "9C-JH")), "revoke"),
        ((EXAMPLE_HAND, "--younger", "--history", EXAMPLE_HISTORY + "; lead: KH"), "you lead"),
        (("QS JH 9H", "--younger", "--history", EXAMPLE_HISTORY), "you hold 8 cards"),
        ((EXAMPLE_HAND, "--younger", "--history", _with("sets: mine", "sets: equal")), "never"),
        ((EXAMPLE_HAND, "--younger", "--history", _with("TD QS", "XX QS")), "not a card"),
    ],
)
def test_impossible_histories_are_one_line_exit_2(run_main, args, message):
    code, out, err = run_main("play", *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("piquet: error:"), err
    assert message in lines[0]


def test_a_bad_json_history_is_one_line(run_main, tmp_path):
    path = tmp_path / "h.json"
    path.write_text("{not json")
    code, _, err = run_main("play", EXAMPLE_HAND, "--younger", "--history-json", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "is not JSON" in err
    path.write_text(json.dumps({"tricks": [["AS"]]}))
    code, _, err = run_main("play", EXAMPLE_HAND, "--younger", "--history-json", str(path))
    assert code == 2 and "LEAD-REPLY" in err
    code, _, err = run_main("play", EXAMPLE_HAND, "--history", "x: y", "--history-json", str(path))
    assert code == 2 and "not both" in err
