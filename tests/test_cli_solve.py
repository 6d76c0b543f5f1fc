"""`piquet solve`: full deals and endgames, text and JSON, bad input as one stderr line, exit 2."""

from __future__ import annotations

import json

import pytest

from piquet_sim.cli import cli
from piquet_sim.piquet import cards as C
from piquet_sim.piquet.reference import play as R

ELDER = "AS KS QS JS TS 9H 8H AD KD AC QC JC"
YOUNGER = "8S 7S AH KH QH JH TH KC TC 9C 8C 7C"


def test_solve_full_deal_json(run_main):
    code, out, err = run_main("solve", ELDER, YOUNGER, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {"play_value", "line", "elder_tricks", "younger_tricks"} <= set(data)
    assert len(data["line"]) == 12 and all(len(p) == 2 for p in data["line"])
    assert data["elder_tricks"] + data["younger_tricks"] == 12
    line = [(C.parse_card(a), C.parse_card(b)) for a, b in data["line"]]
    st = R.State(C.parse_cards(ELDER), C.parse_cards(YOUNGER))
    tally = R.replay(st, line)
    assert tally.net() == data["play_value"] == data["value"]
    assert tally.tricks == [data["elder_tricks"], data["younger_tricks"]]


def test_solve_endgame_matches_reference(run_main):
    e, y = "AS KS 7H 9D", "QS 8H 7D TD"
    for leader, tricks in (("elder", "5:3"), ("younger", "0:8"), ("elder", "8:0")):
        code, out, err = run_main(
            "solve",
            e,
            y,
            "--leader",
            leader,
            "--tricks",
            tricks,
            "--json",
            "--lead-points",
            "ten_or_higher",
        )
        assert code == 0, err
        data = json.loads(out)
        et, yt = map(int, tricks.split(":"))
        st = R.State(C.parse_cards(e), C.parse_cards(y), ("elder", "younger").index(leader), et, yt)
        assert data["play_value"] == R.minimax(st, True)
        assert data["elder_tricks"] + data["younger_tricks"] == 12


def test_solve_text_output_shows_line_and_breakdown(run_main):
    code, out, err = run_main("solve", ELDER, YOUNGER)
    assert code == 0, err
    assert "Principal variation" in out and "last trick" in out and "Value" in out


def test_solve_pique_points(run_main):
    # elder holds every top card: 12 tricks; with 20 points before play he piques
    e = "AS KS QS AH KH QH AD KD QD AC KC QC"
    y = "7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C"
    code, out, _ = run_main("solve", e, y, "--points", "20:0", "--json")
    data = json.loads(out)
    assert code == 0 and data["breakdown"]["elder"]["pique"] == 30
    assert data["value"] == data["play_value"] + 30 and data["breakdown"]["elder"]["cards"] == 40


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["AS KS", "QS"], "unequal"),
        (["AS KS", "AS QS", "--tricks", "5:5"], "both hold"),
        (["AS KS", "QS JS"], "must make 12"),
        (["AS KS", "QS JS", "--tricks", "5:6"], "must make 12"),
        (["AS KS", "QS JS", "--tricks", "5"], "E:Y"),
        (["AS XS", "QS JS", "--tricks", "5:5"], "XS"),
        (["AS KS", "QS JS", "--tricks", "5:5", "--leader", "dealer"], "dealer"),
    ],
)
def test_solve_bad_input_is_one_line_exit_2(run_main, args, fragment):
    code, out, err = run_main("solve", *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err


def test_solve_help_has_example():
    assert "Example" in (cli.get_command(None, "solve").help or "")
