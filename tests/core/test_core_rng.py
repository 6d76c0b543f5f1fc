"""core.rng: dealing k hands of n cards from either pack, exactly uniform and keyed by
(seed, index); the 32-card shuffle is the one Piquet's golden outputs rest on."""

from __future__ import annotations

import math

import numpy as np

from piquet_sim.core.engine.bits import popcount64
from piquet_sim.core.engine.cards import PACK52
from piquet_sim.core.engine.jit import njit
from piquet_sim.core.engine.rng import deal_hands, stream_key


@njit
def _deal_many(seed, n, n_cards, n_hands, size, n_ranks, stride):
    out = np.zeros((n, n_hands), np.int64)
    pack = np.empty(n_cards, np.int8)
    state = np.zeros(1, np.int64)
    hands = np.zeros(n_hands, np.int64)
    for i in range(n):
        deal_hands(stream_key(seed, i), pack, state, n_hands, size, n_ranks, stride, hands)
        out[i] = hands
    return out


def test_52_card_hands_are_disjoint_and_complete():
    deals = _deal_many(3, 2000, 52, 6, 6, 13, 16)
    for row in deals[:200]:
        assert all(popcount64(h) == 6 for h in row)
        union = 0
        for h in row:
            assert union & int(h) == 0
            union |= int(h)
        assert union & ~PACK52.full == 0


def test_52_card_deal_is_uniform_by_card_and_seat():
    """Chi-square of card x seat counts over 20,000 deals of 4 hands of 6 (tolerance: the
    statistic below the 0.999 quantile of its chi-square law, about 308 for 51 * 4 dof)."""
    n = 20_000
    deals = _deal_many(11, n, 52, 4, 6, 13, 16)
    bits = [s * 16 + r for s in range(4) for r in range(13)]
    counts = np.array([[((deals[:, h] >> b) & 1).sum() for h in range(4)] for b in bits])
    expected = n * 6 / 52
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 330, chi2
    assert math.isclose(counts.sum(), n * 24)


def test_same_seed_and_index_same_deal():
    a = _deal_many(5, 50, 52, 3, 6, 13, 16)
    b = _deal_many(5, 50, 52, 3, 6, 13, 16)
    c = _deal_many(6, 50, 52, 3, 6, 13, 16)
    assert (a == b).all() and not (a == c).all()


def test_32_card_pack_four_hands_of_eight_cover_the_pack():
    deals = _deal_many(2, 500, 32, 4, 8, 8, 8)
    assert (np.bitwise_or.reduce(deals, axis=1) == 0xFFFFFFFF).all()
