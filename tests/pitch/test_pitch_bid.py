"""The bid advisor: exact chances where counting gives them, the score of each call against
its own outcomes, reproducibility whatever the thread count, the auction's parsing and the
``piquet pitch bid`` command."""

from __future__ import annotations

import json
import math

import numba
import numpy as np
import pytest

from piquet_sim.core.errors import InputError
from piquet_sim.pitch import cards as C
from piquet_sim.pitch.bid import advise_bid, candidates, parse_auction
from piquet_sim.pitch.kernels.advisor import BidQuery, advise_worlds
from piquet_sim.pitch.layouts import AdviceRec
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.rules import Rules

HAND = "KS JS 6S 3S KH TD"


def _within(est, exact, n, z=4.0):
    se = max(np.sqrt(exact * (1 - exact) / n), 1e-9)
    assert abs(est - exact) <= z * se, (est, exact)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_high_and_low_match_counting(players):
    """Holding KS and 3S but not AS or 2S: High and Low of spades are his exactly when the
    AS (resp. 2S) is not dealt: (46 - 6 (players - 1)) / 46; with KH his only heart, Low of
    hearts needs none of the eleven lower hearts dealt (uniform prior: seat 0, no calls)."""
    worlds = 20_000
    adv = advise_bid(C.parse_cards(HAND), players, 0, [], worlds=worlds, seed=3)
    spades = next(s for s in adv.suits if s.suit == "S")
    exact = (46 - 6 * (players - 1)) / 46
    _within(spades.p_points["high"].mean, exact, worlds)
    _within(spades.p_points["low"].mean, exact, worlds)
    hearts = next(s for s in adv.suits if s.suit == "H")
    _within(hearts.p_points["high"].mean, exact, worlds)  # KH: the AH not dealt
    dealt = 6 * (players - 1)
    low = math.comb(46 - 11, dealt) / math.comb(46, dealt)  # none of the 11 lower hearts dealt
    _within(hearts.p_points["low"].mean, low, worlds)


def test_ace_and_two_held_score_high_and_low_always():
    adv = advise_bid(C.parse_cards("AS JS 6S 2S KH TD"), 4, 1, [0], worlds=2000)
    spades = adv.suits[0]
    assert spades.suit == "S"
    assert spades.p_points["high"].mean == 1.0 and spades.p_points["low"].mean == 1.0
    assert spades.expected_points.mean >= 4.0


def test_call_scores_follow_their_outcomes_and_threads_agree():
    hand = C.parse_cards(HAND)
    players, seat = 4, 2
    calls = [0, 3]
    cands = candidates(hand, seat, players, calls)
    padded = np.full(6, -1, dtype=np.int64)
    padded[:seat] = calls
    query = BidQuery(np.int64(seat), np.int64(hand), padded, cands, np.int64(1))
    rules = Rules(players=players).to_array()
    pol = make_policy("threshold", "heuristic")
    prev = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one, m1 = advise_worlds(np.int64(9), np.int64(600), rules, pol, query)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many, m2 = advise_worlds(np.int64(9), np.int64(600), rules, pol, query)
    finally:
        numba.set_num_threads(prev)
    assert np.array_equal(one, many) and np.array_equal(m1, m2)
    for j, (call, _suit, forced) in enumerate(cands.tolist()):
        o = one[:, j]
        mine = o[:, AdviceRec.BIDDER] == seat
        pts = o[:, AdviceRec.POINTS]
        bid = o[:, AdviceRec.BID]
        expect = np.where(mine, np.where(pts >= bid, bid, -bid), pts)
        assert np.array_equal(o[:, AdviceRec.SCORE], expect)
        assert np.array_equal(pts, [bin(int(t)).count("1") for t in o[:, AdviceRec.TAKEN]])
        if forced:
            assert mine.all()
        elif call == 0:
            assert not mine.any()
        else:
            assert (bid[mine] == call).all()  # he is the bidder only at his own bid
            assert (bid[~mine] > call).all() or (~mine).sum() == 0 or seat != players - 1


def test_dealer_steal_is_offered_and_named():
    adv = advise_bid(C.parse_cards("AS JS 6S 2S KH TD"), 4, 3, [0, 3, 5], worlds=500)
    names = [c.call for c in adv.calls]
    assert "5 S (steal)" in names and "6 S" in names and "pass" in names
    assert "4 S" not in names


def test_dealer_after_three_passes_cannot_pass():
    adv = advise_bid(C.parse_cards(HAND), 4, 3, [0, 0, 0], worlds=200)
    assert "pass" not in [c.call for c in adv.calls]
    assert adv.recommendation != "pass"


@pytest.mark.parametrize(
    ("text", "seat", "message"),
    [
        ("0:pass 1:x", 2, "expected SEAT:CALL"),
        ("1:pass", 1, "seat order"),
        ("0:4 1:3", 2, "higher than 4"),
        ("0:pass", 2, "give their 2 calls"),
    ],
)
def test_parse_auction_errors(text, seat, message):
    with pytest.raises(InputError, match=message):
        parse_auction(text, seat, 4)


def test_parse_auction():
    assert parse_auction("0:pass 1:4 2:p", 3, 4) == [0, 4, 0]
    assert parse_auction("", 0, 4) == []


def test_bid_command(run_main):
    code, out, err = run_main(
        "pitch",
        "bid",
        HAND,
        "--players",
        "4",
        "--seat",
        "1",
        "--auction",
        "0:pass",
        "--deals",
        "300",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["worlds"] == 300 and data["seat"] == 1
    assert {c["call"] for c in data["calls"]} >= {"pass", "3 S", "6 S"}
    code, out, _ = run_main(
        "pitch", "bid", HAND, "--seat", "1", "--auction", "0:pass", "--deals", "200"
    )
    assert code == 0 and "Recommendation" in out
    code, out, _ = run_main("pitch", "bid", "--help")
    assert code == 0 and "Example" in out
    for bad in (
        ["--seat", "1", "--auction", "0:9"],
        ["--seat", "5", "--players", "4"],
        ["--seat", "0", "--auction", "0:pass"],
    ):
        code, out, err = run_main("pitch", "bid", HAND, *bad)
        assert code == 2 and err.count("\n") == 1, err
