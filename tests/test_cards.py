"""Cards (docs/rules/piquet.md "Cards"): the bit encoding, every text form a user types, the
canonical
output, and error messages that name the bad token."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piquet_sim.piquet import cards as C
from piquet_sim.piquet.cards import (
    CardError,
    format_cards,
    format_grouped,
    parse_card_list,
    parse_cards,
)

# A hand used throughout: AS KS QS JS (spades), TH 9H (hearts), 8D 7D (diamonds), AC KC QC JC.
HAND_TEXT = "AS KS QS JS TH 9H 8D 7D AC KC QC JC"
HAND = parse_cards(HAND_TEXT)


def test_encoding_bit_is_suit_times_eight_plus_rank():
    assert C.card_index(0, 0) == 0  # seven of spades
    assert C.parse_card("7S") == 0
    assert C.parse_card("AS") == 7
    assert C.parse_card("7H") == 8
    assert C.parse_card("TD") == 19
    assert C.parse_card("AC") == 31
    assert C.card_name(31) == "AC"
    assert C.card_name(3) == "TS"
    assert [C.card_name(i) for i in range(8)] == ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]


def test_pip_values():
    # A 11, K Q J 10 10, then 9 8 7 at face (indexed by rank, seven first).
    assert C.PIPS == (7, 8, 9, 10, 10, 10, 10, 11)


@pytest.mark.parametrize(
    "text",
    [
        "AS KS QS JS TH 9H 8D 7D AC KC QC JC",  # canonical
        "AS KS QS JS 10H 9H 8D 7D AC KC QC JC",  # 10 for ten
        "as ks qs js th 9h 8d 7d ac kc qc jc",  # lower case
        "aS Ks qS jS 10h 9H 8d 7D Ac kC Qc jc",  # mixed case
        "A♠ K♠ Q♠ J♠ T♥ 9♥ 8♦ 7♦ A♣ K♣ Q♣ J♣",  # suit symbols
        "a♠ k♠ q♠ j♠ 10♥ 9♥ 8♦ 7♦ a♣ k♣ q♣ j♣",  # symbols, lower-case ranks, 10
        "AS,KS,QS,JS,TH,9H,8D,7D,AC,KC,QC,JC",  # commas
        "AS, KS, QS, JS, TH, 9H, 8D, 7D, AC, KC, QC, JC",  # commas and spaces
        "  AS\tKS\nQS  JS ,, TH 9H 8D 7D AC KC QC JC ",  # any whitespace, doubled separators
        "S:AKQJ H:T9 D:87 C:AKQJ",  # suit-grouped
        "s:akqj h:109 d:87 c:akqj",  # grouped, lower case, 10
        "♠:AKQJ ♥:T9 ♦:87 ♣:AKQJ",  # grouped with symbols
        "A♠️ K♠️ Q♠️ J♠️ T♥️ 9♥️ 8♦️ 7♦️ A♣️ K♣️ Q♣️ J♣️",  # emoji symbols (U+FE0F after each)
        "♠️:AKQJ ♥️:T9 ♦︎:87 ♣︎:AKQJ",  # grouped, emoji and text variation selectors
        "S:AKQJ,H:T9,D:87,C:AKQJ",  # grouped, commas
        "C:AKQJ D:87 H:T9 S:AKQJ",  # grouped, any suit order
        "S:AKQJ H:T9 D:87 C:- AC KC QC JC",  # grouped with a void, mixed with single cards
        "JC QC KC AC 7D 8D 9H TH JS QS KS AS",  # any order
        ["AS", "KS", "QS", "JS", "TH", "9H", "8D", "7D", "AC", "KC", "QC", "JC"],  # iterable
    ],
)
def test_every_text_form_parses_to_the_same_hand(text):
    assert parse_cards(text, 12) == HAND
    assert format_cards(parse_cards(text)) == HAND_TEXT


def test_grouped_void_and_empty_group():
    assert parse_cards("S:AK H:- D: C:7") == parse_cards("AS KS 7C")


def test_parse_card_list_keeps_typed_order():
    assert parse_card_list("7C AS S:KQ") == [24, 7, 6, 5]


def test_canonical_output():
    mask = parse_cards("7c 10h as ks t♦")
    assert format_cards(mask) == "AS KS TH TD 7C"  # suits S H D C, high rank first, T for ten
    assert C.card_names(mask) == ["AS", "KS", "TH", "TD", "7C"]
    assert format_grouped(mask) == "S:AK H:T D:T C:7"
    assert format_grouped(parse_cards("AS KS TH 7C")) == "S:AK H:T D:- C:7"
    assert format_cards(0) == ""
    assert C.mask_to_cards(mask) == [7, 6, 11, 19, 24]


@given(st.integers(0, C.FULL_PACK))
def test_round_trip_through_both_output_forms(mask):
    assert parse_cards(format_cards(mask)) == mask
    assert parse_cards(format_grouped(mask)) == mask
    assert parse_cards(format_cards(mask).lower()) == mask
    assert C.popcount(mask) == len(C.mask_to_cards(mask)) == bin(mask).count("1")
    assert C.cards_to_mask(C.mask_to_cards(mask)) == mask
    assert sum(C.suit_holding(mask, s) << (8 * s) for s in range(4)) == mask


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XS", "'XS' is not a card"),
        ("AS KS XS", "'XS' is not a card"),
        ("1S", "'1S' is not a card"),
        ("AX", "'AX' is not a card"),
        ("A", "'A' is not a card"),
        ("10", "'10' is not a card"),
        ("AS10H", "'AS10H' is not a card"),
        ("6S", "'6S' is not a card"),
        ("qz", "'qz' is not a card"),
        ("S:AX", "'X' in 'S:AX' is not a rank"),
        ("h:k6", "'6' in 'h:k6' is not a rank"),
        ("AS QH qh", "duplicate card QH"),
        ("QH 10♥ TH", "duplicate card TH"),
        ("S:AK AS", "duplicate card AS"),
    ],
)
def test_errors_name_the_token(text, message):
    with pytest.raises(CardError) as err:
        parse_cards(text)
    assert str(err.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AS KS QS JS TH 9H 8D 7D AC KC QC", "a hand needs 12 cards, got 11"),
        ("AS KS QS JS TH 9H 8D 7D AC KC QC JC 7C", "a hand needs 12 cards, got 13"),
        ("", "a hand needs 12 cards, got 0"),
    ],
)
def test_card_count_error(text, message):
    with pytest.raises(CardError) as err:
        parse_cards(text, 12)
    assert str(err.value) == message


def test_bad_token_is_reported_before_the_count():
    with pytest.raises(CardError, match="^'XS' is not a card$"):
        parse_cards("XS KS", 12)


def test_card_error_is_a_value_error_and_index_range():
    assert issubclass(CardError, ValueError)
    with pytest.raises(CardError, match="out of range"):
        C.card_name(32)
