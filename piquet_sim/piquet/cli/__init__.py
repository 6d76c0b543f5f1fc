"""Piquet's commands: thin click commands over the library API, registered on ``app.commands``
(the top-level ``piquet`` group adds them at its top level, where Piquet users know them)."""

from __future__ import annotations

from . import (  # noqa: F401  (importing a module registers its commands)
    declare,
    discard,
    draw,
    odds,
    report,
    sink,
    solve,
    strategy,
)
from .app import commands

__all__ = ["commands"]
