"""Round scoring (spec "Scoring a round", steps 1-5), the game to 351 and the auction,
hand-worked, on the kernels and the reference alike. Every case works its numbers out in a
comment; points are card-point units until step 3, game points (gp) after."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.pilotta.kernels.auction import run_auction
from piquet_sim.pilotta.kernels.game import game_add, game_reset
from piquet_sim.pilotta.kernels.scoring import score_round
from piquet_sim.pilotta.layouts import (
    AUCTION_LEN,
    BID_CAPOT,
    GAME_LEN,
    SCORE_LEN,
    Auction,
    Game,
    Score,
)
from piquet_sim.pilotta.policies import AuctionPolicy
from piquet_sim.pilotta.reference import auction as RA
from piquet_sim.pilotta.reference import scoring as R
from piquet_sim.pilotta.rules import DEFAULT_RULES, Rules

NS, EW = 0, 1


def score(raw_ns, tricks_ns, c_team, bid, comb=(0, 0), pil=-1, rules=DEFAULT_RULES) -> dict:
    """Kernel score as a dict of Score fields, checked field by field against the reference."""
    out = np.zeros(SCORE_LEN, dtype=np.int32)
    score_round(raw_ns, tricks_ns, c_team, bid, comb[0], comb[1], pil, rules.to_array(), out)
    got = {f.name: int(out[f]) for f in Score if f.name != "LEN"}
    total = rules.total_points
    ref = R.score_round(
        (raw_ns, total - raw_ns),
        (tricks_ns, 8 - tricks_ns),
        c_team,
        bid,
        comb,
        pil,
        rules.contract_on_card_points_only,
        rules.failed_contract_loses_declarations,
    )
    assert (got["CARD_NS"], got["CARD_EW"]) == ref.card
    assert got["CAPOT_TEAM"] == ref.capot_team and bool(got["MADE"]) == ref.made
    assert (got["FINAL_NS"], got["FINAL_EW"]) == ref.final
    assert (got["CARD_GP_NS"], got["CARD_GP_EW"]) == tuple(ref.card_gp)
    assert (got["BID_GP_NS"], got["BID_GP_EW"]) == ref.bid_gp
    assert (got["COMB_GP_NS"], got["COMB_GP_EW"]) == ref.comb_gp
    assert (got["PILOTTA_GP_NS"], got["PILOTTA_GP_EW"]) == ref.pilotta_gp
    assert (got["TOTAL_NS"], got["TOTAL_EW"]) == ref.total
    return got


def totals(g: dict) -> tuple[int, int]:
    return g["TOTAL_NS"], g["TOTAL_EW"]


def test_contract_made_with_the_rounding_point():
    # NS bid 80 and took 95 (last trick included), EW 67. Made (95 >= 80).
    # 9 + 6 = 15 game points, one short of 16: dropped digits 5 (NS) and 7 (EW): EW gets it,
    # 9 / 7. The bid, 8, to NS: NS 9 + 8 = 17, EW 7.
    g = score(95, 5, NS, 80)
    assert g["MADE"] == 1 and (g["CARD_GP_NS"], g["CARD_GP_EW"]) == (9, 7)
    assert totals(g) == (17, 7)


def test_rounding_point_on_equal_digits_goes_to_more_points():
    # 76 / 86: 7 + 8 = 15, digits 6 and 6 equal: EW has more points: 7 / 9
    g = score(76, 4, NS, 80, rules=Rules(contract_on_card_points_only=True))
    assert g["MADE"] == 0  # 76 < 80 on card points alone
    g = score(86, 4, NS, 80)
    assert (g["CARD_GP_NS"], g["CARD_GP_EW"]) == (9, 7)  # 86 / 76: NS has more
    g = score(76, 4, EW, 80)  # EW contracted, 86 >= 80: made
    assert (g["CARD_GP_NS"], g["CARD_GP_EW"]) == (7, 9) and totals(g) == (7, 17)


def test_contract_failed_gives_everything_away():
    # NS bid 100, took 90 < 100: failed. EW takes all 162 -> 16 gp, and the bid 10: EW 26.
    g = score(90, 5, NS, 100)
    assert g["MADE"] == 0 and (g["FINAL_NS"], g["FINAL_EW"]) == (0, 162)
    assert totals(g) == (0, 26)


def test_combinations_count_toward_the_bid():
    # NS bid 100, took 85, scores a tierce (20): 105 >= 100, made. 85 / 77 -> 8 + 7 = 15, digits
    # 5 < 7: EW 8. NS: 8 + bid 10 + combinations 2 = 20; EW 8.
    g = score(85, 5, NS, 100, comb=(20, 0))
    assert g["MADE"] == 1 and totals(g) == (20, 8)


def test_contract_on_card_points_only():
    # same round, option on: 85 < 100, failed: EW 16 + 10 = 26, and NS's tierce goes to EW
    # (failed_contract_loses_declarations, default on): EW 28, NS 0
    g = score(85, 5, NS, 100, comb=(20, 0), rules=Rules(contract_on_card_points_only=True))
    assert g["MADE"] == 0 and totals(g) == (0, 28)


def test_failed_contract_keeps_declarations_when_the_option_is_off():
    # NS bid 110, 85 + 20 = 105 < 110: failed. Option off: NS keeps its 2; EW 16 + 11 = 27
    g = score(85, 5, NS, 110, comb=(20, 0), rules=Rules(failed_contract_loses_declarations=False))
    assert g["MADE"] == 0 and totals(g) == (2, 27)
    # option on (default): EW 16 + 11 + 2 = 29, NS 0
    assert totals(score(85, 5, NS, 110, comb=(20, 0))) == (0, 29)


def test_defenders_keep_their_own_combinations():
    # EW (defending) scores a quarte (50); NS bid 80 and took 100: made.
    # 100 / 62 -> 10 + 6 = 16. NS 10 + 8 = 18; EW 6 + 5 = 11
    assert totals(score(100, 5, NS, 80, comb=(0, 50))) == (18, 11)


def test_pilotta_counts_toward_the_bid_and_always_scores():
    # NS bid 90, took 72, holds the pilotta (20): 92 >= 90 made. 72 / 90 -> 7 + 9 = 16.
    # NS 7 + 9 (bid) + 2 (pilotta) = 18; EW 9
    g = score(72, 3, NS, 90, pil=NS)
    assert g["MADE"] == 1 and totals(g) == (18, 9)
    # the same with the pilotta in EW's hands: 72 < 90, failed: EW 16 + 9 + 2 = 27, NS 0
    g = score(72, 3, NS, 90, pil=EW)
    assert g["MADE"] == 0 and totals(g) == (0, 27)
    # a failed contract never takes the pilotta away: NS holds it, fails with 60 + 20 < 90
    g = score(60, 3, NS, 90, pil=NS)
    assert g["MADE"] == 0 and totals(g) == (2, 25)  # EW 16 + 9; NS its pilotta


def test_capot_by_the_contracting_team():
    # NS took all eight tricks on a bid of 120: 250 / 0 -> 25 / 0; bid 12: NS 37
    g = score(162, 8, NS, 120)
    assert (g["CARD_NS"], g["CAPOT_TEAM"]) == (250, NS) and totals(g) == (37, 0)


def test_capot_contract():
    # bid capot (25 gp), all eight tricks: 25 + 25 = 50
    assert totals(score(162, 8, NS, BID_CAPOT)) == (50, 0)
    # seven tricks (152 points) do not make a capot contract: EW takes 162 -> 16, + 25 = 41
    g = score(152, 7, NS, BID_CAPOT)
    assert g["MADE"] == 0 and totals(g) == (0, 41)


def test_capot_by_the_defenders():
    # EW took every trick against NS's 80: NS 0 fails; EW 250 -> 25, + 8 = 33
    g = score(0, 0, NS, 80)
    assert g["CAPOT_TEAM"] == EW and totals(g) == (0, 33)


def test_literal_trump_points_total_160():
    # trump K 3, Q 2: 160 in all. NS 85, EW 75: 8 + 7 = 15, one short of 16; digits 5 and 5
    # equal: NS has more points: 9 / 7. Bid 80 made: NS 9 + 8 = 17
    g = score(85, 5, NS, 80, rules=Rules(trump_kq_points=(3, 2)))
    assert (g["CARD_GP_NS"], g["CARD_GP_EW"]) == (9, 7) and totals(g) == (17, 7)
    g = score(70, 5, NS, 80, rules=Rules(trump_kq_points=(3, 2)))
    assert (g["FINAL_NS"], g["FINAL_EW"]) == (0, 160) and totals(g) == (0, 24)


def test_rounding_never_loses_a_point():
    rules = Rules()
    for raw in range(0, 163):
        g = score(raw, 4, NS, 80, rules=rules)
        assert g["CARD_GP_NS"] + g["CARD_GP_EW"] == 16


# ------------------------------------------------------------------------------- game


def play_game(rounds: list[tuple[int, int]], target: int = 351) -> np.ndarray:
    state = np.zeros(GAME_LEN, dtype=np.int64)
    rules = Rules(game_target=target).to_array()
    game_reset(state, 0)
    ref = R.GameState(target=target)
    for ns, ew in rounds:
        if state[Game.DONE]:
            break
        game_add(state, ns, ew, rules)
        ref.add(ns, ew)
        assert (state[Game.NS], state[Game.EW], state[Game.ROUNDS]) == (ref.ns, ref.ew, ref.rounds)
        assert state[Game.DEALER] == ref.dealer and state[Game.WINNER] == ref.winner
    return state


def test_game_ends_when_a_team_reaches_351():
    # 12 rounds of 30 / 0: NS reaches 360 >= 351 after the 12th
    s = play_game([(30, 0)] * 20)
    assert s[Game.ROUNDS] == 12 and s[Game.WINNER] == NS and s[Game.NS] == 360


def test_both_over_351_the_higher_wins():
    # 340 / 345 after the first round, then 20 / 10: 360 / 355, both over: NS wins
    s = play_game([(340, 345), (20, 10)])
    assert s[Game.WINNER] == NS and s[Game.ROUNDS] == 2


def test_both_equal_over_351_play_on():
    # 350 / 350, then 10 / 10: 360 / 360 equal: the game goes on; 5 / 0 ends it
    s = play_game([(350, 350), (10, 10), (5, 0)])
    assert s[Game.ROUNDS] == 3 and s[Game.WINNER] == NS


def test_thrown_in_rounds_count_and_pass_the_deal():
    s = play_game([(0, 0), (0, 0), (0, 0)])
    assert s[Game.ROUNDS] == 3 and s[Game.DEALER] == 3 and s[Game.DONE] == 0


# ---------------------------------------------------------------------------- auction


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("level", [0, 4, 9])
def test_fixed_auction(dealer, level):
    # the first speaker (after the dealer) bids, the three others pass: 4 calls
    out = np.zeros(AUCTION_LEN, dtype=np.int32)
    params = np.array([level, 2], dtype=np.int64)
    run_auction(
        dealer,
        AuctionPolicy.FIXED,
        params,
        Rules().to_array(),
        np.uint64(1),
        np.zeros(1, dtype=np.int64),
        out,
    )
    bid = 80 + 10 * level if level < 9 else BID_CAPOT
    assert (out[Auction.BIDDER], out[Auction.BID], out[Auction.TRUMP]) == ((dealer + 1) % 4, bid, 2)
    assert out[Auction.N_CALLS] == 4


def test_all_pass_throws_the_cards_in():
    out = np.zeros(AUCTION_LEN, dtype=np.int32)
    params = np.array([-1, 0], dtype=np.int64)  # fixed policy with no bid: everyone passes
    run_auction(
        0,
        AuctionPolicy.FIXED,
        params,
        Rules().to_array(),
        np.uint64(1),
        np.zeros(1, dtype=np.int64),
        out,
    )
    assert out[Auction.BIDDER] == -1 and out[Auction.N_CALLS] == 4


def test_reference_auction_rules():
    a = RA.Auction(dealer=3)  # N speaks first
    a.call(0, 1)  # N 80 hearts
    a.call(-1, -1)  # E passes
    a.call(2, 0)  # S 100 spades
    assert not a.is_over()
    a.call(-1, -1)  # W
    a.call(-1, -1)  # N passes (may bid again later by default)
    assert a.may_bid(1) and not a.is_over()
    a.call(-1, -1)  # E: three passes after S's bid
    assert a.is_over() and a.result() == (2, 100, 0)
    b = RA.Auction(dealer=3, pass_is_final=True)
    b.call(-1, -1)  # N passes
    assert not b.may_bid(0)
    with pytest.raises(AssertionError):
        RA.Auction(dealer=0, calls=[(1, 9, 0)]).call(9, 1)  # nothing above the capot
