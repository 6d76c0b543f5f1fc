"""The ``pitch`` click group (``piquet pitch …``): the game's declared group
(``pitch/game.py``); command modules register on it."""

from __future__ import annotations

from ..game import GROUP as pitch

__all__ = ["pitch"]
