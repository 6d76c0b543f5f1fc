"""An action's text, as every game writes it: a card by its name in the game's pack, any other
action (a call, a declaration, the end of an exchange) by the game's own hook, and one line
naming the actions there are for a number that is none of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.cards import Pack
from ..engine.errors import InputError


@dataclass(frozen=True)
class ActionNames:
    """A game's ``action_name(action) -> str``: ``pack``'s card name for a card, else
    ``other(action)`` (the game's hook: the text of its other actions, None for a number that
    is not one); InputError ``no action N (<actions>)`` for neither."""

    pack: Pack
    other: Callable[[int], str | None]
    actions: str  # the actions there are, as the error names them

    def __call__(self, action: int) -> str:
        action = int(action)
        if self.pack.is_card(action):
            return self.pack.card_name(action)
        name = self.other(action)
        if name is None:
            raise InputError(f"no action {action} ({self.actions})")
        return name


__all__ = ["ActionNames"]
