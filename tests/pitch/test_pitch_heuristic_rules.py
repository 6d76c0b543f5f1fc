"""Pitch's heuristic card play, one rule at a time on small hand-built positions
(``kernels/heuristic.py``). Each position is one where an earlier version of the rule plays
another card, so each test fails if its rule is lost."""

from __future__ import annotations

import numpy as np

from piquet_sim.pitch import cards as C
from piquet_sim.pitch.kernels.bidding import best_suit
from piquet_sim.pitch.kernels.heuristic import heuristic_card
from piquet_sim.pitch.kernels.tricks import beats, legal_plays
from piquet_sim.pitch.layouts import View

S, H, D, Cl = 0, 1, 2, 3


def view(seat, bidder, trump, trick=(), played="", t=1, n=4):
    """A View row for ``seat`` with ``trick`` (card names, in playing order, the last one
    played by the seat just before him) on the table."""
    v = np.zeros(View.LEN, dtype=np.int64)
    v[View.PLAYERS] = n
    v[View.SEAT] = seat
    v[View.BIDDER] = bidder
    v[View.TRUMP] = trump
    v[View.TRICK] = t
    v[View.FIRST] = -1
    v[View.BEST] = -1
    v[View.WSEAT] = -1
    v[View.PLAYED] = C.parse_cards(played) if played else 0
    leader = (seat - len(trick)) % n
    for j, name in enumerate(trick):
        c = C.parse_card(name)
        if v[View.FIRST] < 0:
            v[View.FIRST] = c
        if v[View.BEST] < 0 or beats(c, v[View.BEST], trump):
            v[View.BEST] = c
            v[View.WSEAT] = (leader + j) % n
        v[View.TMASK] |= np.int64(1) << c
    v[View.IN_TRICK] = len(trick)
    return v


def play(hand, v):
    h = C.parse_cards(hand)
    legal = legal_plays(h, v[View.FIRST], v[View.TRUMP], False, v[View.TRICK] == 0)
    return C.card_name(int(heuristic_card(legal, h, v)))


# ------------------------------------------------------------------------- the pitch


def test_pitch_without_the_ace_is_the_cheapest_trump_of_the_best_suit():
    # a King pitched would feed the Ace a defender must play under it
    hand = "KS JS 6S 2S 5H 9D"
    assert best_suit(C.parse_cards(hand)) == S
    assert play(hand, view(0, 0, -1, t=0)) == "2S"


def test_pitch_holding_the_ace_is_the_next_trump_below_it():
    # the ace is kept for a trick that scores (the Jack, the Six, the last)
    hand = "AS KS 3S 2S 7H 8D"
    assert best_suit(C.parse_cards(hand)) == S
    assert play(hand, view(0, 0, -1, t=0)) == "KS"


def test_pitch_of_a_lone_ace_is_the_ace():
    hand = "AS 7H 8D 9C 5H 4C"
    assert best_suit(C.parse_cards(hand)) == S
    assert play(hand, view(0, 0, -1, t=0)) == "AS"


# ------------------------------------------------------------------------- leads


def test_bidder_keeps_his_master_trump_and_leads_a_plain_card():
    # AS is gone: his KS is master, but trumps are kept for the tricks that score
    v = view(1, 1, S, played="AS 3S 4H 5H")
    assert play("KS 2S 7H 8D 9C", v) == "7H"


def test_defender_leads_his_highest_plain_card_the_bidder_his_cheapest():
    # no plain card tops its suit (every ace is out); trumps are not led
    hand = "KH 3H 9D 2C 5S"
    assert play(hand, view(2, 0, S, played="2S 3S 4S 7S")) == "KH"
    assert play(hand, view(0, 0, S, played="2S 3S 4S 7S")) == "2C"


# ------------------------------------------------------------------------- following


def test_no_trump_spent_on_a_trick_without_a_point():
    # the bidder (seat 1) leads the KH; seat 2, void in hearts, keeps his only trump
    v = view(2, 1, S, trick=("KH",))
    assert play("3S 4D 5C 7C", v) == "4D"


def test_game_points_alone_are_not_worth_a_trump():
    # ten game points (the TH) but no Jack, no Six and not the last trick
    v = view(2, 1, S, trick=("TH",))
    assert play("3S 4D 5C 7C", v) == "4D"


def test_a_trump_for_a_trick_holding_the_six_of_trumps():
    # seat 1 trumped the bidder's KH with the Six: seat 2 overtrumps for the point
    v = view(2, 0, S, trick=("KH", "6S"))
    assert play("9S 4D 5C 7C", v) == "9S"


def test_a_trick_is_taken_with_the_lowest_winner_game_points_included():
    # last to play: the TH takes the trick and its ten game points stay his
    v = view(3, 0, S, trick=("2H", "3H", "4H"))
    assert play("TH KH 5D 7C", v) == "TH"


def test_the_jack_of_trumps_takes_a_trick_it_wins():
    # the Jack is the lowest trump above the Six: it takes the Six and its own point
    v = view(3, 0, S, trick=("KH", "6S", "2H"))
    assert play("JS QS 4D 5C", v) == "JS"


def test_defender_does_not_feed_another_players_trick():
    # seat 1 (a defender) leads the master AS; seat 2 keeps the Six of trumps: every player
    # scores for himself, so a point fed to seat 1 is a point to an opponent
    v = view(2, 0, S, trick=("AS",))
    assert play("6S 3S 4H 5D", v) == "3S"


# ------------------------------------------------------------------------- kept from before


def test_lead_without_master_trump_leads_a_master_plain_card_else_cheapest():
    v = view(1, 1, S, played="2D 3D 4D 5D")
    assert play("QS 2S AH 8D 9C", v) == "AH"
    assert play("QS 2S 7H 8D 9C", v) == "7H"


def test_last_player_wins_a_trick_holding_the_jack_with_his_cheapest_winner():
    # bidder (seat 0) led 9S, seat 1 dropped the JS, seat 2 played 3S; seat 3 plays last
    v = view(3, 0, S, trick=("9S", "JS", "3S"))
    assert play("QS KS 2H 3D", v) == "QS"


def test_defender_without_a_winner_throws_the_cheapest_card():
    # the bidder (seat 0) led AH
    v = view(1, 0, H, trick=("AH",))
    assert play("TH 3H 4D 5C", v) == "3H"
