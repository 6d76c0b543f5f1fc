"""core.game.record.Replay: a record's deal refused as a RecordError, its tricks acted in
order with each card's place."""

from __future__ import annotations

import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.record import RecordError, Replay


class Cards:
    """A position that takes each card once (a second time is an InputError)."""

    def __init__(self, hand: set[int]):
        if not hand:
            raise InputError("an empty hand")
        self.hand = set(hand)

    def clone(self) -> Cards:
        return Cards(self.hand)

    def apply(self, card: int) -> None:
        if card not in self.hand:
            raise InputError(f"card {card} is not held")
        self.hand.remove(card)


def test_a_refused_deal_is_a_record_error():
    with pytest.raises(RecordError, match="an empty hand"):
        Replay.of(lambda: Cards(set()))


def test_play_tricks_acts_every_card_at_its_trick():
    replay = Replay.of(lambda: Cards({1, 2, 3, 4}))
    replay.play_tricks([[1, 2], [3]], "line 5")
    assert [(action, place) for _, action, place in replay.steps] == [
        (1, "line 5, trick 1"),
        (2, "line 5, trick 1"),
        (3, "line 5, trick 2"),
    ]
    assert replay.state.hand == {4}
    with pytest.raises(RecordError, match="line 6, trick 1: card 1 is not held"):
        replay.play_tricks([[1]], "line 6")
