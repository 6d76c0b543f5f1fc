"""Pilotta as the study layer plays it (``core.study``): its strategies, its mirrored batch of
rounds and its games to the target (:mod:`.match`), the tournament's JSON, and an outside
player's seat (under the ``contree`` preset: colver's card play)."""

from __future__ import annotations

from ..core.game.position import Decider
from ..core.study.external import Arena
from ..core.study.studies import Matrix, Studies
from .match import BATCH, GAME, default_field, pairs_frame, tournament_json
from .rules import Rules
from .strategies import BOOK


def arena(seed: int = 1, rules: Rules | None = None) -> Arena:
    """Pilotta's seating for outside players: the ``contree`` preset (colver's card play), our
    threshold auction fixing the contract and every seat declaring, on both sides (pimc assumes
    that table); the outside team plays NS, then EW, on the same cards. (``rules`` is the
    preset's: the outside engines play its card play.)"""
    from .actions import make_setup
    from .deciders import AuctionDecider, DeclareDecider, PimcPlay, SeatDecider, play_decider
    from .definition import DEFINITION
    from .position import PilottaState
    from .rules import preset

    table = preset("contree")
    setup = make_setup("threshold", "all", "random")

    def seat(play: Decider) -> Decider:
        return SeatDecider(AuctionDecider("threshold"), DeclareDecider("all"), play)

    def our_play(name: str, params: dict | None = None) -> Decider:
        if name == "pimc":
            return PimcPlay(worlds=params["worlds"]) if params else PimcPlay()
        return play_decider(name, params)

    def deal(i: int) -> PilottaState:
        return PilottaState.from_deal(seed, i, table, setup)

    return Arena.for_game(
        DEFINITION,
        seed,
        table,
        seat,
        perspective="the outside team's game points per deal minus ours (card points / 10 plus "
        "the bonuses; mean of its NS and EW seatings)",
        rules_text="contree preset",
        our_play=our_play,
        deal=deal,
    )


#: Pilotta's studies.
STUDIES = Studies(
    game="pilotta",
    title="Pilotta",
    book=BOOK,
    batch=BATCH,
    tournament=BATCH,
    tournament_json=tournament_json,
    matrix=Matrix(
        "Pilotta: pairwise results ({n:,} mirrored deals, 95% half-widths)",
        "game points per round, row minus column",
    ),
    game_kind=GAME,
    tournament_field=default_field,
    tournament_table=lambda t: pairs_frame(tournament_json(t)),
    arena=arena,
    seating="Rules: the contree preset (colver's card play); our threshold auction fixes the "
    "contract, the same in both seatings (the outside team NS, then EW).",
)
