"""The games this application serves, listed once: ``piquet``'s commands and ``piquet bench``
read each game's declaration (``<game>/game.py``, :class:`piquet_sim.core.game.Game`).
Adding a game is one line here and its package."""

from __future__ import annotations

import importlib

from .core.game import Game

#: Game packages, the top-level one (Piquet) first.
GAME_PACKAGES = ("piquet", "pilotta", "pitch")


def games() -> list[Game]:
    """Every game's declaration, in :data:`GAME_PACKAGES` order."""
    return [importlib.import_module(f"piquet_sim.{p}.game").GAME for p in GAME_PACKAGES]
