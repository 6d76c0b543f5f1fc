"""A deal record names its game: one game's record given to another game's grammar is refused
in one line that says which game it is, at the place of its ``game`` key."""

from __future__ import annotations

from pathlib import Path

import pytest

from piquet_sim.core.game.record import RecordError
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
