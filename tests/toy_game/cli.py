"""The toy game as the application sees it: its CLI vocabulary and its command group, every
command the core's (nothing here but declarations)."""

from __future__ import annotations

from piquet_sim.core.app.commands import Game
from piquet_sim.core.app.options import GameOptions, SeatName

from .rules import SEATS, Rules

OPTIONS = GameOptions(
    rules=Rules,
    seat=SeatName(SEATS),
    help={
        "play": "What to play now in the toy game: every legal card by the tricks it takes.",
        "review": "Review a toy deal: each card against the best with what you could know.",
    },
)

GAME = Game(
    name="toy",
    title="Toy",
    group="toy",
    help="A toy trick-taking game served by the core.",
    definition_ref="toy_game.definition:DEFINITION",
    options_ref="toy_game.cli:OPTIONS",
    shared=("play", "review", "strategies", "batch", "tournament"),
)
