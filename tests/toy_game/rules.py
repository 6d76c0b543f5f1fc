"""The toy game's rules (one option) and policies, as rows of the core's types."""

from __future__ import annotations

from piquet_sim.core.engine.cards import Pack
from piquet_sim.core.game.registry import Policy, Registry
from piquet_sim.core.game.spec import Option, RulesSpec

#: Ten, jack, queen, king of each suit (card index ``suit * 8 + rank``).
PACK = Pack("TJQK", 8, ("ten", "jack", "queen", "king"))
SEATS = ("first", "second")
HAND = 4
TRICKS = 4

SPEC = RulesSpec(
    "toy",
    [
        Option(
            "last_trick_bonus",
            0,
            "Extra points for winning the last trick.",
            bounds=(0, 4),
        )
    ],
)
Rules = SPEC.rules_class(__name__)

REGISTRY = Registry(
    "toy",
    ("play",),
    [
        Policy("play", "random", 0, "a uniform legal card"),
        Policy("play", "greedy", 1, "wins the trick cheaply when it can, else throws its lowest"),
        Policy("play", "dd", 2, "double-dummy: sees both hands (an oracle)", oracle=True),
    ],
)
