"""The solver's table kept across solves under different rules.

The table keys a trick start on the cards out and their holders, the leader, the capot chance,
the contracting team and the trump K/Q points; the partner exemption changes which cards are
legal, hence values, so it must be part of the key too. These tests alternate the exemption
on one kept table and compare every value with a freshly cleared table, with the brute-force
reference on endgames, and (through :func:`piquet_sim.pilotta.solver.solve`, whose workspace
lives for the process) the principal variation with a fresh table's. A table that disagrees
with its position must raise, never play a card that is not there (it wrote past the line's
end: ``munmap_chunk(): invalid pointer``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from piquet_sim.pilotta.cards import PACK
from piquet_sim.pilotta.kernels import solver as K
from piquet_sim.pilotta.kernels.deal import deal_hands
from piquet_sim.pilotta.kernels.solver_tt import reset_tt, to_internal
from piquet_sim.pilotta.reference import solver as RS
from piquet_sim.pilotta.reference.play import Round
from piquet_sim.pilotta.rules import Rules
from piquet_sim.pilotta.solver import solve, workspace

SETTINGS = (False, True, False, True)


def _internal(hands: list[int], trump: int) -> np.ndarray:
    return np.array([to_internal(np.int64(h), trump) for h in hands], dtype=np.int64)


def _deal(i: int) -> tuple[list[int], int, int, int]:
    """Full round ``i``: hands, trump, leader, contracting team."""
    return [int(h) for h in deal_hands(36, i)], i % 4, (i // 4) % 4, (i // 2) % 2


def test_full_rounds_kept_table_alternating_exemption():
    kept = K.make_workspace(14)
    fresh = K.make_workspace(14)
    differ = 0
    for i in range(8):
        hands, trump, leader, team = _deal(i)
        h = _internal(hands, trump)
        trick = np.zeros(4, dtype=np.int64)
        values = {}
        for ex in SETTINGS:
            pos = K.position(leader, team, 0, 1, 0, int(ex))
            got = int(K.solve_position(kept, h, trick, pos, K.F_ALL))
            reset_tt(fresh.tt)
            want = int(K.solve_position(fresh, h, trick, pos, K.F_ALL))
            assert got == want, (i, ex)
            values[ex] = want
        differ += values[False] != values[True]
    assert differ >= 2  # the exemption changes these deals' values: the test bites


def _endgame(rng: random.Random) -> dict:
    """A trick start with four tricks left, reached by random play (exemption off)."""
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[8 * p : 8 * p + 8]) for p in range(4)]
    game = Round(hands, rng.randrange(4), rng.randrange(4))
    for _ in range(16):
        game.apply(rng.choice(game.legal_actions()))
    return {"hands": list(game.hands), "trump": game.trump, "leader": game.leader}


def test_endgames_kept_table_alternating_exemption_match_brute_force():
    rng = random.Random(36)
    kept = K.make_workspace(12)
    differ = 0
    for _ in range(25):
        e = _endgame(rng)
        team = rng.randrange(2)
        h = _internal(e["hands"], e["trump"])
        ref = {
            ex: RS.solve(tuple(e["hands"]), e["trump"], e["leader"], team, False, (), (4, 3), ex)
            for ex in (False, True)
        }
        differ += ref[False] != ref[True]
        for ex in SETTINGS:
            pos = K.position(e["leader"], team, 0, 0, 0, int(ex))
            got = int(K.solve_position(kept, h, np.zeros(4, dtype=np.int64), pos, K.F_ALL))
            assert got == ref[ex], (e, team, ex)
    assert differ >= 3


def _replay(hands: list[int], trump: int, leader: int, ex: bool, sol) -> None:
    """The solution's line is legal play under the exemption setting ``ex`` (asserts)."""
    game = Round(hands, trump, leader, ex)
    for t in sol.tricks:
        for name in t.cards:
            c = PACK.parse_card(name)
            assert c in game.legal_actions(), (name, ex)
            game.apply(c)


def test_solve_alternating_exemption_in_one_process():
    """``solve`` keeps one table for the process: alternate the exemption on seeded deals;
    values and lines equal a freshly cleared table's."""
    for i in range(6):
        hands, trump, leader, team = _deal(40 + i)
        for ex in SETTINGS:
            rules = Rules(partner_exemption=ex)
            got = solve(hands, trump, leader, team, rules=rules)
            reset_tt(workspace().tt)
            want = solve(hands, trump, leader, team, rules=rules)
            assert got.value == want.value, (i, ex)
            assert got.tricks == want.tricks, (i, ex)
            assert sum(t.to_contract for t in got.tricks) == got.rest
            _replay(hands, trump, leader, ex, got)


def test_line_raises_when_the_table_disagrees_with_the_position():
    """A table holding wrong values for the position (here: forced) makes ``solve_line`` raise
    instead of playing card -1 past the end of the line."""
    hands, trump, leader, team = _deal(7)
    h = _internal(hands, trump)
    trick = np.zeros(4, dtype=np.int64)
    pos = K.position(leader, team)
    ws = K.make_workspace(14)
    v = int(K.solve_position(ws, h, trick, pos, K.F_ALL))
    used = ws.tt[:, 0] >= 0
    assert used.any()
    wrong = (v + 7) % 160  # every stored trick start claims an exact, wrong value
    ws.tt[used, 2] = wrong | (wrong << 9) | (np.int64(8) << 24)
    line = np.full(32, -1, dtype=np.int64)
    with pytest.raises(RuntimeError, match="no card keeps"):
        K.solve_line(ws, h, trick, pos, K.F_ALL, line)
