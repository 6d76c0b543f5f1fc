"""Chunk results added into one total as they arrive, whatever the split."""

from __future__ import annotations

import numpy as np

from piquet_sim.core.engine.backend import Chunk, merge_chunks


def _counts(chunk: Chunk) -> np.ndarray:
    """Deals of the chunk counted by index parity."""
    idx = np.arange(chunk.start, chunk.start + chunk.size)
    return np.bincount(idx % 2, minlength=2).astype(np.int64)


class Tally:
    def __init__(self) -> None:
        self.deals = 0

    def merge(self, part: np.ndarray) -> None:
        self.deals += int(part.sum())


def test_an_array_total_holds_every_chunk_added_in_place():
    total = np.zeros(2, dtype=np.int64)
    done = merge_chunks(total, _counts, 101, 10, ())
    assert done == 101
    assert total.tolist() == [51, 50]


def test_a_tally_total_merges_every_chunk():
    tally = Tally()
    assert merge_chunks(tally, _counts, 37, 5, ()) == 37
    assert tally.deals == 37
