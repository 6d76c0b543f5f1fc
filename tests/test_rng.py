"""Counter-based streams and dealing: reproducible by (seed, deal index), uniform, exact."""

from __future__ import annotations

import math
import random

import numba
import numpy as np
import pytest

from piquet_sim.core.engine import rng
from piquet_sim.piquet.kernels import deal
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels.bundles import make_env
from piquet_sim.piquet.kernels.deal_scoring import score_random_deals
from piquet_sim.piquet.rules import DEFAULT_RULES


def _chi2_upper(df: int, z: float = 4.0) -> float:
    """Wilson-Hilferty upper quantile of chi-square with df degrees of freedom at z sigmas."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_deal_is_a_partition_of_the_pack():
    elders, youngers, talons = deal.deal_batch(7, 0, 5000)
    for e, y, t in zip(elders, youngers, talons, strict=True):
        talon_mask = sum(1 << int(c) for c in t)
        assert bin(int(e)).count("1") == 12 and bin(int(y)).count("1") == 12
        assert len(set(t.tolist())) == 8
        assert e & y == 0 and (e | y) & talon_mask == 0
        assert e | y | talon_mask == (1 << 32) - 1


ENV = make_env(DEFAULT_RULES.to_array())


def test_same_deals_whatever_the_threads_and_the_split():
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = deal.deal_batch(11, 1000, 20_000)
        sums_one = score_random_deals(11, 0, 200_000, 7, ENV)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = deal.deal_batch(11, 1000, 20_000)
        sums_two = score_random_deals(11, 0, 200_000, 13, ENV)
    finally:
        numba.set_num_threads(previous)
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(sums_one.sum(axis=0), sums_two.sum(axis=0))
    # a split batch gives the same deals as one batch
    first = deal.deal_batch(11, 1000, 7_000)
    rest = deal.deal_batch(11, 8000, 13_000)
    np.testing.assert_array_equal(np.concatenate([first[0], rest[0]]), one[0])
    np.testing.assert_array_equal(np.concatenate([first[2], rest[2]]), one[2])


def test_swaps_run_backwards_on_card_sets_give_the_inside_out_shuffles_hands():
    """The identity ``deal.deal_block`` rests on, in plain Python: for random swap targets
    (j_i in 0..i), the inside-out shuffle's cards at positions 12..23 and 24..31 are the sets
    got by swapping bits i and j_i of those positions' masks for i = 31 down to 1."""
    rng = random.Random(19)
    for _ in range(2_000):
        targets = [0] + [rng.randint(0, i) for i in range(1, 32)]
        pack = [0] * 32
        for i in range(1, 32):
            pack[i] = pack[targets[i]]
            pack[targets[i]] = i
        younger, talon = (
            sum(1 << pack[p] for p in span) for span in (range(12, 24), range(24, 32))
        )
        sets = 0x00FFF000 | 0xFF000000 << 32
        for i in range(31, 0, -1):
            j = targets[i]
            flip = ((sets >> i) ^ (sets >> j)) & (1 | 1 << 32)
            sets ^= (flip << i) | (flip << j)
        assert (sets & 0xFFFFFFFF, sets >> 32) == (younger, talon)


def test_a_block_longer_than_its_scratch_is_refused():
    words = np.empty((deal.N_WORDS + 1, 2 * deal.BLOCK), dtype=np.uint64)
    hands = np.empty((2, 2 * deal.BLOCK), dtype=np.int64)
    with pytest.raises(ValueError, match="at most BLOCK"):
        deal.deal_block(1, 0, deal.BLOCK + 1, words, hands)


def test_block_dealing_gives_the_deals_one_by_one():
    """``deal.hands_batch`` (stream words made a block at a time, the swaps run backwards on
    card sets for the whole block) gives ``deal_batch``'s hands, on 100,003 deals: the about
    1.5% whose draws might be rejected take the chunk-by-chunk path, and some chunks are
    rejected."""
    elders, youngers, _ = deal.deal_batch(5, 1001, 100_003)
    e, y = deal.hands_batch(5, 1001, 100_003)
    np.testing.assert_array_equal(e, elders)
    np.testing.assert_array_equal(y, youngers)
    # the rare path is exercised: some deal drew a rejected chunk (its stream went past chunk 32)
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    extra = 0
    for i in range(1001, 1001 + 20_000):
        deal.deal_full(5, i, pack, state)
        extra += state[0] > 32
    assert extra > 0


@pytest.mark.parametrize("carte_rouge", [False, True])
def test_random_deal_sums_match_the_reference_deal_by_deal(carte_rouge):
    """``score_random_deals`` deals in blocks of ``BLOCK`` (``deal.deal_block``): its sums
    equal ``deal_batch``'s deals scored one by one by the plain-Python reference (chunks of odd
    and even length; no kernel compiled for this test alone)."""
    from piquet_sim.piquet.reference import score_deal
    from piquet_sim.piquet.rules import Rules

    rules = Rules(carte_rouge=carte_rouge)
    start, n = 40_001, 1_203
    sums = score_random_deals(5, start, n, 4, make_env(rules.to_array())).sum(axis=0)
    elders, youngers, _ = deal.deal_batch(5, start, n)
    scored = [score_deal(int(e), int(y), rules) for e, y in zip(elders, youngers, strict=True)]
    assert sums[L.DSUM_DEALS] == n
    assert sums[L.DSUM_ELDER_TOTAL] == sum(r["elder"]["total"] for r in scored)
    assert sums[L.DSUM_YOUNGER_TOTAL] == sum(r["younger"]["total"] for r in scored)
    assert sums[L.DSUM_ELDER_REPIQUE] == sum(r["elder"]["repique"] > 0 for r in scored) > 0
    assert sums[L.DSUM_YOUNGER_REPIQUE] == sum(r["younger"]["repique"] > 0 for r in scored)


def test_random_deal_sums_under_carte_rouge_match_the_general_kernel():
    """Under carte rouge the random-deal loop scores with the lean totals and calls the general
    scoring only where ``may_carte_rouge`` lets a hand through: over 300,000 deals (some 700
    carte rouge hands) its sums equal ``score_declarations_batch``'s records of the same deals."""
    from piquet_sim.piquet.kernels.declarations import COURT_CARDS, score_declarations_batch
    from piquet_sim.piquet.rules import Rules

    env = make_env(Rules(carte_rouge=True).to_array())
    start, n = 7, 300_001
    elders, youngers, _ = deal.deal_batch(9, start, n)
    full = np.full((n, 3), 0xFFFFFFFF, dtype=np.int64)
    cb = [((h & COURT_CARDS) == 0).astype(np.int8) for h in (elders, youngers)]
    rec = score_declarations_batch(elders, youngers, *cb, full, full, env)
    sums = score_random_deals(9, start, n, 5, env).sum(axis=0)
    blocks = {
        p: slice(base, base + L.DP_BLOCK) for p, base in ((0, L.DECL_ELDER), (1, L.DECL_YOUNGER))
    }
    assert (rec[:, L.DECL_ELDER + L.DP_CARTE_ROUGE] > 0).sum() >= 200
    assert (rec[:, L.DECL_YOUNGER + L.DP_CARTE_ROUGE] > 0).sum() >= 200
    assert sums[L.DSUM_ELDER_TOTAL] == rec[:, blocks[0]].sum()
    assert sums[L.DSUM_YOUNGER_TOTAL] == rec[:, blocks[1]].sum()
    assert sums[L.DSUM_ELDER_REPIQUE] == (rec[:, L.DECL_ELDER + L.DP_REPIQUE] > 0).sum()
    assert sums[L.DSUM_YOUNGER_REPIQUE] == (rec[:, L.DECL_YOUNGER + L.DP_REPIQUE] > 0).sum()


def test_different_seeds_give_different_deals():
    a = deal.deal_batch(1, 0, 1000)[0]
    b = deal.deal_batch(2, 0, 1000)[0]
    assert (a != b).mean() > 0.99


def test_card_positions_are_uniform():
    """Chi-square of (card, pack position) counts over 64,000 deals: 32 x 32 cells."""
    n = 64_000
    elders, youngers, talons = deal.deal_batch(3, 0, n)
    counts = np.zeros((32, 3), dtype=np.int64)  # card x (elder, younger, talon)
    for group, masks in enumerate((elders, youngers)):
        bits = (masks[:, None] >> np.arange(32)) & 1
        counts[:, group] = bits.sum(axis=0)
    expected = np.array([12, 12, 8]) / 32 * n
    counts[:, 2] = n - counts[:, 0] - counts[:, 1]
    chi2 = (((counts - expected) ** 2) / expected).sum()
    assert chi2 < _chi2_upper(64)
    # talon order: each talon position holds each card equally often
    order = np.zeros((8, 32), dtype=np.int64)
    for pos in range(8):
        order[pos] = np.bincount(talons[:, pos], minlength=32)
    exp = n / 32
    chi2_order = (((order - exp) ** 2) / exp).sum()
    assert chi2_order < _chi2_upper(8 * 31)


def test_a_biased_shuffle_would_fail_the_uniformity_check():
    """The statistic above detects a bias as small as one card moved in 1% of deals."""
    n = 64_000
    elders = deal.deal_batch(3, 0, n)[0].copy()
    # move the ace of spades into elder's hand in 1% of deals (swap with his lowest card)
    ace = np.int64(1) << 7
    lacking = np.nonzero((elders & ace) == 0)[0][: n // 100]
    low = elders[lacking] & -elders[lacking]
    elders[lacking] = (elders[lacking] & ~low) | ace
    bits = ((elders[:, None] >> np.arange(32)) & 1).sum(axis=0)
    exp = 12 / 32 * n
    var = n * (12 / 32) * (20 / 32)
    assert (bits[7] - exp) / math.sqrt(var) > 4


def test_bounded_is_exactly_uniform_for_small_ranges():
    key = rng.stream_key(5, 0)
    state = np.zeros(1, dtype=np.int64)
    draws = np.array([rng.bounded(key, state, 3) for _ in range(30_000)])
    counts = np.bincount(draws, minlength=3)
    assert counts.min() >= 0 and draws.max() == 2
    chi2 = (((counts - 10_000) ** 2) / 10_000).sum()
    assert chi2 < _chi2_upper(2)
    assert state[0] >= 2 * 30_000


def test_rejected_chunks_still_give_a_permutation():
    """Find deals whose shuffle rejected a chunk (stream state past chunk 32) and check them."""
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    found = 0
    for i in range(40_000):
        deal.deal_full(9, i, pack, state)
        if state[0] > 32:
            assert sorted(pack.tolist()) == list(range(32))
            found += 1
    assert found > 0


@pytest.mark.parametrize("steps", [1, 5])
def test_stream_words_differ_between_deals(steps):
    keys = {int(rng.stream_key(1, i)) for i in range(0, 1000, steps)}
    assert len(keys) == len(range(0, 1000, steps))


@numba.njit
def _core_shuffle(seed, index, pack, state):
    rng.shuffle_pack(rng.stream_key(seed, index), pack, state)


def test_piquet_deal_is_the_core_shuffle():
    """``deal.deal_full`` (unrolled, vectorized, exact path only on suspect chunks) gives the pack
    and the stream state of ``rng.shuffle_pack`` and the hands of pack positions 0..11, 12..23,
    on deals with and without rejected chunks."""
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    ref = np.empty(32, dtype=np.int8)
    ref_state = np.zeros(1, dtype=np.int64)
    rejected = 0
    for i in range(20_000):
        e, y = deal.deal_full(4, i, pack, state)
        _core_shuffle(4, i, ref, ref_state)
        assert pack.tolist() == ref.tolist() and state[0] == ref_state[0]
        assert e == sum(1 << int(c) for c in ref[:12]) and y == sum(1 << int(c) for c in ref[12:24])
        rejected += state[0] > 32
    assert rejected > 0
