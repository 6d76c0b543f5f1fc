"""Pilotta's studies on a Dask cluster (``--backend dask``): batch, game and tournament give
exactly the local numbers, whatever the chunks and the order they finish in."""

from __future__ import annotations

import json

import pytest

from piquet_sim.pilotta import match
from piquet_sim.pilotta import strategies as S
from piquet_sim.pilotta.rules import DEFAULT_RULES, Rules
from piquet_sim.pilotta.studies import STUDIES

pytest.importorskip("dask.distributed")


def test_batch_game_and_tournament_identical_on_the_cluster(cluster):
    a, b = S.BOOK.resolve("bold"), S.BOOK.resolve("cautious")
    rules = Rules(partner_exemption=True)
    local = match.batch(a, b, 900, seed=4, rules=rules)
    assert match.batch(a, b, 900, seed=4, rules=rules, backend=cluster, chunk=200) == local
    g_local = match.game(a, b, 60, seed=3)
    assert match.game(a, b, 60, seed=3, backend=cluster, chunk=16) == g_local
    trio = [S.BOOK.resolve(n) for n in ("heuristic", "bold", "greedy")]
    t_local = match.tournament_json(STUDIES.round_robin(trio, 300, 5, DEFAULT_RULES))
    t_dask = STUDIES.round_robin(trio, 300, 5, DEFAULT_RULES, backend=cluster, chunk=70)
    assert match.tournament_json(t_dask) == t_local


def test_batch_command_on_dask(run_main):
    args = ("pilotta", "batch", "bold", "cautious", "-n", "400", "--seed", "2", "--json")
    code, out, err = run_main(*args, "--backend", "dask", "--workers", "1")
    assert code == 0, err
    code2, out2, _ = run_main(*args)
    on_dask, local = json.loads(out), json.loads(out2)
    on_dask.pop("seconds"), local.pop("seconds")  # the wall time is the one thing that differs
    assert code2 == 0 and on_dask == local
