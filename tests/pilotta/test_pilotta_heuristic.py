"""The heuristic play policy and the threshold bidder: kernels against their plain-Python
references (``reference/heuristic.py``, ``reference/auction.py``) card by card on whole rounds,
hand-worked positions, and what the heuristic must do better than random play."""

from __future__ import annotations

import numpy as np
import pytest
from test_pilotta_differential import RULE_SETS, SEED, run_differential

from piquet_sim.pilotta.api import make_setup
from piquet_sim.pilotta.cards import parse_cards
from piquet_sim.pilotta.kernels.auction import estimate
from piquet_sim.pilotta.kernels.simulate import simulate_batch
from piquet_sim.pilotta.layouts import RoundRec, Score
from piquet_sim.pilotta.policies import auction_params, defaults
from piquet_sim.pilotta.reference import auction as RA
from piquet_sim.pilotta.reference import heuristic as RH
from piquet_sim.pilotta.rules import Rules

HEUR = make_setup("threshold", "heuristic", "heuristic")
MIXED = make_setup(
    "threshold",
    "heuristic",
    "random",
    auction_args={"base": 40, "margin": 0},
    auction_ew="random",
    auction_args_ew=(500, 2),
)


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("setup", [HEUR, MIXED], ids=["heuristic", "mixed"])
def test_heuristic_and_threshold_match_reference(name, setup):
    played = run_differential(RULE_SETS[name], 700, setup)
    assert played >= 450


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("setup", [HEUR, MIXED], ids=["heuristic", "mixed"])
def test_heuristic_and_threshold_match_reference_full(name, setup):
    run_differential(RULE_SETS[name], 30_000, setup)


def test_estimate_matches_reference():
    rng = np.random.default_rng(5)
    params = defaults("auction", "threshold")
    arr = auction_params("threshold")
    for _ in range(3000):
        hand = int(sum(1 << int(c) for c in rng.choice(32, 8, replace=False)))
        for t in range(4):
            kernel = estimate(np.int64(hand), t, arr, _combos(hand), 0)
            assert kernel == RA.estimate(hand, t, params), (hand, t)


def _combos(hand: int) -> int:
    from piquet_sim.pilotta.reference.declarations import combinations

    return sum(c.value for c in combinations(hand, 0))


def _table(played="", c_team=0, trump=0, voids=()):
    return RH.Table(set(parse_cards_list(played)), set(voids), c_team, trump)


def parse_cards_list(text: str) -> list[int]:
    m = parse_cards(text) if text else 0
    return [c for c in range(32) if m >> c & 1]


def test_contracting_side_draws_trumps_with_the_master():
    hand = parse_cards("JS 9S 7S AH TH KD QD 8C")
    assert RH.lead(hand, 0, _table(c_team=0, trump=0)) == parse_cards_list("JS")[0]
    # defenders do not lead trumps: they cash the master ace of hearts instead
    assert RH.lead(hand, 1, _table(c_team=0, trump=0)) == parse_cards_list("AH")[0]


def test_points_onto_a_winning_partner_and_no_trump_wasted():
    # N led the master AH (hearts, trump spades), E followed small; S void in hearts holds
    # trumps: forced to trump (default rules) he plays the lowest trump...
    t = _table(played="AH 7H", c_team=0, trump=0)
    trick = [(0, parse_cards_list("AH")[0]), (1, parse_cards_list("7H")[0])]
    hand = parse_cards("JS 7S TD KC")
    legal = parse_cards_list("JS 7S")
    assert RH.follow(hand, legal, trick, t) == parse_cards_list("7S")[0]
    # ...and with the exemption (any card legal) the ten of diamonds: points, no trump
    legal = parse_cards_list("JS 7S TD KC")
    assert RH.follow(hand, legal, trick, t) == parse_cards_list("TD")[0]


def test_heuristic_beats_random_play():
    """The contracting team makes more points with heuristic play than with random play against
    random defenders (same deals, same fixed contract)."""
    rules = Rules().to_array()
    n = 20_000
    out = {}
    for name in ("heuristic", "random"):
        setup = make_setup("fixed", name, "random", auction_args=(0, 0))
        recs, _, _ = simulate_batch(SEED, 0, n, setup, rules)
        contract_ns = (recs[:, RoundRec.BIDDER] & 1) == 0
        raw = np.where(contract_ns, recs[:, RoundRec.RAW_NS], recs[:, RoundRec.RAW_EW])
        out[name] = raw[contract_ns].mean()
        assert (recs[:, RoundRec.SCORE + Score.MADE] >= 0).all()
    assert out["heuristic"] > out["random"] + 10, out
