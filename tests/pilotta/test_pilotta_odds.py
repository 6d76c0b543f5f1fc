"""Odds of combinations and trumps: exact values against an independent count, estimates
against exact values, and reproducibility (threads, chunking)."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from piquet_sim.pilotta import exact
from piquet_sim.pilotta.kernels.odds import odds_batch
from piquet_sim.pilotta.kernels.simulate import simulate_batch
from piquet_sim.pilotta.odds import count, odds
from piquet_sim.pilotta.rules import Rules

TOLERANCE_SE = 4  # an estimate must lie within 4 standard errors (from the exact p) of it


def test_exact_distributions_sum_to_one():
    for scope in exact.SCOPES:
        assert math.isclose(sum(exact.longest_sequence(scope).values()), 1.0)
        assert math.isclose(sum(exact.trumps(scope)), 1.0)


def test_closed_forms():
    hands = math.comb(32, 8)
    assert math.isclose(exact.four_of_a_rank("hand"), math.comb(28, 4) / hands)
    # two players never both hold the four cards of one rank: team 2x, table 4x
    assert math.isclose(exact.four_of_a_rank("team"), 2 * math.comb(28, 4) / hands)
    assert math.isclose(exact.four_of_a_rank("table"), 4 * math.comb(28, 4) / hands)
    # any of six fours in one hand: 6 C(28,4) - C(6,2) C(24,0) (two fours fill the hand)
    assert math.isclose(exact.any_four("hand"), (6 * math.comb(28, 4) - 15) / hands)
    assert math.isclose(exact.pilotta("hand"), math.comb(30, 6) / hands)
    assert math.isclose(exact.trumps("hand")[3], math.comb(8, 3) * math.comb(24, 5) / hands)


def test_hand_sequences_by_generating_function():
    """A second count of one hand's sequences: the x^8 coefficient of the product over four
    suits of sum_h x^|h| over holdings h without a run of the length (polynomial algebra)."""
    for length in (3, 4, 5):
        poly = [0] * 9
        for h in range(256):
            runs = max((len(r) for r in format(h, "08b").split("0")), default=0)
            if runs < length:
                poly[bin(h).count("1")] += 1
        prod = [1] + [0] * 8
        for _ in range(4):
            prod = [sum(prod[i] * poly[k - i] for i in range(k + 1)) for k in range(9)]
        without = prod[8] / math.comb(32, 8)
        assert math.isclose(exact.sequence_at_least("hand", length), 1 - without)


def test_estimates_agree_with_exact_values():
    n = 200_000
    result = odds(n, seed=2024, trump=2)
    checked = 0
    for scope, events in result["scopes"].items():
        for name, est in events.items():
            p = est["exact"]
            se = math.sqrt(max(p * (1 - p), 1e-12) / n)
            assert abs(est["p"] - p) <= TOLERANCE_SE * se + 1e-9, (scope, name, est)
            assert est["ci95"][0] <= est["p"] <= est["ci95"][1]
            checked += 1
    assert checked == 3 * 24  # 4 + 3 sequence, 6 + 1 four, pilotta, 9 trump counts


def test_odds_same_whatever_threads_and_chunks():
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = odds_batch(5, 0, 30_000, 1)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = odds_batch(5, 0, 30_000, 1)
    finally:
        numba.set_num_threads(previous)
    assert (one == two).all()
    split, done = count(30_000, seed=5, trump=1, chunk=7_001)
    assert done == 30_000 and (split == one).all()
    assert (odds_batch(5, 0, 10_000, 1) + odds_batch(5, 10_000, 20_000, 1) == one).all()


@pytest.mark.parametrize("threads", [1, 2])
def test_simulated_rounds_same_whatever_threads_and_split(threads):
    setup = np.array([0, 500, 3, 1, 0], dtype=np.int64)  # greedy NS, random EW
    rules = Rules().to_array()
    whole = simulate_batch(3, 0, 3000, setup, rules)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        a = simulate_batch(3, 0, 1000, setup, rules)
        b = simulate_batch(3, 1000, 2000, setup, rules)
    finally:
        numba.set_num_threads(previous)
    for part, x, y in zip(whole, a, b, strict=True):
        assert (part == np.concatenate([x, y])).all()
