"""The games' OpenSpiel declarations (:class:`.adapter.Spec`), read from each registered game's
definition (``piquet_sim/games.py``; :class:`~piquet_sim.core.game.definition.Facts` and its
``state_from_cards`` hook), and registered on import of :mod:`piquet_sim.openspiel`. Any game
defined through the core's definition gets an OpenSpiel game this way."""

from __future__ import annotations

from ..core.game.definition import GameDefinition
from .adapter import Spec, register


def spec_of(game: GameDefinition) -> Spec:
    """The OpenSpiel declaration of ``game``: its facts, its deal order, its position after the
    deal (``state_from_cards`` with the rules the game parameters give; a table of several
    sizes takes ``players``)."""
    f = game.facts
    params = {"players": len(f.seats)} if f.players[0] != f.players[1] else {}
    options = set(game.rules_class.option_names())

    def from_deal(cards: list[int], values: dict):
        rules = game.rules_class(**{k: v for k, v in values.items() if k in options})
        return game.state_from_cards(cards, rules)

    return Spec(
        short_name=f"python_{f.name}",
        long_name=f"{f.title} (piquet_sim)",
        players=len(f.seats),
        pack=f.index_space,
        cards_each=f.cards_each,
        extra=f.extra,
        from_deal=from_deal,
        actions=f.actions,
        max_length=f.longest,
        utility=f.utility,
        zero_sum=f.zero_sum,
        params=params,
        card_ids=f.cards,
    )


def specs() -> tuple[Spec, ...]:
    """Every registered game's declaration."""
    from ..games import games

    return tuple(spec_of(game.definition()) for game in games() if game.definition_ref)


def register_all() -> None:
    """Register every game with OpenSpiel (harmless when done before)."""
    for spec in specs():
        register(spec)
