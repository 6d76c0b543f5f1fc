"""Exact play values of a Pitch round with every hand seen: the library face of the search
kernels (``kernels/maxn.py``, ``kernels/paranoid.py``).

:func:`solve` takes the hands (one per seat, seats numbered from the dealer's left), who leads,
who the bidder is and the trump (or none: the bidder's pitch will set it), and returns a
:class:`PitchSolution`: the points *still to be decided* from the position for every seat under
max^n play (each player maximising his own points), or the bidder's points when every other
player plays against him (``paranoid``); the value of every legal card of the player to move;
and a principal line, trick by trick. For a full round (six cards each) the points still to be
decided are all the round's points.

Max^n's tie rule (``tie``): "first" (default), a player indifferent between cards (equal own
points) plays the first in a static order of the position's cards (``search_node.static_key``);
"full", he plays the card whose outcome gives the bidder fewer points, then everyone fewer, then
the smaller vector in seat order, then the lowest card.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..core.engine.errors import check_choice
from ..core.engine.interruptible import call_interruptibly
from ..core.engine.workspaces import KeptWorkspaces
from ..core.game.solve import Solution, SolveError
from . import cards as C
from .kernels import position as KP
from .kernels.search_node import F_ALL, F_TIE_FULL, SearchWork, make_work
from .kernels.search_tt import new_generation
from .layouts import POINT_NAMES, Ctx, Pos, SearchStat
from .rules import DEFAULT_RULES, Rules

SOLVER_TT_BITS = 18  # 262,144 entries, 8 MB
#: max^n tie rules and the search flags each adds to F_ALL
TIE_RULES = {"first": 0, "full": F_TIE_FULL}


@dataclass
class TrickLine:
    """One trick of the principal line: who led, the cards from the leader on, who won, the
    points each seat got from the trick (High and Low count in the first)."""

    leader: int
    cards: list[str]
    winner: int
    points: list[int]


@dataclass
class PitchSolution(Solution):
    """Result of :func:`solve`. Seats are dealer-relative; points are points still to be
    decided from the position (a full round: all of them).

    mode: "maxn" or "paranoid"; tie: max^n's tie rule ("first" or "full"). points: per seat,
    under max^n play (paranoid: None).
    bidder_points: the bidder's points (max^n: ``points[bidder]``; paranoid: against all).
    choices: every legal card of the player to move with its value (max^n: points per seat;
    paranoid: the bidder's points). line: the searched play, trick by trick.
    """

    mode: str
    tie: str
    players: int
    bidder: int
    leader: int
    to_move: int
    trump: str | None
    points: list[int] | None
    bidder_points: int
    choices: list[dict]
    line: list[TrickLine] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def value(self) -> int:
        """The bidder's points: the value the searches give the bidder's seat."""
        return self.bidder_points

    @property
    def principal(self) -> list[TrickLine]:
        """The searched line, trick by trick."""
        return self.line


def _search_work() -> SearchWork:
    return make_work(SOLVER_TT_BITS)


#: The process-wide search workspace, ``workspace()`` (its table is reused; a new deal bumps
#: the generation, so no entry of another deal can match).
workspace: KeptWorkspaces[SearchWork] = KeptWorkspaces(_search_work)


def unpack(v: int, n: int) -> list[int]:
    """Points per seat of a packed vector (seat 0 in the highest nibble)."""
    return [(int(v) >> (4 * (5 - s))) & 15 for s in range(n)]


def make_position(
    hands: list[int],
    leader: int,
    bidder: int | None = None,
    trump: int | None = None,
    rules: Rules = DEFAULT_RULES,
    game_points: list[int] | None = None,
    played: int = 0,
) -> np.ndarray:
    """Validate a position at a trick start and return its :class:`~.layouts.Pos` row.

    hands: one mask per seat (cards not yet played), equal sizes 1..6; leader: seat to lead;
    bidder: the bidder's seat (default: the leader); trump: suit 0..3 or None (only for a full
    round, where the bidder's pitch sets it); game_points: game points taken so far per seat;
    played: cards already played in the round (tells whether a lower trump already fell, for
    Low under ``low_to="capturer"``). A full round (six cards each) must be led by the bidder,
    and with a given trump he must hold one."""
    n = len(hands)
    if n != rules.players:
        raise SolveError(f"{n} hands given but the rules are for {rules.players} players")
    seen = 0
    sizes = set()
    for s, h in enumerate(hands):
        if seen & h:
            raise SolveError(f"{C.format_cards(seen & h)} given to two players")
        seen |= h
        sizes.add(C.popcount(h))
        if h & ~C.FULL_PACK:
            raise SolveError(f"seat {s}: not a card mask")
    if len(sizes) != 1:
        raise SolveError(f"hands of unequal size: {', '.join(str(C.popcount(h)) for h in hands)}")
    size = sizes.pop()
    if not 1 <= size <= C.HAND_SIZE:
        raise SolveError(f"hands need 1 to 6 cards, got {size}")
    if played & seen:
        raise SolveError(f"{C.format_cards(played & seen)} both played and in a hand")
    for name, seat in (("leader", leader), ("bidder", bidder)):
        if seat is not None and not 0 <= seat < n:
            raise SolveError(f"{name} must be a seat 0..{n - 1}, got {seat}")
    bidder = leader if bidder is None else bidder
    full = size == C.HAND_SIZE
    if full and leader != bidder:
        raise SolveError("in a full round the bidder leads (pitches) the first trick")
    if trump is None and not full:
        raise SolveError("an endgame (fewer than 6 cards each) needs the trump")
    if trump is not None and not 0 <= trump < 4:
        raise SolveError(f"trump must be a suit 0..3, got {trump}")
    if full and trump is not None and not hands[bidder] & C.suit_cards(trump):
        raise SolveError(
            f"the bidder (seat {bidder}) holds no {C.SUIT_NAMES[trump]}: he cannot pitch them"
        )
    game = list(game_points) if game_points is not None else [0] * n
    if len(game) != n or any(g < 0 for g in game) or sum(game) > C.PACK_GAME_POINTS:
        raise SolveError(f"game points need {n} whole numbers >= 0 (sum at most 80)")
    if full and any(game):
        raise SolveError("no game points can be taken before the first trick")
    pos = np.zeros(Pos.LEN, dtype=np.int64)
    pos[Pos.PLAYERS] = n
    pos[Pos.LEADER] = leader
    pos[Pos.BIDDER] = bidder
    pos[Pos.TRUMP] = -1 if trump is None else trump
    pos[Pos.PITCH] = 1 if full else 0
    pos[Pos.SCORE_HIGH_LOW] = 1 if full else 0
    pos[Pos.LOW_CARD] = -1
    if not full and rules.low_to == "capturer":
        trumps = (seen | played) & C.suit_cards(trump)
        low = (trumps & -trumps).bit_length() - 1 if trumps else -1
        pos[Pos.LOW_CARD] = low if low >= 0 and seen >> low & 1 else -1
    pos[Pos.TRICK : Pos.TRICK + 6] = -1
    pos[Pos.HANDS : Pos.HANDS + n] = [np.int64(h) for h in hands]
    pos[Pos.GAME : Pos.GAME + n] = game
    return pos


def _line(
    pos: np.ndarray, rules_arr: np.ndarray, work: SearchWork, paranoid: bool, flags: int, n: int
):
    """The principal line, trick by trick: at each card the entry kernel values every legal
    card and ``best_child`` picks the one played (no kernel searches along the whole line:
    it would compile the search in once more)."""
    child_values = KP.CHILD_VALUES[paranoid]
    cards_now = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    tricks: list[TrickLine] = []
    cur = pos.copy()
    child = np.empty_like(pos)
    leader = int(pos[Pos.LEADER])
    cards: list[str] = []
    points = [0] * n
    while KP.pos_legal(cur, rules_arr):
        k = child_values(cur, rules_arr, work, flags, cards_now, values)
        card = int(cards_now[KP.best_child(cur, paranoid, flags, cards_now, values, k)])
        cards.append(C.card_name(card))
        gain = KP.pos_play(cur, card, rules_arr, child)
        points = [a + b for a, b in zip(points, unpack(gain, n), strict=True)]
        cur[:] = child
        if int(cur[Pos.TRICK_COUNT]) == 0:
            tricks.append(TrickLine(leader, cards, int(cur[Pos.LEADER]), points))
            leader = int(cur[Pos.LEADER])
            cards, points = [], [0] * n
    return tricks


def search_kernels(paranoid: bool) -> tuple:
    """The numba entry kernels :func:`solve` calls for this search (max^n or paranoid), for a
    caller that tells whether they still have to compile."""
    solve_kernel = KP.solve_paranoid if paranoid else KP.solve_maxn
    return solve_kernel, KP.CHILD_VALUES[paranoid], KP.best_child


def _stop_search() -> None:
    """Ctrl-C during :func:`solve`: the running search stops at its next node (its node limit
    becomes 1); the process-wide workspace is dropped, as its thread may not have stopped yet
    (one still compiling cannot be), so the next solve starts a new one."""
    work = workspace.drop()
    if work is not None:
        work.ctx[Ctx.NODE_LIMIT] = 1


def _search(
    pos: np.ndarray,
    rules_arr: np.ndarray,
    work: SearchWork,
    paranoid: bool,
    flags: int,
    n: int,
    with_line: bool,
):
    """The kernels of :func:`solve`: (points per seat or None, the bidder's points, each card's
    value, the line, nodes and seconds of the first search). ``work.stats`` counts every
    search's nodes as they go."""
    t0 = time.perf_counter()
    if paranoid:
        value = int(KP.solve_paranoid(pos, rules_arr, work, flags))
        points = None
    else:
        vec = int(KP.solve_maxn(pos, rules_arr, work, flags))
        points = unpack(vec, n)
        value = points[int(pos[Pos.BIDDER])]
    seconds = time.perf_counter() - t0
    nodes = int(work.stats[SearchStat.NODES])
    cards = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    k = int(KP.CHILD_VALUES[paranoid](pos, rules_arr, work, flags, cards, values))
    choices = [
        {
            "card": C.card_name(int(cards[i])),
            "value": int(values[i]) if paranoid else unpack(values[i], n),
        }
        for i in range(k)
    ]
    line = _line(pos, rules_arr, work, paranoid, flags, n) if with_line else []
    return points, value, choices, line, nodes, seconds


def solve(
    hands: list[int],
    leader: int,
    bidder: int | None = None,
    trump: int | None = None,
    rules: Rules = DEFAULT_RULES,
    paranoid: bool = False,
    game_points: list[int] | None = None,
    played: int = 0,
    with_line: bool = True,
    tie: str = "first",
    progress: Callable[[int, float], None] | None = None,
) -> PitchSolution:
    """Solve the play from a trick start exactly (arguments as :func:`make_position`).

    Max^n (default): every seat's points still to be decided, each player maximising his own,
    ties by ``tie`` (see the module docstring). ``paranoid``: the bidder's points when
    everyone else plays against him (``tie`` does not apply). The search runs in a helper
    thread: a Ctrl-C stops it within a moment and raises KeyboardInterrupt; ``progress(nodes,
    seconds)`` is called from this thread about every 50 ms while it runs (nodes searched so
    far, every search of the call counted)."""
    check_choice("tie", tie, TIE_RULES, SolveError)
    pos = make_position(hands, leader, bidder, trump, rules, game_points, played)
    flags = F_ALL if paranoid else F_ALL | TIE_RULES[tie]
    n = rules.players
    rules_arr = rules.to_array()
    work = workspace()
    work.ctx[Ctx.NODE_LIMIT] = 0  # no limit (a Ctrl-C sets one)
    new_generation(work.gen, work.tt)
    work.stats[:] = 0
    t0 = time.perf_counter()

    def tick() -> None:
        progress(int(work.stats[SearchStat.NODES]), time.perf_counter() - t0)

    searched = call_interruptibly(
        lambda: _search(pos, rules_arr, work, paranoid, flags, n, with_line),
        _stop_search,
        tick if progress is not None else None,
    )
    points, value, choices, line, nodes, seconds = searched
    return PitchSolution(
        mode="paranoid" if paranoid else "maxn",
        tie=tie,
        players=n,
        bidder=int(pos[Pos.BIDDER]),
        leader=leader,
        to_move=leader,
        trump=None if trump is None else C.SUITS[trump],
        points=points,
        bidder_points=value,
        choices=choices,
        line=line,
        nodes=nodes,
        seconds=seconds,
    )


__all__ = [
    "POINT_NAMES",
    "PitchSolution",
    "SolveError",
    "TIE_RULES",
    "TrickLine",
    "make_position",
    "search_kernels",
    "solve",
    "unpack",
    "workspace",
]
