"""`piquet pitch external`: outside players (OpenSpiel's IS-MCTS) against our play policies on
mirrored deals, through :mod:`piquet_sim.core.app.external_cli`. :func:`arena` is also what
``scripts/external_ladder.py`` plays."""

from __future__ import annotations

from ...core.app.external_cli import Arena, external_command
from ...core.game.position import Decider
from ..deciders import SeatDecider, bid_decider, play_decider
from ..policies import names
from ..position import PitchState
from ..rules import DEFAULT_RULES, SPEC, Rules
from .common import rules_options

#: Our play policies an outside player meets by default.
AGAINST = "random,heuristic,pimc"


def arena(seed: int = 1, rules: Rules = DEFAULT_RULES) -> Arena:
    """Pitch's seating for outside players: the outside player at each seat in turn against a
    field of one of our play policies, everyone bidding by our threshold auction; ``rules``
    (its ``players`` above all) the table's."""
    players = rules.players
    changed = [
        f"{o.name} {getattr(rules, o.name)}"
        for o in SPEC.options
        if o.name != "players" and getattr(rules, o.name) != getattr(DEFAULT_RULES, o.name)
    ]

    def seat(play: Decider) -> Decider:
        return SeatDecider(bid_decider("threshold"), play)

    def deal(i: int) -> PitchState:
        return PitchState.from_deal(seed, i, rules)

    return Arena(
        "pitch",
        seat,
        play_decider,
        deal,
        [tuple(s == hero for s in range(players)) for hero in range(players)],
        "the outside player's points per deal minus the mean of the field's (mean over its "
        f"{players} seats)",
        ", ".join([f"{players} players", *changed]),
        names("play", oracle=True),
    )


external_cmd = external_command(
    "pitch",
    arena,
    names("play"),
    AGAINST,
    """      piquet pitch external ismcts:100 --against heuristic -n 16 --players 4
      piquet pitch external ismcts:10,ismcts:100 --against random,heuristic -n 8 --json""",
    options=[rules_options],
    about="The outside player sits at each seat in turn against a field of our policy, "
    "everyone bidding by our threshold auction.",
)
