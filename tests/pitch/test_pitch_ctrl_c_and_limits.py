"""Pitch's commands under a newcomer's hands: one Ctrl-C stops `bid` and `report` within 2 s
with what finished, marked partial, exit 130; `bid --score` refuses a finished game; wording."""

from __future__ import annotations

import numpy as np
import pytest

HAND = "KS JS 6S 3S KH TD"
AUCTION = "0:pass 1:3 2:4"


def test_one_ctrl_c_stops_bid_with_the_worlds_finished(interrupt_after_first_chunk):
    args = ["pitch", "bid", HAND, "--seat", "3", "--auction", AUCTION, "-n", "10000000"]
    code, stopped, out, err = interrupt_after_first_chunk(
        "piquet_sim.pitch.bid", "worlds_on_threads", *args
    )
    assert code == 130, err
    assert stopped < 2.0
    text = " ".join(out.split())
    assert "Interrupted: partial," in text and "of 10,000,000 worlds" in text
    assert "Recommendation:" in text
    assert "stopping after the work in flight" in err


@pytest.mark.parametrize("score", ["99:0:0:0", "0:0:18:0"])
def test_a_finished_game_is_refused(run_main, score):
    args = ("pitch", "bid", HAND, "--seat", "3", "--auction", AUCTION, "--score", score)
    code, out, err = run_main(*args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "not a game in progress to 12" in err


def test_a_defender_past_the_target_is_a_game_in_progress():
    """The rules' target: a bidder wins on making his bid at the target or more; a defender
    may pass it (pitch.kernels.game), so 12 .. 17 are scores of a game still going."""
    from piquet_sim.pitch.bid import check_in_progress

    check_in_progress([17, 0, 11, 0], 12)
    with pytest.raises(Exception, match="not a game in progress"):
        check_in_progress([18, 0, 0, 0], 12)


def test_one_ctrl_c_stops_report_and_writes_what_finished(tmp_path, interrupt_after_first_chunk):
    out_dir = tmp_path / "r"
    args = ["pitch", "report", "--out", str(out_dir), "-n", "10000000", "--games", "100"]
    code, stopped, out, err = interrupt_after_first_chunk(
        "piquet_sim.pitch.report", "simulate_rounds", *args
    )
    assert code == 130, err
    assert stopped < 2.0
    assert out.split() == [str(out_dir / "pitch_report.html"), str(out_dir / "pitch_report.md")]
    md = (out_dir / "pitch_report.md").read_text()
    assert "(partial: interrupted)" in md.splitlines()[0]
    assert "Partial: the report was interrupted; rounds done: 3 players (" in md
    assert "not run: 4, 5, 6 players" in md
    assert md.count("Not run: the report was interrupted.") == 2  # points at 4, games
    assert "the report is partial" in err


def test_report_counts_match_the_rounds_one_by_one(tmp_path):
    """The tallies give the figures the per-round arrays gave (bit counts done in Python)."""
    from piquet_sim.core.engine.stats import Z95
    from piquet_sim.pitch import report as R
    from piquet_sim.pitch.layouts import RoundRec
    from piquet_sim.pitch.policies import make_policy
    from piquet_sim.pitch.rules import Rules

    rules = Rules(players=4)
    recs, _ = R.simulate_rounds(
        3, 0, 3000, rules.to_array(), make_policy("threshold", "heuristic"), False
    )
    tally = R.RoundTally(3000)
    tally.add(recs[:1000])
    tally.add(recs[1000:])
    bidder = recs[:, RoundRec.BIDDER]
    hands = recs[np.arange(3000), RoundRec.HANDS + bidder]
    lanes = [
        (int(h) >> (16 * int(t))) & 0x1FFF
        for h, t in zip(hands, recs[:, RoundRec.TRUMP], strict=True)
    ]
    length = np.array([x.bit_count() for x in lanes])
    top = np.array([x.bit_length() - 1 for x in lanes])
    points = recs[np.arange(3000), RoundRec.POINTS + bidder]
    for k in range(1, 7):
        x = points[length == k]
        m, h = R._mean_ci(tally.bidder.sum(axis=1)[k])
        if len(x) > 1:
            assert m == pytest.approx(x.mean(), rel=1e-12)
            assert h == pytest.approx(Z95 * x.std(ddof=1) / np.sqrt(len(x)), rel=1e-9)
    assert int(tally.bidder.sum(axis=(0, 2))[13]) == int((top == 12).sum())
    made = recs[:, RoundRec.MADE] == 1
    for b in range(3, 7):
        assert tally.bids[b, 1] == int(((recs[:, RoundRec.BID] == b) & made).sum())


def test_report_text_has_no_stray_backticks_and_separates_thousands(tmp_path):
    from piquet_sim.core.app.report import render_html, render_markdown
    from piquet_sim.pitch.report import build

    sections = build(tmp_path, 2000, games=20)
    html = render_html("t", sections)
    md = render_markdown("t", sections)
    assert "`" not in html
    assert all("`" not in line for line in md.splitlines() if line.startswith("*"))
    assert "| 2,000 |" in md  # rounds per player count


def test_solve_labels_points_apart_from_the_round_score(run_main):
    """The bidder of 4 takes all six Points but scores his bid, +4 (pitch.kernels.scoring):
    'points' alone read as his score."""
    hands = ("AS KS 2S 3H 4D 5C", "JS 6S TH 9H 8D 7C", "QS 3S AH KH QD 2C", "TS 5S JH 2H AD KC")
    code, out, _ = run_main("pitch", "solve", *hands, "--leader", "0", "--bid", "4")
    assert code == 0
    text = " ".join(out.split())
    assert "points to come" in text and "not the round's score" in text
    assert "Bid 4: made; the bidder takes 6 points and scores +4" in text


def test_a_cancelled_report_runs_no_study(tmp_path):
    """A caller's cancel token, set before the report starts (``report.build(cancel=...)``):
    no round is played at any table size and the games say they did not run."""
    from piquet_sim.core.engine.backend import Cancel
    from piquet_sim.pitch import report

    cancel = Cancel()
    cancel.set()
    sections = report.build(tmp_path / "r", rounds=4000, games=10, cancel=cancel)
    text = "\n".join(b.content for s in sections for b in s.blocks if b.kind == "text")
    assert "Not run: the report was interrupted." in text
    assert {s.key: s.figures for s in sections}["pitch-games"] is None
