"""The `piquet pilotta` commands: output, --help with an example, one-line errors (exit 2)."""

from __future__ import annotations

import json

import pytest

DEAL = [
    "KS 9S 8S TH 8H KD 9D 8D",
    "QS JS 7S 7H TD AC TC 8C",
    "AS TS QH JH 7D QC 9C 7C",
    "AH KH 9H AD QD JD KC JC",
]


@pytest.mark.parametrize("command", ["hand", "solve", "odds"])
def test_help_has_an_example(run_main, command):
    code, out, _ = run_main("pilotta", command, "--help")
    assert code == 0 and "Example:" in out and f"piquet pilotta {command}" in out


def test_group_is_registered(run_main):
    code, out, _ = run_main("--help")
    assert code == 0 and "pilotta" in out


def test_hand_json(run_main):
    code, out, _ = run_main("pilotta", "hand", "JS JH JD JC 9H TH KS QS", "--trump", "S", "--json")
    data = json.loads(out)
    assert code == 0 and data["combination_points"] == 240  # four jacks 200 + two tierces
    # trumps spades: J 20 + K 4 + Q 3; plain JH JD JC 2 each, 10H 10: 43
    assert data["card_points"] == {"S": 43} and data["pilotta"] is True


def test_hand_table_all_trumps(run_main):
    code, out, _ = run_main("pilotta", "hand", "S:J9A H:TKQJ C:7")
    assert code == 0 and "Combinations" in out and "50" in out  # K-Q-J-10 of hearts


def test_solve_full_round_json(run_main):
    code, out, _ = run_main("pilotta", "solve", *DEAL, "--trump", "C", "--leader", "W", "--json")
    data = json.loads(out)
    assert code == 0 and data["contract"] == "EW" and len(data["tricks"]) == 8
    assert data["value"] == sum(t["to_contract"] for t in data["tricks"])
    assert 0 <= data["value"] <= 162


def test_solve_endgame_and_contract_option(run_main):
    args = ["JS AH", "9S KH", "AS QH", "TS 7H", "--trump", "S", "--tricks", "3:3"]
    code, out, _ = run_main("pilotta", "solve", *args, "--points", "40", "--json")
    data = json.loads(out)
    # N's jack of trumps takes the 9, ace and ten of trumps (20 + 14 + 11 + 10 = 55), then his
    # ace of hearts takes K, Q, 7 (11 + 4 + 3 = 18, and 10 for the last trick): NS gets
    # 40 + 55 + 28 = 123
    assert code == 0 and data["value"] == 123 and data["rest"] == 83
    code, out, _ = run_main(
        "pilotta", "solve", *args, "--points", "40", "--contract", "EW", "--json"
    )
    assert code == 0 and json.loads(out)["value"] == 40  # EW takes nothing more


def test_solve_mid_trick(run_main):
    # N led the JS; E, S, W to play; E holds 9S KH, S AS QH, W TS 7H (W 2 cards, N 1)
    args = ["AH", "9S KH", "AS QH", "TS 7H", "--trump", "S", "--tricks", "3:3", "--points", "40"]
    code, out, _ = run_main("pilotta", "solve", *args, "--trick", "JS", "--json")
    assert code == 0 and json.loads(out)["value"] == 123


@pytest.mark.parametrize(
    "args, message",
    [
        (["pilotta", "hand", "JS 9S"], "8 cards"),
        (["pilotta", "hand", "JS 9S AS TS KS QS 8S 1S"], "not a card"),
        (["pilotta", "hand", "JS 9S AS TS KS QS 8S JS"], "duplicate"),
        (["pilotta", "hand", "JS 9S AS TS KS QS 8S 7S", "--trump", "X"], "not a suit"),
        (["pilotta", "solve", *DEAL, "--trump", "S", "--leader", "Q"], "not a seat"),
        (["pilotta", "solve", DEAL[0], DEAL[0], DEAL[2], DEAL[3], "--trump", "S"], "already"),
        (["pilotta", "solve", "JS AH", "9S KH", "AS QH", "TS 7H", "--trump", "S"], "make 8"),
        (["pilotta", "solve", *DEAL, "--trump", "S", "--tricks", "x"], "C:D"),
        (["pilotta", "solve", *DEAL, "--trump", "S", "--contract", "NE"], "not a team"),
        (["pilotta", "odds", "--deals", "0"], "range"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(run_main, args, message):
    code, out, err = run_main(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_odds_json(run_main):
    code, out, _ = run_main(
        "pilotta", "odds", "--deals", "20000", "--seed", "3", "--trump", "H", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["deals"] == 20000 and data["trump"] == "H"
    est = data["scopes"]["table"]["pilotta"]
    assert est["ci95"][0] <= est["exact"] <= est["ci95"][1] or abs(est["p"] - est["exact"]) < 0.02
    assert set(data["scopes"]) == {"hand", "team", "table"}


def test_odds_table(run_main):
    code, out, _ = run_main("pilotta", "odds", "-n", "5000", "-q")
    assert code == 0 and "North's hand" in out and "exact %" in out


def test_tournament_plot_and_table(run_main, tmp_path):
    png, csv = tmp_path / "t.png", tmp_path / "t.csv"
    args = ("pilotta", "tournament", "heuristic", "bold", "greedy", "-n", "200", "--quiet")
    code, out, err = run_main(*args, "--plot", str(png), "--out", str(csv))
    assert code == 0, err
    assert png.stat().st_size > 1000 and "Heatmap written" in out
    rows = csv.read_text().splitlines()
    assert rows[0] == "a,b,a_minus_b,se,ci_low,ci_high,deals" and len(rows) == 4
    code, _, err = run_main(*args, "bold")
    assert code == 2 and "once" in err
    code, _, err = run_main(*args, "--plot", str(tmp_path / "nodir" / "t.png"))
    assert code == 2 and err.count("\n") == 1
