"""The games this application serves, listed once: ``piquet``'s commands and ``piquet bench``
read each game's declaration (``<game>/game.py``, :class:`piquet_sim.core.game.Game`).
Adding a game is one line here and its package."""

from __future__ import annotations

import importlib

from .core.arena import ExternalKind, register_external
from .core.game import Game

#: Game packages, the top-level one (Piquet) first.
GAME_PACKAGES = ("piquet", "pilotta", "pitch")


def games() -> list[Game]:
    """Every game's declaration, in :data:`GAME_PACKAGES` order."""
    return [importlib.import_module(f"piquet_sim.{p}.game").GAME for p in GAME_PACKAGES]


#: Outside players the ladders may add (``--external kind:arg``), registered with the core
#: (``core.arena.EXTERNAL``); each is imported only when asked for, and only with its extra.
EXTERNAL_PLAYERS = {
    "ismcts": ExternalKind(
        "piquet_sim.openspiel.agents:external_decider",
        "openspiel",
        "pyspiel",
        GAME_PACKAGES,
        "OpenSpiel's information-set MCTS, ismcts:<simulations a move>",
    ),
    "colver": ExternalKind(
        "piquet_sim.external.colver:external_decider",
        "peers",
        "colver",
        ("pilotta",),
        "colver's Belote Contree bots (contree preset), colver:<bot>[:<ms or worlds>]",
    ),
}
for _kind, _entry in EXTERNAL_PLAYERS.items():
    register_external(_kind, _entry)
