"""`piquet pilotta play`: the --help example answers (as typed there), text and JSON histories
give the same answer, a forced card is answered at once, the last tricks are enumerated
exactly, sampled worlds follow the seed, and impossible histories are one line on stderr with
exit code 2."""

from __future__ import annotations

import json

import pytest

from piquet_sim.pilotta.definition import DEFINITION

EXAMPLE_HAND = DEFINITION.play_example.hand
EXAMPLE_SEAT = DEFINITION.play_example.seat
EXAMPLE_HISTORY = DEFINITION.play_example.history

EXAMPLE = ("pilotta", "play", EXAMPLE_HAND, "--seat", EXAMPLE_SEAT, "--history", EXAMPLE_HISTORY)
FORCED = (
    "KS TS 9S QH QD",
    "S",
    "dealer: N; auction: E:80D S:90S W:100C N:pass E:pass S:pass; declared: W AC KC QC JC; "
    "tricks: JC 7C 9C 8C, AC 8S AH TC, AS 8H TH 7S, 7D KD 8D",
)
LATE = (
    "KH QH",
    "N",
    "dealer: S; auction: W:80S N:90H E:pass S:pass W:pass; declared: N AH KH QH; "
    "tricks: 7H JH 8H 9H, 8C TC 7C AC, AH TH TS 8D, AD 9D KD JS, TD JD QD JC, 9S 7S 8S QS, AS",
)


def _play(run_main, hand, seat, history, *more):
    return run_main("pilotta", "play", hand, "--seat", seat, "--history", history, *more)


def test_the_help_example_is_the_tested_one(run_main):
    code, out, _ = run_main("pilotta", "play", "--help")
    assert code == 0 and "Example" in out
    flat = " ".join(out.replace("\\\n", " ").split())  # as pasted: continued lines joined
    assert f'piquet pilotta play "{EXAMPLE_HAND}" --seat {EXAMPLE_SEAT} --history "' in flat
    assert " ".join(EXAMPLE_HISTORY.split()) in flat


def test_the_example_names_the_best_card_and_why(run_main):
    code, out, err = run_main(*EXAMPLE)
    assert code == 0, err
    assert "Play 9C: draws trumps with the master" in out
    assert "contracting 100C by S" in out and "trick 4, you lead" in out
    for card in ("JS", "AH", "JH", "QD", "9C"):
        assert card in out


def test_json_and_the_json_history_give_the_same_answer(run_main, tmp_path):
    code, out, _ = run_main(*EXAMPLE, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["best"] == "9C" and data["seat"] == "N" and data["trick"] == 4
    assert data["contracting"] and data["contract"]["bid"] == "100C"
    assert not data["exact"] and data["worlds"] == 200 and not data["forced"]
    means = [c["mean"] for c in data["cards"]]
    assert means == sorted(means, reverse=True) and len(means) == 5
    assert data["margin"]["over"] == data["cards"][1]["card"] and data["margin"]["ci95"][0] > 0
    assert all(c["ci95"][0] <= c["mean"] <= c["ci95"][1] for c in data["cards"])
    assert all(0 <= c["p_made"]["p"] <= 1 for c in data["cards"])
    assert data["seconds"] >= 0  # reported; its speed is a benchmark row, not a test
    history = {
        "dealer": "E",
        "auction": ["S:80C", "W:pass", "N:pass", "E:90D", "S:100C", "W:pass", "N:pass", "E:pass"],
        "tricks": [["JC", "7C", "KC", "8S"], ["AS", "7S", "KS", "9S"], "7H 8H TH 9H"],
    }
    path = tmp_path / "history.json"
    path.write_text(json.dumps(history))
    code, out2, _ = run_main(
        "pilotta", "play", EXAMPLE_HAND, "--seat", "N", "--history-json", str(path), "--json"
    )
    assert code == 0
    again = json.loads(out2)
    assert again["cards"] == data["cards"] and again["why"] == data["why"]


def test_a_forced_card_is_answered_at_once(run_main):
    code, out, _ = _play(run_main, *FORCED, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["forced"] and data["best"] == "QD" and data["worlds"] == 0
    assert data["why"] == "the only legal card"
    code, out, _ = _play(run_main, *FORCED)
    assert "Play QD: the only legal card" in out


def test_the_last_tricks_are_exact(run_main):
    code, out, _ = _play(run_main, *LATE, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["exact"] and 0 < data["worlds"] <= data["possible_worlds"]
    assert "every world enumerated" in data["method"]
    assert all(c["se"] == 0 for c in data["cards"])
    code, out, _ = _play(run_main, *LATE)
    assert "exact" in out


def test_sampled_worlds_follow_the_seed(run_main):
    runs = {}
    for seed in ("1", "1", "2"):
        code, out, _ = run_main(*EXAMPLE, "--json", "--worlds", "40", "--seed", seed)
        assert code == 0
        runs.setdefault(seed, []).append([c["mean"] for c in json.loads(out)["cards"]])
    assert runs["1"][0] == runs["1"][1] and runs["1"][0] != runs["2"][0]


@pytest.mark.parametrize(
    "hand, history, words",
    [
        ("JS AH JH QD 9C", "tricks: JC 7C KC 8S", "auction or the contract"),
        ("JS AH JH QD 9C", "auction: S:80C N:pass", "out of turn"),
        ("JS AH JH QD 9C JC", None, "JC is in your hand"),
        ("JS AH JH QD", None, "you should hold 5"),
        ("JS AH JH KS 9C", "swap:AS 7S QD 9S", "revoke"),
        ("AH JH QD 9C", "add:, JS", "E's turn"),
        ("JS AH JH QD 9C", "add:; declared: E KH QH", "not combinations"),
        ("JS AH JH QD 9C", "add:; declared: E 7S 8S 9S", "played by W"),
    ],
)
def test_impossible_histories_are_one_line_errors(run_main, hand, history, words):
    if history is None:
        history = EXAMPLE_HISTORY
    elif history.startswith("add:"):
        history = EXAMPLE_HISTORY + history[4:]
    elif history.startswith("swap:"):
        history = EXAMPLE_HISTORY.replace("AS 7S KS 9S", history[5:])
    code, out, err = _play(run_main, hand, "N", history)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "error:" in err and words in err, err


def test_history_text_and_json_together_are_refused(run_main, tmp_path):
    path = tmp_path / "h.json"
    path.write_text("{}")
    code, _, err = run_main(*EXAMPLE, "--history-json", str(path))
    assert code == 2 and "not both" in err
    path.write_text("[1, 2]")
    code, _, err = run_main(
        "pilotta", "play", EXAMPLE_HAND, "--seat", "N", "--history-json", str(path)
    )
    assert code == 2 and "object" in err
