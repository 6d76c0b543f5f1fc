"""Odds per play policy: score distributions per player (``score_counts``) and the heuristic's
capot, pique and repique rates beside greedy's on the same deals."""

from __future__ import annotations

import json

import pytest

from piquet_sim.piquet.odds import odds, score_quantiles
from piquet_sim.piquet.simulation import Policies

N = 10_000


@pytest.fixture(scope="module")
def both():
    out = {}
    for play in ("greedy", "heuristic"):
        pol = Policies(elder_play=play, younger_play=play)
        out[play], _ = odds(N, seed=7, policies=pol, with_scores=True)
    return out


def test_score_counts_are_each_players_deal_totals(both):
    for s in both.values():
        for role in ("elder", "younger"):
            counts = s[role]["score_counts"]
            assert sum(counts.values()) == N
            assert all(int(v) >= 0 and c > 0 for v, c in counts.items())
            mean = sum(int(v) * c for v, c in counts.items()) / N
            assert mean == pytest.approx(s[role]["mean_total"]["mean"], abs=1e-9)
            # a capot scores 40 at least
            at_least_40 = sum(c for v, c in counts.items() if int(v) >= 40)
            assert at_least_40 >= s[role]["capot"]["count"]


def test_heuristic_concedes_fewer_capots_than_greedy(both):
    g, h = both["greedy"]["elder"]["capot"], both["heuristic"]["elder"]["capot"]
    assert h["ci95"][1] < g["ci95"][0]
    for key in ("pique", "repique", "capot"):
        assert 0 <= both["heuristic"]["younger"][key]["p"] <= 1
    # repique comes from the declarations only: the play policy cannot move it
    assert both["heuristic"]["elder"]["repique"] == both["greedy"]["elder"]["repique"]


def test_score_quantiles_by_hand():
    assert score_quantiles({"0": 1, "10": 2, "30": 1}, (0.25, 0.5, 0.75, 1.0)) == [0, 10, 10, 30]


def test_odds_cli_shows_the_score_table_and_json_key(run_main):
    args = ("odds", "--deals", "2000", "--play", "heuristic", "--quiet")
    code, out, err = run_main(*args, "--score-counts")
    assert code == 0, err
    assert "Deal total per player" in out
    code, out, _ = run_main(*args, "--score-counts", "--json")
    data = json.loads(out)
    assert sum(data["younger"]["score_counts"].values()) == 2000
    code, out, _ = run_main(*args, "--json")  # without the flag: the JSON keeps its old keys
    assert "score_counts" not in json.loads(out)["elder"]


def test_odds_defaults_to_heuristic_exchange_and_play(run_main):
    """`piquet odds` with no options exchanges and plays by the heuristic policies
    (the strongest fast ones; greedy before), and so does the library's ``odds``."""
    code, out, err = run_main("odds", "--deals", "1000", "--quiet", "--json")
    assert code == 0, err
    pol = json.loads(out)["policies"]
    assert pol["elder_exchange"] == pol["younger_exchange"] == "heuristic"
    assert pol["elder_play"] == pol["younger_play"] == "heuristic"
    summary, _ = odds(1000, seed=1)
    assert summary["policies"] == pol
