"""Hand-worked rounds, auctions and games: every point, every option, the steal and the game
to 12. Each case states the numbers worked out by hand; the kernels (``replay_round``, the
auction and game kernels) and the plain-Python reference must both give them."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.pitch import cards as C
from piquet_sim.pitch.kernels import auction as KA
from piquet_sim.pitch.kernels import game as KG
from piquet_sim.pitch.kernels.replay import replay_round
from piquet_sim.pitch.kernels.tricks import beats, game_taker, legal_plays
from piquet_sim.pitch.layouts import GameSlot, Point, RoundRec
from piquet_sim.pitch.reference import rules as R
from piquet_sim.pitch.rules import Rules

P = C.parse_cards


def cards(text: str) -> list[int]:
    return C.parse_card_list(text)


def kernel_round(hands, calls, plays, rules):
    dealt = np.zeros(6, dtype=np.int64)
    dealt[: len(hands)] = [P(h) for h in hands]
    c = np.full(6, -1, dtype=np.int64)
    c[: len(calls)] = calls
    rec = np.zeros(RoundRec.LEN, dtype=np.int64)
    bad = replay_round(dealt, c, np.array(cards(plays), dtype=np.int64), rules.to_array(), rec)
    assert bad == -1, f"play {bad} refused"
    n = rules.players
    takers = [int(x) for x in rec[RoundRec.TAKER : RoundRec.TAKER + 6]]
    return {
        "takers": dict(zip(("high", "low", "jack", "six", "last", "game"), takers, strict=True)),
        "points": rec[RoundRec.POINTS : RoundRec.POINTS + n].tolist(),
        "game_points": rec[RoundRec.GAME_PTS : RoundRec.GAME_PTS + n].tolist(),
        "scores": rec[RoundRec.SCORE : RoundRec.SCORE + n].tolist(),
        "made": bool(rec[RoundRec.MADE]),
        "total": int(rec[RoundRec.TOTAL]),
    }


def reference_round(hands, bidder, bid, plays, rules):
    res = R.score_round(
        [P(h) for h in hands],
        bidder,
        bid,
        cards(plays),
        rules.must_follow,
        rules.low_to == "capturer",
        rules.game_tie == "bidder",
    )
    takers = {k: -1 if v is None else v for k, v in res.takers.items()}
    return {
        "takers": takers,
        "points": res.points,
        "game_points": res.game_points,
        "scores": res.scores,
        "made": res.made,
        "total": res.total,
    }


def both(hands, calls, plays, rules):
    bidder, bid, _ = R.auction_result(calls)
    k = kernel_round(hands, calls, plays, rules)
    r = reference_round(hands, bidder, bid, plays, rules)
    assert k == r
    return k


# Case A, 3 players, seat 0 bids 3 (seats 1, 2 pass) and pitches the ace of spades.
# Trumps dealt: AS JS 3S (seat 0), KS 6S (seat 1), 5S (seat 2).
HANDS_A = ["AS JS 3S KH 2D 4C", "KS 6S 9H 5H 3D 7C", "5S TH QH 8D 9D 2C"]
# T1 0:AS 1:6S 2:5S  -> seat 0 (AS); Six to 0; game 4 (ace)         s0 = 4
# T2 0:JS 1:KS 2:TH  -> seat 1 (KS); Jack to 1; game 1+3+10 = 14     s1 = 14
# T3 1:9H 2:QH 0:KH  -> seat 0 (KH); game 2+3 = 5                    s0 = 9
# T4 0:2D 1:3D 2:9D  -> seat 2
# T5 2:8D 0:3S 1:5H  -> seat 0 trumps (3S, the Low card)
# T6 0:4C 1:7C 2:2C  -> seat 1; Last to 1
PLAYS_A = "AS 6S 5S JS KS TH 9H QH KH 2D 3D 9D 8D 3S 5H 4C 7C 2C"


def test_case_a_every_point():
    # High AS and Low 3S held by seat 0; Six (T1) to 0; Jack (T2), Last and Game (14 > 9 > 0)
    # to seat 1: points 3, 3, 0 (six in all); seat 0 made his 3: scores 3, 3, 0.
    out = both(HANDS_A, [3, 0, 0], PLAYS_A, Rules(players=3))
    assert out["takers"] == {"high": 0, "low": 0, "jack": 1, "six": 0, "last": 1, "game": 1}
    assert out["game_points"] == [9, 14, 0]
    assert out["points"] == [3, 3, 0] and out["total"] == 6
    assert out["scores"] == [3, 3, 0] and out["made"]


def test_case_a_low_to_capturer_same_seat():
    # the Low card 3S falls in T5, won by seat 0 himself: nothing changes
    out = both(HANDS_A, [3, 0, 0], PLAYS_A, Rules(players=3, low_to="capturer"))
    assert out["takers"]["low"] == 0 and out["points"] == [3, 3, 0]


# Case B: same deal, seat 0 bids 4; he gives the Low card away in trick 2.
# T1 0:AS 1:6S 2:5S -> 0 (Six); s0 = 4        T2 0:3S 1:KS 2:TH -> 1; s1 = 3+10 = 13
# T3 1:9H 2:QH 0:KH -> 0; s0 = 9              T4 0:JS 1:5H 2:2C -> 0 (Jack); s0 = 10
# T5 0:2D 1:3D 2:9D -> 2                      T6 2:8D 0:4C 1:7C -> 2 (Last)
PLAYS_B = "AS 6S 5S 3S KS TH 9H QH KH JS 5H 2C 2D 3D 9D 8D 4C 7C"


def test_case_b_low_to_holder():
    # Low to the holder (seat 0): seat 0 High, Low, Six, Jack = 4; Game 13 > 10 to seat 1;
    # Last to seat 2. Bid 4 made: scores 4, 1, 1.
    out = both(HANDS_A, [4, 0, 0], PLAYS_B, Rules(players=3))
    assert out["takers"] == {"high": 0, "low": 0, "jack": 0, "six": 0, "last": 2, "game": 1}
    assert out["points"] == [4, 1, 1] and out["scores"] == [4, 1, 1] and out["made"]


def test_case_b_low_to_capturer():
    # Low (3S) captured by seat 1 in T2: seat 0 has 3 < 4, set: -4; seat 1 Low + Game = 2.
    out = both(HANDS_A, [4, 0, 0], PLAYS_B, Rules(players=3, low_to="capturer"))
    assert out["takers"]["low"] == 1
    assert out["points"] == [3, 2, 1] and out["scores"] == [-4, 2, 1] and not out["made"]


# Case C, 3 players: seats 0, 1 pass, the dealer (seat 2) must bid and bids 3; he pitches 8S.
# No jack nor six of spades is dealt. Only two tens carry game points.
HANDS_C = ["2S 3S 4H 5H 6D 7D", "4S 5S 2H 3H TD 8C", "7S 8S 9H 6H TC 2D"]
# T1 2:8S 0:2S 1:4S -> 2          T2 2:7S 0:3S 1:5S -> 2
# T3 2:2D 0:6D 1:TD -> 1 (10)     T4 1:8C 2:TC 0:4H -> 2 (10)
# T5 2:9H 0:5H 1:3H -> 2          T6 2:6H 0:7D 1:2H -> 2 (Last)
PLAYS_C = "8S 2S 4S 7S 3S 5S 2D 6D TD 8C TC 4H 9H 5H 3H 6H 7D 2H"


def test_case_c_game_tie_scores_nobody():
    # game points 0, 10, 10: a tie, nobody scores Game. Jack and Six not in play.
    # High 8S -> 2, Low 2S -> 0 (holder), Last -> 2: points 1, 0, 2 (three in play);
    # the dealer's 2 < 3: set, -3.
    out = both(HANDS_C, [0, 0, 3], PLAYS_C, Rules(players=3))
    assert out["takers"] == {"high": 2, "low": 0, "jack": -1, "six": -1, "last": 2, "game": -1}
    assert out["game_points"] == [0, 10, 10] and out["total"] == 3
    assert out["scores"] == [1, 0, -3] and not out["made"]


def test_case_c_game_tie_to_bidder():
    # the bidder (seat 2) is among the tied: Game to him, 3 points, bid made: +3
    out = both(HANDS_C, [0, 0, 3], PLAYS_C, Rules(players=3, game_tie="bidder"))
    assert out["takers"]["game"] == 2 and out["scores"] == [1, 0, 3] and out["made"]


def test_case_c_low_to_capturer():
    # 2S falls in T1, won by seat 2: High, Low, Last = 3, bid made
    out = both(HANDS_C, [0, 0, 3], PLAYS_C, Rules(players=3, low_to="capturer"))
    assert out["points"] == [0, 0, 3] and out["scores"] == [0, 0, 3]


def test_high_and_low_one_card():
    # 3 players, the only trump dealt is seat 1's 9H: he scores High and Low with it.
    hands = ["2S 3S 4S 5D 6D 7D", "9H 8S 7S 8D 2C 3C", "6S 9S TS 9D 4C 5C"]
    # seat 1 bids 3 and pitches 9H; nobody else has a heart: 9H wins T1 (game 10 from TS).
    # T1 1:9H 2:TS 0:2S -> 1 (s1 = 10)   T2 1:8S 2:9S 0:3S -> 2 (9S)
    # T3 2:6S 0:4S 1:7S -> 1 (7S)        T4 1:8D 2:9D 0:5D -> 2 (9D)
    # T5 2:4C 0:6D 1:2C -> 2 (4C)        T6 2:5C 0:7D 1:3C -> 2 (Last)
    plays = "9H TS 2S 8S 9S 3S 6S 4S 7S 8D 9D 5D 4C 6D 2C 5C 7D 3C"
    out = both(hands, [0, 3, 0], plays, Rules(players=3))
    # High + Low + Game (10 to 1, 0, 0) = 3 to seat 1; Last to seat 2: bid 3 made
    assert out["takers"] == {"high": 1, "low": 1, "jack": -1, "six": -1, "last": 2, "game": 1}
    assert out["points"] == [0, 3, 1] and out["scores"] == [0, 3, 1]


def test_no_game_point_taken_scores_no_game():
    # helper: totals all 0 -> nobody, even when the tie would go to the bidder
    assert game_taker(np.zeros(6, np.int64), 4, 2, 1) == -1
    assert R.game_taker([0, 0, 0, 0], 2, True) is None
    # 7, 7, 3: tie to nobody, or to bidder 1 if among the tied, not to bidder 2
    g = np.array([7, 7, 3, 0, 0, 0], np.int64)
    assert game_taker(g, 3, 1, 0) == -1 and game_taker(g, 3, 1, 1) == 1
    assert game_taker(g, 3, 2, 1) == -1


# ------------------------------------------------------------------ play rules
def test_may_trump_or_must_follow():
    # hearts trump; diamonds led; the hand holds a diamond and a heart
    hand = P("5D 9H 2C")
    led = C.card_index(2, 8)  # TD
    may = legal_plays(np.int64(hand), led, 1, 0, 0)
    must = legal_plays(np.int64(hand), led, 1, 1, 0)
    assert C.format_cards(may) == "9H 5D"  # follow or trump
    assert C.format_cards(must) == "5D"  # follow only
    # void in diamonds: anything, either rule
    void = P("9H 2C")
    assert legal_plays(np.int64(void), led, 1, 1, 0) == void
    # the pitch of a round with a given trump must be a trump; a free pitch is any card
    assert C.format_cards(legal_plays(np.int64(hand), -1, 1, 0, 1)) == "9H"
    assert legal_plays(np.int64(hand), -1, -1, 0, 1) == hand
    for got, ref in (
        (may, R.legal_plays(cards("5D 9H 2C"), [led], 1, False)),
        (must, R.legal_plays(cards("5D 9H 2C"), [led], 1, True)),
    ):
        assert C.format_cards(got) == C.format_cards(sum(1 << c for c in ref))


def test_trick_winner():
    # clubs trump: 2C beats the ace led; among off-suit cards only the suit led counts
    trick = cards("AD 2C KD")
    assert R.trick_winner(trick, 3) == 1
    assert beats(C.card_index(3, 0), C.card_index(2, 12), 3)
    assert R.trick_winner(cards("9D AH TD"), 3) == 2  # AH is off-suit
    assert not beats(C.card_index(1, 12), C.card_index(2, 7), 3)


# ------------------------------------------------------------------ auction
def _calls(mask: int) -> list[int]:
    return [b for b in range(7) if mask >> b & 1]


@pytest.mark.parametrize(
    "highest, dealer, expected",
    [
        (0, 0, [0, 3, 4, 5, 6]),
        (4, 0, [0, 5, 6]),
        (6, 0, [0]),
        (0, 1, [3, 4, 5, 6]),  # everyone passed: the dealer must bid 3 to 6
        (4, 1, [0, 4, 5, 6]),  # the dealer may take the 4 (steal), pass or bid higher
        (6, 1, [0, 6]),
    ],
)
def test_legal_calls(highest, dealer, expected):
    assert _calls(KA.legal_calls(highest, dealer)) == expected
    assert R.legal_bids(highest, bool(dealer)) == expected
    assert _calls(KA.call_table()[dealer, highest]) == expected


@pytest.mark.parametrize(
    "calls, expected",
    [
        ([0, 3, 4, 4], (3, 4, 1)),  # the dealer steals at 4
        ([0, 3, 4, 5], (3, 5, 0)),  # the dealer outbids
        ([0, 3, 4, 0], (2, 4, 0)),  # the dealer passes
        ([0, 0, 0, 3], (3, 3, 0)),  # stuck dealer: forced, not a steal
        ([6, 0, 6], (2, 6, 1)),  # 3 players: the dealer steals the top bid
        ([3, 4, 5, 6, 0, 0], (3, 6, 0)),
    ],
)
def test_auction_result(calls, expected):
    arr = np.zeros(6, dtype=np.int64)
    arr[: len(calls)] = calls
    assert tuple(int(x) for x in KA.auction_result(arr, len(calls))) == expected
    bidder, bid, stole = R.auction_result(calls)
    assert (bidder, bid, int(stole)) == expected


def test_illegal_auction_is_refused_by_the_reference():
    with pytest.raises(ValueError):
        R.auction_result([4, 3, 0, 0])  # seat 1 may not bid below 4
    with pytest.raises(ValueError):
        R.auction_result([0, 0, 0, 0])  # the dealer may not pass when all passed


# ------------------------------------------------------------------ the game to 12
def _game(scores, dealer):
    g = np.zeros(GameSlot.LEN, dtype=np.int64)
    KG.new_game(g, dealer)
    g[GameSlot.SCORES : GameSlot.SCORES + len(scores)] = scores
    return g


def test_bidder_reaching_12_wins():
    # 3 players, scores 10, 11, 9; player 2 dealt, so seat 0 = player 0, seat 1 = player 1.
    # Seat 0 bids 3 and takes 3: 10 + 3 = 13 >= 12, wins. Seat 1 took 2: 11 + 2 = 13, but
    # he is a defender: no win. Seat 2 (player 2) took 1: 10.
    g = _game([10, 11, 9], dealer=2)
    rules = Rules(players=3).to_array()
    w = KG.apply_round(g, rules, 0, 3, np.array([3, 2, 1, 0, 0, 0], np.int64))
    assert w == 0 and g[GameSlot.WINNER] == 0
    assert g[GameSlot.SCORES : GameSlot.SCORES + 3].tolist() == [13, 13, 10]
    assert g[GameSlot.DEALER] == 0 and g[GameSlot.ROUNDS] == 1
    assert R.apply_round([10, 11, 9], 2, 0, 3, [3, 2, 1]) == ([13, 13, 10], 0, 0)


def test_set_bidder_and_defender_at_12_do_not_win():
    # same table, seat 0 bids 4 and takes 2: set, 10 - 4 = 6; seat 1 reaches 13: no winner
    g = _game([10, 11, 9], dealer=2)
    w = KG.apply_round(g, Rules(players=3).to_array(), 0, 4, np.array([2, 2, 1, 0, 0, 0]))
    assert w == -1 and g[GameSlot.SCORES : GameSlot.SCORES + 3].tolist() == [6, 13, 10]
    assert R.apply_round([10, 11, 9], 2, 0, 4, [2, 2, 1]) == ([6, 13, 10], None, 0)


def test_seats_rotate_with_the_deal_and_scores_go_negative():
    # 4 players, player 1 deals: seat 0 = player 2, seat 1 = player 3, seat 2 = player 0,
    # seat 3 = player 1. Seat 3 (player 1, the dealer) bids 5 and takes 1: 0 - 5 = -5.
    g = _game([0, 0, 0, 0], dealer=1)
    KG.apply_round(g, Rules().to_array(), 3, 5, np.array([2, 1, 1, 1, 0, 0]))
    assert g[GameSlot.SCORES : GameSlot.SCORES + 4].tolist() == [1, -5, 2, 1]
    assert g[GameSlot.DEALER] == 2
    assert R.apply_round([0, 0, 0, 0], 1, 3, 5, [2, 1, 1, 1]) == ([1, -5, 2, 1], None, 2)


def test_target_option():
    g = _game([7, 0, 0], dealer=0)
    w = KG.apply_round(g, Rules(players=3, target=11).to_array(), 2, 4, np.array([0, 1, 4]))
    # seat 2 = player 0 (dealer 0): 7 + 4 = 11 >= 11 wins
    assert w == 0


def test_points_layout_matches_reference_names():
    assert [p.name.lower() for p in Point if p is not Point.COUNT] == list(R.POINTS)
