"""`piquet pitch review`: round records (text and JSON, every hand or one), their checks (one
line naming the place, exit 2) and the review of the call and every card at a low world
count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from piquet_sim.core.review.plan import plan_tasks
from piquet_sim.pitch import review as PR
from piquet_sim.pitch.definition import DEFINITION
from piquet_sim.pitch.record import CODEC, PitchRecord
from piquet_sim.pitch.rules import Rules

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
ROUND = EXAMPLES / "pitch-round.txt"


def _text() -> str:
    return ROUND.read_text(encoding="utf-8")


def _one_hand(rec):
    dealt = [h if s == rec.player else None for s, h in enumerate(rec.dealt)]
    return PitchRecord(rec.player, rec.players, dealt, list(rec.calls), rec.tricks)


def test_record_forms_round_trip():
    rec = CODEC.read(ROUND)
    text = CODEC.text(rec)
    assert text in _text()
    assert CODEC.text(CODEC.parse(text)) == text
    assert CODEC.text(CODEC.parse_json(CODEC.json(rec))) == text
    data = json.loads((EXAMPLES / "pitch-round.json").read_text(encoding="utf-8"))
    assert CODEC.text(CODEC.parse_json(data)) == text
    one = _one_hand(rec)
    assert CODEC.text(CODEC.parse(CODEC.text(one))) == CODEC.text(one)


def _tasks(rec):
    plan = PR.review_plan(rec, Rules(), PR.QUICK)
    return plan_tasks(DEFINITION, plan, PR.QUICK)


def test_both_records_give_the_same_decisions():
    rec = CODEC.read(ROUND)
    a = _tasks(rec)
    b = _tasks(_one_hand(rec))
    assert [(t.phase, t.place, t.done) for t in a] == [(t.phase, t.place, t.done) for t in b]
    assert [t.phase for t in a] == ["bid"] + ["play"] * 6


BAD = [
    (lambda t: t.replace("auction: ", "auction: 6 ", 1), "auction"),
    (lambda t: t + "colour: red\n", "unknown key"),
    (lambda t: t.replace("tricks: ", "tricks: 2S ", 1), "trick 1"),
    (lambda t: t.replace("players: 4", "players: 9"), "players"),
    (lambda t: t.replace("players: 4", "players: 5"), "5 players need 5 hands, 4 given"),
]


@pytest.mark.parametrize("edit, words", BAD)
def test_a_bad_record_is_one_line_naming_the_place(edit, words, tmp_path, run_main):
    path = tmp_path / "round.txt"
    path.write_text(edit(_text()), encoding="utf-8")
    code, _, err = run_main("pitch", "review", str(path), "--quick", "--quiet")
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], err


def test_review_of_the_example(run_main):
    code, out, err = run_main("pitch", "review", str(ROUND), "--quick", "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    rows = data["decisions"]
    assert data["decisions_reviewed"] == data["decisions_total"] == len(rows) == 7
    assert rows[0]["phase"] == "bid"
    for r in rows:
        if r["forced"] or r["best"] == r["done"]:
            assert r["cost"]["mean"] == 0
        if r["phase"] == "play" and not r["forced"]:
            dd = {a["action"]: a["exact"] for a in r["alternatives"]}
            assert r["exact_cost"] == max(dd.values()) - dd[r["done"]] >= 0
    assert len(data["deal"]["tricks"]) == 6
    path = EXAMPLES / "pitch-round.txt"
    code, out, err = run_main("pitch", "review", str(path), "--quick", "--quiet")
    assert code == 0 and "Points lost by phase" in out


def test_review_of_one_hand(tmp_path, run_main):
    path = tmp_path / "mine.txt"
    path.write_text(CODEC.text(_one_hand(CODEC.read(ROUND))), encoding="utf-8")
    code, out, err = run_main("pitch", "review", str(path), "--quick", "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert all(r["exact_cost"] is None for r in data["decisions"])


def test_a_seat_the_record_does_not_have_is_refused(run_main):
    code, _, err = run_main("pitch", "review", str(ROUND), "--player", "5", "--quick", "--quiet")
    assert code == 2 and "no seat 5" in err and len(err.strip().splitlines()) == 1, err
