"""core.cards: both packs' encodings, parsing and formatting (the 32-card pack's every form is
tested through Piquet in tests/test_cards.py; here the 52-card pack and what differs)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piquet_sim.core.engine.cards import (
    PACK32,
    PACK52,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    CardError,
    parse_suit,
)
from piquet_sim.core.engine.errors import InputError


def test_52_card_encoding_is_suit_times_sixteen_plus_rank():
    assert PACK52.parse_card("2S") == 0
    assert PACK52.parse_card("AS") == 12
    assert PACK52.parse_card("2H") == 16
    assert PACK52.parse_card("TD") == 32 + 8
    assert PACK52.parse_card("10d") == 32 + 8
    assert PACK52.parse_card("AC") == 48 + 12
    assert PACK52.n_cards == 52 and PACK52.popcount(PACK52.full) == 52
    assert PACK52.full == 0x1FFF1FFF1FFF1FFF


@pytest.mark.parametrize(
    "text",
    [
        "2S 6S TH AD 3C",
        "2s 6♠ 10♥ a♦ 3♣",
        "S:62 H:T D:A C:3",
        "♤:6 ♤:2 ♡:10 ♢:A ♧:3",
        "6♠️ 2S TH AD 3C",
    ],
)
def test_52_card_text_forms(text):
    assert PACK52.format(PACK52.parse(text, 5)) == "6S 2S TH AD 3C"


def test_white_suit_symbols_in_the_32_card_pack():
    assert PACK32.parse("A♤ K♡ Q♢ J♧") == PACK32.parse("AS KH QD JC")


@pytest.mark.parametrize(
    ("pack", "text", "message"),
    [
        (PACK32, "6S", "'6S' is not a card"),
        (PACK52, "1S", "'1S' is not a card"),
        (PACK52, "S:AX", "'X' in 'S:AX' is not a rank"),
        (PACK52, "2S 2s", "duplicate card 2S"),
    ],
)
def test_errors_name_the_token(pack, text, message):
    with pytest.raises(CardError) as err:
        pack.parse(text)
    assert str(err.value) == message
    assert isinstance(err.value, InputError)


@given(st.integers(0, (1 << 52) - 1))
def test_52_card_round_trip(ordinal_bits):
    mask = sum(((ordinal_bits >> (13 * s)) & 0x1FFF) << (16 * s) for s in range(4))
    assert PACK52.parse(PACK52.format(mask)) == mask
    assert PACK52.parse(PACK52.format_grouped(mask)) == mask
    assert PACK52.popcount(mask) == len(PACK52.mask_to_cards(mask))


def test_card_name_rejects_the_gaps_of_a_strided_pack():
    with pytest.raises(CardError, match="out of range"):
        PACK52.card_name(13)  # bit 13 lies between spades and hearts


def test_parse_suit_takes_only_the_spellings_given():
    spellings = (SUITS, SUIT_SYMBOLS, SUIT_NAMES)
    assert parse_suit(" h ", spellings, "S, H, D or C") == 1
    assert parse_suit("♦\ufe0f", spellings, "S, H, D or C") == 2
    assert parse_suit("CLUBS", spellings, "S, H, D or C") == 3
    with pytest.raises(CardError, match=r"'clubs' is not a suit \(S or a symbol\)"):
        parse_suit("clubs", (SUITS, SUIT_SYMBOLS), "S or a symbol")
    with pytest.raises(CardError, match="'♤' is not a suit"):
        parse_suit("♤", spellings, "S, H, D or C")
