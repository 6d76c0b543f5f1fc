"""The ``pilotta`` click group (``piquet pilotta …``): the game's declared group
(``pilotta/game.py``); command modules register on it."""

from __future__ import annotations

from ..game import GROUP as pilotta

__all__ = ["pilotta"]
