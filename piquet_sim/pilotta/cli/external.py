"""`piquet pilotta external`: outside players (OpenSpiel's IS-MCTS, colver's bots) against our
play policies on mirrored deals, under the ``contree`` preset (colver's card play), through
:mod:`piquet_sim.core.app.external_cli`. :func:`arena` is also what ``scripts/external_ladder.py``
plays."""

from __future__ import annotations

from ...core.app.external_cli import Arena, external_command
from ...core.game.position import Decider
from ..deciders import AuctionDecider, DeclareDecider, PimcPlay, SeatDecider, play_decider
from ..policies import names
from ..position import PilottaState, make_setup
from ..rules import preset

#: Our play policies an outside player meets by default.
AGAINST = "random,heuristic,pimc"


def arena(seed: int = 1) -> Arena:
    """Pilotta's seating for outside players: the ``contree`` preset (colver's card play), our
    threshold auction fixing the contract and every seat declaring, on both sides (pimc assumes
    that table); the outside team plays NS, then EW, on the same cards."""
    rules = preset("contree")
    setup = make_setup("threshold", "all", "random")

    def seat(play: Decider) -> Decider:
        return SeatDecider(AuctionDecider("threshold"), DeclareDecider("all"), play)

    def our_play(name: str) -> Decider:
        return PimcPlay() if name == "pimc" else play_decider(name)

    def deal(i: int) -> PilottaState:
        return PilottaState.from_deal(seed, i, rules, setup)

    return Arena(
        "pilotta",
        seat,
        our_play,
        deal,
        [(True, False, True, False), (False, True, False, True)],
        "the outside team's game points per deal minus ours (card points / 10 plus the "
        "bonuses; mean of its NS and EW seatings)",
        "contree preset",
        names("play", oracle=True),
    )


external_cmd = external_command(
    "pilotta",
    arena,
    names("play"),
    AGAINST,
    """      piquet pilotta external colver:ismcts:10 --against random,heuristic,pimc -n 20
      piquet pilotta external ismcts:100,colver:heuristic --against heuristic -n 40 --json""",
    about="Rules: the contree preset (colver's card play); our threshold auction fixes the "
    "contract, the same in both seatings (the outside team NS, then EW).",
)
