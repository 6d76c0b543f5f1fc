"""Ctrl-C in Pilotta's long commands (batch, game, bid with pimc play): the work runs in
chunks, a SIGINT stops it after the chunk in flight, the command prints what finished marked
partial and exits 130; and the chunks do not change the numbers."""

from __future__ import annotations

import json
import os
import signal

import numpy as np
import pandas as pd
import pytest

from piquet_sim.pilotta import bid as B
from piquet_sim.pilotta import match
from piquet_sim.pilotta import strategies as S
from piquet_sim.pilotta.layouts import RoundRec

HAND = "JS 9S AS TS KH AD TD 7C"


def _sigint_on(call: int, calls: list):
    """True (after sending SIGINT to this process) on the ``call``-th call."""
    calls.append(1)
    if len(calls) == call:
        os.kill(os.getpid(), signal.SIGINT)


def test_batch_and_tournament_interrupted_are_partial(run_main, monkeypatch):
    calls: list = []

    def fake(seed, start, n, setup, rules):
        _sigint_on(3, calls)  # during the second chunk (two calls a chunk: both seatings)
        return np.zeros((int(n), RoundRec.LEN), np.int64), None, None

    monkeypatch.setattr(match, "simulate_batch", fake)
    monkeypatch.setattr(match, "CHUNK", 1000)
    code, out, _ = run_main("pilotta", "batch", "bold", "cautious", "-n", "10000", "--json")
    data = json.loads(out)
    assert code == 130 and data["partial"] and data["requested"] == 10_000
    assert data["deals"] == 2000 and data["a_minus_b"]["n"] == 2000 and len(calls) == 4
    calls.clear()
    code, out, _ = run_main("pilotta", "batch", "bold", "cautious", "-n", "10000")
    assert code == 130 and "interrupted: partial, 2,000 of 10,000 deals" in " ".join(out.split())
    calls.clear()
    args = ("pilotta", "tournament", "bold", "cautious", "heuristic", "-n", "10000", "--json")
    code, out, _ = run_main(*args)
    data = json.loads(out)
    assert code == 130 and data["partial"] and data["pairs_requested"] == 3
    assert len(data["pairs"]) == 1 and data["pairs"][0]["partial"]


def test_game_interrupted_is_partial(run_main, monkeypatch):
    calls: list = []

    def fake(n, seed, setup, rules, start=0):
        _sigint_on(1, calls)
        return pd.DataFrame({k: np.zeros(n, np.int64) for k in ("winner", "rounds", "ns", "ew")})

    monkeypatch.setattr(match, "_games", fake)
    monkeypatch.setattr(match, "CHUNK", 100)
    code, out, _ = run_main("pilotta", "game", "bold", "cautious", "-n", "1000", "--json")
    data = json.loads(out)
    assert code == 130 and data["partial"] and data["requested"] == 1000
    assert data["games"] == 200 and len(calls) == 2


def test_bid_with_pimc_interrupted_keeps_the_worlds_finished(run_main, monkeypatch):
    calls: list = []

    def fake(seed, first, deals, *rest):
        _sigint_on(2, calls)
        return np.zeros((len(deals.hands), 2), np.int64)

    monkeypatch.setattr(B.PK, "pimc_contracts", fake)
    monkeypatch.setattr(B, "_pimc_step", lambda: 2)
    args = ("pilotta", "bid", HAND, "--seat", "S", "--play", "pimc", "-n", "12", "--json")
    code, out, _ = run_main(*args)
    data = json.loads(out)
    assert code == 130 and data["partial"] and data["requested"] == 12
    assert data["drawn"] == 4 and len(calls) == 2


def test_chunks_do_not_change_batch_or_game(monkeypatch):
    a, b = S.BOOK.resolve("bold"), S.BOOK.resolve("cautious")
    whole = match.batch(a, b, 900, seed=5)
    g_whole = match.game(a, b, 60, seed=2)
    monkeypatch.setattr(match, "CHUNK", 250)
    assert match.batch(a, b, 900, seed=5) == whole
    assert match.game(a, b, 60, seed=2) == g_whole


@pytest.mark.slow
def test_pimc_chunks_do_not_change_the_advice(monkeypatch):
    hand = B.PACK.parse(HAND)
    one = B.advise(hand, 2, play="pimc", deals=4, seed=3)
    monkeypatch.setattr(B, "_pimc_step", lambda: 3)
    other = B.advise(hand, 2, play="pimc", deals=4, seed=3)
    assert one["calls"] == other["calls"] and one["trumps"] == other["trumps"]
