"""Declarations (spec "Declarations"), hand-worked, on the kernels and the reference alike.

Each case states its numbers as worked out by hand from the rules: sequences 20 / 50 / 100
(3 / 4 / 5+ cards, natural order 7 8 9 10 J Q K A), fours J 200, 9 150, A 10 K Q 100, sevens and
eights nothing; the best single combination decides which team scores all of its own.
"""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.pilotta.cards import PACK
from piquet_sim.pilotta.kernels.declarations import compare_declarations, declare_hand
from piquet_sim.pilotta.layouts import COMB_LEN, DECL_LEN, Comb, Decl
from piquet_sim.pilotta.reference import declarations as R
from piquet_sim.pilotta.rules import DEFAULT_RULES, Rules

S, H, D, C = range(4)


def decl(text: str, trump: int = S) -> np.ndarray:
    out = np.zeros(DECL_LEN, dtype=np.int32)
    declare_hand(np.int64(PACK.parse(text)), trump, out)
    return out


def points(text: str, trump: int = S) -> int:
    """Kernel and reference must agree on a hand's combination points; returns them."""
    k = int(decl(text, trump)[Decl.POINTS])
    r = sum(c.value for c in R.combinations(PACK.parse(text), trump))
    assert k == r
    return k


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("7H 8H 9H", 20),  # tierce
        ("9H TH JH QH", 50),  # quarte
        ("TC JC QC KC AC", 100),  # quinte
        ("9C TC JC QC KC AC", 100),  # six cards: still one sequence of 5 or more, 100
        ("7S 8S 9S JS QS KS", 40),  # 7-8-9 and J-Q-K: two tierces (the ten breaks the run)
        ("AD KD QD 9D", 20),  # Q-K-A only (9 and Q are not adjacent: the ten and jack missing)
        ("7H 8H TH JH", 0),  # 9 missing: no run of three
        ("JS JH JD JC", 200),
        ("9S 9H 9D 9C", 150),
        ("AS AH AD AC", 100),
        ("TS TH TD TC", 100),
        ("KS KH KD KC", 100),
        ("QS QH QD QC", 100),
        ("7S 7H 7D 7C", 0),  # sevens and eights count nothing
        ("8S 8H 8D 8C", 0),
        ("JS JH JD JC 9H TH", 220),  # JH in the four (200) and in 9-10-J of hearts (20)
        ("7S 8S 9S TS JS QS KS AS", 100),  # a whole suit: one sequence of 8
    ],
)
def test_combination_values(hand, expected):
    assert points(hand) == expected


def test_counts_and_fours_mask():
    d = decl("7S 8S 9S JS QS KS AD KD QD JD 9C TC JC QC KC")
    # spades: two tierces; diamonds: J-Q-K-A quarte; clubs 9-10-J-Q-K quinte
    assert (d[Decl.N_SEQ3], d[Decl.N_SEQ4], d[Decl.N_SEQ5]) == (2, 1, 1)
    assert d[Decl.POINTS] == 20 + 20 + 50 + 100
    d = decl("JS JH JD JC 9S 9H 9D 9C")
    assert d[Decl.FOURS] == (1 << 4) | (1 << 2) and d[Decl.POINTS] == 350


def test_pilotta_is_king_and_queen_of_trumps():
    assert decl("KH QH", trump=H)[Decl.PILOTTA] == 1
    assert decl("KH QH", trump=S)[Decl.PILOTTA] == 0  # not trumps
    assert decl("KH QS", trump=H)[Decl.PILOTTA] == 0
    assert decl("KH QH", trump=H)[Decl.POINTS] == 0  # not a combination
    assert R.has_pilotta(PACK.parse("KH QH"), H) and not R.has_pilotta(PACK.parse("KH"), H)


def compare(hands: list[str], trump: int, first: int, rules: Rules = DEFAULT_RULES) -> tuple:
    """(team, seat, NS points, EW points, pilotta seat) from the kernel, checked against the
    reference."""
    masks = [PACK.parse(h) if h else 0 for h in hands]
    d = np.zeros((4, DECL_LEN), dtype=np.int32)
    for p in range(4):
        declare_hand(np.int64(masks[p]), trump, d[p])
    out = np.zeros(COMB_LEN, dtype=np.int32)
    compare_declarations(d, first, rules.to_array(), out)
    got = (
        int(out[Comb.TEAM]),
        int(out[Comb.SEAT]),
        int(out[Comb.POINTS_NS]),
        int(out[Comb.POINTS_EW]),
        int(out[Comb.PILOTTA_SEAT]),
    )
    ref = R.compare(masks, trump, first, rules.equal_declarations == "nobody")
    assert got == (ref.team, ref.seat, *ref.points, ref.pilotta_seat)
    return got


def test_higher_value_wins():
    # N tierce (20), E quarte (50): EW scores its 50, NS nothing
    assert compare(["7H 8H 9H", "9D TD JD QD", "", ""], S, 0)[:4] == (1, 1, 0, 50)


def test_four_beats_sequence_of_equal_value():
    # N quinte 9-10-J-Q-K of diamonds (100), W four aces (100): the four wins for EW although
    # N comes first in order; EW scores its 100
    got = compare(["9D TD JD QD KD", "", "", "AS AH AD AC"], S, 0)
    assert got[:4] == (1, 3, 0, 100)


def test_longer_sequence_beats_shorter_of_equal_value():
    # N six cards 9..A clubs (100), E quinte 7..J hearts (100): N's six wins
    assert compare(["9C TC JC QC KC AC", "7H 8H 9H TH JH", "", ""], S, 1)[:4] == (0, 0, 100, 0)


def test_higher_top_card_wins():
    # N tierce to the king (J-Q-K), E tierce to the queen (10-J-Q): N
    assert compare(["JH QH KH", "TD JD QD", "", ""], S, 1)[:2] == (0, 0)
    # fours of 100: aces (E) beat kings (N)
    assert compare(["KS KH KD KC", "AS AH AD AC", "", ""], S, 0)[:4] == (1, 1, 0, 100)


def test_sequence_in_trumps_breaks_a_tie():
    # same tierce 8-9-10, E's in trumps (hearts): E, though N is first in order
    assert compare(["8S 9S TS", "8H 9H TH", "", ""], H, 0)[:2] == (1, 1)


def test_exact_tie_goes_to_first_in_order_or_nobody():
    hands = ["8S 9S TS", "8D 9D TD", "", ""]  # equal tierces, trumps clubs
    assert compare(hands, C, 0)[:2] == (0, 0)  # N leads first: N
    assert compare(hands, C, 1)[:2] == (1, 1)  # E leads first: E
    assert compare(hands, C, 3)[:2] == (0, 0)  # W leads: order W N E S, N before E
    nobody = Rules(equal_declarations="nobody")
    assert compare(hands, C, 0, nobody)[0] == -1
    assert compare(hands, C, 0, nobody)[2:4] == (0, 0)


def test_tie_within_one_team_is_no_tie():
    # N and S hold equal tierces, E a smaller one: NS scores 40 even under "nobody"
    nobody = Rules(equal_declarations="nobody")
    assert compare(["8S 9S TS", "7C 8C 9C", "8D 9D TD", ""], H, 1, nobody)[:4] == (0, 2, 40, 0)


def test_team_scores_all_combinations_of_both_players():
    # N quarte (50) + tierce (20), S tierce (20); E tierce (20): NS scores 50 + 20 + 20 = 90
    got = compare(["9H TH JH QH 7C 8C 9C", "JD QD KD", "7S 8S 9S", ""], D, 0)
    assert got[:4] == (0, 0, 90, 0)


def test_nobody_declares():
    assert compare(["7H 9H", "", "", ""], S, 0)[:4] == (-1, -1, 0, 0)


def test_pilotta_seat_reported_whatever_the_comparison():
    # W holds K+Q of trumps (spades) and nothing else; N a tierce: NS scores, pilotta seat 3
    assert compare(["7H 8H 9H", "", "", "KS QS"], S, 0) == (0, 0, 20, 0, 3)
