"""The Rules object (docs/rules/piquet.md options): defaults, validation errors, the kernels' array
form."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from piquet_sim.piquet import rules as R
from piquet_sim.piquet.rules import DEFAULT_RULES, Rules, RulesError, RuleSlot

#: Every value of every option.
OPTION_VALUES = {
    "lead_points": ("every", "ten_or_higher"),
    "younger_must_exchange": (True, False),
    "carte_rouge": (False, True),
    "tie": ("two_more_deals", "refait_double"),
    "game": ("rubicon", "hundred", "four_deals"),
    "blank_partie_bonus": (False, True),
}
ALL_RULES = [
    Rules(**dict(zip(OPTION_VALUES, values, strict=True)))
    for values in itertools.product(*OPTION_VALUES.values())
]


def test_defaults_are_the_rules_md_defaults():
    assert Rules() == DEFAULT_RULES
    assert Rules().to_dict() == {
        "lead_points": "every",
        "younger_must_exchange": True,
        "carte_rouge": False,
        "tie": "two_more_deals",
        "game": "rubicon",
        "blank_partie_bonus": False,
    }


def test_every_option_is_known():
    assert Rules.option_names() == list(OPTION_VALUES)
    assert OPTION_VALUES["lead_points"] == R.LEAD_POINTS
    assert OPTION_VALUES["tie"] == R.TIE_RULES
    assert OPTION_VALUES["game"] == R.GAMES


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_array_round_trip(rules):
    arr = rules.to_array()
    assert arr.dtype == np.int64
    assert arr.shape == (RuleSlot.LEN,)
    assert Rules.from_array(arr) == rules
    assert Rules(**rules.to_dict()) == rules


def test_array_layout():
    arr = Rules(
        lead_points="ten_or_higher",
        younger_must_exchange=False,
        carte_rouge=True,
        tie="refait_double",
        game="four_deals",
        blank_partie_bonus=True,
    ).to_array()
    assert arr[RuleSlot.LEAD_POINTS] == 1
    assert arr[RuleSlot.YOUNGER_MUST_EXCHANGE] == 0
    assert arr[RuleSlot.CARTE_ROUGE] == 1
    assert arr[RuleSlot.TIE] == 1
    assert arr[RuleSlot.GAME] == 2
    assert arr[RuleSlot.BLANK_PARTIE_BONUS] == 1
    assert Rules().to_array().tolist() == [0, 1, 0, 0, 0, 0]
    assert (
        len(
            {
                RuleSlot.LEAD_POINTS,
                RuleSlot.YOUNGER_MUST_EXCHANGE,
                RuleSlot.CARTE_ROUGE,
                RuleSlot.TIE,
                RuleSlot.GAME,
                RuleSlot.BLANK_PARTIE_BONUS,
            }
        )
        == RuleSlot.LEN
    )


def test_distinct_rules_give_distinct_arrays():
    assert len({tuple(r.to_array().tolist()) for r in ALL_RULES}) == len(ALL_RULES) == 96


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lead_points": "all"}, "lead_points must be one of every, ten_or_higher; got 'all'"),
        ({"tie": "replay"}, "tie must be one of two_more_deals, refait_double; got 'replay'"),
        ({"game": "piquet"}, "game must be one of rubicon, hundred, four_deals; got 'piquet'"),
        ({"game": None}, "game must be one of rubicon, hundred, four_deals; got None"),
        (
            {"younger_must_exchange": "yes"},
            "younger_must_exchange must be true or false, got 'yes'",
        ),
        ({"carte_rouge": 1}, "carte_rouge must be true or false, got 1"),
        ({"blank_partie_bonus": None}, "blank_partie_bonus must be true or false, got None"),
    ],
)
def test_validation_errors(kwargs, message):
    with pytest.raises(RulesError) as err:
        Rules(**kwargs)
    assert str(err.value) == message


def test_unknown_option_is_refused():
    with pytest.raises(TypeError):
        Rules(capot=True)


def test_rules_are_frozen_and_hashable():
    rules = Rules(carte_rouge=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.carte_rouge = False  # type: ignore[misc]
    assert len({Rules(), Rules(), rules}) == 2
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize("index, value", [(0, 2), (3, -1), (4, 3), (5, 7)])
def test_from_array_rejects_entries_no_rules_produce(index, value):
    arr = Rules().to_array()
    arr[index] = value
    with pytest.raises(RulesError):
        Rules.from_array(arr)
