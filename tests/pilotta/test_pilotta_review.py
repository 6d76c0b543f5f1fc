"""`piquet pilotta review`: round records (text and JSON, every hand or one), their checks (one
line naming the place, exit 2) and the review of every call and card at a low world count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from piquet_sim.core.review.plan import plan_tasks
from piquet_sim.pilotta import review as PR
from piquet_sim.pilotta.definition import DEFINITION
from piquet_sim.pilotta.record import CODEC, PilottaRecord
from piquet_sim.pilotta.rules import Rules

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
ROUND = EXAMPLES / "pilotta-round.txt"


def _text() -> str:
    return ROUND.read_text(encoding="utf-8")


def _one_hand(rec):
    """The same round as the player saw it: his hand and the cards each seat showed."""
    _, final = PR.replay(rec)
    one = PilottaRecord(
        rec.player,
        rec.dealer,
        [h if s == rec.player else None for s, h in enumerate(rec.dealt)],
        list(rec.calls),
        set(),
        {p: final.shown[p] for p in range(4) if final.shown[p]},
        [list(t) for t in rec.tricks],
    )
    return one


def test_record_forms_round_trip():
    rec = CODEC.read(ROUND)
    text = CODEC.text(rec)
    assert text in _text()
    assert CODEC.text(CODEC.parse(text)) == text
    assert CODEC.text(CODEC.parse_json(CODEC.json(rec))) == text
    data = json.loads((EXAMPLES / "pilotta-round.json").read_text(encoding="utf-8"))
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
    assert sum(t.phase == "play" for t in a) == 8


def _swap_first_trick(t: str) -> str:
    head, tricks = t.split("tricks: ")
    first, rest = tricks.split(", ", 1)
    cards = first.split()
    cards[1], cards[2] = cards[2], cards[1]  # two cards played out of turn
    return f"{head}tricks: {' '.join(cards)}, {rest}"


BAD = [
    (lambda t: t.replace("auction: ", "auction: N:pass ", 1), "auction"),
    (lambda t: t + "colour: red\n", "unknown key"),
    (lambda t: t.replace("\nN: ", "\nN: 7C ", 1), "8 cards"),
    (_swap_first_trick, "trick 1"),
    (
        lambda t: t.replace("TC 7C 8S 8C", "TC 9S 8S 8C"),
        "trick 2: S cannot play 9S now: a revoke: he must follow suit to TC (7C 9C)",
    ),
    (
        lambda t: t.replace("9S AS 8H QD", "9S AS 8H QH"),
        "trick 6: E cannot play QH now: he has no spades: he must trump (JD QD)",
    ),
    (
        lambda t: t.replace("7D KD 8D TD", "7D KD 8D QD"),
        "trick 1: E cannot play QD now: he must play a higher trump than KD (TD JD)",
    ),
    (
        lambda t: t.replace(" W:pass N:pass E:pass\n", "\n"),
        "not over yet (W to call): give every call, or the contract in place of the auction "
        "('contract: S 140D')",
    ),
]


def test_the_contract_the_unfinished_auction_hint_names_is_reviewed(tmp_path, run_main):
    text = _text().replace(" W:pass N:pass E:pass\n", "\n")
    path = tmp_path / "round.txt"
    path.write_text(text, encoding="utf-8")
    _, _, err = run_main("pilotta", "review", str(path), "--quick", "--quiet")
    hint = err.split("('")[1].split("')")[0]
    auction = next(line for line in text.splitlines() if line.startswith("auction:"))
    path.write_text(text.replace(auction, hint), encoding="utf-8")
    code, out, err = run_main("pilotta", "review", str(path), "--quick", "--json", "--quiet")
    assert code == 0, err
    assert json.loads(out)["deal"]["tricks"]


@pytest.mark.parametrize("edit, words", BAD)
def test_a_bad_record_is_one_line_naming_the_place(edit, words, tmp_path, run_main):
    path = tmp_path / "round.txt"
    path.write_text(edit(_text()), encoding="utf-8")
    code, _, err = run_main("pilotta", "review", str(path), "--quick", "--quiet")
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "line" in lines[0], err


def test_review_of_the_example(run_main):
    code, out, err = run_main("pilotta", "review", str(ROUND), "--quick", "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    rows = data["decisions"]
    assert data["decisions_reviewed"] == data["decisions_total"] == len(rows)
    assert {r["phase"] for r in rows} >= {"bid", "play"}
    assert data["phase_units"]["bid"] == "game points"
    assert data["phase_units"]["play"] == "card points"
    for r in rows:
        if r["forced"] or r["best"] == r["done"]:
            assert r["cost"]["mean"] == 0
        if r["phase"] == "play" and not r["forced"]:
            dd = {a["action"]: a["exact"] for a in r["alternatives"]}
            assert r["exact_cost"] == max(dd.values()) - dd[r["done"]] >= 0
    s = data["summary"]["phases"]
    assert "total (game points)" in s and "total (card points)" in s
    assert len(data["deal"]["tricks"]) == 8
    code, out, err = run_main("pilotta", "review", str(ROUND), "--quick", "--quiet")
    assert code == 0 and "Points lost by phase" in out


def test_review_of_one_hand(tmp_path, run_main):
    path = tmp_path / "mine.txt"
    path.write_text(CODEC.text(_one_hand(CODEC.read(ROUND))), encoding="utf-8")
    code, out, err = run_main("pilotta", "review", str(path), "--quick", "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert all(r["exact_cost"] is None for r in data["decisions"])
    assert sum(r["phase"] == "play" for r in data["decisions"]) == 8
