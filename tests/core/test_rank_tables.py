"""The solvers' per-suit table builders: every subset once, the packed holding, and one card
a run of adjacent cards (runs found here by walking the cards out in order)."""

from __future__ import annotations

import itertools

from piquet_sim.core.engine.rank_tables import compress, run_representatives, subsets


def _runs(h: int, o: int, cut) -> list[list[int]]:
    """``h``'s cards grouped into runs: consecutive among the cards out, not cut between."""
    runs: list[list[int]] = []
    previous = None
    for r in (r for r in range(8) if o >> r & 1):
        if h >> r & 1:
            if previous is not None and h >> previous & 1 and not cut(previous, r):
                runs[-1].append(r)
            else:
                runs.append([r])
        previous = r
    return runs


def test_subsets_lists_each_subset_once_from_the_whole_to_empty():
    for o in (0, 0b1, 0b10110, 0xFF):
        got = list(subsets(o))
        assert got[0] == o and got[-1] == 0
        assert len(got) == len(set(got)) == 2 ** bin(o).count("1")
        assert all(h & ~o == 0 for h in got)


def test_compress_packs_the_held_cards_to_the_positions_out():
    for o, h in itertools.product(range(256), (0, 0xFF, 0b10100101)):
        h &= o
        positions = [r for r in range(8) if o >> r & 1]
        expected = sum(1 << k for k, r in enumerate(positions) if h >> r & 1)
        assert compress(h, o) == expected


def test_run_representatives_keeps_the_top_card_of_each_run():
    cuts = (lambda r, nxt: False, lambda r, nxt: nxt >= 3, lambda r, nxt: r < 3 <= nxt)
    for cut in cuts:
        for o in range(256):
            for h in subsets(o):
                expected = sum(1 << run[-1] for run in _runs(h, o, cut))
                assert run_representatives(h, o, cut) == expected, (o, h)
