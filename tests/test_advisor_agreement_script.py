"""The agreement study's bookkeeping (scripts/advisor_agreement.py): the compact strong ranking
and the elder/younger split of the summary, on hand-made rows (no advising is run)."""

from __future__ import annotations

import importlib.util
import json
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


def _stored(index: int, role: str, gap: float) -> dict:
    """A stored study row whose strong top leads its runner-up by ``gap`` (SEs 0.3 and 0.4:
    combined 0.5)."""
    return {
        "index": index,
        "role": role,
        "strong_ev": 1.0 + gap,
        "strong_se": 0.3,
        "strong_second_ev": 1.0,
        "strong_second_se": 0.4,
    }


def _rescored(index: int, role: str, top: str, agree: bool, loss: float) -> dict:
    return {
        "index": index,
        "role": role,
        "top": top,
        "agree": agree,
        "holdout_loss": loss,
        "cpu_s": 2.0 * index,
        "wall_s": 3.0 * index,
    }


def test_near_tie_is_a_lead_within_z_combined_ses(study):
    assert study.near_tie(_stored(0, "elder", 0.99), 2.0)
    assert not study.near_tie(_stored(0, "elder", 1.01), 2.0)
    assert study.near_tie(_stored(0, "elder", 1.01), 3.0)


def test_rescore_summary_splits_by_role_and_near_tie(study):
    stored = [_stored(0, "elder", 0.2), _stored(1, "younger", 3.0), _stored(2, "elder", 4.0)]
    new = [
        _rescored(0, "elder", "a", False, 1.5),
        _rescored(1, "younger", "b", True, 0.0),
        _rescored(2, "elder", "c", True, 0.0),
    ]
    s = study.rescore_summary(new, stored, 2.0)
    assert s["agreement"]["count"] == 2
    assert s["loss"]["per_hand"]["mean"] == pytest.approx(0.5)
    assert s["loss"]["when_differ"]["mean"] == pytest.approx(1.5)
    assert s["by_role"]["elder"]["agreement"]["count"] == 1
    assert s["by_role"]["elder"]["loss"]["per_hand"]["mean"] == pytest.approx(0.75)
    assert s["by_role"]["younger"]["agreement"]["count"] == 1
    assert s["near_tie"]["hands"] == 1
    assert s["near_tie"]["agreement"]["count"] == 0
    assert s["near_tie"]["clear_agreement"]["count"] == 2
    assert (s["median_cpu_s"], s["median_wall_s"]) == (2.0, 3.0)


def _write(path: Path, setting: dict, rows: list[dict]) -> Path:
    path.write_text(json.dumps({"setting": setting, "rows": rows}))
    return path


def test_join_merges_ranges_and_recomputes_figures(study, tmp_path):
    stored = [_stored(i, ("elder", "younger")[i % 2], 3.0) for i in range(4)]
    setting = {"play": "pimc", "refine": 10}
    a = _write(tmp_path / "a.json", setting, [_rescored(2, "elder", "x", True, 0.0)])
    b = _write(
        tmp_path / "b.json",
        setting,
        [_rescored(0, "elder", "y", False, 2.0), _rescored(1, "younger", "z", True, 0.0)],
    )
    joined = study.join([a, b], stored, 2.0)
    assert [r["index"] for r in joined["rows"]] == [0, 1, 2]
    assert joined["hands"] == 3
    assert joined["agreement"]["count"] == 2
    assert joined["loss"]["per_hand"]["mean"] == pytest.approx(2.0 / 3)
    assert joined["parts"] == [["a.json", 2, 2, 1], ["b.json", 0, 1, 2]]
    # the same hand scored twice with the same top counts once
    assert study.join([a, a, b], stored, 2.0)["hands"] == 3


def test_join_refuses_two_settings_or_two_tops_for_one_hand(study, tmp_path):
    a = _write(tmp_path / "a.json", {"refine": 10}, [_rescored(0, "elder", "x", True, 0.0)])
    b = _write(tmp_path / "b.json", {"refine": 5}, [_rescored(1, "younger", "x", True, 0.0)])
    c = _write(tmp_path / "c.json", {"refine": 10}, [_rescored(0, "elder", "y", False, 1.0)])
    with pytest.raises(SystemExit, match="different settings"):
        study.join([a, b], [], 2.0)
    with pytest.raises(SystemExit, match="two tops"):
        study.join([a, c], [], 2.0)


def test_compare_counts_roles_and_near_ties(study, tmp_path):
    stored = [
        _stored(0, "elder", 0.2) | _row("elder", False, 1.0, True, 0.0),
        _stored(1, "younger", 3.0) | _row("younger", True, 0.0, False, 2.0),
    ]
    for r in stored:
        r |= {"default_cpu_s": 0.2, "default_wall_s": 0.2, "alt_cpu_s": 5.0, "alt_wall_s": 5.0}
    f = _write(
        tmp_path / "f.json",
        {"refine": 10},
        [_rescored(0, "elder", "x", True, 0.0), _rescored(1, "younger", "y", False, 0.5)],
    )
    default, alt, new = study.compare(stored, [f], 2.0)
    assert (default["elder"], default["younger"], default["near_tie"]) == ([0, 1], [1, 1], [0, 1])
    assert (alt["elder"], alt["younger"], alt["near_tie"]) == ([1, 1], [0, 1], [1, 1])
    assert (new["elder"], new["younger"], new["near_tie"]) == ([1, 1], [0, 1], [1, 1])
    assert new["loss"] == pytest.approx(0.25)
