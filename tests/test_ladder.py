"""The play-policy ladder: the rating fits on synthetic data, a small real ladder, the CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from piquet_sim.core.engine.backend import StopOnInterrupt
from piquet_sim.core.game.position import Decider
from piquet_sim.piquet import ladder as LD


def test_points_fit_recovers_consistent_margins():
    r = np.array([-3.0, 0.0, 1.5, 4.0])
    margins = r[:, None] - r[None, :]
    ses = np.full((4, 4), 0.1)
    fit, se = LD.fit_points(margins, ses, ref=1)
    assert fit == pytest.approx(r, abs=1e-9)
    assert se[1] == 0 and (se[[0, 2, 3]] > 0).all()


def test_points_fit_weights_precise_matches_more():
    # 0 v 1 says 1.0 precisely; the path 0 v 2 v 1 says 2.0 vaguely: the fit stays near 1.0
    margins = np.zeros((3, 3))
    margins[0, 1], margins[0, 2], margins[2, 1] = 1.0, 1.0, 1.0
    margins = margins - margins.T
    ses = np.array([[np.nan, 0.01, 1.0], [0.01, np.nan, 1.0], [1.0, 1.0, np.nan]])
    fit, _ = LD.fit_points(margins, ses, ref=1)
    assert abs(fit[0] - 1.0) < 0.01


def test_bradley_terry_recovers_strengths_from_expected_wins():
    elo = np.array([0.0, 150.0, -200.0])
    p = 10 ** (elo / 400)
    n = 10_000
    wins = np.array(
        [[n * p[i] / (p[i] + p[j]) if i != j else 0 for j in range(3)] for i in range(3)]
    )
    fit, se = LD.fit_bradley_terry(wins, ref=0)
    assert fit == pytest.approx(elo, abs=1e-6)
    assert se[0] == 0 and (se[1:] > 0).all() and (se[1:] < 20).all()


def test_small_ladder_orders_random_greedy_heuristic():
    res = LD.ladder(["random", "greedy", "heuristic"], deals=1500, seed=4)
    order = list(res.ratings["policy"])
    assert order == ["heuristic", "greedy", "random"]
    by = res.ratings.set_index("policy")
    # the reference is the heuristic (greedy before), the exchange heuristic too
    assert res.reference == "heuristic" and res.exchange == "heuristic"
    assert by.loc["heuristic", "rating"] == 0 and by.loc["heuristic", "vs_reference"] == 0
    assert by.loc["greedy", "vs_reference_ci_high"] < 0
    assert by.loc["random", "vs_reference_ci_high"] < by.loc["greedy", "vs_reference_ci_low"]
    assert 0 > by.loc["greedy", "elo"] > by.loc["random", "elo"]
    assert len(res.matches) == 3 and (res.matches["pairs"] == 1500).all()
    assert res.margins[2, 1] == -res.margins[1, 2]
    assert "heuristic > greedy by +" in LD.margins_text(res)
    sec = LD.ladder_section(res)
    assert sec.key == "ladder" and [b.kind for b in sec.blocks] == ["text", "table", "table"]
    d = res.to_dict()
    json.dumps(d)
    assert d["exchange"] == "heuristic" and d["reference"] == "heuristic"
    assert d["deals"] == 1500 and d["play_params"]["heuristic"]["endgame"] == 5
    assert all(math.isfinite(v) for v in res.ratings["rating"])


def test_ladder_exchange_and_reference_options(run_main):
    """The ladder's exchange is heuristic unless told (greedy before); --exchange and
    --reference name others."""
    assert LD.play_strategy("pimc").policy("exchange", "elder") == "heuristic"
    assert LD.reference_of(["greedy", "heuristic"]) == "heuristic"
    assert LD.reference_of(["pimc", "pimcw"]) == "pimc"
    args = ("ladder", "--policies", "random,greedy", "--deals", "300", "--json", "--quiet")
    code, out, err = run_main(*args, "--exchange", "greedy", "--reference", "greedy")
    assert code == 0, err
    data = json.loads(out)
    assert data["exchange"] == "greedy" and data["reference"] == "greedy"


def test_oracle_is_marked():
    assert LD.uses_solver(LD.play_strategy("dd"))
    frame_names = [p for p in LD.DEFAULT_POLICIES if LD.P.get("play", p).oracle]
    assert frame_names == ["dd"]


def test_ladder_cli(run_main):
    code, out, err = run_main(
        "ladder", "--policies", "random,greedy", "--deals", "1000", "--json", "--quiet"
    )
    assert code == 0, err
    data = json.loads(out)
    # the default reference (heuristic) is not playing: the first policy is rated 0
    assert data["reference"] == "random" and len(data["ratings"]) == 2
    code, out, _ = run_main("ladder", "--policies", "random,greedy", "--deals", "1000")
    assert code == 0 and "Margins" in out and "greedy > random" in out


@pytest.mark.parametrize(
    "args",
    [
        ("--policies", "greedy,nonsense"),
        ("--policies", "greedy"),
        ("--policies", "random,greedy", "--reference", "heuristic"),  # not among them
    ],
)
def test_ladder_cli_bad_input_is_one_line_exit_2(run_main, args):
    code, out, err = run_main("ladder", *args, "--deals", "10")
    assert code == 2
    assert "Traceback" not in err


class _StoppedAtOnce(Decider):
    """An outside player whose first move is met by a Ctrl-C: it finishes no deal."""

    name = "quitter"

    def choose(self, state):
        StopOnInterrupt.requested = True  # what the first Ctrl-C sets
        return state.legal_actions()[0]


def test_an_outside_player_that_finished_no_deal_is_shown_so_and_not_ranked(run_main, monkeypatch):
    from piquet_sim.piquet.cli import ladder as ladder_cli

    monkeypatch.setattr(ladder_cli, "external_decider", lambda game, spec, seed: _StoppedAtOnce())
    args = ("--policies", "random,greedy", "--deals", "200", "--external", "quitter")
    code, out, _ = run_main("ladder", *args, "--external-deals", "3")
    assert code == 130 and "PARTIAL" in out
    assert "nan" not in out
    row = next(line for line in out.splitlines() if "quitter" in line)
    assert row.count("no deal finished") == 3
    cells = [line.split("│")[1].strip() for line in out.splitlines() if line.startswith("│")]
    names = [cell for cell in cells if cell and not cell.startswith("(")]
    assert names[-3:] == ["greedy", "random", "quitter"]  # ranked first, then the unranked
    assert "> quitter" not in out  # not in the margins between neighbours
    code, out, _ = run_main("ladder", *args, "--external-deals", "3", "--json")
    ratings = {r["policy"]: r for r in json.loads(out)["ratings"]}
    assert not ratings["quitter"]["played"] and ratings["quitter"]["rating"] is None
    assert ratings["greedy"]["played"] and ratings["greedy"]["rating"] > 0
