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


def _pilotta_from_deal(cards: list[int], params: dict):
    from ..pilotta.position import PilottaState

    hands = [sum(1 << c for c in cards[8 * s : 8 * s + 8]) for s in range(4)]
    return PilottaState.from_hands(hands, dealer=3)


def _pilotta_spec():
    from ..pilotta.position import NUM_ACTIONS

    return Spec(
        short_name="python_pilotta",
        long_name="Pilotta (piquet_sim)",
        players=4,
        pack=32,
        cards_each=8,
        extra=0,
        from_deal=_pilotta_from_deal,
        actions=NUM_ACTIONS,
        max_length=4 * 41 + 4 + 32,  # the longest auction, the declarations, 32 cards
        utility=(0.0, 1000.0),
        zero_sum=False,
        params={},
    )


def _pitch_from_deal(cards: list[int], params: dict):
    from ..pitch.position import PitchState
    from ..pitch.rules import Rules

    players = int(params.get("players", 4))
    hands = [sum(1 << c for c in cards[6 * s : 6 * s + 6]) for s in range(players)]
    return PitchState.from_hands(hands, Rules(players=players))


def _pitch_spec():
    from ..pitch.position import NUM_ACTIONS

    return Spec(
        short_name="python_pitch",
        long_name="Pitch Six (piquet_sim)",
        players=4,
        pack=64,
        cards_each=6,
        extra=0,
        from_deal=_pitch_from_deal,
        actions=NUM_ACTIONS,
        max_length=6 + 36,  # one call a seat, six cards a seat
        utility=(-12.0, 12.0),
        zero_sum=False,
        params={"players": 4},
        card_ids=tuple(16 * suit + rank for suit in range(4) for rank in range(13)),
    )


#: Every game declared here.
SPECS = (PIQUET, _pilotta_spec(), _pitch_spec())


def register_all() -> None:
    """Register every game with OpenSpiel (harmless when done before)."""
    for spec in SPECS:
        register(spec)
