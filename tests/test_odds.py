"""Exact dealt-hand odds, and Monte Carlo estimates checked against them (fixed seeds)."""

from __future__ import annotations

import json
import math
from math import comb

import numba
import numpy as np
import pytest

from piquet_sim.core.engine.stats import wilson_interval
from piquet_sim.piquet import exact
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.odds import OddsCounts, odds, summarize
from piquet_sim.piquet.rules import Rules
from piquet_sim.piquet.simulation import Policies, records_frame, simulate

N_HANDS = comb(32, 12)
FAST = Policies(
    elder_exchange="random", younger_exchange="random", elder_play="random", younger_play="random"
)


def test_exact_distributions_sum_to_one():
    for dist in (
        exact.point_length_distribution(),
        exact.best_sequence_distribution(),
        exact.best_set_distribution(),
    ):
        assert math.isclose(sum(dist.values()), 1.0, rel_tol=1e-12)


def test_exact_values_by_hand():
    # carte blanche: 12 cards from the 20 non-court cards
    assert math.isclose(exact.p_carte_blanche(), comb(20, 12) / N_HANDS)
    # a huitieme is a whole suit; 12 cards hold at most one: 4 * C(24, 4) hands
    p8 = 4 * comb(24, 4) / N_HANDS
    assert math.isclose(exact.point_length_distribution()[8], p8)
    assert math.isclose(exact.best_sequence_distribution()[8], p8)
    # point length 3 means suit counts exactly 3,3,3,3
    assert math.isclose(exact.point_length_distribution()[3], comb(8, 3) ** 4 / N_HANDS)
    # at least one quatorze: inclusion-exclusion over the five ranks T..A
    p_quatorze = (
        sum((-1) ** (k + 1) * comb(5, k) * comb(32 - 4 * k, 12 - 4 * k) for k in range(1, 4))
        / N_HANDS
    )
    assert math.isclose(exact.best_set_distribution()["quatorze"], p_quatorze)


def test_wilson_interval_contains_p_and_shrinks():
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi
    lo2, hi2 = wilson_interval(5000, 10000)
    assert hi2 - lo2 < (hi - lo) / 5
    assert wilson_interval(0, 1000)[0] < 1e-12 and wilson_interval(0, 1000)[1] > 0.001


@pytest.fixture(scope="module")
def summary_200k():
    summary, _ = odds(200_000, seed=4, policies=FAST)
    return summary


def test_dealt_estimates_within_four_standard_errors_of_exact(summary_200k):
    checked = 0
    for role in ("elder", "younger"):
        ests = [summary_200k[role]["carte_blanche"]]
        for table in summary_200k[role]["dealt"].values():
            ests.extend(table.values())
        for est in ests:
            se = math.sqrt(est["exact"] * (1 - est["exact"]) / summary_200k["deals"])
            if se > 0:
                assert abs(est["p"] - est["exact"]) <= 4 * se, est
                checked += 1
    assert checked >= 30


def test_a_wrong_exact_value_would_be_caught(summary_200k):
    """The 4-SE check has power: a point-length-5 value off by 1% absolute fails it."""
    est = summary_200k["elder"]["dealt"]["point_length"]["5"]
    wrong = est["exact"] + 0.01
    se = math.sqrt(wrong * (1 - wrong) / summary_200k["deals"])
    assert abs(est["p"] - wrong) > 4 * se


def test_json_shape(summary_200k):
    data = json.loads(json.dumps(summary_200k))
    assert data["deals"] == 200_000
    for role in ("elder", "younger"):
        for key in ("pique", "repique", "capot", "carte_blanche"):
            assert set(data[role][key]) >= {"p", "ci95"}
            lo, hi = data[role][key]["ci95"]
            assert lo <= data[role][key]["p"] <= hi
        assert "exact" in data[role]["carte_blanche"]


def test_records_identical_whatever_the_thread_count():
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(3000, seed=9)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = simulate(3000, seed=9)
    finally:
        numba.set_num_threads(previous)
    np.testing.assert_array_equal(one, two)
    # and a split run gives the same records as one run
    split = np.concatenate([simulate(1000, 9), simulate(2000, 9, start=1000)])
    np.testing.assert_array_equal(split, one)


@pytest.mark.parametrize("policies", [FAST, Policies()], ids=["random", "greedy"])
@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(lead_points="ten_or_higher", carte_rouge=True, younger_must_exchange=False)],
    ids=["default", "options"],
)
def test_record_invariants(policies, rules):
    df = records_frame(simulate(20_000, seed=2, policies=policies, rules=rules))
    assert ((df.elder_tricks + df.younger_tricks) == 12).all()
    for me, opp in (("elder", "younger"), ("younger", "elder")):
        tricks = df[f"{me}_tricks"]
        cards = df[f"{me}_cards"]
        assert (cards == np.where(tricks == 12, 40, np.where(tricks >= 7, 10, 0))).all()
        parts = sum(
            df[f"{me}_{k}"]
            for k in (
                "carte_blanche",
                "point",
                "sequence",
                "sets",
                "carte_rouge",
                "repique",
                "play",
                "cards",
                "pique",
            )
        )
        assert (parts == df[f"{me}_total"]).all()
        # at most one of pique and repique; no pique once the opponent scored a combination
        assert not ((df[f"{me}_pique"] > 0) & (df[f"{me}_repique"] > 0)).any()
        opp_combos = sum(df[f"{opp}_{k}"] for k in ("carte_blanche", "point", "sequence", "sets"))
        assert not ((df[f"{me}_pique"] > 0) & (opp_combos > 0)).any()
        # an opponent's carte blanche or point comes before anyone can reach 30
        opp_early = df[f"{opp}_carte_blanche"] + df[f"{opp}_point"]
        assert not ((df[f"{me}_repique"] > 0) & (opp_early > 0)).any()
    assert (df.net == df.elder_total - df.younger_total).all()
    assert df.elder_taken.between(1, 5).all()
    low = 0 if not rules.younger_must_exchange else 1
    assert df.younger_taken.between(low, 7).all()
    assert ((df.elder_taken + df.younger_taken) <= 8).all()
    if rules.lead_points == "every":
        assert (df.younger_pique == 0).all()  # elder's first lead always scores first
    if not rules.carte_rouge:
        assert (df.elder_carte_rouge == 0).all()


def test_interrupt_between_chunks_keeps_finished_chunks():
    calls = []

    def progress(done):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    summary, counts = odds(10_000, seed=1, policies=FAST, chunk=3000, progress=progress)
    assert summary["interrupted"] and summary["deals"] == 6000 == counts.deals


def test_chunked_counts_equal_one_pass():
    _, a = odds(9000, seed=3, policies=FAST, chunk=2000)
    b = OddsCounts()
    b.add(simulate(9000, seed=3, policies=FAST))
    assert a.counts == b.counts and (a.net_hist == b.net_hist).all()
    assert summarize(a)["net"] == summarize(b)["net"]


def test_record_layout_names_every_field():
    assert L.REC_LEN == 2 * L.RF_BLOCK + 4


def test_sinking_a_class_in_the_simulator_gives_it_away():
    base = records_frame(simulate(5000, seed=6, policies=FAST))
    sink = Policies(
        elder_exchange="random",
        younger_exchange="random",
        elder_play="random",
        younger_play="random",
        elder_declare="sink",
        declare_params={"elder": np.array([1.0, 0.0, 0.0])},
    )
    sunk = records_frame(simulate(5000, seed=6, policies=sink))
    assert (sunk.elder_point == 0).all() and base.elder_point.sum() > 0
    assert (sunk.point_winner != "elder").all()
    # the same deals and exchanges: younger wins the point whenever he was not beaten
    assert (sunk.younger_final_point_len == base.younger_final_point_len).all()
    assert (sunk.point_winner == "younger").all()


def test_simulate_chunks_stream_the_same_records():
    from piquet_sim.piquet.simulation import simulate_chunks

    parts = list(simulate_chunks(5000, seed=8, policies=FAST, chunk=1500))
    assert [len(p) for p in parts] == [1500, 1500, 1500, 500]
    np.testing.assert_array_equal(np.concatenate(parts), simulate(5000, seed=8, policies=FAST))
