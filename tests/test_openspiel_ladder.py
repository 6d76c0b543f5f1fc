"""``piquet ladder --external``: outside players (OpenSpiel's IS-MCTS) as rows marked external
(skipped without the openspiel extra), and the one-line error when the extra is missing."""

from __future__ import annotations

import importlib.util
import json

import pytest
from click.testing import CliRunner

from piquet_sim.cli import cli, main

BASE = ["ladder", "--policies", "random,greedy", "--exchange", "greedy", "--deals", "40", "--quiet"]


def _fails(args: list[str], capsys) -> str:
    """The one line ``piquet`` prints to stderr when ``args`` exit with code 2."""
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_external_rows_join_the_ladder():
    pytest.importorskip("pyspiel")
    args = [*BASE, "--external", "ismcts:2", "--external-deals", "2", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    rows = out["external_matches"]
    assert [(r["a"], r["b"]) for r in rows] == [("ismcts-2", "random"), ("ismcts-2", "greedy")]
    assert all(r["deals"] == 2 and r["a_seconds_per_move"] > 0 for r in rows)
    marks = {r["policy"]: r["external"] for r in out["ratings"]}
    assert marks == {"random": False, "greedy": False, "ismcts-2": True}


def test_without_the_extra_one_line_and_exit_2(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyspiel" else real(name, *a)
    )
    assert "needs the openspiel extra" in _fails([*BASE, "--external", "ismcts:100"], capsys)


def test_unknown_or_foreign_external_players_are_refused(capsys):
    for spec, text in (("nosuch:1", "unknown external player"), ("colver", "does not play")):
        assert text in _fails([*BASE, "--external", spec], capsys)
