"""`piquet hand` and `piquet compare`: text and JSON output, and bad input as one line on stderr
with exit code 2 (no traceback). A few cases run the real entry point in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from piquet_sim.cli import cli, main

# Elder: quint to the ace, trio of aces; point 5 (51). Younger: quint to the ace in hearts, the
# same point: point and sequence equal, elder's trio of aces scores 3.
ELDER = "AS KS QS JS TS 9H 8H AD KD AC QC JC"
YOUNGER = "8S 7S AH KH QH JH TH KC TC 9C 8C 7C"
# Elder with everything in combinations (point 6, sixieme, quatorzes of aces and kings) against
# younger's Q J T holdings: 6 + 16 + 28 (+ carte rouge 20) and repique 60.
ROUGE_ELDER = "AS KS QS JS TS 9S AH AD AC KH KD KC"
ROUGE_YOUNGER = "QH JH TH 9H 8H QD JD TD 9D QC JC TC"
PLAYER_KEYS = {"carte_blanche", "point", "sequence", "sets", "carte_rouge", "repique", "total"}


def run_process(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "piquet_sim", *args], capture_output=True, text=True, timeout=120
    )


def assert_one_line_error(code: int, out: str, err: str, fragment: str) -> None:
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("piquet: error: ")
    assert fragment in lines[0]
    assert "Traceback" not in err


# --------------------------------------------------------------------------- hand


def test_hand_text(run_main):
    code, out, err = run_main("hand", ELDER)
    assert code == 0, err
    assert "AS KS QS JS TS 9H 8H AD KD AC QC JC" in out
    assert "5 cards, 51 pips (S)" in out
    assert "quint to the A" in out
    assert "trio of aces" in out
    assert "Carte blanche" not in out


def test_hand_text_carte_blanche_and_rouge(run_main):
    code, out, _ = run_main("hand", "TH 9H 8H 7H TD 9D 8D 7D TC 9C 8C 7C", "--carte-rouge")
    assert code == 0
    assert "4 cards, 34 pips (H or D or C)" in out
    assert out.count("quart to the T") == 3
    assert "Carte blanche: 10 points" in out
    assert "Carte rouge possible" in out


def test_hand_json(run_main):
    code, out, _ = run_main("hand", "s:akqjt h:98 d:ak c:aqj", "--json")
    assert code == 0
    info = json.loads(out)
    assert set(info) == {
        "cards",
        "point",
        "sequences",
        "best_sequence",
        "sequence_points",
        "sets",
        "best_set",
        "set_points",
        "carte_blanche",
        "carte_rouge_eligible",
    }
    assert info["cards"] == ELDER.split()
    assert info["point"] == {"suits": ["S"], "length": 5, "pips": 51, "points": 5}
    assert info["best_sequence"]["name"] == "quint"
    assert info["sequence_points"] == 15
    assert info["best_set"]["cards"] == ["AS", "AD", "AC"]
    assert info["carte_blanche"] is False


# --------------------------------------------------------------------------- compare


def test_compare_text(run_main):
    code, out, _ = run_main("compare", ELDER, YOUNGER)
    assert code == 0
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 2}
    assert set(rows) >= {"point", "sequence", "sets", "repique", "total", "carte blanche"}
    assert "carte rouge" not in rows  # only shown under --carte-rouge
    assert rows["point"].split("│")[2].strip() == "equal"
    assert [c.strip() for c in rows["sets"].split("│")[2:5]] == ["elder", "3", "0"]
    assert [c.strip() for c in rows["total"].split("│")[3:5]] == ["3", "0"]


def test_compare_text_carte_rouge(run_main):
    code, out, _ = run_main("compare", ROUGE_ELDER, ROUGE_YOUNGER, "--carte-rouge")
    assert code == 0
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 2}
    assert [c.strip() for c in rows["carte rouge"].split("│")[3:5]] == ["20", "0"]
    assert [c.strip() for c in rows["total"].split("│")[3:5]] == ["130", "0"]


def compare_json(run_main, *args: str) -> dict:
    code, out, err = run_main("compare", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_compare_json_values(run_main):
    data = compare_json(run_main, ELDER, YOUNGER)
    assert data["elder"] == {
        "carte_blanche": 0,
        "point": 0,
        "sequence": 0,
        "sets": 3,
        "carte_rouge": 0,
        "repique": 0,
        "total": 3,
    }
    assert data["younger"] == dict.fromkeys(PLAYER_KEYS, 0)
    assert data["classes"] == {"point": "equal", "sequence": "equal", "sets": "elder"}
    rouge = compare_json(run_main, ROUGE_ELDER, ROUGE_YOUNGER, "--carte-rouge")
    assert rouge["elder"] == {
        "carte_blanche": 0,
        "point": 6,
        "sequence": 16,
        "sets": 28,
        "carte_rouge": 20,
        "repique": 60,
        "total": 130,
    }
    assert compare_json(run_main, ROUGE_ELDER, ROUGE_YOUNGER)["elder"]["total"] == 110


def test_compare_json_player_and_class_shape(run_main):
    data = compare_json(run_main, ELDER, YOUNGER)
    for player in ("elder", "younger"):
        assert set(data[player]) == PLAYER_KEYS
        assert all(isinstance(v, int) for v in data[player].values())
    assert set(data["classes"]) == {"point", "sequence", "sets"}


def test_compare_json_top_level_keys(run_main):
    """The issue fixes elder / younger / classes and allows more keys; the extra one is the
    ordered list of scoring events."""
    assert set(compare_json(run_main, ELDER, YOUNGER)) == {"elder", "younger", "classes", "events"}


def test_compare_via_the_real_entry_point():
    proc = run_process("compare", ROUGE_ELDER, ROUGE_YOUNGER, "--json", "--carte-rouge")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["elder"]["total"] == 130


# --------------------------------------------------------------------------- bad input

BAD_INPUT = [
    (["hand", "XS KS QS JS TS 9H 8H AD KD AC QC JC"], "'XS' is not a card"),
    (["hand", "AS AS QS JS TS 9H 8H AD KD AC QC JC"], "duplicate card AS"),
    (["hand", "AS KS QS JS TS 9H 8H AD KD AC QC"], "a hand needs 12 cards, got 11"),
    (["hand", "S:AKX H:98"], "'X' in 'S:AKX' is not a rank"),
    (["hand", "--frobnicate", ELDER], "--frobnicate"),
    (["hand", "--lead-points", "sometimes", ELDER], "'sometimes' is not one of"),
    (["hand"], "Missing argument"),
    (["compare", ELDER, "AS 7S AH KH QH JH TH KC TC 9C 8C 7C"], "both hold AS"),
    (["compare", ELDER, "8S 7S AH KH QH JH TH KC TC 9C 8C 7C 6C"], "'6C' is not a card"),
    (["compare", ELDER, "8S 7S AH KH QH JH TH KC TC 9C 8C"], "a hand needs 12 cards, got 11"),
    (["compare", ELDER], "Missing argument"),
    (["compare", "--carte-blanche", ELDER, YOUNGER], "--carte-blanche"),
    (["no-such-command"], "no-such-command"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD_INPUT, ids=lambda v: str(v)[:40])
def test_bad_input_is_one_line_and_exit_2(run_main, args, fragment):
    assert_one_line_error(*run_main(*args), fragment)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["hand", "XS KS QS JS TS 9H 8H AD KD AC QC JC"], "'XS' is not a card"),
        (["compare", ELDER, "AS 7S AH KH QH JH TH KC TC 9C 8C 7C"], "both hold AS"),
        (["compare", "--no-such-option", ELDER, YOUNGER], "--no-such-option"),
    ],
    ids=["unknown card", "overlap", "unknown option"],
)
def test_bad_input_through_the_real_entry_point(args, fragment):
    proc = run_process(*args)
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, fragment)


# --------------------------------------------------------------------------- help


def test_group_help_has_an_example(run_main):
    code, out, _ = run_main("--help")
    assert code == 0
    assert "Example" in out


def test_every_command_help_has_an_example(run_main):
    assert {"hand", "compare"} <= set(cli.commands)
    for name in sorted(cli.commands):
        code, out, err = run_main(name, "--help")
        assert code == 0, (name, err)
        assert "Example" in out, name


def test_no_arguments_prints_help_and_succeeds(capsys):
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 0
    out = capsys.readouterr()
    assert "Usage: piquet" in out.out and out.err == ""
