"""Pilotta as the core serves it (:class:`~piquet_sim.core.game.definition.GameDefinition`):
its facts, rules, policies and record grammar, and the hooks by which the core's ``play``,
``review``, studies and OpenSpiel game reach its positions, players and card values.

Perspective: a seat's returns are its team's game points of the round; card values are the
acting team's card points for the round (:data:`deciders.UNIT`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.game.advice import CardValues
from ..core.game.definition import (
    Facts,
    GameDefinition,
    PlayExample,
    ValueSettings,
    imported,
)
from ..core.game.position import Decider
from . import advice, deciders, review
from . import cards as C
from .actions import NUM_ACTIONS
from .deciders import UNIT
from .description import position_of
from .policies import REGISTRY
from .position import PilottaState
from .record import CODEC
from .rules import SPEC, Rules


class PilottaDefinition(GameDefinition):
    """Pilotta (Cypriot belote), four players in two teams (module docstring)."""

    facts = Facts(
        name="pilotta",
        title="Pilotta",
        seats=C.SEATS,
        players=(4, 4),
        pack=C.PACK,
        cards_each=8,
        extra=0,
        actions=NUM_ACTIONS,
        longest=4 * 41 + 4 + 32,  # the longest auction, the declarations, 32 cards
        utility=(0.0, 1000.0),
        zero_sum=False,
        unit=UNIT,
        teams=((0, 2), (1, 3)),
    )
    rules_spec = SPEC
    policies = REGISTRY
    play_settings = ValueSettings(
        worlds=200, exact_limit=3000, max_seconds=None, others="threshold"
    )
    play_example = PlayExample(
        "JS AH JH QD 9C",
        "N",
        "dealer: E; auction: S:80C W:pass N:pass E:90D S:100C W:pass N:pass E:pass; "
        "tricks: JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H",
        "North, on lead to trick 4, his partner South playing 100 in clubs",
    )

    rules_class = Rules
    codec = CODEC
    state_type = PilottaState

    def state_from_cards(self, cards: Sequence[int], rules: Rules) -> PilottaState:
        hands = [sum(1 << c for c in cards[8 * s : 8 * s + 8]) for s in range(4)]
        return PilottaState.from_hands(hands, dealer=3, rules=rules)

    def position(self, record, rules, settings, before_kernels=None) -> PilottaState:
        return position_of(record, rules, settings.others, settings.seed, before_kernels)

    play_decider = staticmethod(deciders.play_decider)

    def seat_deciders(self, strategies, rules) -> list[Decider]:
        from .deciders import seat_deciders
        from .strategies import setup

        return seat_deciders(setup(strategies[0], strategies[1]))

    studies = imported("piquet_sim.pilotta.studies:STUDIES")

    def card_values(self, state: PilottaState, settings: ValueSettings) -> CardValues:
        from .card_values import card_values

        return card_values(state, **settings.sampling())

    explain = staticmethod(advice.explain)

    advice_view = staticmethod(advice.advice_view)

    review_settings = (review.PilottaReviewSettings(), review.QUICK)

    review_plan = staticmethod(review.review_plan)

    def entry_kernels(self, command: str) -> tuple:
        from .kernels.pimc import deal_world
        from .kernels.play import card_played
        from .kernels.solver import play_card, value
        from .kernels.tricks import legal_cards

        play = (legal_cards, card_played, deal_world, value, play_card)
        if command == "review":
            from .bid import entry_kernels as bid_kernels

            return (*bid_kernels("heuristic"), *play)
        return play


#: The definition the core serves (``game.py`` names it).
DEFINITION = PilottaDefinition()

__all__ = ["DEFINITION", "PilottaDefinition"]
