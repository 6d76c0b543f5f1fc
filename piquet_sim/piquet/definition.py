"""Piquet as the core serves it (:class:`~piquet_sim.core.game.definition.GameDefinition`): its
facts, rules, policies and record grammar, and the hooks by which the core's ``play``,
``review``, studies and OpenSpiel game reach its positions, players and card values.

Perspective: a seat's returns are its deal points; card values are net deal points for the
side to act (his deal points minus the opponent's, :data:`deciders.UNIT`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
from .actions import NUM_ACTIONS, ROLES
from .codec import CODEC
from .deciders import UNIT
from .description import description_of, from_description
from .policies import REGISTRY
from .position import PiquetState
from .record import PiquetRecord
from .rules import SPEC, Rules

#: The tie figures: the net deal points (when the cards are valued by the partie), then the
#: chance the player wins the cards (7 tricks or more).
NET_POINTS = "net points"
CARDS_WON = "P(wins the cards)"


def played_to(seed: int, index: int, tricks: int, seat: int | None = None) -> PiquetState:
    """Deal ``index`` of ``seed`` played by the default deciders (``deciders.seat_deciders``)
    to the first decision from trick ``tricks + 1`` on (``seat``'s, when given): positions of
    ordinary play for tests and studies."""
    from .deciders import seat_deciders

    state = PiquetState.from_deal(seed, index)
    deciders = seat_deciders()
    while not state.is_terminal() and (
        state.phase != "play"
        or state.trick < tricks
        or (seat is not None and state.current_player() != seat)
    ):
        state.apply(deciders[state.current_player()].choose(state))
    return state


def position_of(
    rec: PiquetRecord,
    rules: Rules,
    seed: int,
    before_kernels: Callable[[], None] | None = None,
) -> PiquetState:
    """The play position at the end of ``rec`` (the player's cards now from the record's
    ``hand_now``), the hidden cards one world consistent with it."""
    return from_description(description_of(rec), rules, seed=seed, before_kernels=before_kernels)


class PiquetDefinition(GameDefinition):
    """Piquet: two players, 32 cards; exchange, declarations and twelve tricks."""

    facts = Facts(
        name="piquet",
        title="Piquet",
        seats=ROLES,
        players=(2, 2),
        pack=C.PACK,
        cards_each=12,
        extra=8,
        actions=NUM_ACTIONS,
        longest=14 + 6 + 24,  # exchange (at most 14 discards and ends), declarations, 24 cards
        utility=(0.0, 400.0),
        zero_sum=False,
        unit=UNIT,
    )
    rules_spec = SPEC
    policies = REGISTRY
    play_settings = ValueSettings(worlds=1000, exact_limit=5000, max_seconds=None)
    #: cards of equal value: the one that more often wins the cards, then the safer
    risk_ties = True
    play_example = PlayExample(
        "QS JH 9H 8H 7H AD QD TD",
        "younger",
        "discard: 7S 8S 7D 8C; took: TD QS 7H AS; talon: -; elder took: 4; "
        "point: his KC QC JC TC 9C; sequence: his KC QC JC TC 9C; sets: mine; "
        "tricks: 9C-AC AS-TS KS-JS AH-TH",
        "younger, four tricks played, to lead the fifth",
    )

    rules_class = Rules
    codec = CODEC
    state_type = PiquetState

    def state_from_cards(self, cards: Sequence[int], rules: Rules) -> PiquetState:
        def mask(cs):
            return sum(1 << c for c in cs)

        return PiquetState(mask(cards[:12]), mask(cards[12:24]), list(cards[24:32]), rules)

    def position(self, record, rules, settings, before_kernels=None) -> PiquetState:
        return position_of(record, rules, settings.seed, before_kernels)

    play_decider = staticmethod(deciders.play_decider)

    def seat_deciders(self, strategies, rules) -> list[Decider]:
        from .deciders import seat_deciders
        from .strategies import policies

        return list(seat_deciders(policies(strategies[0], strategies[1])))

    studies = imported("piquet_sim.piquet.studies:STUDIES")

    def card_values(self, state: PiquetState, settings: ValueSettings) -> CardValues:
        from .card_values import card_values
        from .partie_play import play_goal

        return card_values(
            state,
            **settings.sampling(),
            goal=play_goal(settings.game, state.rules),
            sinking=settings.game.get("declarations") == "sinking",
        )

    def tie_figures(self, state, cards, values, settings) -> dict[str, dict[int, float]]:
        from .card_values import cards_won

        if not getattr(values, "raw", None):  # a policy's own values keep no worlds
            return {}
        out = {}
        net = values.per_card.get("net points")
        if net is not None:  # valued by the partie: the deal's net points first
            out[NET_POINTS] = {c: net[c].mean for c in cards}
        out[CARDS_WON] = {c: cards_won(values, state, c) for c in cards}
        return out

    explain = staticmethod(advice.explain)

    advice_view = staticmethod(advice.advice_view)

    review_settings = (review.PiquetReviewSettings(), review.QUICK)

    review_plan = staticmethod(review.review_plan)

    def entry_kernels(self, command: str) -> tuple:
        from .kernels.declarations import declaration_points
        from .kernels.knowledge import class_key, sample_opponent
        from .kernels.pimc import reply_value
        from .kernels.solver import mtdf

        play = (class_key, sample_opponent, declaration_points, mtdf, reply_value)
        if command == "review":
            from .sinking import analyse

            return (*play, *analyse.kernels)
        return play


#: The definition the core serves (``game.py`` names it).
DEFINITION = PiquetDefinition()

__all__ = ["DEFINITION", "PiquetDefinition", "played_to", "position_of"]
