"""The Pilotta report's contracts and points sections count chunk by chunk (RoundTally): the
counts equal the same figures computed over every record at once, whatever the chunking."""

from __future__ import annotations

import numpy as np

from piquet_sim.pilotta import report as R
from piquet_sim.pilotta.api import simulate_batch
from piquet_sim.pilotta.layouts import BIDS, RoundRec, Score
from piquet_sim.pilotta.rules import DEFAULT_RULES
from piquet_sim.pilotta.strategies import REGISTRY, setup


def _records(a, b, n):
    r = DEFAULT_RULES.to_array()
    x, _, _ = simulate_batch(np.int64(3), np.int64(0), np.int64(n), setup(a, b), r)
    y, _, _ = simulate_batch(np.int64(3), np.int64(0), np.int64(n), setup(b, a), r)
    return x, y


def test_tally_matches_a_direct_count_and_ignores_chunking():
    a, b = REGISTRY["heuristic"], REGISTRY["random"]
    x, y = _records(a, b, 1500)
    whole, chunked = R.RoundTally(), R.RoundTally()
    whole.add(x, 0)
    whole.add(y, 1)
    for lo, hi in ((0, 7), (7, 700), (700, 1500)):
        chunked.add(x[lo:hi], 0)
        chunked.add(y[lo:hi], 1)
    recs = np.concatenate([x, y])
    team_a = np.repeat([0, 1], 1500)
    played = recs[:, RoundRec.BIDDER] >= 0
    p, side_a = recs[played], team_a[played]
    c_team = p[:, RoundRec.BIDDER] & 1
    card = np.where(
        c_team == 0, p[:, RoundRec.SCORE + Score.CARD_NS], p[:, RoundRec.SCORE + Score.CARD_EW]
    )
    comb = np.where(c_team == 0, p[:, RoundRec.DECL_NS], p[:, RoundRec.DECL_EW])
    pil = p[:, RoundRec.PILOTTA_SEAT]
    reach = card + comb + np.where((pil >= 0) & ((pil & 1) == c_team), 20, 0)
    for t in (whole, chunked):
        assert (t.rounds, t.played, t.card_points) == (3000, int(played.sum()), int(card.sum()))
        assert np.array_equal(np.trim_zeros(t.reach, "b"), np.bincount(reach))
        assert t.reach_median() == np.median(reach)
        a_bids = sum(int(((p[:, RoundRec.BID] == lv) & (c_team == side_a)).sum()) for lv in BIDS)
        assert t.contracts[0].sum() == a_bids
        assert t.sides[0, 0] == int((p[:, RoundRec.SCORE + Score.CAPOT_TEAM] == side_a).sum())
        assert t.sides[1, 2] == int((p[:, RoundRec.DECL_TEAM] == 1 - side_a).sum())
    assert np.array_equal(whole.contracts, chunked.contracts)
    assert np.array_equal(whole.sides, chunked.sides)


def test_median_of_an_even_count_is_the_mean_of_the_middle_two():
    t = R.RoundTally()
    t.reach = np.bincount([10, 20, 20, 31])
    t.played = 4
    assert t.reach_median() == np.median([10, 20, 20, 31]) == 20.0
    t.reach = np.bincount([10, 21])
    t.played = 2
    assert t.reach_median() == 15.5
