"""The agreement study's bookkeeping (scripts/advisor_agreement.py): the compact strong ranking
and the elder/younger split of the summary, on hand-made rows (no advising is run)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "advisor_agreement.py"


@pytest.fixture(scope="module")
def study():
    spec = importlib.util.spec_from_file_location("advisor_agreement", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _candidate(name: str, play: str) -> list:
    return [name, 0.0, 0.5, 100, play, play == "pimc", None, None]


def test_compact_keeps_every_refined_candidate_and_the_best_others(study):
    ranked = [
        _candidate("a", "heuristic"),
        _candidate("b", "pimc"),
        _candidate("c", "heuristic"),
        _candidate("d", "heuristic"),
        _candidate("e", "pimc"),
        _candidate("f", "heuristic"),
    ]
    kept = study.compact(ranked, others=2)
    assert [c[0] for c in kept] == ["a", "b", "c", "e"]
    assert study.compact(ranked, others=10) == ranked


def _row(role: str, agree: bool, loss: float, alt_agree: bool, alt_loss: float) -> dict:
    return {
        "role": role,
        "agree": agree,
        "holdout_loss": 0.0 if agree else loss,
        "alt_agree": alt_agree,
        "alt_holdout_loss": 0.0 if alt_agree else alt_loss,
    }


def test_by_role_splits_elder_and_younger_hands(study):
    rows = [
        _row("elder", True, 0.0, True, 0.0),
        _row("elder", False, 2.0, True, 0.0),
        _row("elder", True, 0.0, False, 1.0),
        _row("younger", False, 4.0, False, 3.0),
        _row("younger", True, 0.0, True, 0.0),
    ]
    split = study.by_role(rows)
    elder, younger = split["elder"], split["younger"]
    assert (elder["hands"], younger["hands"]) == (3, 2)
    assert (elder["agreement"]["count"], younger["agreement"]["count"]) == (2, 1)
    assert (elder["alt_agreement"]["count"], younger["alt_agreement"]["count"]) == (2, 1)
    assert elder["loss"]["per_hand"]["mean"] == pytest.approx(2.0 / 3)
    assert younger["loss"]["per_hand"]["mean"] == pytest.approx(2.0)
    assert younger["loss"]["when_differ"] == {"mean": 4.0, "se": None, "hands": 1}
    assert elder["alt_loss"]["when_differ"]["mean"] == pytest.approx(1.0)
    assert younger["alt_loss"]["per_hand"]["mean"] == pytest.approx(1.5)


def test_by_role_of_one_role_only(study):
    split = study.by_role([_row("elder", True, 0.0, True, 0.0)])
    assert split["younger"]["hands"] == 0
    assert split["younger"]["loss"] is None


def test_pick_hands_keeps_the_listed_stored_hands(study):
    rows = [{"index": i} for i in (3, 50, 66, 90)]
    assert study.pick_hands(rows, None) == rows
    assert [r["index"] for r in study.pick_hands(rows, "90,66")] == [66, 90]
    with pytest.raises(ValueError, match="7"):
        study.pick_hands(rows, "66,7")


def test_only_with_an_unknown_hand_is_one_line_and_exit_2(tmp_path):
    import subprocess
    import sys

    stored = tmp_path / "rows.json"
    stored.write_text('{"rows": [{"index": 0}]}')
    args = ["--merge", str(stored), "--why", "--only", "5", "--out", str(tmp_path / "o.json")]
    run = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == ["error: --only: no stored row for hand(s) [5]"]
