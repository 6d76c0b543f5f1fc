"""Exact (double-dummy) play analysis: the library face of ``kernels/solver.py``.

:func:`solve` validates a position (two hands of equal size, 1..12 cards, the tricks already
won, who leads, optionally the points so far for pique), runs the exact solver and returns a
:class:`PiquetSolution`: the value under perfect play for both sides, a principal variation trick by
trick and the points breakdown of that line. All values are elder minus younger.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.engine.jit_threads import driver
from ..core.engine.workspaces import KeptWorkspaces
from ..core.game.solve import Solution, SolveError
from . import cards as C
from .kernels import solver as K
from .kernels.bundles import Workspace
from .kernels.tricks import pique_start, play_trick
from .rules import DEFAULT_RULES, Rules

LEADERS = ("elder", "younger")


@dataclass
class Trick:
    """One trick of the line: who led, the two cards, who won, the points it scored."""

    leader: str
    lead: str
    reply: str
    winner: str
    elder_points: int
    younger_points: int
    pique: str | None = None


@dataclass
class PiquetSolution(Solution):
    """Result of :func:`solve` (points of the rest of the deal, elder minus younger).

    value: exact minimax value: play points, cards/capot and any pique.
    play_value: the same without pique (leads, wins, last trick, cards/capot).
    line: principal variation as (lead, reply) card names per trick.
    elder_tricks / younger_tricks: trick totals at the end of the line (tricks so far included).
    breakdown: per player, points of the line by kind.
    """

    value: int
    play_value: int
    line: list[tuple[str, str]]
    elder_tricks: int
    younger_tricks: int
    leader: str
    tricks: list[Trick] = field(default_factory=list)
    breakdown: dict = field(default_factory=dict)


def _solver_workspace(rules: Rules = DEFAULT_RULES) -> Workspace:
    return K.make_workspace(rules.to_array())


#: The process-wide solver workspace of these rules, ``workspace(rules)`` (its table is reused
#: across solves: keys are exact).
workspace: KeptWorkspaces[Workspace] = KeptWorkspaces(_solver_workspace)


def check_position(elder: int, younger: int, e_tricks: int, y_tricks: int) -> int:
    """Number of cards per hand; raises SolveError for an impossible position."""
    ne, ny = C.popcount(elder), C.popcount(younger)
    if elder & younger:
        raise SolveError(f"elder and younger both hold {C.format_cards(elder & younger)}")
    if ne != ny:
        raise SolveError(f"hands of unequal size: elder {ne} cards, younger {ny}")
    if not 1 <= ne <= 12:
        raise SolveError(f"hands need 1 to 12 cards, got {ne}")
    if e_tricks < 0 or y_tricks < 0 or e_tricks + y_tricks + ne != 12:
        raise SolveError(
            f"tricks won so far ({e_tricks}:{y_tricks}) plus {ne} cards in hand must make 12"
        )
    return ne


@driver(K.solve_line)  # what a compile notice checks for it
def solve(
    elder: int,
    younger: int,
    leader: str = "elder",
    tricks: tuple[int, int] = (0, 0),
    rules: Rules = DEFAULT_RULES,
    points: tuple[int, int] = (0, 0),
    repique: bool = False,
) -> PiquetSolution:
    """Solve the play of the rest of a deal exactly.

    elder, younger: hand masks of equal size; leader: "elder" or "younger" (to lead now);
    tricks: tricks already won (elder, younger), counting toward cards and capot;
    points: points so far in the deal (combinations, carte blanche, play) for pique;
    repique: a repique was scored (no pique possible).
    """
    if leader not in LEADERS:
        raise SolveError(f"leader must be elder or younger, got {leader!r}")
    et, yt = int(tricks[0]), int(tricks[1])
    n = check_position(elder, younger, et, yt)
    ten = int(rules.lead_points == "ten_or_higher")
    li = LEADERS.index(leader)
    line = np.full(24, -1, dtype=np.int32)
    start = (np.int64(points[0]), np.int64(points[1]), np.int64(not repique))
    value = int(
        K.solve_line(np.int64(elder), np.int64(younger), li, et, start, workspace(rules), line)
    )
    sol = replay_line(elder, younger, li, et, yt, points, repique, ten, line[: 2 * n])
    sol.value = value
    return sol


def replay_line(elder, younger, leader, et, yt, points, repique, ten, flat) -> PiquetSolution:
    """Score a line (flat array lead, reply, lead, reply …) from a position."""
    n = len(flat) // 2
    ps = pique_start(int(points[0]), int(points[1]), int(not repique), n)
    gain = np.zeros(4, dtype=np.int32)
    kinds = {p: {"leads": 0, "wins": 0, "last_trick": 0, "cards": 0, "pique": 0} for p in LEADERS}
    tricks_out: list[Trick] = []
    pairs: list[tuple[str, str]] = []
    first_leader = leader
    for t in range(n):
        c, d = int(flat[2 * t]), int(flat[2 * t + 1])
        last = t == n - 1
        winner, ps = play_trick(c, d, leader, ten, ps, last, gain)
        # attribute the trick's play points by kind
        lead_pt = 1 if (ten == 0 or c % 8 >= 3) else 0
        kinds[LEADERS[leader]]["leads"] += lead_pt
        if winner != leader:
            kinds[LEADERS[winner]]["wins"] += int(gain[winner]) - (1 if last else 0)
        if last:
            kinds[LEADERS[winner]]["last_trick"] += 1
        pique = None
        for p in (0, 1):
            if gain[2 + p]:
                kinds[LEADERS[p]]["pique"] += int(gain[2 + p])
                pique = LEADERS[p]
        if winner == 0:
            et += 1
        else:
            yt += 1
        tricks_out.append(
            Trick(
                LEADERS[leader],
                C.card_name(c),
                C.card_name(d),
                LEADERS[winner],
                int(gain[0]),
                int(gain[1]),
                pique,
            )
        )
        pairs.append((C.card_name(c), C.card_name(d)))
        leader = winner
        ps = int(ps)
    if et == 12:
        kinds["elder"]["cards"] = 40
    elif yt == 12:
        kinds["younger"]["cards"] = 40
    elif et >= 7:
        kinds["elder"]["cards"] = 10
    elif yt >= 7:
        kinds["younger"]["cards"] = 10
    for p in LEADERS:
        k = kinds[p]
        k["play"] = k["leads"] + k["wins"] + k["last_trick"]
        k["total"] = k["play"] + k["cards"] + k["pique"]
    e, y = kinds["elder"], kinds["younger"]
    play_value = (e["play"] + e["cards"]) - (y["play"] + y["cards"])
    return PiquetSolution(
        value=e["total"] - y["total"],
        play_value=play_value,
        line=pairs,
        elder_tricks=et,
        younger_tricks=yt,
        leader=LEADERS[first_leader],
        tricks=tricks_out,
        breakdown=kinds,
    )


__all__ = ["LEADERS", "PiquetSolution", "SolveError", "Trick", "check_position", "solve"]
