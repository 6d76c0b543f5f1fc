"""Execution backends for long studies: chunks of deal indices, run here or on a Dask cluster.

A study is split into chunks of deal indices; each chunk runs the same numba kernels and
returns a partial aggregate of integer counts and sums; partial aggregates are merged exactly.
Because deal i of seed s is the same deal everywhere, the merged result does not depend on the
backend, the number of workers, the order chunks finish in, or a chunk being recomputed after a
worker died (a chunk's result is merged once, when its future completes).

Dask is an optional extra (``pip install "piquet-sim[dask]"``); the local backend needs nothing.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any


class BackendError(RuntimeError):
    """The backend cannot run (Dask missing, scheduler unreachable, …); the message says why."""


@dataclass(frozen=True)
class Chunk:
    """Deals ``start .. start + size - 1`` of a study."""

    start: int
    size: int


def chunks(n: int, size: int, start: int = 0) -> list[Chunk]:
    """Split deals start..start+n-1 into consecutive chunks of at most ``size`` deals."""
    return [Chunk(start + i, min(size, n - i)) for i in range(0, n, size)]


class LocalBackend:
    """Runs chunks one after another in this process (numba threads inside each chunk)."""

    name = "local"

    def map_unordered(self, task: Callable[..., Any], items: Iterable[Chunk], *args) -> Iterator:
        """Yield ``(chunk, task(chunk, *args))`` for every chunk."""
        for chunk in items:
            yield chunk, task(chunk, *args)

    def close(self) -> None:
        pass

    def describe(self) -> str:
        return "local (numba threads in this process)"


class DaskBackend:
    """Runs chunks as Dask tasks: on the scheduler at ``address``, or on a LocalCluster of
    ``workers`` processes (one thread each, numba using one thread per worker)."""

    name = "dask"

    def __init__(self, address: str | None = None, workers: int = 2, timeout: float = 10.0):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError as exc:
            raise BackendError(
                'the dask backend needs Dask: pip install "piquet-sim[dask]"'
            ) from exc
        self.cluster = None
        try:
            if address:
                self.client = Client(address, timeout=f"{timeout}s")
            else:
                self.cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    env={"NUMBA_NUM_THREADS": "1"},
                )
                self.client = Client(self.cluster)
        except (OSError, TimeoutError) as exc:
            if self.cluster is not None:
                self.cluster.close()
            where = address or "a local cluster"
            raise BackendError(f"cannot reach the Dask scheduler at {where}: {exc}") from None

    def map_unordered(self, task: Callable[..., Any], items: Iterable[Chunk], *args) -> Iterator:
        """Yield ``(chunk, result)`` as tasks finish. A task lost with a worker is recomputed
        by Dask; each chunk's result is yielded exactly once."""
        from dask.distributed import as_completed

        futures = {}
        for chunk in items:
            future = self.client.submit(task, chunk, *args, pure=False)
            futures[future.key] = (future, chunk)
        try:
            for future in as_completed([f for f, _ in futures.values()]):
                yield futures[future.key][1], future.result()
                future.release()
        finally:  # stopped early (Ctrl-C): drop what is still queued
            self.client.cancel([f for f, _ in futures.values() if not f.done()])

    def worker_pids(self) -> list[int]:
        """Process ids of the workers (for fault tests)."""
        return list(self.client.run(os.getpid).values())

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def describe(self) -> str:
        n = len(self.client.scheduler_info().get("workers", {}))
        return f"dask ({n} workers at {self.client.scheduler.address})"


class StopOnInterrupt:
    """Within ``with``: Ctrl-C (SIGINT) sets ``stop`` instead of raising, so a long run finishes
    the chunk in flight and returns what it has. (A KeyboardInterrupt raised while a numba
    kernel runs surfaces as a SystemError and loses the chunk; deferring it avoids that.) Only
    active in the main thread; elsewhere ``stop`` stays false."""

    def __init__(self) -> None:
        self.stop = False
        self._old = None

    def _handler(self, signum, frame) -> None:
        self.stop = True

    def __enter__(self) -> StopOnInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def run_chunks(
    backend,
    task: Callable[..., Any],
    n: int,
    chunk: int,
    args: tuple,
    consume: Callable[[Chunk, Any], None],
    progress: Callable[[int], None] | None = None,
) -> int:
    """Run ``task(Chunk, *args)`` over deals 0..n-1 in chunks on ``backend``; ``consume`` each
    (chunk, result) as it arrives (merge exactly there). Ctrl-C stops after the chunk in flight.
    Returns the number of deals consumed (n unless interrupted)."""
    done = 0
    with StopOnInterrupt() as flag:
        results = backend.map_unordered(task, chunks(n, chunk), *args)
        try:
            for item, result in results:
                consume(item, result)
                done += item.size
                if progress is not None:
                    progress(item.size)
                if flag.stop:
                    break
        except KeyboardInterrupt:
            pass
        finally:
            results.close()
    return done


def make_backend(name: str = "local", scheduler: str | None = None, workers: int = 2):
    """``local`` or ``dask`` (``scheduler`` address, or a LocalCluster of ``workers``)."""
    if name == "local":
        return LocalBackend()
    if name == "dask":
        return DaskBackend(scheduler, workers)
    raise BackendError(f"unknown backend {name!r}; choose local or dask")
