"""The ``advisor`` auction policy: the bid advisor's recommended call made at the
table (``kernels/advise.advisor_call``), and the auction's call log it reads.

* the auction state logs every call in order (``AState.LOG``), read back by ``logged_calls``;
* with ``z100 = 0`` the policy's call is the library advisor's recommendation on the same worlds
  (``bid.advise(deals=worlds, seed=seed)``, threshold prior, heuristic play), whatever the
  auction so far;
* a larger ``z100`` only turns bids into passes; ``jumps`` limits the bids considered;
* the policy is registered (id, parameters and ranges), in the Setup's parameter slots by
  ``layouts.AdvParam``, a built-in strategy, and its rounds are the same whatever the threads;
* the fast auction driver (``run_auction_in``: threshold estimates once per auction) makes the
  calls of the plain dispatcher (``finish_auction``) for every bidding policy mix.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from piquet_sim.pilotta import layouts
from piquet_sim.pilotta import policies as P
from piquet_sim.pilotta import strategies as S
from piquet_sim.pilotta.api import make_setup
from piquet_sim.pilotta.bid import advise, call_name, parse_auction
from piquet_sim.pilotta.cards import SEATS, parse_cards
from piquet_sim.pilotta.kernels.advise import advisor_candidates, advisor_choice
from piquet_sim.pilotta.kernels.auction import (
    apply_call,
    auction_reset,
    finish_auction,
    logged_calls,
    run_auction,
)
from piquet_sim.pilotta.kernels.deal import deal_hands
from piquet_sim.pilotta.kernels.simulate import simulate_batch
from piquet_sim.pilotta.layouts import ASTATE_LEN, AUCTION_LEN, AState
from piquet_sim.pilotta.rules import Rules

RULES = Rules().to_array()


def _auction(dealer: int, calls: list[tuple[int, int, int]]) -> np.ndarray:
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    auction_reset(ast, dealer)
    for _, level, suit in calls:
        apply_call(ast, level, suit)
    return ast


def test_calls_are_logged_in_order():
    calls = parse_auction("E:pass S:90H W:pass N:100S E:pass S:110H", 0)
    ast = _auction(0, calls)
    assert ast[AState.CALLS] == 6
    assert [tuple(int(x) for x in row) for row in logged_calls(ast)] == calls
    assert layouts.MAX_CALLS >= 37  # the longest auction: 3 passes, 10 bids with 2 passes each


@pytest.mark.parametrize(
    "hand, seat, auction",
    [
        ("JS 9S AS TS KH AD TD 7C", 2, "E:pass"),
        ("JH 9H AH 7S 8S KD 9C 8C", 1, "N:90S"),
        ("AS TS KS AH TH 7D 8D 9C", 3, "N:pass E:80D S:pass"),
        ("7S 8S 9S 7H 8H JD QD 7C", 0, ""),
    ],
)
def test_policy_call_is_the_advisors_recommendation(hand, seat, auction):
    """z100 = 0: the advice on the same 48 worlds of seed 5, for every auction so far."""
    mask = parse_cards(hand)
    advice = advise(mask, seat, auction=auction, deals=48, seed=5)
    dealer = SEATS.index(advice["dealer"])
    ast = _auction(dealer, parse_auction(auction, dealer))
    level, suit = advisor_choice(np.int64(mask), np.int64(seat), ast, 48, np.int64(5), RULES)
    assert call_name(int(level), int(suit)) == advice["recommendation"]["call"]


def test_z_and_jumps_only_narrow_the_choice():
    """Demanding more evidence turns bids into passes, never into other bids; jumps bounds the
    candidates."""
    ast = _auction(3, [])
    cands = advisor_candidates(ast, 0, RULES)
    assert len(cands) == 1 + 4 * 10 and tuple(cands[0]) == (-1, -1)
    assert len(advisor_candidates(ast, 0, RULES, 1)) == 1 + 4 * 2
    bids = passes = 0
    for i in range(12):
        hand = np.int64(deal_hands(9, i)[0])
        free = advisor_choice(hand, np.int64(0), ast, 32, np.int64(i), RULES)
        strict = advisor_choice(hand, np.int64(0), ast, 32, np.int64(i), RULES, 0, 300)
        assert tuple(strict) in (tuple(free), (-1, -1))
        bids += free[0] >= 0
        passes += strict[0] < 0 and free[0] >= 0
        level, _ = advisor_choice(hand, np.int64(0), ast, 32, np.int64(i), RULES, 0, 0, 1)
        assert level <= 1
    assert bids > 0 and passes > 0


def test_registered_with_its_parameters():
    row = P.get("auction", "advisor")
    assert row.id == P.AUCTION_ADVISOR == 4 and "advisor" in P.SLOW_AUCTIONS
    assert [m.name.lower() for m in layouts.AdvParam if m.name != "LEN"] == list(row.params)
    assert P.auction_params("advisor").tolist()[:4] == [128, 0, 100, 9]
    with pytest.raises(P.PolicyError):
        P.auction_params("advisor", {"worlds": 0})
    s = S.BOOK.resolve("advisor")
    assert s.policy("auction") == "advisor" and S.is_slow(s) and s.policy("play") == "heuristic"


@pytest.mark.slow
def test_advisor_rounds_same_whatever_the_threads():
    setup = make_setup("advisor", "heuristic", "heuristic", {"worlds": 8}, "threshold")
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate_batch(3, 0, 24, setup, RULES)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = simulate_batch(3, 0, 24, setup, RULES)
    finally:
        numba.set_num_threads(previous)
    for a, b in zip(one, two, strict=True):
        assert (a == b).all()


@pytest.mark.parametrize(
    "policies",
    [
        ("threshold", {}, "threshold", {"base": 45}),
        ("random", {}, "threshold", {}),
        ("fixed", {"level": 2, "suit": 1}, "random", {"bid_permille": 600}),
    ],
)
def test_fast_auction_driver_makes_the_dispatchers_calls(policies):
    """``run_auction`` (threshold estimates once an auction, the random bidder called directly)
    against the plain loop over ``policy_call``: the same calls and the same stream state."""
    a, pa, b, pb = policies
    setup = make_setup(a, "heuristic", "heuristic", pa, b, pb)
    for rules in (Rules(), Rules(pass_is_final=True)):
        arr = rules.to_array()
        for i in range(300):
            hands = deal_hands(4, i)
            key = np.uint64(1000 + i)
            s1 = np.zeros(1, dtype=np.int64)
            s2 = np.zeros(1, dtype=np.int64)
            out = np.zeros(AUCTION_LEN, dtype=np.int32)
            run_auction(i % 4, setup, hands, arr, key, s1, out)
            ast = _auction(i % 4, [])
            finish_auction(ast, setup, hands, arr, key, s2, -1)
            assert out[0] == ast[AState.BIDDER] and s1[0] == s2[0]
            if out[0] >= 0:
                assert (out[2], out[3]) == (ast[AState.TRUMP], ast[AState.CALLS])
