"""core.engine.blocks as the games' card values use it: a time budget stops sampled worlds
(never an enumeration), and the note says why the solving stopped."""

from __future__ import annotations

import time

import numpy as np

from piquet_sim.core.engine.blocks import BLOCK, MIN_WORLDS, cut_notes, solve_card_worlds


def _square(worlds, slot):
    return np.array([[w * w] for w in worlds])


def test_every_world_solved_in_order_on_any_thread_count():
    worlds = list(range(300))
    for threads in (None, 1, 2):
        rows, cut = solve_card_worlds(_square, worlds, time.perf_counter(), None, False, threads)
        assert cut == ""
        assert rows[:, 0].tolist() == [w * w for w in worlds]


def test_a_spent_budget_stops_sampled_worlds_but_not_an_enumeration():
    worlds = list(range(10 * BLOCK))
    long_ago = time.perf_counter() - 100.0
    rows, cut = solve_card_worlds(_square, worlds, long_ago, 1.0, False, 1)
    assert cut == "time"
    assert MIN_WORLDS <= len(rows) < len(worlds)
    rows, cut = solve_card_worlds(_square, worlds, long_ago, 1.0, True, 1)
    assert cut == "" and len(rows) == len(worlds)


def test_cut_notes_say_why_the_solving_stopped():
    assert cut_notes("", 200, 4.0) == []
    assert cut_notes("time", 48, 2.5) == ["stopped after 48 worlds (time budget 2.5 s)"]
    assert cut_notes("interrupted", 1200, None, 4000) == [
        "stopped by Ctrl-C after 1,200 of 4,000 worlds"
    ]
    assert cut_notes("", 48, 2.5) == []
    assert cut_notes("interrupted", 32, None) == ["stopped by Ctrl-C after 32 worlds"]
