"""Pitch Six as the core serves it (:class:`~piquet_sim.core.game.definition.GameDefinition`):
its facts, rules, policies and record grammar, and the hooks by which the core's ``play``,
``review``, studies and OpenSpiel game reach its positions, players and card values.

Perspective: a seat's returns are its score for the round (the bidder +bid made, -bid set;
every other seat the points it took); card values are the side to act's points
(:data:`deciders.UNIT`: the bidder's for the bidder, the points the bidder does not take for a
defender).
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
from .deciders import EXACT_LIMIT, UNIT
from .policies import REGISTRY
from .position import NUM_ACTIONS, PitchState
from .record import CODEC
from .rules import SPEC, Rules
from .seen import position_of


class PitchDefinition(GameDefinition):
    """Pitch Six, 3 to 6 players each for himself (module docstring)."""

    facts = Facts(
        name="pitch",
        title="Pitch Six",
        seats=("0", "1", "2", "3"),  # at the default table: players - 1 is the dealer
        players=(C.MIN_PLAYERS, C.MAX_PLAYERS),
        pack=C.PACK,
        cards_each=C.HAND_SIZE,
        extra=0,
        actions=NUM_ACTIONS,
        longest=C.MAX_PLAYERS + C.MAX_PLAYERS * C.HAND_SIZE,  # one call a seat, six cards a seat
        utility=(-12.0, 12.0),
        zero_sum=False,
        unit=UNIT,
    )
    rules_spec = SPEC
    policies = REGISTRY
    play_settings = ValueSettings(
        worlds=200, exact_limit=EXACT_LIMIT, max_seconds=10.0, others="threshold"
    )
    play_example = PlayExample(
        "TH 9D TC 2C",
        "1",
        "auction: pass 3 pass pass; tricks: AC 7C 4C KC / 7D QD QC JD / 3H 6H",
        "seat 1 of 4, the bidder at 3 who pitched clubs, third to play to trick 3",
    )
    margin_unit = " points"
    tie_note = "; the cheaper card"

    rules_class = Rules
    codec = CODEC
    state_type = PitchState

    def state_from_cards(self, cards: Sequence[int], rules: Rules) -> PitchState:
        n, k = rules.players, C.HAND_SIZE
        hands = [C.cards_to_mask(cards[k * s : k * s + k]) for s in range(n)]
        return PitchState.from_hands(hands, rules)

    def position(self, record, rules, settings, before_kernels=None) -> PitchState:
        return position_of(record, rules, settings.others, settings.seed, before_kernels)

    play_decider = staticmethod(deciders.play_decider)

    def seat_deciders(self, strategies, rules) -> list[Decider]:
        from .deciders import SeatDecider, bid_decider, others_model, play_decider

        def seat(s) -> Decider:
            bid, bid_params = s.policy("bid"), s.params("bid")
            play = play_decider(s.policy("play"), s.params("play"), **others_model(bid, bid_params))
            return SeatDecider(bid_decider(bid, bid_params), play)

        return [seat(s) for s in strategies]

    studies = imported("piquet_sim.pitch.studies:STUDIES")

    def card_values(self, state: PitchState, settings: ValueSettings) -> CardValues:
        from .card_values import card_values

        return card_values(state, **settings.sampling(), others=settings.others or "threshold")

    explain = staticmethod(advice.explain)

    def tie_order(self, state: PitchState, card: int) -> tuple:
        """The cheapest card first (``kernels.heuristic.cost``), then the lower."""
        from .advice import cost

        return (cost(card, state.trump), card)

    advice_view = staticmethod(advice.advice_view)

    review_settings = (review.PitchReviewSettings(), review.QUICK)

    review_plan = staticmethod(review.review_plan)

    def entry_kernels(self, command: str) -> tuple:
        from .kernels.decide import sample_world, sampled_hands, world_values

        play = (sampled_hands, world_values, sample_world)  # what a play advice calls first
        if command == "review":
            from .bid import advisor_kernels

            return (*advisor_kernels("heuristic"), *play)
        return play


#: The definition the core serves (``game.py`` names it).
DEFINITION = PitchDefinition()

__all__ = ["DEFINITION", "PitchDefinition"]
