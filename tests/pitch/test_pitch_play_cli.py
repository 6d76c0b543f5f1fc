"""`piquet pitch play`: the --help example answers as typed, text and JSON histories (the
record grammar of review files) give the same answer, a forced card is answered at once, sampled
worlds follow the seed, the last tricks are exact, and impossible histories are one line on
stderr with exit code 2."""

from __future__ import annotations

import json

import pytest

from piquet_sim.pitch.definition import DEFINITION

EXAMPLE_HAND = DEFINITION.play_example.hand
EXAMPLE_SEAT = DEFINITION.play_example.seat
EXAMPLE_HISTORY = DEFINITION.play_example.history

EXAMPLE = ("pitch", "play", EXAMPLE_HAND, "--seat", EXAMPLE_SEAT, "--history", EXAMPLE_HISTORY)
EXAMPLE_JSON = {
    "auction": ["pass", 3, "pass", "pass"],
    "tricks": [["AC", "7C", "4C", "KC"], ["7D", "QD", "QC", "JD"], ["3H", "6H"]],
}


def _same(a: dict, b: dict) -> None:
    a, b = dict(a), dict(b)
    a.pop("seconds")
    b.pop("seconds")
    assert a == b


def test_the_help_example_is_the_tested_one(run_main):
    code, out, _ = run_main("pitch", "play", "--help")
    assert code == 0
    flat = " ".join(out.replace("\\\n", " ").split())  # as pasted: continued lines joined
    assert f'piquet pitch play "{EXAMPLE_HAND}" --seat {EXAMPLE_SEAT} --history "' in flat
    assert " ".join(EXAMPLE_HISTORY.split()) in flat


def test_the_example_names_the_best_card_and_why(run_main):
    # no time limit: a loaded machine must still solve all 200 worlds for this check
    code, out, err = run_main(*EXAMPLE, "--max-seconds", "100000")
    assert code == 0, err
    assert "Seat 1 of 4 (the bidder at 3), trump C; trick 3, seat 3 led" in out
    assert "200 worlds sampled (seed 1); 200 fit the calls (others bid threshold)" in out
    assert "Play TH: goes ahead in the trick with TH and its 10 game points" in out
    for card in ("TH", "TC", "2C"):
        assert card in out


def test_json_and_the_json_history_give_the_same_answer(run_main, tmp_path):
    # no time limit: a loaded machine must still solve all 200 worlds (as above)
    unlimited = ("--max-seconds", "100000")
    code, out, _ = run_main(*EXAMPLE, "--json", *unlimited)
    assert code == 0
    data = json.loads(out)
    assert data["best"] == "TH" and data["role"] == "bidder" and data["trick"] == 3
    assert data["on_table"] == ["3H", "6H"] and data["trump"] == "C" and not data["forced"]
    assert data["worlds"] == data["worlds_drawn"] == data["worlds_fitting_calls"] == 200
    means = [c["mean"] for c in data["cards"]]
    assert means == sorted(means, reverse=True) and [c["card"] for c in data["cards"]][0] == "TH"
    assert data["margin"]["over"] == data["cards"][1]["card"] and data["margin"]["ci95"][0] > 0
    inline = json.dumps(EXAMPLE_JSON)
    path = tmp_path / "history.json"
    path.write_text(inline)
    for history in (inline, str(path)):  # the JSON inline and in a file
        code, out2, _ = run_main(
            "pitch", "play", EXAMPLE_HAND, "--seat", EXAMPLE_SEAT, "--history-json", history,
            "--json", *unlimited,
        )  # fmt: skip
        assert code == 0
        _same(data, json.loads(out2))
    # the keys of a review file that a history may repeat, as a file would say them
    said = f"game: pitch\nplayers: 4\nplayer: {EXAMPLE_SEAT}\n{EXAMPLE_HISTORY}"
    code, out4, _ = run_main(
        "pitch",
        "play",
        EXAMPLE_HAND,
        "--seat",
        EXAMPLE_SEAT,
        "--history",
        said,
        "--json",
        *unlimited,
    )
    assert code == 0
    _same(data, json.loads(out4))


def test_worlds_follow_the_seed(run_main):
    runs = [json.loads(run_main(*EXAMPLE, "--json", "-n", "40", "--seed", s)[1]) for s in "343"]
    _same(runs[0], runs[2])
    assert runs[0]["cards"] != runs[1]["cards"]


def test_a_forced_card_is_answered_at_once(run_main):
    """Under --must-follow the bidder holding one heart must play it on the heart lead."""
    code, out, err = run_main(*EXAMPLE, "--must-follow")
    assert code == 0, err
    assert "Play TH: the only legal card." in out and "Worlds" not in out
    code, out, _ = run_main(*EXAMPLE, "--must-follow", "--json")
    data = json.loads(out)
    assert data["forced"] and data["worlds"] == 0
    assert data["cards"] == [{"card": "TH", "rank": 1, "worlds": 0}]


def test_the_last_tricks_are_exact(run_main):
    """Third to play to the fifth trick of three: every world is enumerated (exact)."""
    history = "auction: 3 pass pass; tricks: AS 2S 3S / KS 4S 5S / QS 6S 7S / JS 8S 9S / 2D 3D"
    code, out, err = run_main(
        "pitch", "play", "AD KD", "--seat", "2", "--players", "3", "--history", history, "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["exact"] and data["worlds_drawn"] == data["possible_worlds"]
    assert all(c["ci95"][0] == c["ci95"][1] == c["mean"] for c in data["cards"])


AUCTION = "auction: pass 3 pass pass"
TRICKS = "tricks: AC 7C 4C KC / 7D QD QC JD / 3H 6H"


@pytest.mark.parametrize(
    ("hand", "seat", "history", "message"),
    [
        ("TH 9D TC 2C", "1", f"{AUCTION}; tricks: AC TH 4C KC", "twice"),
        ("TH 9D TC 2C 5S", "1", f"{AUCTION}; tricks: AC 7C 4C KC / 2D", "a hand is 6"),
        ("TH 9D TC 2C", "1", f"{AUCTION}; tricks: AC 7C 4C KC / 7D QD 3H", "seat 0's turn"),
        ("TH 9D TC 2C", "1", "auction: pass 3 3 pass", "cannot call 3"),
        ("TH 9D TC 2C AH QH", "3", "auction: pass 3 pass", "auction is not over"),
        ("TH 9D TC 2C", "1", f"{AUCTION}; {TRICKS}; trump: H", "trump: H"),
        ("TH 9D TC 2C", "1", "auction: pass 3; tricks: AC", "auction has 2 of 4"),
        ("TH 9D TC 2C", "1", f"{AUCTION}; {TRICKS}; lead: 3H", "unknown key 'lead'"),
        ("TH 9D TC 2C", "1", f"0: AS 7S KD 4D 3C 2H; {AUCTION}", "give your cards now"),
        ("TH 9D TC 2C", "1", f"players: 5; {AUCTION}; {TRICKS}", "5 players but the rules"),
        ("TH 9D TC 2C", "1", f"player: 2; {AUCTION}; {TRICKS}", "but --seat is 1"),
        ("TH 9D TC 2C", "1", f"{AUCTION}; tricks: AC 7C 4C KC 5C", "5 cards at 4 players"),
    ],
)
def test_impossible_histories_are_one_line_exit_2(run_main, hand, seat, history, message):
    code, out, err = run_main("pitch", "play", hand, "--seat", seat, "--history", history)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_a_revoke_is_refused(run_main):
    """His own TH on a diamond lead while he held 9D (and trumps), and seat 2's 7C after he
    showed no clubs (trumps) in the first trick."""
    code, _, err = run_main(
        "pitch",
        "play",
        "9D TC AC 5S",
        "--seat",
        "1",
        "--history",
        f"{AUCTION}; tricks: 2C 7C 4C KC / 7D TH",
    )
    assert code == 2 and "you may not play TH" in err and "a revoke" in err
    code, _, err = run_main(
        "pitch",
        "play",
        "TH 9D TC 2C",
        "--seat",
        "1",
        "--history",
        f"{AUCTION}; tricks: AC 7H 4C KC / 7D 7C QC JD / 3H 6H",
    )
    assert code == 2 and "seat 2 plays 7C but showed no clubs" in err
