"""Many rounds at once: fixed chunks of round indices run on threads, each chunk serial with
its own scratch arrays. Round ``i`` of ``seed`` is keyed by ``(seed, start + i)``,
so records never depend on the thread count or the chunking."""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import stream_key
from ..layouts import RoundRec, TraceRec
from .round import new_round_work, play_round

N_CHUNKS = 64


@njit
def simulate_span(seed, start, lo, hi, rules, policy, records, traces):
    """Rounds ``lo .. hi-1`` (of the batch starting at round index ``start``) into rows of
    ``records`` and, when it has rows, ``traces``."""
    work = new_round_work()
    tracing = traces.shape[0] > 0
    empty = np.zeros(0, dtype=np.int64)
    for i in range(lo, hi):
        trace = traces[i] if tracing else empty
        play_round(stream_key(seed, start + i), rules, policy, work, records[i], trace)


@driver(simulate_span)
def simulate_rounds(seed, start, n, rules, policy, with_trace):
    """Records (int64[n, RoundRec.LEN]) and traces (int64[n or 0, TraceRec.LEN]) of rounds
    ``start .. start+n-1`` of ``seed``, fixed chunks on threads (``core.engine.jit_threads``)."""
    records = np.zeros((n, RoundRec.LEN), dtype=np.int64)
    traces = np.zeros((n if with_trace else 0, TraceRec.LEN), dtype=np.int64)

    def work(ch: int, lo: int, count: int) -> None:
        simulate_span(seed, start, lo, lo + count, rules, policy, records, traces)

    for_spans(n, min(n, N_CHUNKS), work)
    return records, traces
