"""The three games' OpenSpiel declarations (:class:`.adapter.Spec`), registered on import of
:mod:`piquet_sim.openspiel`. Each game's position comes from its own ``State``; only the deal
order and the sizes live here."""

from __future__ import annotations

from .adapter import Spec, register


def _piquet_from_deal(cards: list[int], params: dict):
    from ..piquet.position import PiquetState

    mask = lambda cs: sum(1 << c for c in cs)  # noqa: E731
    return PiquetState(mask(cards[:12]), mask(cards[12:24]), cards[24:32])


PIQUET = Spec(
    short_name="python_piquet",
    long_name="Piquet (piquet_sim)",
    players=2,
    pack=32,
    cards_each=12,
    extra=8,
    from_deal=_piquet_from_deal,
    actions=42,
    max_length=14 + 6 + 24,  # exchange (at most 14 discards and ends), declarations, 24 cards
    utility=(0.0, 400.0),
    zero_sum=False,
    params={},
)


#: Every game declared here.
SPECS = (PIQUET,)


def register_all() -> None:
    """Register every game with OpenSpiel (harmless when done before)."""
    for spec in SPECS:
        register(spec)
