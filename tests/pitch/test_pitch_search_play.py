"""The search plays of the bid advisor (pimc, dd) and --score: dd play reaches the paranoid
value of the round exactly, pimc's sampled worlds keep the voids shown and the card counts,
reproducibility whatever the thread count, and P(winning the game) per call."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from piquet_sim.pitch import cards as C
from piquet_sim.pitch.bid import advise_bid, candidates
from piquet_sim.pitch.kernels.advisor import BidQuery, draw_world
from piquet_sim.pitch.kernels.advisor_search import advise_worlds_search
from piquet_sim.pitch.kernels.pimc import deal_unseen, new_search_play_work
from piquet_sim.pitch.kernels.round import new_round_work
from piquet_sim.pitch.layouts import AdviceRec, Cand, Pos
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.rules import Rules
from piquet_sim.pitch.solver import solve

HAND = "KS JS 6S 3S KH TD"


def test_pimc_worlds_keep_voids_and_counts():
    """Seat 0 holds six cards; seat 1 showed a void in hearts and seat 2 in spades; seat 1
    holds 5 cards, seat 2 and 3 hold 6: every sampled world gives each the right count from
    the unseen cards, none of a suit he is void in."""
    spw = new_search_play_work()
    me = C.parse_cards(HAND)
    played1 = C.parse_cards("2C")
    truth = spw.truth
    truth[:] = 0
    truth[Pos.PLAYERS] = 4
    truth[Pos.HANDS + 0] = me
    truth[Pos.HANDS + 1] = C.parse_cards("AS 2S 3C 4C 5C")  # not seen by seat 0
    truth[Pos.HANDS + 2] = C.parse_cards("AH 2H 3H 4H 5H 6H")
    truth[Pos.HANDS + 3] = C.parse_cards("AD 2D 3D 4D 5D 6D")
    spw.played[:] = 0
    spw.played[1] = played1
    spw.voids[:] = 0
    spw.voids[1] = 1 << 1  # hearts
    spw.voids[2] = 1 << 0  # spades
    state = np.zeros(1, dtype=np.int64)
    hearts, spades = C.suit_cards(1), C.suit_cards(0)
    dealt = 0
    for k in range(300):
        state[0] = 0
        if not deal_unseen(spw, 0, 4, np.uint64(1000 + k), state, True):
            continue  # a card found no place: the player redeals (rare)
        dealt += 1
        hands = [int(h) for h in spw.pos[Pos.HANDS : Pos.HANDS + 4]]
        assert hands[0] == me
        assert [C.popcount(h) for h in hands] == [6, 5, 6, 6]
        assert hands[1] & hearts == 0 and hands[2] & spades == 0
        assert not (hands[1] & hands[2]) and not ((hands[1] | hands[2] | hands[3]) & (me | played1))
    assert dealt >= 240  # retried by the player when it fails


@pytest.mark.slow
def test_dd_play_reaches_the_paranoid_value():
    """Everyone playing dd (the paranoid search on the true hands): the bidder's points in a
    suit study equal the paranoid value of the round with that trump."""
    players, seat = 4, 0
    hand = C.parse_cards(HAND)
    cands = candidates(hand, seat, players, [])
    query = BidQuery(
        np.int64(seat), np.int64(hand), np.full(6, -1, dtype=np.int64), cands, np.int64(0)
    )
    rules = Rules(players=players)
    pol = make_policy("threshold", "dd", allow_solver=True)
    out, _ = advise_worlds_search(
        np.int64(4), np.int64(0), np.int64(3), rules.to_array(), pol, query
    )
    work = new_round_work()
    dealt = np.zeros(6, dtype=np.int64)
    for w in range(3):
        draw_world(np.int64(4), np.int64(w), np.int64(players), pol, query, work, dealt)
        for j, row in enumerate(cands):
            if not row[Cand.FORCED]:
                continue
            sol = solve(
                [int(h) for h in dealt[:players]],
                seat,
                seat,
                int(row[Cand.TRUMP]),
                rules,
                paranoid=True,
                with_line=False,
            )
            assert out[w, j, AdviceRec.POINTS] == sol.bidder_points


@pytest.mark.slow
def test_pimc_advice_is_reproducible_and_scores_follow_outcomes():
    hand = C.parse_cards(HAND)
    prev = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = advise_bid(hand, 4, 2, [0, 3], play="pimc", worlds=3, seed=2, play_params=(2.0,))
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        b = advise_bid(hand, 4, 2, [0, 3], play="pimc", worlds=3, seed=2, play_params=(2.0,))
    finally:
        numba.set_num_threads(prev)
    assert a.to_dict() | {"seconds": 0} == b.to_dict() | {"seconds": 0}
    for v in a.calls:
        assert -6 <= v.score.mean <= 6


def test_score_adds_p_win_per_call():
    """At 9 (others 0) in the last seat after three passes, holding A, 2, J, 6 of spades: 3 in
    spades made wins the game at once, so its P(win) is at least its P(made) (High and Low
    are sure; a third point almost); ranking by P(win) recommends a spade bid."""
    hand = C.parse_cards("AS 2S JS 6S KH TD")
    adv = advise_bid(hand, 4, 3, [0, 0, 0], worlds=300, seed=3, scores=[0, 0, 0, 9], rank="win")
    three = next(v for v in adv.calls if v.call == "3 S")
    assert three.p_made > 0.95 and three.p_win.mean >= three.p_made
    assert adv.recommendation.endswith("S")
    assert 0 < adv.p_win_now < 1
    for v in adv.calls:
        assert 0 <= v.p_win.mean <= 1


def test_a_play_weighing_the_bid_is_not_reused_across_bids():
    """The bid advisor plays a world once for candidates whose play-outs begin alike; pimc's
    ``score`` plays by the bid, so the candidates 3 and 4 in spades each get their own play:
    every outcome equals the candidate's asked alone."""
    rules = Rules(players=4).to_array()
    policy = make_policy("threshold", "pimc", play_params=(2.0, 0.0, 1.0), allow_solver=True)
    calls = np.full(6, -1, dtype=np.int64)

    def outcomes(cands: list) -> np.ndarray:
        query = BidQuery(
            np.int64(0), np.int64(C.parse_cards(HAND)), calls, np.array(cands), np.int64(0)
        )
        out, _ = advise_worlds_search(np.int64(4), np.int64(0), np.int64(12), rules, policy, query)
        return out

    both = outcomes([[3, 0, 1], [4, 0, 1]])
    for j, cand in enumerate(([3, 0, 1], [4, 0, 1])):
        assert (both[:, j] == outcomes([cand])[:, 0]).all(), cand
