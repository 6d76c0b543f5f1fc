"""Execution backends for long studies: chunks of deal indices, run here or on a Dask cluster.

A study is split into chunks of deal indices; each chunk runs the same numba kernels and
returns a partial aggregate of integer counts and sums; partial aggregates are merged exactly.
Because deal i of seed s is the same deal everywhere, the merged result does not depend on the
backend, the number of workers, the order chunks finish in, or a chunk being recomputed after a
worker died (a chunk's result is merged once, when its future completes).

Dask is an optional extra (``pip install "piquet-sim[dask]"``); the local backend needs nothing.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InputError

#: Seconds a local chunk should take: chunks that run longer are split (the next ones are
#: smaller), so Ctrl-C, which waits for the chunk in flight, answers within about this.
CHUNK_SECONDS = 0.4
#: The first local chunk is at most this many deals (its time sets the pace of the next).
FIRST_CHUNK = 4096

#: Seconds to wait for a ``--scheduler`` to answer before saying it cannot be reached.
SCHEDULER_TIMEOUT = 5.0
#: Seconds a LocalCluster's worker has to finish when the cluster closes, before it is killed.
WORKER_CLOSE_SECONDS = 0.5
#: Seconds between looks at Ctrl-C while waiting on Dask tasks.
POLL_SECONDS = 0.05

#: The most deals (or pairs, parties) one run takes: the kernels' integer sums of squared
#: scores stay far inside int64 below this (10**14 deals is three years at a million a second).
MAX_DEALS = 10**14


class BackendError(RuntimeError):
    """The backend cannot run (Dask missing, scheduler unreachable, …); the message says why."""


@dataclass(frozen=True)
class Chunk:
    """Deals ``start .. start + size - 1`` of a study."""

    start: int
    size: int


class Chunks(Sequence):
    """Deals start..start+n-1 as consecutive chunks of at most ``size`` deals, made on demand
    (a run of any size holds one chunk at a time, never a list of them)."""

    def __init__(self, n: int, size: int, start: int = 0):
        if size < 1:
            raise ValueError("chunk size must be at least 1")
        self.n, self.size, self.start = int(n), int(size), int(start)

    def __len__(self) -> int:
        return (self.n + self.size - 1) // self.size

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        first = i * self.size
        return Chunk(self.start + first, min(self.size, self.n - first))

    def __iter__(self) -> Iterator[Chunk]:
        for first in range(0, self.n, self.size):
            yield Chunk(self.start + first, min(self.size, self.n - first))


def chunks(n: int, size: int, start: int = 0) -> Chunks:
    """Split deals start..start+n-1 into consecutive chunks of at most ``size`` deals (lazy)."""
    return Chunks(n, size, start)


def check_size(n: int, what: str = "deals") -> None:
    """Refuse a run the streams and the integer sums cannot hold (one-line InputError)."""
    if n > MAX_DEALS:
        raise InputError(f"{n:,} {what} is more than one run can hold (at most {MAX_DEALS:.0e})")


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

    def __init__(
        self, address: str | None = None, workers: int = 2, timeout: float = SCHEDULER_TIMEOUT
    ):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError as exc:
            raise BackendError(
                'the dask backend needs Dask: pip install "piquet-sim[dask]"'
            ) from exc
        self.cluster = None
        try:
            if address:
                address = scheduler_address(address)
                _probe_scheduler(address, timeout)
                self.client = Client(address, timeout=f"{timeout}s")
            else:
                self.cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,  # not the cancelled tasks of a Ctrl-C
                    env={"NUMBA_NUM_THREADS": "1"},
                    preload=["piquet_sim.core.engine.dask_worker"],  # workers ignore Ctrl-C
                )
                self.client = Client(self.cluster)
        except (KeyboardInterrupt, BackendError):
            if self.cluster is not None:
                self.cluster.close()
            raise
        except Exception as exc:  # noqa: BLE001 - Dask's many ways to fail a connection
            if self.cluster is not None:
                self.cluster.close()
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            what = f"reach the Dask scheduler at {address}" if address else "start a LocalCluster"
            raise BackendError(f"cannot {what}: {reason}") from None

    def map_unordered(self, task: Callable[..., Any], items: Iterable[Chunk], *args) -> Iterator:
        """Yield ``(chunk, result)`` as tasks finish. A task lost with a worker is recomputed
        by Dask; each chunk's result is yielded exactly once."""
        from dask.distributed import as_completed

        todo = iter(items)
        window = 4 * max(1, len(self.client.scheduler_info().get("workers", {})))
        futures: dict = {}

        def submit() -> bool:
            chunk = next(todo, None)
            if chunk is None:
                return False
            future = self.client.submit(task, chunk, *args, pure=False)
            futures[future.key] = (future, chunk)
            return True

        while len(futures) < window and submit():
            pass
        pending = as_completed([f for f, _ in futures.values()])
        try:
            for future in _watching(pending):  # a bounded window: memory stays flat for any size
                _, chunk = futures.pop(future.key)
                result = future.result()
                future.release()
                if submit():
                    pending.add(list(futures.values())[-1][0])
                yield chunk, result
        finally:  # stopped early (Ctrl-C): drop what is still queued
            self.client.cancel([f for f, _ in futures.values() if not f.done()])

    def worker_pids(self) -> list[int]:
        """Process ids of the workers (for fault tests)."""
        return list(self.client.run(os.getpid).values())

    def close(self) -> None:
        """Close the client, and the LocalCluster when we started one: its workers are given
        :data:`WORKER_CLOSE_SECONDS` to finish (a Ctrl-C leaves them in a kernel that does
        not stop), then killed, instead of Dask's five seconds each."""
        self.client.close()
        if self.cluster is None:
            return
        nannies = list(self.cluster.workers.values())

        async def close_workers() -> None:
            import asyncio

            await asyncio.gather(*(n.close(timeout=WORKER_CLOSE_SECONDS) for n in nannies))

        try:
            self.cluster.sync(close_workers)
        finally:
            self.cluster.close()

    def describe(self) -> str:
        n = len(self.client.scheduler_info().get("workers", {}))
        return f"dask ({n} workers at {self.client.scheduler.address})"


def _watching(pending) -> Iterator:
    """The futures of a Dask ``as_completed`` as they finish, looking at Ctrl-C every
    :data:`POLL_SECONDS` meanwhile: once it was pressed, none more (the caller stops now
    instead of after the next task, which may run for seconds)."""
    while not pending.is_empty():
        if StopOnInterrupt.requested:
            return
        if pending.has_ready():
            yield next(pending)
        else:
            time.sleep(POLL_SECONDS)


#: A scheduler address: an optional protocol, a host, a port.
_ADDRESS = re.compile(
    r"^(?:(?P<protocol>[a-z]+)://)?(?P<host>[^\s:/]+|\[[0-9a-fA-F:]+\]):(?P<port>\d+)/?$"
)


def scheduler_address(text: str) -> str:
    """A Dask scheduler address as ``protocol://host:port`` (``tcp://`` when no protocol is
    given); InputError (one line) when ``text`` is not one."""
    match = _ADDRESS.match(text.strip())
    if not match or not 1 <= int(match["port"]) <= 65535:
        raise InputError(
            f"--scheduler {text!r} is not a scheduler address: give host:port or "
            "tcp://host:port (the port the Dask scheduler listens on, 8786 by default)"
        )
    return f"{match['protocol'] or 'tcp'}://{match['host']}:{match['port']}"


def _probe_scheduler(address: str, timeout: float) -> None:
    """For a ``tcp://`` address: BackendError at once when nothing listens there (refused, an
    unknown host), not after Dask's retries for ``timeout`` seconds."""
    protocol, _, rest = address.partition("://")
    if protocol != "tcp":
        return
    host, _, port = rest.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as err:
        reason = err.strerror or str(err) or "no answer"
        raise BackendError(f"cannot reach the Dask scheduler at {address}: {reason}") from None


class StopOnInterrupt:
    """Within ``with``: the first Ctrl-C (SIGINT) sets ``stop`` instead of raising, so a long
    run finishes the chunk in flight and returns what it has; a second Ctrl-C raises
    KeyboardInterrupt at once (:func:`run_chunks` then returns at once, the chunk in flight
    lost). (A KeyboardInterrupt raised while a numba kernel runs surfaces
    as a SystemError and loses the chunk; deferring it avoids that.)

    The state is process-wide: nested blocks share it, and once set it stays set until the
    outermost block exits, so every later study of the same command sees :func:`stop_requested`
    and stops at once instead of starting. Only active in the main thread (elsewhere ``stop``
    stays false)."""

    _depth = 0
    _old = None
    requested = False

    def __init__(self, message: str | None = None) -> None:
        self.message = message
        self.active = False

    @property
    def stop(self) -> bool:
        return self.active and StopOnInterrupt.requested

    @classmethod
    def _handler(cls, signum, frame) -> None:
        if cls.requested:  # the second Ctrl-C: abort now
            raise KeyboardInterrupt
        cls.requested = True
        if cls._message:
            print(cls._message, file=sys.stderr, flush=True)

    _message: str | None = None

    def __enter__(self) -> StopOnInterrupt:
        cls = StopOnInterrupt
        if threading.current_thread() is not threading.main_thread():
            return self
        self.active = True
        if cls._depth == 0:
            cls.requested = False
            cls._message = self.message
            cls._old = signal.signal(signal.SIGINT, cls._handler)
        cls._depth += 1
        return self

    def __exit__(self, *exc) -> None:
        cls = StopOnInterrupt
        if not self.active:
            return
        cls._depth -= 1
        if cls._depth == 0:
            signal.signal(signal.SIGINT, cls._old if cls._old is not None else signal.SIG_DFL)
            cls._old = None
            cls.requested = False


class Cancel:
    """A study's cancel token, created by the study (or the command) and passed down to every
    run of it (:func:`run_chunks`): set by a Ctrl-C while the command's :class:`StopOnInterrupt`
    block is open, or by the caller (:meth:`set`, e.g. a time budget). A run stops after its
    chunk in flight once it is set, and marks it set when it stopped early; a study starts no
    run after that and reports what finished as partial."""

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        """Stop the study: the run in flight after its chunk, no run after it."""
        self._set = True

    @property
    def is_set(self) -> bool:
        """True once the study was cancelled (by :meth:`set` or a Ctrl-C)."""
        return self._set or StopOnInterrupt.requested


def stop_requested() -> bool:
    """True once Ctrl-C was pressed inside the :class:`StopOnInterrupt` block still open (the
    outermost block of a command: read it before leaving the block to report partial)."""
    return StopOnInterrupt.requested


def run_chunks(
    backend,
    task: Callable[..., Any],
    n: int,
    chunk: int,
    args: tuple,
    consume: Callable[[Chunk, Any], None],
    progress: Callable[[int], None] | None = None,
    first: int | None = None,
    cancel: Cancel | None = None,
) -> int:
    """Run ``task(Chunk, *args)`` over deals 0..n-1 in chunks on ``backend``; ``consume`` each
    (chunk, result) as it arrives (merge exactly there). Chunks are made on demand, so memory
    does not grow with ``n``. On the local backend ``chunk`` is the largest chunk: one that
    takes longer than :data:`CHUNK_SECONDS` makes the next ones smaller (merges are exact, so
    the numbers do not depend on the split); ``first`` is the first chunk's size (default
    :data:`FIRST_CHUNK`; smaller for tasks whose items cost seconds, such as exact searches).
    Ctrl-C (or ``cancel``, the study's token) stops after the chunk in flight, and a run
    started after either does nothing; ``cancel`` is then set, so the study that passed it
    starts no other run. Returns the number of deals consumed (n unless stopped)."""
    check_size(n)
    done = 0
    cancel = cancel or Cancel()
    with StopOnInterrupt() as flag:
        if flag.stop or cancel.is_set:
            cancel.set()
            return 0
        if isinstance(backend, LocalBackend):
            results = _paced(task, n, chunk, args, first or FIRST_CHUNK)
        else:
            results = backend.map_unordered(task, chunks(n, chunk), *args)
        try:
            for item, result in results:
                consume(item, result)
                done += item.size
                if progress is not None:
                    progress(item.size)
                if flag.stop or cancel.is_set:
                    break
        except KeyboardInterrupt:  # the second Ctrl-C, or one outside a deferring block
            StopOnInterrupt.requested = True
        finally:
            results.close()
    if done < n:
        cancel.set()
    return done


def merge_chunks(
    total: Any, task: Callable[..., Any], n: int, chunk: int, args: tuple, backend=None, **run: Any
) -> int:
    """:func:`run_chunks` on ``backend`` (default local), each chunk's counts added into
    ``total`` as they arrive: ``total.merge(part)`` for a tally with ``merge``, else in place
    (an array of integer counts). Integer sums are exact, so ``total`` is the same on any
    backend or split. ``run``: :func:`run_chunks`'s ``progress``, ``first`` and ``cancel``.
    Returns the deals merged (fewer when stopped)."""
    merge = getattr(total, "merge", None)

    def consume(_: Chunk, part: Any) -> None:
        if merge is not None:
            merge(part)
        else:
            total[...] += part

    return run_chunks(backend or LocalBackend(), task, n, chunk, args, consume, **run)


def _paced(
    task: Callable[..., Any], n: int, largest: int, args: tuple, first: int = FIRST_CHUNK
) -> Iterator:
    """Local chunks of deals 0..n-1, each at most ``largest`` and sized so one takes about
    :data:`CHUNK_SECONDS` (a slow chunk, e.g. one that compiled the kernels, shrinks the next;
    fast ones grow, at most 4 times per step, from a first chunk of at most ``first``)."""
    start, size = 0, max(1, min(largest, first))
    while start < n:
        item = Chunk(start, min(size, n - start))
        t0 = time.perf_counter()
        result = task(item, *args)
        elapsed = time.perf_counter() - t0
        yield item, result
        start += item.size
        if elapsed > 0:
            scaled = int(item.size * CHUNK_SECONDS / elapsed)
            size = max(1, min(largest, 4 * item.size, scaled))


def make_backend(name: str = "local", scheduler: str | None = None, workers: int = 2):
    """``local`` or ``dask`` (``scheduler`` address, or a LocalCluster of ``workers``)."""
    if name == "local":
        return LocalBackend()
    if name == "dask":
        return DaskBackend(scheduler, workers)
    raise BackendError(f"unknown backend {name!r}; choose local or dask")


def on_threads(span: Callable[[int, int], None], lo: int, hi: int) -> None:
    """``span(a, b)`` over ``lo .. hi-1`` cut into numba's thread count of shares, each on a
    Python thread (the first on this one): for a serial kernel that releases the GIL. The
    first error of any share is raised here once every share has ended."""
    import numba

    k = max(1, min(numba.get_num_threads(), hi - lo))
    cuts = [lo + (hi - lo) * i // k for i in range(k + 1)]
    errors: list[BaseException] = []

    def run(a: int, b: int) -> None:
        try:
            span(a, b)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            errors.append(exc)

    threads = [
        threading.Thread(target=run, args=(cuts[i], cuts[i + 1]), daemon=True) for i in range(1, k)
    ]
    for th in threads:
        th.start()
    run(cuts[0], cuts[1])  # the first share here: no thread when there is one share
    for th in threads:
        th.join()
    if errors:
        raise errors[0]


def worlds_on_threads(kernel: Callable[..., None], seed: int, lo: int, hi: int, *args) -> None:
    """Worlds ``lo .. hi-1`` of ``seed`` by a serial world-span kernel, ``kernel(seed, a, b,
    *args)`` (the three as ``np.int64``, one signature whatever the caller passes) for worlds
    ``a .. b-1``, on numba's thread count of Python threads (:func:`on_threads`): world w's
    rows and streams are its own, so the split changes nothing."""
    import numpy as np

    on_threads(lambda a, b: kernel(np.int64(seed), np.int64(a), np.int64(b), *args), lo, hi)
