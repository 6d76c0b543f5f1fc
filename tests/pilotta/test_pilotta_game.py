"""Whole games to 351 (kernel state machine and simulated games) against the reference, and the
library API's frames and hand description."""

from __future__ import annotations

import numpy as np

from piquet_sim.pilotta import api
from piquet_sim.pilotta.cards import PACK
from piquet_sim.pilotta.kernels.game import GAME_STRIDE
from piquet_sim.pilotta.reference.declarations import combinations
from piquet_sim.pilotta.reference.scoring import GameState
from piquet_sim.pilotta.reference.simulate import simulate_round
from piquet_sim.pilotta.rules import Rules

AUCTION = (0, 350, 3)


def test_simulated_games_match_reference():
    """Each game replayed round by round by the reference (same streams: round r of game g is
    round g * GAME_STRIDE + 4 r + dealer of the seed) reaches the same totals and winner."""
    rules = Rules(game_target=151)  # shorter games, same machinery
    setup = api.make_setup("random", "random", "random", auction_args=AUCTION[1:])
    frame = api.simulate_games(40, seed=11, setup=setup, rules=rules)
    for g, row in frame.iterrows():
        state = GameState(target=151)
        r = 0
        while state.winner < 0:
            rnd = simulate_round(11, g * GAME_STRIDE + 4 * r + state.dealer, AUCTION, rules)
            if rnd.bidder < 0:
                state.add(0, 0)
            else:
                state.add(*rnd.score.total)
            r += 1
        assert (row["ns"], row["ew"], row["rounds"], row["winner"]) == (
            state.ns,
            state.ew,
            state.rounds,
            state.winner,
        ), g
        assert row["done"] == 1 and max(row["ns"], row["ew"]) >= 151


def test_simulate_rounds_frame():
    df = api.simulate_rounds(500, seed=4)
    assert len(df) == 500 and {"bidder", "score_total_ns", "raw_ns"} <= set(df.columns)
    played = df[df["bidder"] >= 0]
    assert (played["raw_ns"] + played["raw_ew"] == 162).all()
    thrown = df[df["bidder"] < 0]
    assert (thrown["trump"] == -1).all() and (thrown["score_total_ns"] == 0).all()


def test_describe_hand_matches_reference_combinations():
    rng = np.random.default_rng(8)
    for _ in range(300):
        cards = rng.choice(32, size=8, replace=False)
        hand = int(sum(1 << int(c) for c in cards))
        trump = int(rng.integers(4))
        d = api.describe_hand(hand, trump)
        ref = combinations(hand, trump)
        assert d["combination_points"] == sum(c.value for c in ref)
        assert sorted(c["value"] for c in d["combinations"]) == sorted(c.value for c in ref)
        assert sum(c["in_trumps"] for c in d["combinations"]) == sum(c.in_trumps for c in ref)


def test_describe_hand_points():
    # spades trumps: J 20, 9 14, A 11; hearts 10 + K 4; Q of diamonds 3; clubs 8 and 7 nothing
    d = api.describe_hand(PACK.parse("JS 9S AS TH KH QD 8C 7C"), 0)
    assert d["card_points"] == {"S": 62} and d["trumps"] == {"S": 3} and d["pilotta"] is False


def test_literal_trump_king_and_queen_points():
    # K and Q of trumps (spades) with the J: 20 + 4 + 3 = 27 by default, 20 + 3 + 2 = 25 under
    # trump_kq_points = (3, 2); the plain K and Q of hearts stay 4 + 3
    hand = PACK.parse("JS KS QS KH QH 7C 8C 9C")
    assert api.describe_hand(hand, 0)["card_points"] == {"S": 34}
    literal = Rules(trump_kq_points=(3, 2))
    assert api.describe_hand(hand, 0, literal)["card_points"] == {"S": 32}


def test_first_lead_option():
    """The contractor leads the first trick by default; under first_lead = "after_dealer" the
    player after the dealer does (round i is dealt by seat i % 4)."""
    df = api.simulate_rounds(3000, seed=9)
    played = df[df["bidder"] >= 0]
    assert (played["first_leader"] == played["bidder"]).all()
    assert (played["bidder"] != (played["dealer"] + 1) % 4).any()  # the option matters here
    df = api.simulate_rounds(3000, seed=9, rules=Rules(first_lead="after_dealer"))
    played = df[df["bidder"] >= 0]
    assert (played["first_leader"] == (played["dealer"] + 1) % 4).all()
