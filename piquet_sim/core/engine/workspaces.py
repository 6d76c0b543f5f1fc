"""Solver workspaces kept for the process, one per key: a game's searches reuse the same
transposition table across calls (its keys are exact, so an entry stays true), and each thread
of a parallel search has its own slot.

A game gives only the factory (its hook): ``workspace = KeptWorkspaces(make)``. The key is the
factory's arguments with their defaults filled in, so ``workspace()`` and ``workspace(0)`` are
one table when the factory reads ``slot=0``; an argument the factory does not use to build (a
thread's slot) still tells the tables apart.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

W = TypeVar("W")


class KeptWorkspaces(Generic[W]):
    """Call it as the factory would be called: the workspace made for these arguments, made on
    the first call and kept."""

    def __init__(self, make: Callable[..., W]) -> None:
        self._make = make
        self._signature = inspect.signature(make)
        self._kept: dict[tuple, W] = {}
        self._lock = threading.Lock()

    def _key(self, args: tuple, kwargs: dict) -> tuple[tuple, inspect.BoundArguments]:
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return tuple(bound.arguments.values()), bound

    def __call__(self, *args, **kwargs) -> W:
        key, bound = self._key(args, kwargs)
        with self._lock:
            if key not in self._kept:
                self._kept[key] = self._make(*bound.args, **bound.kwargs)
            return self._kept[key]

    def drop(self, *args, **kwargs) -> W | None:
        """Forget the workspace of these arguments (the next call makes a new one); the one
        forgotten, or None if none was made."""
        key, _ = self._key(args, kwargs)
        with self._lock:
            return self._kept.pop(key, None)

    def __len__(self) -> int:
        return len(self._kept)
