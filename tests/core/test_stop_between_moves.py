"""Ctrl-C in a study of players that move slowly (an outside player, a solver): the deal in
flight is given up before the next move, and a move that already took long runs where a
Ctrl-C gives it up at once, so the command answers within a move, not a deal or a chunk."""

from __future__ import annotations

import threading
import time

import pytest

from piquet_sim.core.engine.backend import Cancel
from piquet_sim.core.study import arena as A
from piquet_sim.core.study.arena import DealStopped, mirrored_match, play_deal
from piquet_sim.piquet.deciders import seat_deciders
from piquet_sim.piquet.position import PiquetState
from piquet_sim.piquet.simulation import Policies

SEATINGS = [(True, False), (False, True)]


class Counting:
    """Our greedy player, counting its moves, each taking ``seconds`` (after ``fast`` moves)."""

    def __init__(self, seconds: float = 0.0, fast: int = 0):
        self.inner = seat_deciders(Policies())[0]
        self.name = "counting"
        self.moves, self.seconds, self.fast = 0, seconds, fast

    def choose(self, state):
        self.moves += 1
        if self.moves > self.fast:
            time.sleep(self.seconds)
        return self.inner.choose(state)


def test_a_deal_is_given_up_before_the_next_move_once_stopped():
    a, b = Counting(), Counting()
    with pytest.raises(DealStopped):
        play_deal(PiquetState.from_deal(3, 0), [a, b], stop=lambda: a.moves + b.moves >= 3)
    assert a.moves + b.moves == 3


def test_a_slow_move_is_given_up_when_stopped(monkeypatch):
    """The first move is slow (over SLOW_MOVE_S), the second would take 60 s: stopped during
    it, the deal ends at once."""
    monkeypatch.setattr(A, "SLOW_MOVE_S", 0.05)
    slow = Counting(0.1)
    other = Counting()
    stopped = threading.Event()

    class Slower(Counting):
        def choose(self, state):
            if slow.moves >= 1:
                slow.seconds = 60.0
                threading.Timer(0.3, stopped.set).start()
            return slow.choose(state)

    play_deal(PiquetState.from_deal(3, 0), [Counting(), Counting()])  # kernels compiled first
    t0 = time.perf_counter()
    with pytest.raises(DealStopped):
        play_deal(PiquetState.from_deal(3, 0), [Slower(), other], stop=stopped.is_set)
    assert time.perf_counter() - t0 < 5.0  # measured 0.5 s; the slow move alone is 60 s


def test_a_match_stopped_in_a_deal_keeps_the_deals_before_it_partial():
    a, b = Counting(), Counting()
    cancel = Cancel()
    moves_in_two_deals = []

    def new_state(i):
        if i == 2:
            moves_in_two_deals.append(a.moves + b.moves)
        return PiquetState.from_deal(3, i)

    class Stopper(Counting):
        def choose(self, state):
            if moves_in_two_deals and a.moves + b.moves >= moves_in_two_deals[0] + 2:
                cancel.set()
            return a.choose(state)

    match = mirrored_match(new_state, Stopper(), b, 10, SEATINGS, cancel=cancel)
    assert match.deals == 2 and match.partial and cancel.is_set


def test_a_piquet_match_with_a_solver_player_starts_with_a_small_chunk():
    """Its pairs cost milliseconds to a tenth of a second: a first chunk of thousands ran for
    seconds before a Ctrl-C was looked at (the ladder's pimc matches: 4 to 12 s)."""
    from piquet_sim.core.study.match import MatchSpec
    from piquet_sim.piquet import match as PM
    from piquet_sim.piquet import strategies as S
    from piquet_sim.piquet.rules import DEFAULT_RULES

    def first(a, b):
        spec = MatchSpec(S.BOOK.resolve(a), S.BOOK.resolve(b), 1000, 1, DEFAULT_RULES, {})
        return PM.BATCH.first(spec) if callable(PM.BATCH.first) else PM.BATCH.first

    assert first("heuristic", "greedy") is None
    for slow in ("pimc-play", "dd-play", "pimcw-play"):
        assert 0 < first("heuristic", slow) <= 16
