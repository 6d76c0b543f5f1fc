"""The core ``external`` table: a player's name folds between words, never inside one, and a
match of one deal says it has no interval instead of "± inf"."""

from __future__ import annotations

import math

from piquet_sim.core.app.external_cli import _print
from piquet_sim.core.study.external import ExternalRun


def _row(a: str, deals: int, half: float) -> dict:
    return {
        "a": a,
        "b": "heuristic",
        "deals": deals,
        "margin_per_deal": {"mean": 1.5, "se": half / 2, "ci95": [1.5 - half, 1.5 + half]},
        "cpu_seconds_per_move": {"a": 0.2, "b": 0.001},
        "oracle": False,
        "b_oracle": False,
        "partial": False,
    }


def _table(capsys, monkeypatch, rows, columns=80) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    _print(ExternalRun("pilotta", "the outside team's points", "default", 1, 1, rows))
    return capsys.readouterr().out


def test_a_match_of_one_deal_shows_no_infinite_interval(capsys, monkeypatch):
    out = _table(capsys, monkeypatch, [_row("ismcts-100", 1, math.inf)])
    assert "inf" not in out
    assert "n/a (1 deal)" in out


def test_a_long_player_name_is_not_broken_inside_a_word(capsys, monkeypatch):
    name = "colver-smart_ismcts-100000"
    out = _table(capsys, monkeypatch, [_row(name, 20, 0.5)], columns=70)
    assert name in out
    assert "± 0.50" in out
