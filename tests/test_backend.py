"""Backends: a Dask cluster gives exactly the local numbers, even when a worker dies mid-run."""

from __future__ import annotations

import os
import signal
import time

import pytest

from piquet_sim.core.engine.backend import BackendError, DaskBackend, LocalBackend, chunks
from piquet_sim.piquet.odds import OddsCounts, odds, odds_chunk
from piquet_sim.piquet.rules import Rules
from piquet_sim.piquet.simulation import Policies

pytest.importorskip("dask.distributed")

FAST = Policies(
    elder_exchange="random", younger_exchange="random", elder_play="random", younger_play="random"
)
RULES = Rules()


def _merged(backend, n, chunk, seed=5):
    total = OddsCounts()
    for _, part in backend.map_unordered(odds_chunk, chunks(n, chunk), seed, FAST, RULES):
        total.merge(part)
    return total


def _same(a: OddsCounts, b: OddsCounts) -> None:
    assert a.deals == b.deals
    assert a.counts == b.counts
    assert a.sums == b.sums
    assert (a.net_hist == b.net_hist).all()
    for role in a.total_hist:
        assert (a.total_hist[role] == b.total_hist[role]).all()


def test_chunks_cover_every_deal_once():
    parts = chunks(10, 3, start=4)
    assert [(c.start, c.size) for c in parts] == [(4, 3), (7, 3), (10, 3), (13, 1)]


def test_local_split_does_not_change_counts():
    _same(_merged(LocalBackend(), 12_000, 5000), _merged(LocalBackend(), 12_000, 12_000))


def test_dask_cluster_gives_identical_aggregates(cluster):
    assert len(cluster.worker_pids()) == 2
    _same(_merged(cluster, 40_000, 5000), _merged(LocalBackend(), 40_000, 40_000))
    summary, _ = odds(20_000, seed=5, policies=FAST, chunk=4000, backend=cluster)
    local, _ = odds(20_000, seed=5, policies=FAST, chunk=20_000)
    assert summary["elder"] == local["elder"] and summary["net"] == local["net"]


def test_killed_worker_loses_and_doubles_nothing(cluster):
    n, size = 120_000, 4000  # 30 chunks, a few tens of ms each
    expected = _merged(LocalBackend(), n, n)
    total = OddsCounts()
    seen = []
    killed_at = None
    for chunk, part in cluster.map_unordered(odds_chunk, chunks(n, size), 5, FAST, RULES):
        seen.append(chunk.start)
        total.merge(part)
        if killed_at is None:
            os.kill(cluster.worker_pids()[0], signal.SIGKILL)
            killed_at = len(seen)
    assert killed_at == 1 and len(seen) - killed_at >= 10  # most chunks finished after the kill
    assert sorted(seen) == list(range(0, n, size))
    _same(total, expected)
    # the nanny brings the worker back
    deadline = time.time() + 60
    while len(cluster.worker_pids()) < 2 and time.time() < deadline:
        time.sleep(0.5)


def test_unreachable_scheduler_is_a_clear_error():
    with pytest.raises(BackendError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        DaskBackend("tcp://127.0.0.1:9", timeout=1.0)


@pytest.mark.slow  # the match and partie kernels compile in each worker; the odds test stays
def test_head_to_head_and_parties_identical_on_the_cluster(cluster):
    from piquet_sim.piquet.match import head_to_head
    from piquet_sim.piquet.partie import parties

    local = head_to_head("greedy", "max", 30_000, seed=3, chunk=30_000)
    remote = head_to_head("greedy", "max", 30_000, seed=3, chunk=7_000, backend=cluster)
    assert local.to_dict() == remote.to_dict()
    p_local = parties("greedy", "max", 3000, seed=3, chunk=3000)
    p_remote = parties("greedy", "max", 3000, seed=3, chunk=700, backend=cluster)
    assert p_local.counts.sums == p_remote.counts.sums
    assert (p_local.counts.settle_hist == p_remote.counts.settle_hist).all()
