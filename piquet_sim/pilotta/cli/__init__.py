"""Pilotta's commands: the ``pilotta`` click group (``piquet pilotta …``), thin over the API."""

from __future__ import annotations

from . import hand, odds, solve  # noqa: F401  (importing a module registers its commands)
from .app import pilotta

__all__ = ["pilotta"]
