"""Rules object (every option validated, array form round trip) and the 52-card parsing Pitch
uses (core's PACK52: same conventions and errors as Piquet's parser)."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.spec import DOC_END, DOC_START, RULES_DTYPE
from piquet_sim.pitch import cards as C
from piquet_sim.pitch import rules as R
from piquet_sim.pitch.rules import DEFAULT_RULES, SPEC, Rules, RulesError, RuleSlot


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
    assert arr[RuleSlot.LOW_TO] == (low_to == "capturer")


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
        {"target": 1001},
        {"low_to": "Holder"},
    ],
)
def test_bad_options_are_input_errors(kwargs):
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    assert isinstance(info.value, InputError)
    assert "\n" not in str(info.value)


def test_slots_keep_their_indices():
    """The kernels' array is the one the hand-written Rules gave: same slots, same values."""
    assert [(s.name, int(s)) for s in RuleSlot] == [
        ("PLAYERS", 0),
        ("MUST_FOLLOW", 1),
        ("LOW_TO", 2),
        ("GAME_TIE", 3),
        ("TARGET", 4),
        ("LEN", 5),
    ]
    assert np.dtype(RULES_DTYPE) == Rules().to_array().dtype == np.int64
    r = Rules(players=6, must_follow=True, low_to="capturer", game_tie="bidder", target=21)
    assert r.to_array().tolist() == [6, 1, 1, 1, 21]
    assert Rules.from_dict(r.to_dict()) == r
    assert r.replace(players=3).to_array().tolist() == [3, 1, 1, 1, 21]


def test_rules_module_is_data_only():
    """rules.py imports neither the layouts nor the kernels (read from its source)."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(R.__file__).read_text(encoding="utf-8"))
    modules = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any("layouts" in m or "kernels" in m for m in modules), modules


def test_docs_table_is_the_generated_one():
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "rules" / "pitch.md").read_text(encoding="utf-8")
    start, end = doc.index(DOC_START) + len(DOC_START), doc.index(DOC_END)
    assert doc[start:end].strip() == SPEC.markdown_table().strip()


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
