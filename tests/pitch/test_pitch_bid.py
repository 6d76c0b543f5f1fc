"""The bid advisor: exact chances where counting gives them, the score of each call against
its own outcomes, reproducibility whatever the thread count, the auction's parsing and the
``piquet pitch bid`` command."""

from __future__ import annotations

import json
import math

import numba
import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.engine.rng import stream_key
from piquet_sim.pitch import cards as C
from piquet_sim.pitch.bid import advise_bid, candidates, decisive, parse_auction
from piquet_sim.pitch.kernels.advisor import (
    EXTRA_STREAM,
    BidQuery,
    advise_worlds,
    consistent,
    deal_fitting,
    draw_world,
)
from piquet_sim.pitch.kernels.round import new_round_work
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


# ---------------------------------------------------------------------- advice at the end of a game
EXAMPLE_CALLS = [0, 3, 4]
EXAMPLE_SCORES = [9, 4, 10, 7]


def test_a_decisive_score_ranks_the_calls_by_p_win():
    """Seat 3 (the dealer, at 7 of 12) after "0:pass 1:3 2:4" with scores
    9:4:10:7. Making 5 takes him to 12 (the game), a steal at 4 only to 11: the calls are ranked
    by P(win) (the round is decisive) and 5 S is recommended; it was 4 S (steal), ranked by the
    expected score change though its P(win) was far below 5 S's."""
    hand = C.parse_cards(HAND)
    adv = advise_bid(hand, 4, 3, EXAMPLE_CALLS, worlds=400, seed=1, scores=EXAMPLE_SCORES)
    assert adv.rank == "win"
    assert adv.rank_reason.startswith("the round is decisive")
    assert "making a bid of 5 or more takes you from 7 to 12" in adv.rank_reason
    assert adv.recommendation == "5 S"
    assert max(adv.calls, key=lambda c: c.p_win.mean).call == "5 S"
    assert adv.to_dict()["rank"] == "win" and adv.to_dict()["rank_reason"] == adv.rank_reason
    asked = advise_bid(
        hand, 4, 3, EXAMPLE_CALLS, worlds=400, seed=1, scores=EXAMPLE_SCORES, rank="score"
    )
    assert asked.rank == "score" and asked.recommendation == "4 S (steal)"
    calm = advise_bid(hand, 4, 3, EXAMPLE_CALLS, worlds=200, seed=1, scores=[0, 0, 0, 0])
    assert calm.rank == "score" and "not decisive" in calm.rank_reason
    plain = advise_bid(hand, 4, 3, EXAMPLE_CALLS, worlds=200, seed=1)
    assert plain.rank == "score" and plain.rank_reason == "no scores given"


def test_decisive_names_who_can_reach_the_target():
    assert decisive([9, 4, 10, 7], 3, [0, 3, 4], 4, 12) == [
        "making a bid of 5 or more takes you from 7 to 12",
        "seat 2 at 10 wins by making his 4",
    ]
    assert decisive([0, 0, 0, 0], 1, [0], 4, 12) == []
    assert decisive([0, 0, 0, 9], 1, [0], 4, 12) == ["seat 3 at 9 wins by making a bid of 3"]
    # after a 6 only the dealer may bid (a steal at 6): at 5 he cannot reach 12, at 6 he can
    assert decisive([0, 0, 0, 5], 1, [6], 4, 12) == []
    assert decisive([0, 0, 0, 6], 1, [6], 4, 12) == ["seat 3 at 6 wins by making a bid of 6"]


def test_every_world_fits_the_calls():
    """4,573 of 5,000 worlds of that example did not fit the calls (256 whole
    deals each were too few for "0:pass 1:3 2:4" under ``threshold``) and were used all the
    same. Now every world fits (the cheaper seat-by-seat draws after the whole deals), the
    count is reported, and a world that never fits would be left out."""
    hand = C.parse_cards(HAND)
    cands = candidates(hand, 3, 4, EXAMPLE_CALLS)
    padded = np.full(6, -1, dtype=np.int64)
    padded[:3] = EXAMPLE_CALLS
    query = BidQuery(np.int64(3), np.int64(hand), padded, cands, np.int64(1))
    pol = make_policy("threshold", "heuristic")
    work = new_round_work()
    dealt = np.zeros(6, dtype=np.int64)
    state = np.zeros(1, dtype=np.int64)
    extra = 0
    for w in range(200):
        key, miss = draw_world(np.int64(1), np.int64(w), np.int64(4), pol, query, work, dealt)
        assert miss == 0
        assert consistent(dealt, query, pol, np.uint64(key), state)
        assert dealt[3] == hand and sum(C.popcount(int(h)) for h in dealt) == 24
        assert np.bitwise_or.reduce(dealt) == sum(int(h) for h in dealt)  # disjoint hands
        extra += int(key) == int(stream_key(np.int64(1), np.int64(EXTRA_STREAM + w)))
    assert extra > 100  # most needed the seat-by-seat draws
    adv = advise_bid(hand, 4, 3, EXAMPLE_CALLS, worlds=500, seed=1)
    assert adv.inconsistent_worlds == 0
    assert adv.worlds == adv.worlds_drawn == adv.worlds_fitting == 500


def test_world_count_is_printed(run_main):
    code, out, err = run_main(
        "pitch",
        "bid",
        HAND,
        "--seat",
        "3",
        "--auction",
        "0:pass 1:3 2:4",
        "--score",
        "9:4:10:7",
        "-n",
        "300",
    )
    assert code == 0, err
    flat = " ".join(out.split())  # the lines wrap to the terminal's width
    assert "300 worlds (seed 1), 300 fit the calls" in flat
    assert "Calls ranked by P(winning the game): the round is decisive" in flat
    assert "Recommendation: 5 S" in flat


def test_the_seat_by_seat_draws_sample_as_whole_deals():
    """``deal_fitting`` (the cheap draws) and the whole deals kept by rejection sample the same
    law: for calls that whole deals fit often ("0:pass 1:3" under threshold), the chance that
    each seat holds each of a few cards agrees within the noise."""
    hand = C.parse_cards(HAND)
    calls = [0, 3]
    cands = candidates(hand, 2, 4, calls)
    padded = np.full(6, -1, dtype=np.int64)
    padded[:2] = calls
    query = BidQuery(np.int64(2), np.int64(hand), padded, cands, np.int64(1))
    pol = make_policy("threshold", "heuristic")
    work = new_round_work()
    n = 3000
    whole = np.zeros((n, 6), dtype=np.int64)
    cheap = np.zeros((n, 6), dtype=np.int64)
    state = np.zeros(1, dtype=np.int64)
    for w in range(n):
        _, miss = draw_world(np.int64(2), np.int64(w), np.int64(4), pol, query, work, whole[w])
        assert miss == 0
        state[0] = 0
        key = np.uint64(stream_key(np.int64(5), np.int64(w)))
        assert deal_fitting(key, state, np.int64(4), query, pol, work.pack, cheap[w])
    for card in ("AS", "QS", "AH", "2S", "TC"):
        bit = 1 << C.parse_card(card)
        for seat in (0, 1, 3):
            a = ((whole[:, seat] & bit) != 0).mean()
            b = ((cheap[:, seat] & bit) != 0).mean()
            se = math.sqrt((a * (1 - a) + b * (1 - b)) / n) + 1e-9
            assert abs(a - b) <= 4.5 * se, (card, seat, a, b)


def test_calls_out_of_reach_are_not_chased():
    """Under ``pass`` the others never bid: "1:3" cannot fit any world. The first worlds show it
    and the rest are drawn uniformly (not 33,000 draws each in vain), counted as not fitting."""
    adv = advise_bid(C.parse_cards(HAND), 4, 2, [0, 3], others="pass", worlds=300, seed=1)
    assert adv.worlds_fitting == 0 and adv.inconsistent_worlds == adv.worlds == 300
    assert adv.seconds < 5
