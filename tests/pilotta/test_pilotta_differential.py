"""Kernels against the plain-Python reference on random rounds, and invariants of random play.

Every round of a fixed seed is simulated by the kernels (``simulate_batch``: deal, random
auction, declarations, random play, score) and replayed by the reference from the same (seed,
index) stream (``reference.simulate``, its own port of the stream): the deal, the contract, the
comparison of declarations, every card played with the number of legal cards at that moment
(the random policy picks the k-th legal card, so a legal set that differs changes the play or
the count), and every field of the score must be equal. Three rule sets: the defaults, every
option switched, and Belote Contree's card play (the ``contree`` preset, other options
switched). CI runs 3 x 5,000 rounds, at least 4,750 of each played (an auction policy bidding
60% of the time throws in about 2.6% of rounds; the Python reference is most of the test's
time); ``-m slow`` runs 3 x 250,000.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from piquet_sim.pilotta.api import make_setup
from piquet_sim.pilotta.kernels.simulate import simulate_batch
from piquet_sim.pilotta.layouts import RoundRec, Score
from piquet_sim.pilotta.reference.play import Round
from piquet_sim.pilotta.reference.simulate import simulate_round
from piquet_sim.pilotta.rules import Rules, preset

RULE_SETS = {
    "defaults": Rules(),
    "options": Rules(
        trump_kq_points=(3, 2),
        pass_is_final=True,
        equal_declarations="nobody",
        first_lead="after_dealer",
        partner_exemption=True,
        contract_on_card_points_only=True,
        failed_contract_loses_declarations=False,
    ),
    # Belote Contree's card play (the partner's exemption on plain-suit leads only, optional
    # under-trumping, a 252 capot), with other options switched too
    "contree": preset(
        "contree",
        trump_kq_points=(3, 2),
        pass_is_final=True,
        equal_declarations="nobody",
        contract_on_card_points_only=True,
    ),
}
AUCTION = (0, 600, 3)  # random auction: bid 60% of the time, 1..3 levels up
SEED = 20260415
SCORE_FIELDS = [f for f in Score if f.name != "LEN"]


RANDOM_SETUP = make_setup("random", "random", "random", auction_args=AUCTION[1:])


def kernel_rounds(rules: Rules, n: int, start: int = 0, setup=RANDOM_SETUP):
    return simulate_batch(SEED, start, n, setup, rules.to_array())


def check_invariants(recs: np.ndarray, plays: np.ndarray, legal_n: np.ndarray, total: int):
    """Whole-batch checks on the kernel records (vectorised)."""
    played = recs[:, RoundRec.BIDDER] >= 0
    hands = recs[:, RoundRec.HAND_N : RoundRec.HAND_W + 1]
    union = hands[:, 0] | hands[:, 1] | hands[:, 2] | hands[:, 3]
    assert (union == 0xFFFFFFFF).all()  # 32 cards dealt, none doubled (8 + 8 + 8 + 8 = 32)
    for p in range(4):
        assert all(bin(int(h)).count("1") == 8 for h in hands[:, p])
    p = plays[played].astype(np.int64)
    assert (np.sort(p, axis=1) == np.arange(32)).all()  # every card played exactly once
    assert (legal_n[played] >= 1).all()  # a legal card existed at every one of the 32 plays
    r = recs[played]
    assert (r[:, RoundRec.RAW_NS] + r[:, RoundRec.RAW_EW] == total).all()
    assert ((r[:, RoundRec.TRICKS_NS] >= 0) & (r[:, RoundRec.TRICKS_NS] <= 8)).all()
    s = r[:, RoundRec.SCORE :]
    assert (s[:, Score.FINAL_NS] + s[:, Score.FINAL_EW]).min() >= total
    assert (s[:, Score.CARD_GP_NS] + s[:, Score.CARD_GP_EW] >= total // 10).all()


def compare_round(i, rec, plays, legal_n, rules: Rules, setup=RANDOM_SETUP) -> bool:
    ref = simulate_round(SEED, i, setup, rules)
    assert [int(x) for x in rec[RoundRec.HAND_N : RoundRec.HAND_W + 1]] == ref.hands, i
    assert (rec[RoundRec.DEALER], rec[RoundRec.BIDDER]) == (ref.dealer, ref.bidder), i
    if ref.bidder < 0:
        return False
    assert (rec[RoundRec.BID], rec[RoundRec.TRUMP]) == (ref.bid, ref.trump), i
    assert rec[RoundRec.FIRST_LEADER] == ref.first_leader, i
    assert rec[RoundRec.DECL_TEAM] == ref.decl_team, i
    assert (rec[RoundRec.DECL_NS], rec[RoundRec.DECL_EW]) == ref.decl_points, i
    assert rec[RoundRec.PILOTTA_SEAT] == ref.pilotta_seat, i
    assert plays.tolist() == ref.plays, i
    assert legal_n.tolist() == ref.legal_counts, i
    assert (rec[RoundRec.RAW_NS], rec[RoundRec.RAW_EW]) == ref.points, i
    assert rec[RoundRec.TRICKS_NS] == ref.tricks[0], i
    sc = ref.score
    expected = {
        Score.CARD_NS: sc.card[0],
        Score.CARD_EW: sc.card[1],
        Score.CAPOT_TEAM: sc.capot_team,
        Score.MADE: int(sc.made),
        Score.FINAL_NS: sc.final[0],
        Score.FINAL_EW: sc.final[1],
        Score.CARD_GP_NS: sc.card_gp[0],
        Score.CARD_GP_EW: sc.card_gp[1],
        Score.BID_GP_NS: sc.bid_gp[0],
        Score.BID_GP_EW: sc.bid_gp[1],
        Score.COMB_GP_NS: sc.comb_gp[0],
        Score.COMB_GP_EW: sc.comb_gp[1],
        Score.PILOTTA_GP_NS: sc.pilotta_gp[0],
        Score.PILOTTA_GP_EW: sc.pilotta_gp[1],
        Score.TOTAL_NS: sc.total[0],
        Score.TOTAL_EW: sc.total[1],
    }
    for field in SCORE_FIELDS:
        assert rec[RoundRec.SCORE + field] == expected[field], (i, field.name)
    return True


def run_differential(rules: Rules, n: int, setup=RANDOM_SETUP) -> int:
    recs, plays, legal_n = kernel_rounds(rules, n, setup=setup)
    check_invariants(recs, plays, legal_n, rules.total_points)
    played = 0
    for i in range(n):
        played += compare_round(i, recs[i], plays[i], legal_n[i], rules, setup)
    return played


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_kernels_match_reference(name):
    played = run_differential(RULE_SETS[name], 5_000)
    assert played >= 4_750  # together at least 9,500 played rounds


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_kernels_match_reference_full(name):
    run_differential(RULE_SETS[name], 250_000)


def test_rounds_exercise_every_outcome():
    """The CI batch is not degenerate: it holds made and failed contracts, capots, thrown-in
    rounds, both declaration winners, pilottas and rounding points."""
    recs, _, _ = kernel_rounds(Rules(), 20_000)
    r = recs[recs[:, RoundRec.BIDDER] >= 0]
    s = r[:, RoundRec.SCORE :]
    assert (recs[:, RoundRec.BIDDER] < 0).any()
    assert set(np.unique(s[:, Score.MADE])) == {0, 1}
    assert set(np.unique(s[:, Score.CAPOT_TEAM])) == {-1, 0, 1}
    assert set(np.unique(r[:, RoundRec.DECL_TEAM])) == {-1, 0, 1}
    assert (r[:, RoundRec.PILOTTA_SEAT] >= 0).any()
    assert (r[:, RoundRec.BID] == 250).any()


@pytest.mark.parametrize(
    "exemption, under", [(False, False), (True, False), ("plain_leads", True), (False, True)]
)
def test_random_play_invariants_at_every_step(exemption, under):
    """OpenSpiel-style: random legal play on the reference state machine, checking at every
    step that a legal card exists until the end and none after, that no card is lost or
    doubled, and that the 152 card points plus the last trick make 162."""
    rng = random.Random(7)
    full = (1 << 32) - 1
    for _ in range(300):
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[8 * p : 8 * p + 8]) for p in range(4)]
        game = Round(
            hands,
            trump=rng.randrange(4),
            leader=rng.randrange(4),
            exemption=exemption,
            under_optional=under,
        )
        taken = 0  # cards in completed tricks
        steps = 0
        while not game.is_over():
            options = game.legal_actions()
            assert options, "a player with cards always has a legal card"
            seat = game.to_play()
            assert all(game.hands[seat] >> c & 1 for c in options)
            in_trick = sum(1 << c for _, c in game.trick)
            held = game.hands[0] | game.hands[1] | game.hands[2] | game.hands[3]
            assert held & in_trick == 0 and held & taken == 0 and in_trick & taken == 0
            assert held | in_trick | taken == full  # no card lost or doubled
            game.apply(rng.choice(options))
            steps += 1
            if not game.trick:
                taken = full & ~(game.hands[0] | game.hands[1] | game.hands[2] | game.hands[3])
        assert steps == 32 and game.legal_actions() == []
        assert sum(game.points) == 162 and sum(game.tricks) == 8
