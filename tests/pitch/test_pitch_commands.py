"""``piquet pitch hand / odds / solve``: the odds' estimates against their exact values, the
hand's exact chances against the advisor's simulated worlds, reproducibility over chunkings,
the commands' output, help examples and one-line errors (exit 2)."""

from __future__ import annotations

import io
import json
import os
import signal
import threading
import time

import numpy as np
import pytest

from piquet_sim.pitch import cards as C
from piquet_sim.pitch.bid import advise_bid
from piquet_sim.pitch.hand import describe_hand
from piquet_sim.pitch.odds import count_events, odds_table

HANDS4 = ["AS KS 2S 3H 4D 5C", "JS 6S TH 9H 8D 7C", "QS 3S AH KH QD 2C", "TS 5S JH 2H AD KC"]


@pytest.mark.parametrize("players", [3, 5])
def test_odds_estimates_match_exact_values(players):
    table = odds_table(players, rounds=60_000, seed=11)
    checked = 0
    for r in table.rows:
        if r.exact is None or r.n == 0:
            continue
        se = max(np.sqrt(r.exact * (1 - r.exact) / r.n), 1e-12)
        assert abs(r.p - r.exact) <= 4.5 * se + 1e-12, r
        checked += 1
    assert checked >= 20


def test_odds_counts_do_not_depend_on_chunking():
    a = count_events(4, 30_000, 5, 1, chunk=30_000)
    b = count_events(4, 30_000, 5, 1, chunk=7_000)
    assert np.array_equal(a, b)


def test_hand_exact_chances_match_simulated_worlds():
    hand = C.parse_cards("KS 5S 3H QD TD 4C")
    exact = {r["suit"]: r for r in describe_hand(hand, 4)["suits"]}
    worlds = 20_000
    adv = advise_bid(hand, 4, 0, [], prior="uniform", worlds=worlds, seed=8)
    for s in adv.suits:
        for point, key in (("high", "p_high"), ("low", "p_low")):
            p = exact[s.suit][key]
            se = max(np.sqrt(p * (1 - p) / worlds), 1e-12)
            assert abs(s.p_points[point].mean - p) <= 4.5 * se, (s.suit, point)


def test_hand_command(run_main):
    code, out, err = run_main("pitch", "hand", "AS JS 6S 2S KH TD", "--players", "4", "--json")
    assert code == 0, err
    spades = json.loads(out)["suits"][0]
    assert spades["p_high"] == 1.0 and spades["p_low"] == 1.0 and spades["jack_held"]
    code, out, _ = run_main("pitch", "hand", "AS JS 6S 2S KH TD")
    assert code == 0 and "P(High)" in out


def test_odds_command(run_main):
    code, out, err = run_main("pitch", "odds", "--players", "4", "--rounds", "5000", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["rounds"] == 5000 and any(r["exact"] is not None for r in data["rows"])


@pytest.mark.parametrize("players", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_solve_command(run_main, players):
    hands = HANDS4[:players]
    code, out, err = run_main("pitch", "solve", *hands, "--trump", "S", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["mode"] == "maxn" and sum(data["points"]) <= 6
    assert data["points"][0] == sum(t["points"][0] for t in data["line"])
    code, out, err = run_main("pitch", "solve", *hands, "--trump", "S", "--paranoid", "--bid", "4")
    assert code == 0 and "Bid 4" in out


def test_solve_reports_progress_while_it_searches(monkeypatch):
    """``solve(progress=...)`` hears the nodes searched so far, growing, with the time."""
    from piquet_sim.core.engine import interruptible
    from piquet_sim.pitch.rules import Rules
    from piquet_sim.pitch.solver import solve

    hands = [C.parse_cards(h) for h in HANDS4]
    solve(hands[:3], 0, rules=Rules(players=3))  # compiled before (three hands: seconds sooner)
    monkeypatch.setattr(interruptible, "POLL_S", 0.0005)
    heard = []
    sol = solve(hands, 0, rules=Rules(players=4), progress=lambda n, s: heard.append((n, s)))
    assert heard, "no progress while the search ran"
    nodes = [n for n, _ in heard]
    assert nodes == sorted(nodes) and nodes[-1] > 0
    assert [s for _, s in heard] == sorted(s for _, s in heard)
    assert sol.nodes > 0


def test_search_status_line_on_a_terminal_only():
    """Nothing for a short search or off a terminal; past a second, "compiling" while no node
    is searched, then the nodes so far."""
    from rich.console import Console

    from piquet_sim.core.app.solve_cli import search_status

    def shown(calls, terminal=True) -> str:
        buf = io.StringIO()
        with search_status(Console(file=buf, force_terminal=terminal, width=100)) as progress:
            for nodes, seconds in calls:
                progress(nodes, seconds)
        return buf.getvalue()

    assert shown([(0, 0.2), (50_000, 0.9)]) == ""
    assert "compiling the search kernels, first run only (3 s)" in shown([(0, 3.0)])
    assert "searching: 2.5 M nodes, 4 s (Ctrl-C stops)" in shown([(0, 1.5), (2_500_000, 4.0)])
    assert shown([(2_500_000, 4.0)], terminal=False) == ""


def test_ctrl_c_stops_a_long_solve_at_once(run_main, ctrl_c_raises):
    """A six-player round takes about 12 s to solve (EPYC); a Ctrl-C one second in ends the
    command within a moment with exit 130 (the search runs in a helper thread and reads its
    node limit at every node). Without that, the Ctrl-C waited for the search to end."""
    code, _, _ = run_main("pitch", "solve", *HANDS4[:3], "--json")  # compiled before the clock
    assert code == 0
    hands6 = [*HANDS4, "4S 7S 3D 6H 8C 9C", "9S 8S 7D 6D 5H 4C"]
    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.perf_counter()
    code, _, err = run_main("pitch", "solve", *hands6, "--json")
    assert code == 130 and "aborted" in err
    assert time.perf_counter() - t0 < 4.0


def test_solve_command_tie_rules(run_main):
    # seat 1 gets nothing either way: the static order plays 7H (hearts before diamonds),
    # the full order 2D, the line worse for the bidder (see test_pitch_search)
    args = ["pitch", "solve", "5H 9D", "7H 2D", "8H 3D", "--trump", "S", "--leader", "1"]
    args += ["--bidder", "0", "--game-points", "30:0:0", "--json"]
    for tie, points in (("first", [2, 0, 0]), ("full", [1, 0, 1])):
        code, out, err = run_main(*args, "--tie", tie)
        assert code == 0, err
        data = json.loads(out)
        assert (data["tie"], data["points"]) == (tie, points)


@pytest.mark.parametrize("command", ["hand", "odds", "solve", "bid", "batch"])
def test_every_command_has_help_with_an_example(run_main, command):
    code, out, _ = run_main("pitch", command, "--help")
    assert code == 0 and "Example" in out


@pytest.mark.parametrize(
    "args",
    [
        ["hand", "AS JS 6S 2S KH"],
        ["hand", "AS JS 6S 2S KH XX"],
        ["hand", "AS JS 6S 2S KH TD", "--players", "7"],
        ["odds", "--players", "2"],
        ["solve", "AS 2S", "KS 3S"],
        ["solve", *HANDS4, "--trump", "Z"],
        ["solve", "AS KS 2S 3H 4D 5C", "AS 6S TH 9H 8D 7C", *HANDS4[2:]],
        ["solve", *HANDS4, "--trump", "C", "--leader", "1", "--bidder", "0"],
        ["solve", *HANDS4, "--trump", "S", "--tie", "last"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(run_main, args):
    code, out, err = run_main("pitch", *args)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
