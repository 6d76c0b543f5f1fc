"""The numba round (deal, auction, play, scoring) against the plain-Python reference, round by
round: the auction's result, the legal cards offered at every play, every trick's winner, who
took each of the six points, points, game points, round scores and the bid made or failed.

The default set (CI) checks 7,500 rounds per player count (3, 4, 5, 6): 3,000 random rounds
with the default rules, 1,000 under each other rules option and 1,500 with the threshold bid
and heuristic play policies (sized to keep CI's whole run under its time limit). ``-m slow``
checks 100,000 random rounds per player count under every rules option (400,000 per player
count), the count the issue asks for.
"""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.pitch.kernels.simulate import simulate_rounds
from piquet_sim.pitch.layouts import POINT_NAMES, RoundRec, TraceRec
from piquet_sim.pitch.policies import PolicyArrays as Policy
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.reference import rules as R
from piquet_sim.pitch.rules import Rules

RANDOM = Policy(np.array([0, 0], dtype=np.int64), np.zeros(1))
OPTIONS = {
    "default": {},
    "must_follow": {"must_follow": True},
    "low_to_capturer": {"low_to": "capturer"},
    "game_tie_bidder": {"game_tie": "bidder"},
}
CHUNK = 20_000


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def check_rounds(rules: Rules, seed: int, n_rounds: int, policy: Policy = RANDOM) -> int:
    """Compare ``n_rounds`` kernel rounds with the reference; returns the rounds checked.
    Mismatches fail with the round index and what differs."""
    n = rules.players
    arr = rules.to_array()
    checked = 0
    for start in range(0, n_rounds, CHUNK):
        size = min(CHUNK, n_rounds - start)
        records, traces = simulate_rounds(seed, start, size, arr, policy, True)
        for i in range(size):
            rec = [int(x) for x in records[i]]
            tr = [int(x) for x in traces[i]]
            where = f"round {start + i} of seed {seed}, {n} players, {rules}"
            hands = rec[RoundRec.HANDS : RoundRec.HANDS + n]
            calls = rec[RoundRec.BIDS : RoundRec.BIDS + n]
            bidder, bid, stole = R.auction_result(calls)
            assert (bidder, bid, int(stole)) == (
                rec[RoundRec.BIDDER],
                rec[RoundRec.BID],
                rec[RoundRec.STOLE],
            ), where
            plays = tr[TraceRec.PLAYS : TraceRec.PLAYS + 6 * n]
            ref = R.score_round(
                hands,
                bidder,
                bid,
                plays,
                rules.must_follow,
                rules.low_to == "capturer",
                rules.game_tie == "bidder",
            )
            legal = [_mask(cards) for cards in ref.legal]
            assert legal == tr[TraceRec.LEGAL : TraceRec.LEGAL + 6 * n], where
            assert ref.winners == tr[TraceRec.WINNERS : TraceRec.WINNERS + 6], where
            assert ref.trump == rec[RoundRec.TRUMP], where
            takers = [-1 if ref.takers[p] is None else ref.takers[p] for p in POINT_NAMES]
            assert takers == rec[RoundRec.TAKER : RoundRec.TAKER + 6], where
            assert ref.points == rec[RoundRec.POINTS : RoundRec.POINTS + n], where
            assert ref.game_points == rec[RoundRec.GAME_PTS : RoundRec.GAME_PTS + n], where
            assert ref.scores == rec[RoundRec.SCORE : RoundRec.SCORE + n], where
            assert int(ref.made) == rec[RoundRec.MADE], where
            assert ref.total == rec[RoundRec.TOTAL], where
            checked += 1
    return checked


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_default_rules_3k_rounds(players):
    assert check_rounds(Rules(players=players), 17 + players, 3_000) == 3_000


@pytest.mark.parametrize("option", [o for o in OPTIONS if o != "default"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_option_1k_rounds(players, option):
    rules = Rules(players=players, **OPTIONS[option])
    assert check_rounds(rules, 101 + players, 1_000) == 1_000


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_threshold_bids_heuristic_play_1500_rounds(players):
    """The heuristic play policy's cards are legal and the rounds score as the reference."""
    policy = make_policy("threshold", "heuristic")
    assert check_rounds(Rules(players=players), 303 + players, 1_500, policy) == 1_500


@pytest.mark.slow
@pytest.mark.parametrize("option", list(OPTIONS))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_option_100k_rounds(players, option):
    rules = Rules(players=players, **OPTIONS[option])
    assert check_rounds(rules, 202 + players, 100_000) == 100_000
