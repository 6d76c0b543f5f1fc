"""A game's action names from the core: a card of its pack by name, its other actions by its
hook, one line naming the actions for a number that is neither."""

from __future__ import annotations

import pytest

from piquet_sim.core.engine.cards import PACK32, Pack
from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.actions import ActionNames

NAMES = ActionNames(PACK32, {32: "end", 33: "pass"}.get, "actions are 0..33")


def test_cards_by_the_pack_and_the_rest_by_the_hook():
    assert [NAMES(a) for a in (0, 31, 32, 33)] == ["7S", "AC", "end", "pass"]


@pytest.mark.parametrize("action", [-1, 34, 99])
def test_a_number_that_is_no_action_is_one_line(action):
    with pytest.raises(InputError, match=rf"^no action {action} \(actions are 0..33\)$"):
        NAMES(action)


def test_a_gap_of_a_wide_pack_is_no_card():
    pack = Pack("23456789TJQKA", 16, tuple("23456789TJQKA"))  # 13 ranks in 16 bits a suit
    names = ActionNames(pack, lambda a: None, "cards only")
    assert names(12) == "AS" and names(16) == "2H"
    assert not pack.is_card(13)
    with pytest.raises(InputError, match="no action 13"):
        names(13)
