"""Piquet as the study layer plays it (``core.study``): its strategies, its mirrored match of
deal pairs (:data:`.match.BATCH`), whole parties to the partie's end (:data:`PARTIE`: the
``game`` command, and ``partie``), the tournament's JSON, and an outside player's seat."""

from __future__ import annotations

import pandas as pd

from ..core.game.position import Decider
from ..core.study.external import Arena
from ..core.study.studies import Matrix, Studies
from .match import BATCH, tournament_json
from .partie import PARTIE
from .rules import DEFAULT_RULES, Rules
from .strategies import BOOK


def arena(seed: int = 1, rules: Rules = DEFAULT_RULES) -> Arena:
    """Piquet's seat for an outside player: our heuristic exchange and every declaration for
    both players (the elder's deciders in both roles), the outside player elder, then
    younger, on the same cards."""
    from .deciders import SeatDecider, play_decider, seat_deciders
    from .definition import DEFINITION
    from .simulation import Policies

    def seats(play: str):
        return seat_deciders(
            Policies(
                elder_exchange="heuristic",
                younger_exchange="heuristic",
                elder_play=play,
                younger_play=play,
            )
        )[0]

    base = seats("heuristic")

    def seat(play: Decider) -> Decider:
        return SeatDecider(base.exchange, base.declare, play)

    def our_play(name: str, params: dict | None = None) -> Decider:
        return play_decider(name, params) if params else seats(name).play

    return Arena.for_game(
        DEFINITION,
        seed,
        rules,
        seat,
        perspective="the outside player's deal points minus ours (mean of its elder and "
        "younger seatings)",
        rules_text="default rules" if rules == DEFAULT_RULES else "rules " + str(rules.to_dict()),
        our_play=our_play,
    )


#: Piquet's studies.
STUDIES = Studies(
    game="piquet",
    title="Piquet",
    book=BOOK,
    batch=BATCH,
    tournament=BATCH,
    tournament_json=tournament_json,
    matrix=Matrix(
        "Pairwise margins (mirrored deals, 95% half-widths)",
        "mean net per deal, row minus column (points)",
    ),
    tournament_table=lambda t: pd.DataFrame(tournament_json(t)["matches"]),
    game_kind=PARTIE,
    arena=arena,
    seating="Our heuristic exchange and every declaration on both sides; the outside player "
    "elder, then younger, on the same cards.",
)
