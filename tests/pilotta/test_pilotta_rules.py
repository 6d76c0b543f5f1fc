"""The Rules object (every option of the spec), its array form, and the record layouts."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.errors import InputError
from piquet_sim.pilotta import layouts
from piquet_sim.pilotta.rules import Rules, RulesError


def test_defaults_follow_the_spec():
    r = Rules()
    assert r.trump_kq_points == (4, 3) and r.total_points == 162
    assert not r.pass_is_final and r.equal_declarations == "first_in_order"
    assert r.first_lead == "contractor" and not r.partner_exemption
    assert not r.contract_on_card_points_only and r.failed_contract_loses_declarations
    assert r.game_target == 351


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(
            trump_kq_points=(3, 2),
            pass_is_final=True,
            equal_declarations="nobody",
            first_lead="after_dealer",
            partner_exemption=True,
            contract_on_card_points_only=True,
            failed_contract_loses_declarations=False,
            game_target=501,
        ),
    ],
)
def test_array_round_trip(rules):
    assert Rules.from_array(rules.to_array()) == rules


@pytest.mark.parametrize(
    "kwargs",
    [
        {"trump_kq_points": (4, 4)},
        {"equal_declarations": "both"},
        {"first_lead": "dealer"},
        {"partner_exemption": 1},
        {"game_target": 0},
    ],
)
def test_bad_options_raise_an_input_error(kwargs):
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    assert isinstance(info.value, InputError)


def test_bad_array_raises():
    arr = Rules().to_array()
    arr[layouts.Rule.PARTNER_EXEMPTION] = 2
    with pytest.raises(RulesError):
        Rules.from_array(arr)
    with pytest.raises(RulesError):
        Rules.from_array(np.zeros(3, dtype=np.int32))


def test_literal_kq_total_is_160():
    assert Rules(trump_kq_points=(3, 2)).total_points == 160


def test_layouts_have_unique_fields_and_lengths():
    names = ("Rule", "Decl", "Comb", "Score", "Auction", "RoundRec", "Game", "OddsScope", "View")
    for name in names:
        cls = getattr(layouts, name)
        members = [m for m in cls.__members__.values() if m.name != "LEN"]
        # an IntEnum silently aliases equal values: every name must be its own member
        assert len(cls.__members__) == len(list(cls)), name
        assert sorted(int(m) for m in members) == list(range(len(members))) or name == "RoundRec"
        assert int(cls.LEN) == max(int(m) for m in members) + 1 or name == "RoundRec"
    # layouts with blocks: each block fits before the next field
    s = layouts.Setup
    assert s.PARAMS_EW - s.PARAMS_NS == layouts.N_AUCTION_PARAMS
    assert s.WORLDS_NS == s.PARAMS_EW + layouts.N_AUCTION_PARAMS and s.PLAY_EW < s.PARAMS_NS
    assert s.LEN == s.DECLARE_EW + 1
    pub = layouts.Pub
    assert pub.GONE == pub.SHOWN + 4 and pub.ANNOUNCED == pub.GONE + 4
    assert pub.LEADER == pub.TRICK + 3 and pub.LEN == pub.CAPOT + 1
    a = layouts.AState
    assert a.LEN == a.SUIT_N + 4 and sorted(int(m) for m in a)[:-1] == list(range(9))
    rr = layouts.RoundRec
    assert int(rr.LEN) == int(rr.SCORE) + int(layouts.Score.LEN)
