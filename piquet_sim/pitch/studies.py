"""Pitch Six as the study layer plays it (``core.study``): its strategies, its duel of two
bidders on the same rounds (:data:`.batch.DUEL`: ``batch``), its games of one strategy alone
against a field of another (:data:`.match.GAME`: ``game`` and ``tournament``), and an outside
player's seat."""

from __future__ import annotations

from ..core.game.position import Decider
from ..core.study.external import Arena
from ..core.study.studies import Matrix, Studies
from .batch import DUEL
from .match import GAME, tournament_frame, tournament_json
from .rules import DEFAULT_RULES, SPEC, Rules
from .strategies import BOOK


def arena(seed: int = 1, rules: Rules = DEFAULT_RULES) -> Arena:
    """Pitch's seating for outside players: the outside player at each seat in turn against a
    field of one of our play policies, everyone bidding by our threshold auction; ``rules``
    (its ``players`` above all) the table's."""
    from .deciders import SeatDecider, bid_decider
    from .definition import DEFINITION

    players = rules.players
    changed = [
        f"{o.name} {getattr(rules, o.name)}"
        for o in SPEC.options
        if o.name != "players" and getattr(rules, o.name) != getattr(DEFAULT_RULES, o.name)
    ]

    def seat(play: Decider) -> Decider:
        return SeatDecider(bid_decider("threshold"), play)

    return Arena.for_game(
        DEFINITION,
        seed,
        rules,
        seat,
        perspective="the outside player's points per deal minus the mean of the field's (mean "
        f"over its {players} seats)",
        rules_text=", ".join([f"{players} players", *changed]),
    )


#: Pitch's studies.
STUDIES = Studies(
    game="pitch",
    title="Pitch Six",
    book=BOOK,
    batch=DUEL,
    tournament=GAME,
    tournament_json=tournament_json,
    matrix=Matrix(
        "Pitch Six: the hero alone against a field ({n:,} games, 95%)",
        "P(hero wins) minus the fair share",
        xlabel="field (the other players)",
        ylabel="hero (alone)",
        digits=3,
    ),
    tournament_table=tournament_frame,
    game_kind=GAME,
    arena=arena,
    seating="The outside player sits at each seat in turn against a field of our policy, "
    "everyone bidding by our threshold auction.",
)
