"""`piquet pitch odds --plot` and `piquet pitch report --json`, the dialect Piquet's odds and
report speak: the report's JSON carries the very figures its Markdown shows (the figure of
``odds --plot``: tests/core/test_odds_plot_in_every_game.py)."""

from __future__ import annotations

import json

import numpy as np


def _pct(est: dict) -> str:
    """A rate as the report's tables print it (``report._pct``)."""
    lo, hi = est["ci95"]
    return f"{100 * est['p']:.1f} ({100 * lo:.1f}-{100 * hi:.1f})"


def test_report_json_holds_the_figures_the_markdown_shows(run_main, tmp_path):
    args = ("pitch", "report", "--out", str(tmp_path), "-n", "300", "--games", "10")
    code, out, err = run_main(*args, "--seed", "2", "--players", "5", "--json")
    assert code == 0, err
    data = json.loads(out)
    md = (tmp_path / "pitch_report.md").read_text()
    assert data["md"] == str(tmp_path / "pitch_report.md")
    assert data["images"] == [str(tmp_path / "pitch_points.png"), str(tmp_path / "pitch_bids.png")]
    assert (data["a"], data["b"], data["deals"], data["seed"]) == ("cautious", "threshold", 300, 2)
    assert data["rules"]["players"] == 5 and "partial" not in data and data["seconds"] > 0
    s = data["sections"]
    assert list(s) == ["pitch-points", "pitch-bids", "pitch-games"]
    three = s["pitch-points"]["by_trumps"]["3"]
    assert three["rounds"] > 1
    assert f"| 3 | {three['rounds']:,} | {three['mean']:.2f} ± {three['half95']:.2f} |" in md
    ace = s["pitch-points"]["by_top_trump"]["A"]
    assert f"| A | {ace['rounds']:,} | {ace['mean']:.2f} ± {ace['half95']:.2f} |" in md
    four = s["pitch-bids"]["by_players"]["4"]
    row = f"| 4 | 300 | {four['mean_bid']:.2f} | {_pct(four['made']['3'])} |"
    assert row in md and f"{_pct(four['made_overall'])} |" in md
    games = s["pitch-games"]
    assert games["players"] == 5 and len(games["results"]) == 2
    for r in games["results"]:
        assert f"| {r['hero']} | {r['field']} | {r['games']:,} | {_pct(r['p_hero_wins'])} |" in md


def test_help_shows_the_new_options_in_an_example(run_main):
    code, out, _ = run_main("pitch", "odds", "--help")
    assert code == 0 and "piquet pitch odds --players 5 --plot odds.png" in out
    code, out, _ = run_main("pitch", "report", "--help")
    assert code == 0 and "--json --backend dask --workers 2" in out


def test_chunk_tallies_merge_into_the_count_of_every_round_at_once():
    """What a backend sends back per chunk (``tally_task``) adds up, in any order, to the
    tally of every round in one chunk."""
    from piquet_sim.core.engine.backend import Chunk
    from piquet_sim.pitch import report as R
    from piquet_sim.pitch.policies import make_policy
    from piquet_sim.pitch.rules import Rules

    args = (3, Rules(players=4).to_array(), make_policy("threshold", "heuristic"))
    whole = R.tally_task(Chunk(0, 400), *args)
    merged = R.RoundTally(400)
    for start, size in ((250, 150), (0, 9), (9, 241)):  # finishing out of order
        merged.merge(R.tally_task(Chunk(start, size), *args))
    assert merged.rounds == whole.rounds == 400 and not merged.partial
    assert whole.bids[:, 1].sum() > 0
    assert np.array_equal(merged.bidder, whole.bidder)
    assert np.array_equal(merged.bids, whole.bids)


def test_odds_plot_to_a_missing_directory_is_refused_before_any_deal(run_main, tmp_path):
    target = tmp_path / "missing" / "odds.png"
    code, out, err = run_main("pitch", "odds", "-n", "1000", "--plot", str(target))
    assert code == 2 and out == "" and "does not exist" in err and err.count("\n") == 1
