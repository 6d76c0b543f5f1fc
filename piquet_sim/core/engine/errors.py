"""The one error base every game's bad-input errors derive from.

The CLI turns an :class:`InputError` into one line on stderr and exit code 2; the library raises
it (or a subclass: bad cards, bad rules options, an illegal discard or bid) before long work.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from the user: the message names what is wrong, in one line."""
