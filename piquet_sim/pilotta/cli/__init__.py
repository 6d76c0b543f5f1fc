"""Pilotta's commands: the ``pilotta`` click group (``piquet pilotta …``), thin over the API.
Each command's module is imported when the command runs (``pilotta/game.py`` lists them)."""

from __future__ import annotations

from .app import pilotta

__all__ = ["pilotta"]
