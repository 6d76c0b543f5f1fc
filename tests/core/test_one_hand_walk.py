"""The one-hand record walk of the core review: the reviewed player's cards found by following
each trick's winner round the table, each checked, a fault named by its trick."""

from __future__ import annotations

import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.record import RecordError
from piquet_sim.core.review.one_hand import TrickWalk, one_hand_cards


def _walk(seat: int, hand: int) -> TrickWalk:
    # three seats; the highest card wins the trick
    def winner(cards, leader):
        return (leader + cards.index(max(cards))) % 3

    return TrickWalk(seat, hand, 3, 0, winner, f"seat {seat}", lambda c: f"c{c}")


def test_finds_each_card_of_the_player_as_the_lead_moves():
    tricks = [[1, 5, 2], [7, 3, 0], [9]]  # seat 1 wins tricks 1 and 2, so leads 2 and 3
    hand = (1 << 5) | (1 << 7) | (1 << 9)
    seen = []

    def position_at(before, hand_now):
        seen.append((before, hand_now))
        return len(seen)

    cards = one_hand_cards(tricks, _walk(1, hand), "tricks", position_at)
    assert [(d.trick, d.before, d.card, d.upto) for d in cards] == [
        (1, [1], 5, 1),
        (2, [], 7, 2),
        (3, [], 9, 3),
    ]
    # the record up to each card: the tricks before it, the player's hand at that moment
    assert seen[:2] == [([[1]], hand), ([[1, 5, 2]], hand & ~(1 << 5))]


def test_a_card_not_held_or_a_position_that_breaks_the_rules_names_the_trick():
    with pytest.raises(RecordError, match=r"tricks: trick 1: you \(seat 1\) do not hold c5"):
        one_hand_cards([[1, 5, 2]], _walk(1, 1 << 7), "tricks", lambda b, h: None)

    def refuse(before, hand_now):
        raise InputError("no deal fits")

    with pytest.raises(RecordError, match="tricks: trick 1: no deal fits"):
        one_hand_cards([[1, 5, 2]], _walk(1, 1 << 5), "tricks", refuse)


def test_decisions_name_the_cards_before_and_build_the_position_afresh_each_time():
    from piquet_sim.core.review.one_hand import one_hand_decisions

    cards = one_hand_cards([[1, 5, 2]], _walk(1, 1 << 5), "tricks", lambda b, h: (b, h))
    built = []

    def position_of(upto):
        built.append(upto)
        return object()

    (d,) = one_hand_decisions(cards, position_of, lambda c: f"c{c}")
    assert (d.key, d.trick, d.before, d.card, d.exact) == (("card", 1), 1, ["c1"], 5, False)
    assert d.make_state() is not d.make_state()
    assert built == [([[1]], 1 << 5)] * 2
