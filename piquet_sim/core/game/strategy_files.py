"""Strategy files, for every game: a JSON or TOML file read into its top-level table, and a
strategy argument resolved as a built-in name or a file path.

Games keep their own :class:`Strategy` and ``from_dict`` (fields and policies are a game's
own); this module only reads files and names, and knows no game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from ..engine.errors import InputError

SUFFIXES = (".json", ".toml")

T = TypeVar("T")


def read_table(path: str | Path, error: type[InputError] = InputError) -> dict:
    """The top-level table of a ``.json`` or ``.toml`` strategy file; every failure (missing,
    unreadable, another suffix, bad syntax, not a table) raises ``error`` with one line."""
    p = Path(path)
    if not p.is_file():
        raise error(f"no strategy named {str(path)!r} and no such file")
    if p.suffix.lower() not in SUFFIXES:
        raise error(f"{p.name}: a strategy file ends in .json or .toml")
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise error(f"cannot read {p}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise error(f"{p.name}: not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    if p.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise error(f"{p.name}: not valid JSON: {e}") from None
    else:
        import tomllib  # Python 3.11+

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise error(f"{p.name}: not valid TOML: {e}") from None
    if not isinstance(data, dict):
        raise error(f"{p.name}: expected a table of fields")
    return data


def resolve(
    name_or_path: str,
    registry: Mapping[str, T],
    load: Callable[[str], T],
    error: type[InputError] = InputError,
) -> T:
    """``registry[name_or_path]`` for a built-in name, else ``load(path)`` for a file (a name
    ending in .json or .toml, or an existing path); else ``error`` naming the built-ins."""
    if name_or_path in registry:
        return registry[name_or_path]
    if name_or_path.lower().endswith(SUFFIXES) or Path(name_or_path).exists():
        return load(name_or_path)
    raise error(
        f"unknown strategy {name_or_path!r}: give a file (.toml/.json) or one of "
        f"{', '.join(registry)}"
    )


__all__ = ["SUFFIXES", "read_table", "resolve"]
