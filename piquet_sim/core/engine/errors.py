"""The one error base every game's bad-input errors derive from.

The CLI turns an :class:`InputError` into one line on stderr and exit code 2; the library raises
it (or a subclass: bad cards, bad rules options, an illegal discard or bid) before long work.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable


class InputError(ValueError):
    """Bad input from the user: the message names what is wrong, in one line."""


def check_choice(
    what: str,
    value: object,
    choices: Collection,
    error: type[InputError] = InputError,
    texts: Iterable[str] | None = None,
) -> None:
    """Refuse a ``value`` that is not one of ``choices``: an ``error`` saying ``what`` must be
    one of them (as ``texts``, by default the choices themselves) and what it got."""
    if value not in choices:
        listed = ", ".join(choices if texts is None else texts)
        raise error(f"{what} must be one of {listed}; got {value!r}")
