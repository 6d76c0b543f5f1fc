"""What every game's exact solver says of a position: its bad input and the shape of its answer.

Each game's ``solver.py`` validates a position with every hand seen, runs its exact search and
returns a :class:`Solution` of its own (a dataclass extending this one: its fields are its JSON
keys, in order); a position it cannot take raises :class:`SolveError`, which the command line
turns into one line on stderr and exit code 2 like any :class:`InputError`.
"""

from __future__ import annotations

from dataclasses import asdict

from ..engine.errors import InputError


class SolveError(InputError):
    """A position the solver cannot take (overlapping or unequal hands, a wrong trick count, an
    illegal trick), named in one line."""


def _plain(data: object) -> object:
    """``data`` with every tuple a list, as JSON reads it back (a line's card pairs)."""
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_plain(v) for v in data]
    return data


class Solution:
    """The common shape of an exact solution, which each game's solution dataclass extends:

    ``value``: the position's value under best play, for the side the game measures it for;
    ``leader``: who leads from the position; :attr:`principal`: the principal variation, trick
    by trick (the game's trick rows, under the field name its JSON has always used);
    :meth:`to_dict`: every field by name, in the dataclass's order (its JSON).

    A plain class, not a dataclass, so that each game's fields keep their own order.
    """

    value: int
    leader: object

    @property
    def principal(self) -> list:
        """The principal variation, trick by trick (default: the ``tricks`` field)."""
        return self.tricks  # type: ignore[attr-defined]

    def to_dict(self) -> dict:
        """Every field by name, in order, nested dataclasses as dicts and tuples as lists."""
        return _plain(asdict(self))  # type: ignore[call-overload]


__all__ = ["Solution", "SolveError"]
