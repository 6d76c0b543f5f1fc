"""Pilotta's commands under a newcomer's hands: one Ctrl-C stops `bid` (heuristic and dd play)
within 2 s with the worlds finished, marked partial, exit 130; `report` refuses sizes it cannot
hold before any work and leaves no empty directory; notices and wording."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

HAND = "JS 9S AS TS KH AD TD 7C"


@pytest.mark.parametrize(
    ("play", "deals"), [("heuristic", 1_000_000), ("dd", 5000)], ids=["heuristic", "dd"]
)
def test_one_ctrl_c_stops_bid_with_the_worlds_finished(play, deals, interrupt_after_first_chunk):
    args = ["pilotta", "bid", HAND, "--seat", "S", "--auction", "E:pass", "--play", play]
    # compiled first: a Ctrl-C during numba's compilation (a cold cache: a fresh CI checkout)
    # waits for it to finish, which this test does not measure
    warm = [sys.executable, "-m", "piquet_sim", *args, "-n", "64", "--json"]
    subprocess.run(warm, capture_output=True, check=True, timeout=600)
    code, stopped, out, err = interrupt_after_first_chunk(
        "piquet_sim.pilotta.bid", "worlds_on_threads", *args, "-n", str(deals), "--json"
    )
    assert code == 130, err
    assert stopped < 2.0
    data = json.loads(out)
    assert data["partial"] is True and data["requested"] == deals
    assert 0 < data["drawn"] < deals and data["worlds"] <= data["drawn"]
    assert "stopping after the work in flight" in err


def test_ctrl_c_while_the_game_chances_are_built_aborts_at_once(run_main, monkeypatch):
    """--score builds its table of game chances (one long kernel call) before the worlds; a
    Ctrl-C then ends the command within a moment (exit 130) instead of after the call."""
    import threading

    from piquet_sim.pilotta import bid as B

    def slow_table(*args):
        time.sleep(8)  # the kernel call, which a Ctrl-C cannot stop
        raise AssertionError("not reached before the test ends")

    monkeypatch.setattr(B, "win_probability_table", slow_table)
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.perf_counter()
    code, out, err = run_main(
        "pilotta", "bid", HAND, "--seat", "S", "--auction", "E:pass", "--score", "300:320"
    )
    assert code == 130 and "aborted" in err and out == ""
    assert time.perf_counter() - t0 < 3.0


@pytest.mark.parametrize("deals", ["100000000", "9999999999999999999"])
def test_report_refuses_more_deals_than_it_can_hold(run_main, tmp_path, deals):
    """Before: MemoryError (10^8) and OverflowError tracebacks, an empty directory left."""
    from piquet_sim.pilotta import report as R

    out_dir = tmp_path / "r"
    code, out, err = run_main("pilotta", "report", "--out", str(out_dir), "--deals", deals)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"at most {R.MAX_DEALS:,} deals" in err and "Traceback" not in err
    assert not out_dir.exists()
    assert R.MAX_DEALS * R.BYTES_PER_DEAL <= R.MEMORY  # the bound holds what it allocates


def test_report_failing_during_the_work_leaves_no_directory(run_main, tmp_path, monkeypatch):
    from piquet_sim.pilotta import report as R

    def broken(*args, **kwargs):
        raise MemoryError("no room")

    monkeypatch.setattr(R, "game", broken)
    out_dir = tmp_path / "r"
    with pytest.raises(MemoryError):
        run_main("pilotta", "report", "--out", str(out_dir), "--deals", "100", "--games", "10")
    assert not out_dir.exists()


def test_a_cold_solve_says_it_is_compiling(run_main, monkeypatch):
    """A cold `pilotta solve` compiled for about 30 s and printed nothing."""
    from piquet_sim.core.app import cli as core_cli
    from piquet_sim.core.app import compile as compile_module

    asked = []

    def cold(*dispatchers):
        asked.extend(dispatchers)
        return True

    monkeypatch.setattr(compile_module, "kernels_cold", cold)  # the notice reads it there
    args = ("pilotta", "solve", "JS AH", "9S KH", "AS QH", "TS 7H", "--trump", "S")
    code, out, err = run_main(*args, "--tricks", "3:3", "--points", "40")
    assert code == 0 and core_cli.COMPILING in err
    assert any(getattr(d, "__name__", "") == "solve_line" for d in asked)
    code, out, err = run_main(*args, "--tricks", "3:3", "--points", "40", "--json")
    assert code == 0 and err == ""  # JSON stays quiet


def test_odds_rows_read_as_words(run_main):
    code, out, _ = run_main("pilotta", "odds", "-n", "1000")
    assert code == 0
    for raw in ("longest_sequence.", "four.T", "trumps.1", "sequence_3+"):
        assert raw not in out
    for words in ("longest sequence: none", "four tens", "1 trump", "max trumps in a hand: 3"):
        assert words in out


def test_bid_ends_with_a_sentence_and_names_every_column(run_main):
    args = ("pilotta", "bid", HAND, "--seat", "S", "--auction", "E:pass", "-n", "300")
    code, out, _ = run_main(*args)
    assert code == 0
    assert out.rstrip().splitlines()[-1] == "Best: bid 130 with spades as trumps."
    code, out, _ = run_main(*args, "--score", "300:320")
    assert code == 0 and "P(win) %" in out  # the column the P(win) figures are in
    last = " ".join(out.split()).rsplit("Best: ", 1)[-1]  # the sentence may wrap
    assert last.startswith("bid ") and last.endswith("as trumps.")


def test_call_sentences():
    from piquet_sim.pilotta.cli.bid import call_sentence

    assert call_sentence("pass") == "pass"
    assert call_sentence("90H") == "bid 90 with hearts as trumps"
    assert call_sentence("capotC") == "bid capot with clubs as trumps"


def test_one_ctrl_c_stops_report_and_writes_what_finished(tmp_path, interrupt_after_first_chunk):
    """Before, the report was no long command: its rounds were one kernel call each way that
    a Ctrl-C waited for, and nothing it wrote said partial."""
    out_dir = tmp_path / "r"
    args = ("pilotta", "report", "--out", str(out_dir), "--deals", "4000000", "--games", "10")
    code, stopped, out, err = interrupt_after_first_chunk(
        "piquet_sim.pilotta.match", "simulate_batch", *args
    )
    assert code == 130, err
    assert stopped < 2.0
    assert out.split() == [str(out_dir / "pilotta_report.html"), str(out_dir / "pilotta_report.md")]
    md = (out_dir / "pilotta_report.md").read_text()
    assert "(partial: interrupted)" in md.splitlines()[0]
    assert "Partial: interrupted after" in md and "of 4,000,000 deals" in md
    assert md.count("Not run: the report was interrupted.") == 2  # the match, the advice
    assert "the report is partial" in err


def test_a_cancelled_report_runs_no_study(tmp_path):
    """A caller's cancel token, set before the report starts (``report.build(cancel=...)``):
    no round is played and every section says what did not run."""
    from piquet_sim.core.engine.backend import Cancel
    from piquet_sim.pilotta import report
    from piquet_sim.pilotta.strategies import BOOK

    cancel = Cancel()
    cancel.set()
    a, b = BOOK.resolve("bold"), BOOK.resolve("cautious")
    sections = report.build(a, b, tmp_path / "r", deals=4000, games=10, cancel=cancel)
    figures = {s.key: s.figures for s in sections}
    assert figures["match"] is None and figures["bid"] is None  # not run
    text = "\n".join(b.content for s in sections for b in s.blocks if b.kind == "text")
    assert text.count("Not run: the report was interrupted.") == len(sections) == 4
