"""`piquet review`: deal records (text and JSON, every hand or one), their checks against the
rules (one line naming the place, exit 2), the review of each decision (costs, exact
double-dummy costs, the summary), Ctrl-C keeping what was reviewed, and the page in a real
headless browser. Reviews here run at ``review.QUICK`` (a low world count)."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from piquet_sim.core import review as R
from piquet_sim.core.app.review import ReviewBar
from piquet_sim.core.review.plan import plan_tasks, review_record
from piquet_sim.piquet import review as PR
from piquet_sim.piquet.codec import CODEC
from piquet_sim.piquet.definition import DEFINITION
from piquet_sim.piquet.rules import Rules

EXAMPLES = Path(__file__).parents[1] / "docs" / "examples"
FULL = EXAMPLES / "piquet-deal.txt"
YOUNGER = EXAMPLES / "piquet-deal-younger.txt"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_record_forms_round_trip():
    """Text and JSON read back to the same record; the example files are what the writers
    write."""
    for path in (FULL, YOUNGER):
        rec = CODEC.read(path)
        text = CODEC.text(rec)
        assert text in _text(path)
        assert CODEC.text(CODEC.parse(text)) == text
        assert CODEC.text(CODEC.parse_json(CODEC.json(rec))) == text
    as_json = json.loads(_text(EXAMPLES / "piquet-deal.json"))
    assert CODEC.text(CODEC.parse_json(as_json)) == CODEC.text(CODEC.read(FULL))


def test_the_play_history_keys_are_read_too():
    """A record may use the history form of ``piquet play`` for the player's own clauses
    (hand, discard, took, 'sunk, mine') and 'mine'/'his' for who scored."""
    rec = CODEC.read(YOUNGER)
    ours = CODEC.text(rec).replace("younger: ", "hand: ").replace("younger discard:", "discard:")
    ours = ours.replace("younger took:", "took:")
    ours = ours.replace("point: elder", "point: his").replace("sets: younger", "sets: mine")
    assert CODEC.text(CODEC.parse(ours)) == CODEC.text(rec)


def test_both_records_give_the_same_decisions():
    """The full record and the one-hand record of the same deal give younger the same
    decisions (phase, place, what he did)."""
    full = CODEC.read(FULL)
    full.player = 1
    one = CODEC.read(YOUNGER)
    a = plan_tasks(DEFINITION, PR.review_plan(full, Rules(), PR.QUICK), PR.QUICK)
    b = plan_tasks(DEFINITION, PR.review_plan(one, Rules(), PR.QUICK), PR.QUICK)
    assert [(t.phase, t.place, t.done) for t in a] == [(t.phase, t.place, t.done) for t in b]
    assert [t.phase for t in a][:2] == ["exchange", "declare"]
    assert sum(t.phase == "play" for t in a) == 12


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


BAD_FULL = [
    # a card dealt twice
    (lambda t: _edit(t, "talon: 8S ", "talon: AD "), "appears twice"),
    # an impossible exchange: six cards
    (lambda t: _edit(t, "elder discard: ", "elder discard: JC "), "at most 5"),
    # the drawn cards are not the talon's
    (lambda t: _edit(t, "elder took: ", "elder took: 9C "), "took"),
    # a declaration the hand cannot make
    (lambda t: _edit(t, "elder declares: all", "elder declares: lesser sets"), "no lesser sets"),
    # an outcome that does not follow
    (lambda t: _edit(t, "sets: younger", "sets: elder"), "sets"),
    # a revoke: the second trick's reply swapped with a card of another suit
    (lambda t: _edit(t, "AC-8C", "AC-KH"), "revoke"),
    # an unknown key and a clause without a colon
    (lambda t: t + "colour: red\n", "unknown key"),
    (lambda t: t + "tricks AS-7S\n", "is not 'key: value'"),
    # a deal that does not add up: thirteen tricks
    (lambda t: t.replace("\ntricks: ", "\ntricks: AS-7S "), "trick"),
]


@pytest.mark.parametrize("edit, words", BAD_FULL)
def test_a_bad_record_is_one_line_naming_the_place(edit, words, tmp_path, run_main):
    path = tmp_path / "deal.txt"
    path.write_text(edit(_text(FULL)), encoding="utf-8")
    code, out, err = run_main("review", str(path), "--quick", "--quiet")
    assert code == 2, err
    line = err.strip().splitlines()
    assert len(line) == 1 and words in line[0], err
    assert "line" in line[0] or "appears twice" in line[0], err


BAD_ONE_HAND = [
    (lambda t: _edit(t, "younger took: ", "younger took: 9C "), "took"),
    (lambda t: _edit(t, "elder took: 5", "elder took: 6"), "elder exchanges 1 to 5"),
    (lambda t: _edit(t, "point: younger", "point: elder"), "the cards he showed"),
    (lambda t: _edit(t, "point: younger", "point: elder KD QD JD"), "cannot have shown QD JD"),
    (lambda t: t.replace("\npoint: ", "\n# point: "), "say who scored the point"),
    (lambda t: _edit(t, "9C 8C", "9C JD"), "appears twice"),
]


@pytest.mark.parametrize("edit, words", BAD_ONE_HAND)
def test_a_bad_one_hand_record_is_one_line(edit, words, tmp_path, run_main):
    path = tmp_path / "deal.txt"
    path.write_text(edit(_text(YOUNGER)), encoding="utf-8")
    code, out, err = run_main("review", str(path), "--quick", "--quiet")
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and words in err, err


def test_bad_json_names_the_key(tmp_path, run_main):
    data = json.loads(_text(EXAMPLES / "piquet-deal.json"))
    data["exchange"]["elder"]["discard"] = ["AS", "KS", "QS", "JS", "TS", "9S"]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run_main("review", str(path), "--quick", "--quiet")
    assert code == 2 and "exchange.elder.discard" in err, err
    path.write_text("{not json", encoding="utf-8")
    code, _, err = run_main("review", str(path), "--quick", "--quiet")
    assert code == 2 and "not JSON" in err, err


def _check_review(data: dict, exact: bool) -> None:
    rows = data["decisions"]
    assert data["decisions_reviewed"] == data["decisions_total"] == len(rows) == 14
    assert not data["partial"]
    assert [r["phase"] for r in rows[:2]] == ["exchange", "declare"]
    for r in rows:
        assert r["done"] and r["best"]
        c = r["cost"]
        if r["forced"] or r["best"] == r["done"]:
            assert c["mean"] == 0
        if r["phase"] == "play":
            values = [a["value"]["mean"] for a in r["alternatives"] if "value" in a]
            if not r["forced"]:  # the advised card is the best of the values
                assert max(values) == pytest.approx(
                    next(a["value"]["mean"] for a in r["alternatives"] if a["action"] == r["best"])
                )
                assert c["mean"] >= -1e-9
            if exact:
                dd = {a["action"]: a["exact"] for a in r["alternatives"]}
                if not r["forced"]:
                    assert r["exact_cost"] == max(dd.values()) - dd[r["done"]] >= 0
        elif not exact:
            assert r["exact_cost"] is None
    s = data["summary"]
    total = sum(r["cost"]["mean"] for r in rows if r["cost"])
    assert s["phases"]["total"]["cost"]["mean"] == pytest.approx(total)
    by_phase = sum(v["cost"]["mean"] for k, v in s["phases"].items() if k != "total")
    assert by_phase == pytest.approx(total)
    costs = [c["cost"]["mean"] for c in s["costliest"]]
    assert costs == sorted(costs, reverse=True) and len(costs) <= 3
    assert all(c > 0 for c in costs)


def test_review_of_the_full_example(run_main):
    """Every decision of elder with its cost; the exact double-dummy cost of every card is the
    best card's value minus his card's on the true deal."""
    code, out, err = run_main("review", str(FULL), "--quick", "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    _check_review(data, exact=True)
    assert data["player"] == "elder"
    assert data["deal"]["result"] and len(data["deal"]["tricks"]) == 12
    # the same record as JSON: the same review
    code, out2, err = run_main(
        "review", str(EXAMPLES / "piquet-deal.json"), "--quick", "--json", "--quiet"
    )
    assert code == 0, err
    again = json.loads(out2)
    strip = ("seconds",)
    for a, b in zip(data["decisions"], again["decisions"], strict=True):
        assert {k: v for k, v in a.items() if k not in strip} == {
            k: v for k, v in b.items() if k not in strip
        }


def test_a_card_decisions_time_budget_stops_its_sampled_worlds(run_main):
    """``--max-seconds``, as in Pilotta's and Pitch's reviews: a card decision's sampled worlds
    stop once its budget is spent (the notes say where); the settings say the budget."""
    args = ("review", str(FULL), "--quick", "--exact-limit", "0", "--json", "--quiet")
    code, out, err = run_main(*args, "--max-seconds", "0.0001")
    assert code == 0, err
    data = json.loads(out)
    assert data["settings"]["max_seconds"] == 0.0001
    assert "stopped after 32 worlds (time budget 0.0001 s)" in out
    code, out, err = run_main(*args)
    assert code == 0 and json.loads(out)["settings"]["max_seconds"] is None
    assert "--max-seconds" not in out


def test_review_of_the_one_hand_example(run_main):
    code, out, err = run_main("review", str(YOUNGER), "--quick", "--quiet")
    assert code == 0, err
    assert "younger's decisions" in out and "Points lost by phase" in out
    assert "dd cost" not in out  # no exact costs without every hand
    code, out, err = run_main("review", str(YOUNGER), "--quick", "--json", "--quiet")
    _check_review(json.loads(out), exact=False)


def test_another_player_of_a_full_record(run_main):
    code, out, err = run_main(
        "review", str(FULL), "--quick", "--json", "--quiet", "--player", "younger"
    )
    assert code == 0, err
    assert json.loads(out)["player"] == "younger"
    code, _, err = run_main("review", str(YOUNGER), "--quick", "--quiet", "--player", "elder")
    assert code == 2 and "elder's hand" in err


def test_ctrl_c_keeps_the_decisions_reviewed(run_main, monkeypatch, ctrl_c_raises):
    """Ctrl-C after the third decision: those three are printed, marked partial; exit 130."""
    calls = []
    original = ReviewBar.__call__

    def bar(self, weight, label):
        original(self, weight, label)
        if weight:
            calls.append(label)
            if len(calls) == 3:
                os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(ReviewBar, "__call__", bar)
    code, out, err = run_main("review", str(FULL), "--quick", "--json", "--quiet")
    assert code == 130, err
    data = json.loads(out)
    assert data["partial"] and data["decisions_reviewed"] == 3
    assert data["decisions_total"] == 14
    rv_text = R.render_text(R.Review("piquet", "t", "elder", "u", {}, {}, [], 14, partial=True))
    assert "PARTIAL" in rv_text


def test_text_review_names_the_costliest():
    rec = CODEC.read(FULL)
    rv = review_record(DEFINITION, rec, Rules(), PR.QUICK)
    text = rv.text()
    assert "Costliest decisions" in text or "No decision cost" in text
    s = rv.summary()
    for c in s["costliest"]:
        assert f"#{c['index']} " in text
    assert all(math.isfinite(d.seconds) for d in rv.decisions)


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="no chromium (apt-get install chromium)")
def test_the_page_in_a_headless_browser(tmp_path, run_main):
    """The page opens in Chromium: the summary, twelve tricks with the player's costs linked to
    the decisions, and every decision's row (read back from the browser's DOM)."""
    page = tmp_path / "review.html"
    code, out, err = run_main("review", str(FULL), "--quick", "--quiet", "--html", str(page))
    assert code == 0, err
    assert f"Page written to {page}" in out
    args = [
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(
        [*args, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    assert 'id="phases"' in dom and 'id="tricks"' in dom
    assert dom.count('class="trick"') == 12
    assert dom.count('class="decision"') == 14
    assert dom.count('href="#d') >= 14  # every decision's badge links to its row
    assert "♠" in dom or "♥" in dom
    shot = tmp_path / "review.png"
    subprocess.run(
        [*args, "--window-size=1200,2000", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
    )
    assert shot.exists() and shot.stat().st_size > 10_000
