"""The notes a report section gives a study that was cut or not run."""

from __future__ import annotations

from piquet_sim.core.app.report import Section, not_run, partial_note


def test_a_study_not_run_says_so_and_has_no_figures():
    sec = not_run(Section("match", "A match"))
    assert [b.content for b in sec.blocks] == ["Not run: the report was interrupted."]
    assert sec.figures is None


def test_a_partial_study_says_how_far_it_got_and_a_finished_one_says_nothing():
    assert partial_note(1200, 5000, "deals") == (
        " **Partial: interrupted after 1,200 of 5,000 deals.**"
    )
    assert partial_note(5000, 5000, "deals") == ""
