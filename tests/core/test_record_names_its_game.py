"""A deal record names its game: one game's record given to another game's grammar is refused
in one line that says which game it is, at the place of its ``game`` key."""

from __future__ import annotations

from pathlib import Path

import pytest

from piquet_sim.core.game import record as R
from piquet_sim.core.game.record import RecordCodec, RecordError
from piquet_sim.games import GAME_PACKAGES, games

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
FILES = {"piquet": "piquet-deal.txt", "pilotta": "pilotta-round.txt", "pitch": "pitch-round.txt"}


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_a_record_of_another_game_is_refused_naming_it(game):
    other = next(g for g in GAME_PACKAGES if g != game)
    text = (EXAMPLES / FILES[game]).read_text()
    definition = next(g for g in games() if g.name == game).definition()
    codec = definition.codec
    rules = definition.rules_class()
    codec.parse(text, rules)  # its own game's record reads
    with pytest.raises(RecordError, match=rf"line 2 \(game\): this is a {other} record, not a"):
        codec.parse(text.replace(f"game: {game}", f"game: {other}"), rules)


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_a_review_record_without_its_player_says_what_to_write(game):
    text = (EXAMPLES / FILES[game]).read_text()
    definition = next(g for g in games() if g.name == game).definition()
    kept = "\n".join(line for line in text.splitlines() if not line.startswith("player:"))
    with pytest.raises(RecordError, match=r"^say whose decisions to review: 'player: "):
        definition.codec.parse(kept, definition.rules_class())


class _Codec(RecordCodec):
    """A grammar whose build only reports what it was given."""

    game = "toy"
    noun = "a toy deal"
    default_rules = "the toy's rules"

    def text_clauses(self, text, history):
        return R.raw_clauses(text, {"game": "game", "x": "x"}.get, "game, x")

    def json_clauses(self, data):
        return R.json_clauses(data, {"game": "game", "x": "x"}.get, "game, x", {})

    def build(self, raw, places, rules, player, hand):
        return (raw, rules, player)

    def text(self, record):
        return ""

    def json(self, record):
        return {}

    def from_state(self, state, player, every_hand=True):
        return None


def test_the_core_checks_the_game_before_any_games_build_reads_the_record():
    codec = _Codec()
    with pytest.raises(RecordError, match=r"key game: this is a pitch record, not a toy deal"):
        codec.parse_json({"game": "pitch", "x": 1})
    assert codec.parse("game: toy\nx: 1", player=0) == (
        {"game": "toy", "x": "1"},
        codec.default_rules,
        0,
    )


def test_build_gets_the_games_default_rules_only_when_none_are_given():
    assert _Codec().parse("x: 1")[1] == "the toy's rules"
    assert _Codec().parse_json({"x": 1}, "given")[1] == "given"


def test_a_key_is_placed_where_it_was_written_else_named_as_itself():
    where = R.place_of({"hand:N": "line 3 (N)"})
    assert (where("hand:N"), where("dealer")) == ("line 3 (N)", "dealer")
