"""Legal cards and the trick winner (spec "Play"), hand-worked, kernels and reference alike.

Trump order J 9 A 10 K Q 8 7; other suits A 10 K Q J 9 8 7. Each case names the trick so far
(in playing order), the hand of the next player, and the cards he may play, by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.pilotta.cards import PACK
from piquet_sim.pilotta.kernels.tricks import legal_in_trick, play_code, trick_winner_pos
from piquet_sim.pilotta.reference import play as R
from piquet_sim.pilotta.rules import Rules

S, H, D, C = range(4)


def legal(trick: str, hand: str, trump: int, exemption=False, under: bool = False) -> str:
    """Legal cards (canonical text) from the kernel, checked against the reference
    (``exemption``: False, True or "plain_leads"; ``under``: under-trumping optional)."""
    cards = PACK.parse_list(trick) if trick else []
    arr = np.full(4, -1, dtype=np.int64)
    arr[: len(cards)] = cards
    h = PACK.parse(hand)
    rules = Rules(partner_exemption=exemption, under_trump="optional" if under else "required")
    code = int(play_code(rules.to_array()))
    k = int(legal_in_trick(np.int64(h), arr, len(cards), trump, code))
    seats = [(i, c) for i, c in enumerate(cards)]  # leader is seat 0
    ref = R.legal(h, seats, trump, exemption, under)
    assert k == sum(1 << c for c in ref), (trick, hand)
    return PACK.format(k)


def test_lead_anything():
    assert legal("", "AS 7H JD", S) == "AS 7H JD"


def test_must_follow_suit_any_card_of_it_in_a_plain_suit():
    # hearts led, spades trumps: any heart, high or low
    assert legal("KH", "AH 7H 7S JS", S) == "AH 7H"


def test_void_must_trump():
    # hearts led, no heart: must trump (either trump; no trump in the trick yet)
    assert legal("KH", "7S JS AD", S) == "JS 7S"


def test_void_must_over_trump_when_able():
    # hearts led, E trumped with the 9: S holds J (beats 9) and A (does not): only the J
    assert legal("KH 9S", "JS AS AD", S) == "JS"


def test_void_under_trumps_when_unable_to_over_trump():
    # E trumped with the J (highest): S must still trump, with any trump
    assert legal("KH JS", "AS 7S AD", S) == "AS 7S"


def test_void_without_trumps_plays_anything():
    assert legal("KH 9S", "AD 7C", S) == "AD 7C"


def test_trump_lead_must_go_over_when_able():
    # trumps led with the 10 (order J 9 A 10 …): holding 9 and Q, only the 9 beats it
    assert legal("TS", "9S QS AD", S) == "9S"
    # highest trump in the trick is E's A: the 10 and Q cannot beat it, any trump
    assert legal("TS AS", "QS 8S AH", S) == "QS 8S"


def test_follow_suit_even_after_a_trump():
    # hearts led, E trumped: S holding hearts follows with any heart (no duty to trump)
    assert legal("KH 7S", "7H AH JS", S) == "AH 7H"


def test_partner_winning_without_exemption_still_must_trump():
    # N leads AH (winning), E discards, S void in hearts: must trump though partner wins
    assert legal("AH 7D", "JS 7C", S) == "JS"


def test_partner_exemption_frees_from_trumping():
    # same trick with partner_exemption: S may play anything
    assert legal("AH 7D", "JS 7C", S, exemption=True) == "JS 7C"
    # trumps led by N with the 9, E under; S (partner winning) need not over-trump with the J
    assert legal("9S 7S", "JS QS AH", S, exemption=True) == "QS JS"  # natural-order text
    assert legal("9S 7S", "JS QS AH", S, exemption=False) == "JS"


def test_exemption_only_when_the_partner_is_winning():
    # N leads AH, E trumps (E winning): S is not exempt, must over-trump E's 7 with the J
    assert legal("AH 7S", "JS 8C", S, exemption=True) == "JS"


def test_exemption_on_plain_leads_only():
    # Belote Contree: N leads AH (winning), E discards, S void in hearts may play anything...
    assert legal("AH 7D", "JS 7C", S, exemption="plain_leads") == "JS 7C"
    # ...but on a trump lead S must over-trump his partner's 9 with the J, as anyone
    assert legal("9S 7S", "JS QS AH", S, exemption="plain_leads") == "JS"
    # a trump lead he cannot beat: any trump, as anyone
    assert legal("JS 7S", "9S QS AH", S, exemption="plain_leads") == "QS 9S"


def test_under_trumping_optional():
    # E trumped with the J (highest): S void in hearts may play any card instead of a trump
    assert legal("KH JS", "AS 7S AD", S, under=True) == "AS 7S AD"
    assert legal("KH JS", "AS 7S AD", S) == "AS 7S"
    # when S can beat the trump in the trick he must (over-trump)
    assert legal("KH 9S", "JS AS AD", S, under=True) == "JS"
    # no trump in the trick yet: void, he must trump as before
    assert legal("KH", "7S JS AD", S, under=True) == "JS 7S"
    # a trump lead is followed with a trump, over it or not
    assert legal("JS", "9S 7S AD", S, under=True) == "9S 7S"
    # holding the suit led: follow, whatever the trumps
    assert legal("KH JS", "7H AS", S, under=True) == "7H"


def test_partner_trumped_under_optional_without_exemption():
    # N leads 7H, E plays AH, S trumps with the 9 (winning), W void in hearts holding the 8:
    # W cannot beat the 9: under-trumping optional, any card
    assert legal("7H AH 9S", "8S AD", S, under=True) == "8S AD"
    assert legal("7H AH 9S", "8S AD", S) == "8S"


def winner(trick: str, trump: int) -> int:
    cards = PACK.parse_list(trick)
    k = int(trick_winner_pos(np.array(cards, dtype=np.int64), trump))
    assert k == R.trick_winner(list(enumerate(cards)), trump)
    return k


@pytest.mark.parametrize(
    "trick, trump, expected",
    [
        ("KH AH TH QH", S, 1),  # plain order: A over 10 over K
        ("KH TH QH JH", S, 1),  # 10 beats K in a plain suit
        ("JH 9H AH 7H", H, 0),  # trumps: J over 9 over A
        ("9H AH TH 7H", H, 0),  # 9 of trumps over A and 10
        ("AH 7S KH QH", S, 1),  # the 7 of trumps beats the led ace
        ("AH 7S 8S QH", S, 2),  # higher trump wins
        ("KH AD AC QH", S, 0),  # discards cannot win
    ],
)
def test_trick_winner(trick, trump, expected):
    assert winner(trick, trump) == expected
