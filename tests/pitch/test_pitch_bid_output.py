"""``piquet pitch bid`` prints through the core's output console: its lines fit the terminal
(80 columns when piped; a table's columns that cannot are named in a note) and a reader that
stops early (``| head -1``) ends it quietly with exit 0."""

from __future__ import annotations

ARGS = ("pitch", "bid", "AS JS 6S 2S KH TD", "--players", "4", "--seat", "2")
ARGS += ("--auction", "0:pass 1:3", "--deals", "400")


def test_bid_lines_fit_80_columns(run_main, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_main(*ARGS)
    assert code == 0
    assert "Recommendation" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_bid_read_by_head_ends_with_exit_0(run_main, closed_stdout):
    code, _, err = run_main(*ARGS)
    assert code == 0 and err == ""
