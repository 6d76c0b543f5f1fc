"""`piquet pilotta odds --plot` and `piquet pilotta report --json`, the dialect Piquet's odds
and report speak: the report's JSON carries the very figures its Markdown shows (the figure of
``odds --plot``: tests/core/test_odds_plot_in_every_game.py)."""

from __future__ import annotations

import json

import numpy as np


def _pct(est: dict) -> str:
    """A rate as the report's tables print it (``report._pct``)."""
    lo, hi = est["ci95"]
    return f"{100 * est['p']:.1f} ({100 * lo:.1f}-{100 * hi:.1f})"


def test_report_json_holds_the_figures_the_markdown_shows(run_main, tmp_path):
    args = ("pilotta", "report", "bold", "cautious", "--out", str(tmp_path), "-n", "300")
    code, out, err = run_main(*args, "--games", "10", "--seed", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    md = (tmp_path / "pilotta_report.md").read_text()
    assert (data["html"], data["md"]) == (
        str(tmp_path / "pilotta_report.html"),
        str(tmp_path / "pilotta_report.md"),
    )
    assert all((tmp_path / name).exists() for name in ("pilotta_contracts.png", "pilotta_bid.png"))
    assert [str(tmp_path / f"pilotta_{k}.png") for k in ("contracts", "points", "bid")] == data[
        "images"
    ]
    assert (data["a"], data["b"], data["deals"], data["seed"]) == ("bold", "cautious", 300, 2)
    assert data["rules"]["game_target"] == 351 and "partial" not in data and data["seconds"] > 0
    s = data["sections"]
    assert list(s) == ["contracts", "points", "match", "bid"]
    level = s["contracts"]["contracts"]["A"]["100"]
    b_level = s["contracts"]["contracts"]["B"]["100"]
    row = f"| 100 | {_pct(level['bids'])} | {_pct(level['made'])} | {_pct(b_level['bids'])} |"
    assert row in md
    assert s["contracts"]["rounds"] == 600 and level["bids"]["count"] > 0
    points = s["points"]
    assert f"{points['played']:,} played rounds" in md
    assert f"mean {points['contracting_points']['mean']:.1f}" in md
    sides = points["sides"]
    assert f"| A | {_pct(sides['A']['capots'])} | {_pct(sides['A']['pilotta'])} |" in md
    match = s["match"]
    d = match["a_minus_b"]
    assert f"per round {d['mean']:+.2f} (95% {d['ci95'][0]:+.2f} .. {d['ci95'][1]:+.2f}" in md
    assert f"P(A wins) {100 * match['p_a_wins']['p']:.1f}%" in md
    bid = s["bid"]
    assert f"Recommendation: **{bid['recommendation']}**" in md
    assert bid["best_calls"][0]["call"] == bid["recommendation"]


def test_report_without_json_prints_the_two_paths(run_main, tmp_path):
    args = ("pilotta", "report", "--out", str(tmp_path), "-n", "100", "--games", "10")
    code, out, err = run_main(*args)
    assert code == 0, err
    assert out.split() == [
        str(tmp_path / "pilotta_report.html"),
        str(tmp_path / "pilotta_report.md"),
    ]


def test_help_shows_the_new_options_in_an_example(run_main):
    code, out, _ = run_main("pilotta", "odds", "--help")
    assert code == 0 and "piquet pilotta odds -n 200000 --plot odds.png" in out
    code, out, _ = run_main("pilotta", "report", "--help")
    assert code == 0 and "--json --backend dask --workers 2" in out
    assert "bid advice" in out and "always runs here" in out


def test_chunk_tallies_merge_into_the_count_of_every_deal_at_once():
    """What a backend sends back per chunk (``tally_task``) adds up, in any order, to the
    tally of every deal in one chunk."""
    from piquet_sim.core.engine.backend import Chunk
    from piquet_sim.pilotta import report as R
    from piquet_sim.pilotta.rules import DEFAULT_RULES
    from piquet_sim.pilotta.strategies import REGISTRY

    a, b = REGISTRY["bold"], REGISTRY["heuristic"]
    whole = R.tally_task(Chunk(0, 500), a, b, 4, DEFAULT_RULES)
    merged = R.RoundTally()
    for start, size in ((300, 200), (0, 7), (7, 293)):  # finishing out of order
        merged.merge(R.tally_task(Chunk(start, size), a, b, 4, DEFAULT_RULES))
    assert (merged.rounds, merged.played, merged.card_points) == (
        whole.rounds,
        whole.played,
        whole.card_points,
    )
    assert whole.rounds == 1000 and whole.sides.sum() > 0
    for name in ("contracts", "reach", "sides"):
        assert np.array_equal(getattr(merged, name), getattr(whole, name)), name


def test_odds_plot_to_a_missing_directory_is_refused_before_any_deal(run_main, tmp_path):
    target = tmp_path / "missing" / "odds.png"
    code, out, err = run_main("pilotta", "odds", "-n", "1000", "--plot", str(target))
    assert code == 2 and out == "" and "does not exist" in err and err.count("\n") == 1
