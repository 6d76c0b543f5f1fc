"""Piquet's commands: thin click commands over the library API, registered on ``app.commands``
(the top-level ``piquet`` group lists them at its top level, where Piquet users know them, and
imports each command's module only when it runs).

``commands`` (every Piquet command) is loaded on first access, so that importing one command
module does not import them all.
"""

from __future__ import annotations

MODULES = ("declare", "discard", "draw", "ladder", "odds", "report", "sink", "solve", "strategy")


def __getattr__(name: str):
    if name == "commands":
        import importlib

        for module in MODULES:  # importing a module registers its commands
            importlib.import_module(f"{__name__}.{module}")
        from .app import commands

        return commands
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["commands"]
