"""Pitch's studies on a Dask cluster (``--backend dask``): batch, game and tournament give
exactly the local numbers, whatever the chunks and the order they finish in."""

from __future__ import annotations

import json

import pytest

from piquet_sim.pitch.batch import compare_bidders
from piquet_sim.pitch.match import game_match, game_match_of
from piquet_sim.pitch.rules import Rules
from piquet_sim.pitch.strategies import REGISTRY
from piquet_sim.pitch.studies import STUDIES

pytest.importorskip("dask.distributed")


def _numbers(result) -> dict:
    """A study's result without its wall time."""
    d = result if isinstance(result, dict) else result.to_dict()
    return {k: v for k, v in d.items() if k != "seconds"}


def test_batch_identical_on_the_cluster(cluster):
    args = ("threshold", "threshold:margin=1")
    local = compare_bidders(*args, players=4, rounds=3000, seed=3)
    assert local.rounds == 3000 and not local.partial
    remote = compare_bidders(*args, players=4, rounds=3000, seed=3, backend=cluster, chunk=700)
    assert _numbers(remote) == _numbers(local)
    rules = Rules(5, True, "capturer", "bidder")
    local = compare_bidders("pass", "random", rounds=1000, seed=4, rules=rules)
    remote = compare_bidders(
        "pass", "random", rounds=1000, seed=4, rules=rules, backend=cluster, chunk=300
    )
    assert _numbers(remote) == _numbers(local)


@pytest.mark.slow  # the batch and command tests on the cluster stay in the default run
def test_game_and_tournament_identical_on_the_cluster(cluster):
    a, b = REGISTRY["threshold"], REGISTRY["cautious"]
    local = game_match(a, b, 4, 300, seed=2)
    assert [r.games for r in local.results] == [300, 300] and not local.partial
    remote = game_match(a, b, 4, 300, seed=2, backend=cluster, chunk=70)
    assert _numbers(remote) == _numbers(local)
    trio = [REGISTRY[n] for n in ("threshold", "cautious", "bold")]
    local = game_match_of(STUDIES.round_robin(trio, 120, 5, Rules(players=3)))
    assert len(local.results) == 6
    remote = game_match_of(
        STUDIES.round_robin(trio, 120, 5, Rules(players=3), backend=cluster, chunk=50)
    )
    assert _numbers(remote) == _numbers(local)


@pytest.mark.parametrize(
    "args",
    [
        ("batch", "threshold", "random", "-n", "2000", "--seed", "2"),
        ("game", "threshold", "cautious", "-n", "100", "--seed", "2"),
        ("tournament", "threshold", "bold", "-n", "60", "--seed", "2"),
    ],
    ids=["batch", "game", "tournament"],
)
def test_commands_on_dask(run_main, cluster, args):
    """``--backend dask --scheduler`` (the module's cluster) prints the local numbers."""
    dask = ("--backend", "dask", "--scheduler", cluster.client.scheduler.address)
    code, out, err = run_main("pitch", *args, "--json", *dask)
    assert code == 0, err
    code2, out2, err2 = run_main("pitch", *args, "--json")
    assert code2 == 0, err2
    assert _numbers(json.loads(out)) == _numbers(json.loads(out2))


def test_game_interrupted_is_partial(run_main, monkeypatch):
    """Ctrl-C during ``pitch game`` stops after the chunk in flight (its games with A alone and
    with B alone): the games done, partial, exit 130, and no further chunk starts."""
    import os
    import signal

    import numpy as np

    from piquet_sim.pitch import match as PM
    from piquet_sim.pitch.kernels.table import GAME_LEN

    calls = []

    def fake(seed, first, count, rules, seats):
        calls.append(int(first))
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        out = np.zeros((int(count), GAME_LEN), np.int64)
        out[:, 1] = 5  # rounds
        return out

    monkeypatch.setattr(PM, "play_games", fake)
    monkeypatch.setattr(PM, "BATCH", 100)
    code, out, _ = run_main("pitch", "game", "threshold", "cautious", "-n", "1000", "--json")
    data = json.loads(out)
    assert code == 130 and data["partial"] and calls == [0, 0]
    assert [r["games"] for r in data["results"]] == [100, 100]
