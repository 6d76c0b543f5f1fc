"""Two bid policies on the same rounds (``piquet pitch batch``): a policy against itself
differs by exactly zero, the hero rotates through every seat, the figures are the same
whatever the thread count, and policy specs parse or fail with one line."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.pitch.batch import compare_bidders, parse_spec
from piquet_sim.pitch.kernels.duel import duel_rounds
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.rules import Rules


def test_policy_against_itself_is_exactly_even():
    d = compare_bidders("threshold", "threshold", players=5, rounds=2000, seed=4)
    assert d.difference["mean"] == 0.0
    assert d.a.score == d.b.score


def test_pass_policy_bids_only_as_forced_dealer():
    players, rounds = 4, 4000
    d = compare_bidders("pass", "random", players=players, rounds=rounds, seed=2)
    # the hero sits in each seat a quarter of the time; passing, he bids only as the dealer
    # after three passes
    assert d.a.p_bidder.mean <= 1 / players + 1e-9
    assert d.b.p_bidder.mean > d.a.p_bidder.mean


def test_duel_threads_agree():
    rules = Rules(players=4).to_array()
    table = make_policy("threshold", "heuristic")
    a, b = make_policy("threshold", "heuristic"), make_policy("random", "heuristic")
    heroes = type(a)(np.stack([a.ids, b.ids]), np.stack([a.params, b.params]))
    prev = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = duel_rounds(np.int64(3), np.int64(0), np.int64(999), rules, table, heroes)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = duel_rounds(np.int64(3), np.int64(0), np.int64(999), rules, table, heroes)
    finally:
        numba.set_num_threads(prev)
    assert np.array_equal(one, many)
    bidder, made, score, pts = one[..., 2], one[..., 3], one[..., 0], one[..., 1]
    assert ((made == 0) | (bidder == 1)).all()
    assert (score[bidder == 0] == pts[bidder == 0]).all()
    assert (score[made == 1] >= 3).all()
    assert (score[(bidder == 1) & (made == 0)] <= -3).all()


def test_parse_spec():
    assert parse_spec("threshold") == ("threshold", (0.0,))
    assert parse_spec("threshold:margin=-0.5") == ("threshold", (-0.5,))
    assert parse_spec("montecarlo:worlds=2") == ("montecarlo", (2.0, 0.0))
    assert parse_spec("fitted")[0] == "parametric"
    for bad, msg in (
        ("clever", "unknown strategy"),
        ("threshold:x=1", "no parameter"),
        ("threshold:margin=a", "not a number"),
        ("threshold:margin", "not param=value"),
        ("threshold:margin=nan", "finite"),
        ("threshold:margin=inf", "finite"),
        ("montecarlo:worlds=0", "1 to 4096"),
        ("montecarlo:worlds=2.5", "whole number"),
        ("montecarlo:worlds=5000", "1 to 4096"),
    ):
        with pytest.raises(InputError, match=msg):
            parse_spec(bad)


def test_batch_command(run_main):
    code, out, err = run_main("pitch", "batch", "--rounds", "500", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["difference"]["n"] == 500
    assert (data["a"]["policy"], data["b"]["policy"]) == ("threshold", "threshold:margin=1")
    code, out, err = run_main("pitch", "batch", "threshold", "random", "-n", "500", "--json")
    assert code == 0, err
    assert json.loads(out)["b"]["policy"] == "random"
    code, out, err = run_main("pitch", "batch", "greedy", "-n", "10")
    assert code == 2 and err.count("\n") == 1
    code, out, _ = run_main("pitch", "batch", "--help")
    assert code == 0 and "Example" in out


def test_batch_interrupted_is_partial(run_main, monkeypatch):
    """Ctrl-C (a SIGINT during the second chunk): the rounds of two chunks, marked, exit 130."""
    import os
    import signal

    from piquet_sim.pitch import batch as PB
    from piquet_sim.pitch.kernels.duel import DUEL_FIELDS

    calls = []

    def fake(seed, first, count, rules, table, heroes):
        calls.append(int(first))
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return np.zeros((int(count), 2, DUEL_FIELDS), np.int64)

    monkeypatch.setattr(PB, "duel_rounds", fake)
    monkeypatch.setattr(PB, "CHUNK", 100)
    code, out, _ = run_main("pitch", "batch", "--rounds", "1000", "--json")
    data = json.loads(out)
    assert code == 130 and data["partial"] and data["rounds"] == 200 and calls == [0, 100]
    calls.clear()
    code, out, _ = run_main("pitch", "batch", "--rounds", "1000", "--quiet")
    assert code == 130 and "interrupted: partial, 200 of 1,000 rounds" in " ".join(out.split())
