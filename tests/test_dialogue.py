"""The declaration dialogue as evidence: calls and answers read into bounds on each player's
declared key, malformed or contradictory dialogues refused in one line, and the worlds of a
position told with its dialogue equal to a brute-force enumeration of every hand the cards and
the calls allow (plain Python keys, ``reference/declarations.py``)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from piquet_sim.core.game.record import RecordError
from piquet_sim.piquet.actions import SINK
from piquet_sim.piquet.card_values import declared_worlds, worlds_for
from piquet_sim.piquet.codec import CODEC
from piquet_sim.piquet.definition import DEFINITION, played_to, position_of
from piquet_sim.piquet.dialogue import (
    KEY_TOP,
    DialogueError,
    number,
    parse_dialogue,
    spoken,
)
from piquet_sim.piquet.position import PiquetState
from piquet_sim.piquet.reference import declarations as ref
from piquet_sim.piquet.replay import check_one_hand, replay
from piquet_sim.piquet.rules import Rules

SEATS = {"elder": 0, "younger": 1}
EXAMPLE_HAND = DEFINITION.play_example.hand
EXAMPLE_HISTORY = DEFINITION.play_example.history


def bounds(cls: int, text: str):
    return parse_dialogue(cls, text, SEATS.__getitem__).bounds()


def test_a_refused_point_says_the_callers_point_exactly_and_the_others_better():
    """'Five cards, making 34' / 'not good': the caller holds exactly that point, the other a
    better one."""
    elder, younger = bounds(0, "elder five cards making 34, younger not good")
    assert elder == (5 * 128 + 34,) * 2
    assert younger == (5 * 128 + 35, KEY_TOP)


def test_an_equal_length_then_pips_narrow_both_points():
    elder, younger = bounds(0, "elder five, younger equal, elder forty-four, younger not good")
    assert elder == (5 * 128 + 44,) * 2
    assert younger == (5 * 128 + 45, 5 * 128 + 127)  # five cards, more than 44
    elder, younger = bounds(0, "elder five, younger equal, elder 44, younger equal")
    assert elder == younger == (5 * 128 + 44,) * 2


def test_sequences_and_sets_called_and_refused():
    e, y = bounds(1, "elder quart to the king, younger good")
    assert e == (4 * 8 + 6,) * 2 and y == (0, 4 * 8 + 5)
    e, y = bounds(1, "elder quart, younger equal, elder to the king, younger not good")
    assert y == (4 * 8 + 7,) * 2  # an equal quart that beats the king's: to the ace
    e, y = bounds(2, "elder three queens, younger not good, younger fourteen tens")
    assert e == (5, 5) and y == (8 + 3, 8 + 3)
    e, y = bounds(2, "elder quatorze, younger good")
    assert e == (11, 15) and y == (0, 10)


def test_questions_are_skipped_and_numbers_read_as_words():
    assert number("forty-four") == 44 and number("12") == 12 and number("banana") is None
    assert bounds(0, "elder six, younger how many?, younger good")[1] == (0, 6 * 128 - 1)


@pytest.mark.parametrize(
    "cls, text, message",
    [
        (0, "elder banana", "not a point call"),
        (0, "younger good", "answers no call"),
        (0, "elder five, younger equal, younger good", "contradicts"),
        (0, "elder five, elder six", "contradicts"),
        (0, "elder making 44", "say the length first"),
        (0, "elder two making 40", "cannot make 40"),
        (1, "elder quart to the nine", "no sequence of 4 has that top"),
        (1, "elder sequence of two", "3 to 8 cards"),
        (2, "elder three nines", "never count"),
        (2, "elder three kings, younger equal", "never equal"),
    ],
)
def test_malformed_and_contradictory_dialogues_are_refused(cls, text, message):
    with pytest.raises(DialogueError, match=message):
        bounds(cls, text)


def test_spoken_dialogues_read_back_to_intervals_holding_both_keys():
    """The dialogue the laws prescribe for two keys parses back to bounds holding them."""
    cases = [
        (0, 5 * 128 + 44, 5 * 128 + 47),
        (0, 5 * 128 + 44, 5 * 128 + 44),
        (0, 6 * 128 + 50, 5 * 128 + 44),
        (1, 4 * 8 + 6, 4 * 8 + 7),
        (1, 3 * 8 + 4, 0),
        (1, 0, 3 * 8 + 3),
        (2, 5, 6),
        (2, 14, 0),
    ]
    for cls, e, y in cases:
        be, by = bounds(cls, spoken(cls, e, y))
        assert be[0] <= e <= be[1] and by[0] <= y <= by[1], (cls, e, y)


# ---------------------------------------------------------------------- the CLI


def _with(old: str, new: str) -> str:
    assert old in EXAMPLE_HISTORY
    return EXAMPLE_HISTORY.replace(old, new)


@pytest.mark.parametrize(
    "history, message",
    [
        (EXAMPLE_HISTORY + "; sets calls: elder three kings, younger maybe", "not a sets call"),
        (EXAMPLE_HISTORY + "; point calls: elder five, younger not good", "calls give it to"),
        (_with("point: his KC QC JC TC 9C", "point: mine; point calls: elder six"), "contradict"),
        (
            _with("sets: mine", "sets calls: elder three jacks, younger not good, younger 3 kings"),
            "do not fit",
        ),
        (EXAMPLE_HISTORY + "; point calls: elder six", "not what his calls"),
    ],
)
def test_a_play_history_with_a_bad_dialogue_is_one_line_exit_2(run_main, history, message):
    code, out, err = run_main("play", EXAMPLE_HAND, "--younger", "--history", history)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err


def test_a_dialogue_reads_the_same_from_text_and_json():
    text = EXAMPLE_HISTORY + "; sets calls: elder three jacks, younger not good"
    rec = CODEC.parse(text, player=1, hand=0)
    again = CODEC.parse_json(CODEC.json(rec), player=1, hand=0)
    assert again.calls[2].bounds() == rec.calls[2].bounds() == ((4, 4), (5, KEY_TOP))
    assert "sets calls: elder three jacks, younger not good" in CODEC.text(rec)


# ---------------------------------------------------------------------- worlds v enumeration


def _ref_key(cls: int, hand: int) -> int:
    key = ref.class_key(("point", "sequence", "sets")[cls], ref.cards_of(hand))
    if key is None:
        return 0
    if cls == 0:
        return key[0] * 128 + key[1]
    if cls == 1:
        return key[0] * 8 + key[1]
    return key[1] if key[0] == 3 else 8 + key[1]


def _brute_force(state: PiquetState, seat: int, told) -> set[int]:
    """Every hand the opponent may hold now: the unseen cards, none of a suit he showed void
    in, his declaration-time hand (this hand and what he played) holding what he showed and
    declaring keys inside the dialogue's bounds (he declares all he holds)."""
    o = 1 - seat
    led = (1 << state.lead) if state.lead >= 0 else 0  # his card led in this trick
    gone = state.gone[o] | led
    seen = state.dealt[seat] | state.hands[seat] | state.disc[seat] | state.played | led
    for c in state.talon_seen(seat).values():
        seen |= 1 << c
    k, y = state.took
    his_drawn_seen = {state.talon[i] for i in state.talon_seen(seat) if (o == 1 and k <= i < k + y)}
    must = sum(1 << c for c in his_drawn_seen) & ~(state.played | led)
    unseen = [c for c in range(32) if not (seen >> c) & 1 or (must >> c) & 1]
    n = bin(state.hands[o]).count("1")
    out = set()
    for combo in combinations(unseen, n):
        h = sum(1 << c for c in combo)
        if h & must != must or h & state.voids[o]:
            continue
        decl = h | gone
        if all(lo <= _ref_key(c, decl) <= hi for c, (lo, hi) in enumerate(told)):
            out.add(h)
    return out


@pytest.mark.parametrize(
    "seed, index, tricks, seat",
    [(3, 0, 8, 0), (3, 1, 8, 1), (5, 2, 9, 1), (4, 1, 6, 1), (4, 2, 7, 0)],
)
def test_the_worlds_of_a_told_dialogue_are_every_hand_it_allows(seed, index, tricks, seat):
    """A deal played to trick ``tricks``, told by ``seat`` with the full dialogue of its
    declarations: the worlds ``play`` enumerates are exactly the hands a brute force over the
    unseen cards allows (his declared keys inside the dialogue's bounds)."""
    state = played_to(seed, index, tricks, seat)
    rec = CODEC.from_state(state, seat, every_hand=False)
    rec.hand_now = state.hands[seat]
    e_keys = [state._declared_key(0, c) for c in range(3)]
    y_keys = [state._declared_key(1, c) for c in range(3)]
    rec.outcomes = {}  # the calls alone say who scored
    text = CODEC.text(rec) + "".join(
        f"{name} calls: {spoken(c, e_keys[c], y_keys[c])}\n"
        for c, name in enumerate(("point", "sequence", "sets"))
    )
    text = "\n".join(
        line for line in text.splitlines() if not line.startswith(("elder:", "younger:"))
    )
    rec2 = CODEC.parse(text, player=seat, hand=state.hands[seat])
    assert rec2.calls and not any(state.cb)
    told_state = position_of(rec2, Rules(), seed=1)
    told = [cv.told for cv in told_state.view(seat).classes]
    found = declared_worlds(told_state, seat, 10, 1, exact_limit=10**6)
    assert found["exact"] and not found["fallbacks"]
    assert set(found["hands"]) == set(worlds_for(told_state, seat, 10, 1, 10**6)["hands"])
    want = _brute_force(told_state, seat, told)
    assert set(found["hands"]) == want
    assert state.hands[1 - seat] in want  # the true hand is among them
    # the outcomes and shown cards with the dialogue: a subset of the worlds without it
    plain = CODEC.from_state(state, seat, every_hand=False)
    plain.hand_now = state.hands[seat]
    before = worlds_for(position_of(plain, Rules(), seed=1), seat, 10, 1, exact_limit=10**6)
    plain.calls = rec2.calls
    after = worlds_for(position_of(plain, Rules(), seed=1), seat, 10, 1, exact_limit=10**6)
    assert set(after["hands"]) <= set(before["hands"]) & want
    assert state.hands[1 - seat] in after["hands"]


# ---------------------------------------------------------------------- review records

DEAL = Path(__file__).resolve().parents[1] / "docs" / "examples" / "piquet-deal.txt"


def _deal_with(calls: str):
    return CODEC.parse(DEAL.read_text() + calls)


def test_a_full_record_checks_each_call_and_keeps_what_it_told_for_the_cards():
    """With every hand known each seat's calls must fit what he declared; the dialogue's
    bounds then travel with the positions of the player's card decisions."""
    said = "elder four, younger equal, elder making 35, younger not good, younger four making 37"
    assert said == spoken(0, 4 * 128 + 35, 4 * 128 + 37)
    rec = _deal_with(f"point calls: {said}\n")
    steps, final = replay(rec)
    assert final.told[0][0] is not None and final.told[0][1] is None
    plays = [st for st, _, _ in steps if st.phase == "play" and st.current_player() == 0]
    assert plays and all(st.told == final.told for st in plays)
    with pytest.raises(RecordError, match="elder declared four making 35, not what his calls"):
        replay(_deal_with("point calls: elder five\n"))


def test_a_one_hand_record_takes_the_players_kind_from_his_calls():
    """A player who called less than he held sank it (or declared the lesser): his calls say
    so when his record does not."""
    text = (DEAL.parent / "piquet-deal-younger.txt").read_text()
    text = text.replace("younger declares: all\n", "").replace("sets: younger\n", "")
    rec = CODEC.parse(text + "sets calls: elder nothing, younger nothing\n")
    check_one_hand(rec, Rules())
    assert rec.kinds[1][2] == SINK  # he held three queens and said nothing
