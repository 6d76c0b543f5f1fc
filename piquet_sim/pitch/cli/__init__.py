"""Pitch's commands: the ``pitch`` click group (``piquet pitch …``), thin over the library."""

from __future__ import annotations

from . import batch, bid, hand, match, odds, report, solve  # noqa: F401  (importing a module registers its commands)
from .app import pitch

__all__ = ["pitch"]
