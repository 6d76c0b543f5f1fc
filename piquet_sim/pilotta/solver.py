"""Exact (double-dummy) play of a Pilotta round: the library face of ``kernels/solver.py``.

:func:`solve` validates a position (four hands, the trump suit, who leads, the cards already
in the current trick, the tricks and points won so far), runs the exact solver and returns a
:class:`PilottaSolution`: the value under best play by both teams and a principal variation trick by
trick. **Perspective: the contracting team's card points** for the whole round (points won
before the position included, last trick 10 included), or its capot's points (250, or 252
under ``capot_points``) when it takes all eight tricks. The defenders play to hold that number down.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.engine.jit_threads import driver
from ..core.engine.workspaces import KeptWorkspaces
from ..core.game.solve import Solution as CoreSolution
from ..core.game.solve import SolveError
from .cards import PACK, SEATS, TEAMS, card_name, popcount
from .kernels import solver as K
from .kernels.solver_tt import card_to_internal, card_to_natural, to_internal
from .kernels.tricks import card_points, trick_winner_pos
from .rules import DEFAULT_RULES, Rules


@dataclass
class Trick:
    """One trick of the line: its leader, the four cards in playing order, the winner and the
    card points it carries (last trick's 10 included) and what the contracting team gets."""

    leader: str
    cards: list[str]
    winner: str
    points: int
    to_contract: int


@dataclass
class PilottaSolution(CoreSolution):
    """Result of :func:`solve`.

    value: the contracting team's card points for the round under best play (its capot: 250, or
    252 under ``capot_points = 252``).
    rest: the part of ``value`` still to be won from the position.
    points_before: what it had won before the position.
    contract: the contracting team ("NS" or "EW"); trump: the trump suit letter.
    tricks: the principal variation, the current trick first (its cards already played
    included).
    """

    value: int
    rest: int
    points_before: int
    contract: str
    trump: str
    leader: str
    tricks: list[Trick] = field(default_factory=list)


#: The process-wide solver workspace, ``workspace()`` (its table is reused across solves: keys
#: are exact and include the contracting team and the rules that change values, the trump K/Q
#: points, the play options and the capot's worth; see ``kernels/solver_tt``).
workspace: KeptWorkspaces[K.Workspace] = KeptWorkspaces(K.make_workspace)


def _check(hands: list[int], trick: list[int], leader: int, tricks: tuple[int, int]) -> int:
    """Tricks left (the current one included); raises SolveError."""
    seen = 0
    for p, h in enumerate(hands):
        if h & seen:
            raise SolveError(f"{SEATS[p]} holds {PACK.format(h & seen)}, already in another hand")
        seen |= h
    for c in trick:
        if seen >> c & 1:
            raise SolveError(f"{card_name(c)} is in the trick and in a hand")
        seen |= 1 << c
    if len(trick) > 3:
        raise SolveError(f"a trick in progress holds 0 to 3 cards, got {len(trick)}")
    sizes = [popcount(h) + (1 if (p - leader) % 4 < len(trick) else 0) for p, h in enumerate(hands)]
    if len(set(sizes)) != 1 or not 1 <= sizes[0] <= 8:
        shown = " ".join(f"{SEATS[p]} {popcount(h)}" for p, h in enumerate(hands))
        raise SolveError(
            f"hand sizes do not fit a round with {SEATS[leader]} leading and {len(trick)} "
            f"card(s) in the trick: {shown}"
        )
    n = sizes[0]
    if tricks[0] < 0 or tricks[1] < 0 or tricks[0] + tricks[1] + n != 8:
        raise SolveError(f"tricks won so far ({tricks[0]}:{tricks[1]}) plus {n} left must make 8")
    return n


@driver(K.solve_line)  # what a compile notice checks for it
def solve(
    hands: list[int],
    trump: int,
    leader: int,
    contract: int | None = None,
    trick: list[int] | None = None,
    tricks: tuple[int, int] = (0, 0),
    points: int | None = None,
    rules: Rules = DEFAULT_RULES,
) -> PilottaSolution:
    """Solve the rest of a round exactly.

    hands: natural masks N E S W (cards already in the current trick removed); trump: suit
    0..3; leader: seat that led (or leads) the current trick; contract: contracting team
    (0 NS, 1 EW; default the leader's team, who leads first when the contractor leads);
    trick: cards already played to the current trick, in order from the leader; tricks: tricks
    won so far by the contracting and the defending team; points: card points the contracting
    team has won so far (needed only when both teams have won tricks: otherwise it is 0 or all
    the points of the cards gone).
    """
    trick = list(trick or [])
    if not 0 <= trump < 4 or not 0 <= leader < 4:
        raise SolveError("trump and leader must be 0..3")
    team = leader & 1 if contract is None else int(contract)
    if team not in (0, 1):
        raise SolveError(f"the contracting team is 0 (NS) or 1 (EW), got {contract!r}")
    n_left = _check(hands, trick, leader, tricks)
    kq = 1 if rules.trump_kq_points == (3, 2) else 0
    gone = PACK.full & ~(hands[0] | hands[1] | hands[2] | hands[3])
    for c in trick:
        gone &= ~(1 << c)
    gone_points = sum(int(card_points(c, trump, kq)) for c in range(32) if gone >> c & 1)
    if tricks[1] == 0:
        before = gone_points
    elif tricks[0] == 0:
        before = 0
    elif points is None:
        raise SolveError("both teams have won tricks: give the contracting team's points so far")
    else:
        before = int(points)
    if points is not None and int(points) != before:
        raise SolveError(f"the contracting team's points so far must be {before} here")
    if not 0 <= before <= gone_points:
        raise SolveError(f"points so far must be 0..{gone_points} (the cards gone)")
    capot = 1 if tricks[1] == 0 else 0
    ih = np.array([to_internal(np.int64(h), trump) for h in hands], dtype=np.int64)
    it = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(trick):
        it[i] = card_to_internal(c, trump)
    line = np.full(32, -1, dtype=np.int64)
    pos = K.position(leader, team, len(trick), capot, rules=rules.to_array())
    rest = int(K.solve_line(workspace(), ih, it, pos, K.F_ALL, line))
    cards = trick + [int(card_to_natural(int(c), trump)) for c in line if c >= 0]
    out_tricks = []
    lead = leader
    won_c, won_d = tricks
    for t in range(n_left):
        four = cards[4 * t : 4 * t + 4]
        w = (lead + int(trick_winner_pos(np.array(four, dtype=np.int64), trump))) % 4
        pts = sum(int(card_points(c, trump, kq)) for c in four) + (10 if t == n_left - 1 else 0)
        to_c = pts if (w & 1) == team else 0
        if (w & 1) == team:
            won_c += 1
        else:
            won_d += 1
        out_tricks.append(Trick(SEATS[lead], [card_name(c) for c in four], SEATS[w], pts, to_c))
        lead = w
    value = rules.capot_points if won_c == 8 else before + rest
    return PilottaSolution(
        value, rest, before, TEAMS[team], "SHDC"[trump], SEATS[leader], out_tricks
    )


#: The name the library face (``api``) exports.
Solution = PilottaSolution

__all__ = [
    "PilottaSolution",
    "Solution",
    "SolveError",
    "Trick",
    "solve",
    "workspace",
]
