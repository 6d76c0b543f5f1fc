"""Pitch's commands: the ``pitch`` click group (``piquet pitch …``), thin over the library.
Each command's module is imported when the command runs (``pitch/game.py`` lists them)."""

from __future__ import annotations

from .app import pitch

__all__ = ["pitch"]
