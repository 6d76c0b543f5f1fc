"""Rules object (every option validated, array form round trip) and the 52-card parsing Pitch
uses (core's PACK52: same conventions and errors as Piquet's parser)."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.errors import InputError
from piquet_sim.pitch import cards as C
from piquet_sim.pitch.layouts import RuleSlot
from piquet_sim.pitch.rules import DEFAULT_RULES, Rules, RulesError


def test_defaults():
    r = DEFAULT_RULES
    assert (r.players, r.must_follow, r.low_to, r.game_tie, r.target) == (
        4,
        False,
        "holder",
        "nobody",
        12,
    )
    assert r.to_array().tolist() == [4, 0, 0, 0, 12]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("must_follow", [False, True])
@pytest.mark.parametrize("low_to", ["holder", "capturer"])
@pytest.mark.parametrize("game_tie", ["nobody", "bidder"])
def test_array_round_trip(players, must_follow, low_to, game_tie):
    r = Rules(players, must_follow, low_to, game_tie, target=15)
    arr = r.to_array()
    assert arr.dtype == np.int64 and arr.shape == (RuleSlot.LEN,)
    assert Rules.from_array(arr) == r
    assert arr[RuleSlot.LOW_TO_CAPTURER] == (low_to == "capturer")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 7},
        {"players": 4.0},
        {"players": True},
        {"must_follow": 1},
        {"low_to": "winner"},
        {"game_tie": "dealer"},
        {"target": 0},
    ],
)
def test_bad_options_are_input_errors(kwargs):
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    assert isinstance(info.value, InputError)
    assert "\n" not in str(info.value)


def test_from_array_rejects_what_no_rules_produce():
    arr = Rules().to_array()
    arr[RuleSlot.MUST_FOLLOW] = 2
    with pytest.raises(RulesError):
        Rules.from_array(arr)
    with pytest.raises(RulesError):
        Rules.from_array(np.zeros(3, dtype=np.int64))


def test_card_encoding_and_text_forms():
    # two of spades is bit 0, ace of clubs bit 3 * 16 + 12 = 60
    assert C.parse_cards("2S") == 1
    assert C.parse_cards("AC") == 1 << 60
    same = ["AS 10h t♦ 6C 2♥", "as TH TD 6c 2h", "S:A H:T2 D:10 C:6", "A♠, T♥, 10♦, 6♣, 2♡"]
    masks = {C.parse_cards(text, 5) for text in same}
    assert len(masks) == 1
    assert C.format_cards(masks.pop()) == "AS TH 2H TD 6C"
    assert C.parse_suit("♦") == 2 and C.parse_suit("c") == 3


@pytest.mark.parametrize("text", ["1S", "AX", "AS AS", "S:AZ", "11H"])
def test_bad_cards_are_card_errors(text):
    with pytest.raises(C.CardError):
        C.parse_cards(text)


def test_game_points_of_the_pack():
    # ten 10, ace 4, king 3, queen 2, jack 1: 20 a suit, 80 in all; a six or a nine is 0
    assert C.game_points(C.parse_cards("TS AS KS QS JS")) == 20
    assert C.PACK_GAME_POINTS == 80
    assert C.game_points(C.parse_cards("6H 9D 2C")) == 0
