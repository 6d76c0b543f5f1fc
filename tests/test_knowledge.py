"""The exact world sampler of ``kernels/knowledge.py`` (docs/rules/piquet.md "Information each
player has").

* with no information, the opponent's hand is a uniform 12 of the 20 unseen cards (chi-square on
  card locations and on the suit-length law);
* every sampled world meets every constraint (the plain-Python check of ``reference.sampling``),
  on knowledge built from random deals, declaration choices and partial play;
* on tiny cases, the sampler's law equals the uniform law over the brute-force enumeration;
* bounds refuted by play are dropped; impossible bounds fall back, counted.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from piquet_sim.piquet import cards as C
from piquet_sim.piquet.kernels import knowledge as K
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels.deal import deal_full
from piquet_sim.piquet.kernels.tables import SUIT_TABLES
from piquet_sim.piquet.reference import sampling as R

FULL3 = np.full(3, 0xFFFFFFFF, dtype=np.int64)


def chi2_pvalue(stat: float, dof: int) -> float:
    """Upper tail of the chi-square law (Wilson-Hilferty normal approximation)."""
    z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_no_information_is_uniform_on_card_locations():
    own = C.parse_cards("AS KS QS JS TS 9H 8H 7H AD KD AC QC", 12)
    know = K.empty_knowledge(np.int64(own), 12)
    n = 20_000
    hands, attempts, flags = K.sample_worlds(know, (0, 0, 0), (12, 100), SUIT_TABLES, 7, n)
    assert (attempts == 1).all() and (flags == 0).all()
    assert not (hands & own).any()
    counts = np.array([((hands >> c) & 1).sum() for c in range(32) if not own >> c & 1])
    expected = n * 12 / 20
    # each card is in the hand with probability 3/5: binomial variance n p (1 - p)
    stat = float((((counts - expected) ** 2) / (expected * 2 / 5)).sum())
    assert chi2_pvalue(stat, 20) > 1e-3
    # hearts held by the opponent (5 unseen hearts): hypergeometric law
    hearts = np.array([bin(int(h) >> 8 & 0xFF).count("1") for h in hands])
    observed = Counter(hearts.tolist())
    stat = 0.0
    for k in range(6):
        p = math.comb(5, k) * math.comb(15, 12 - k) / math.comb(20, 12)
        stat += (observed.get(k, 0) - n * p) ** 2 / (n * p)
    assert chi2_pvalue(stat, 5) > 1e-3


def _tiny_case():
    """Opponent holds 6 of 10 free cards, with a point bound, a sequence bound and a void."""
    rng = random.Random(3)
    cards = list(range(32))
    rng.shuffle(cards)
    k_in = C.cards_to_mask(cards[:2])
    k_out = C.cards_to_mask(cards[2:20])
    know = K.empty_knowledge(np.int64(k_out), 12)
    know[L.KNOW_IN] = k_in
    know[L.KNOW_HI + L.CLASS_POINT] = 3 * 128 + 30
    know[L.KNOW_HI + L.CLASS_SEQ] = 0
    return know


def test_tiny_case_law_equals_brute_force():
    know = _tiny_case()
    worlds = R.enumerate_worlds(know, 0, 0, 0, 8)
    assert 10 < len(worlds) < 1000
    n = 40 * len(worlds)
    hands, attempts, flags = K.sample_worlds(know, (0, 0, 0), (8, 10_000), SUIT_TABLES, 11, n)
    assert (attempts > 0).all() and (flags == 0).all()
    counts = Counter(int(h) for h in hands)
    assert set(counts) <= set(worlds)
    stat = sum((counts.get(w, 0) - 40) ** 2 / 40 for w in worlds)
    assert chi2_pvalue(stat, len(worlds) - 1) > 1e-3


def _random_knowledge(rng: random.Random, seed: int, i: int):
    """A random deal, random declaration masks (sinking classes and single cards), random
    partial play seen by elder: (knowledge, played, opp_played, voids, n_opp, younger hand)."""
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    e, y = deal_full(seed, i, pack, state)
    e, y = int(e), int(y)

    def masks():
        m = []
        for _ in range(3):
            r = rng.random()
            m.append(
                0
                if r < 0.2
                else (0xFFFFFFFF & ~(1 << rng.randrange(32)))
                if r < 0.4
                else 0xFFFFFFFF
            )
        return np.array(m, dtype=np.int64)

    discard = C.cards_to_mask(int(c) for c in pack[24:32][: rng.randrange(1, 4)])
    know = K.deal_knowledge(
        np.int64(e), np.int64(discard), masks(), np.int64(y), masks(), 0, 0, SUIT_TABLES
    )
    # random legal play of t tricks, elder leading each (enough to produce voids)
    played = opp_played = voids = 0
    eh, yh = e, y
    for _ in range(rng.randrange(0, 8)):
        lead = rng.choice(R.cards_of(eh))
        same = [c for c in R.cards_of(yh) if c // 8 == lead // 8]
        reply = rng.choice(same or R.cards_of(yh))
        if not same:
            voids |= 0xFF << (8 * (lead // 8))
        eh &= ~(1 << lead)
        yh &= ~(1 << reply)
        played |= (1 << lead) | (1 << reply)
        opp_played |= 1 << reply
    return know, played, opp_played, voids, bin(yh).count("1"), yh


def test_every_world_meets_every_constraint():
    rng = random.Random(5)
    checked = fallbacks = 0
    for i in range(60):
        know, played, opp_played, voids, n_opp, truth = _random_knowledge(rng, 21, i)
        hands, attempts, flags = K.sample_worlds(
            know, (played, opp_played, voids), (n_opp, 2000), SUIT_TABLES, 100 + i, 50
        )
        for h, a, f in zip(hands.tolist(), attempts.tolist(), flags.tolist(), strict=True):
            assert not f & K.FLAG_INFEASIBLE
            if a < 0:  # fallback: card constraints only
                fallbacks += 1
                relaxed = know.copy()
                relaxed[L.KNOW_LO : L.KNOW_LO + 3] = 0
                relaxed[L.KNOW_HI : L.KNOW_HI + 3] = R.NO_HI
                assert R.consistent(h, relaxed, played, opp_played, voids, n_opp)
            else:
                assert R.consistent(h, know, played, opp_played, voids, n_opp)
            checked += 1
        # the true hand always meets the card-location constraints
        relaxed = know.copy()
        relaxed[L.KNOW_LO : L.KNOW_LO + 3] = 0
        relaxed[L.KNOW_HI : L.KNOW_HI + 3] = R.NO_HI
        assert R.consistent(truth, relaxed, played, opp_played, voids, n_opp)
    assert checked == 3000
    assert fallbacks < checked // 10


def test_declare_all_true_hand_meets_the_bounds():
    """With both players declaring everything, the inference is truthful: the opponent's real
    hand meets every bound (and the shown cards are his)."""
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    for i in range(300):
        e, y = deal_full(3, i, pack, state)
        for obs, opp in ((e, y), (y, e)):
            know = K.deal_knowledge(obs, np.int64(0), FULL3, opp, FULL3, 0, 0, SUIT_TABLES)
            assert R.consistent(int(opp), know, 0, 0, 0, 12)


def test_declared_point_is_shown_and_bounded():
    elder = C.parse_cards("AS KS QS JS 9S 8H 7H AD KD AC QC JC", 12)
    younger = C.parse_cards("AH KH QH JH TH 9D 8D 7D TC 9C 8C 7C", 12)
    know = K.deal_knowledge(
        np.int64(younger), np.int64(0), FULL3, np.int64(elder), FULL3, 0, 0, SUIT_TABLES
    )
    # elder's point: five spades, 50 pips; younger's is five hearts with 51: younger wins it
    assert know[L.KNOW_HI + L.CLASS_POINT] == 5 * 128 + 51
    # elder's quart to the ace in spades beats younger's quint? no: quint to the ace wins
    assert know[L.KNOW_HI + L.CLASS_SEQ] == 5 * 8 + 7
    # elder's trio of aces... none (three aces: AS AD AC) is a trio: key 7, shown
    assert know[L.KNOW_LO + L.CLASS_SET] == know[L.KNOW_HI + L.CLASS_SET] == 7
    assert know[L.KNOW_IN] == C.parse_cards("AS AD AC")


def test_refuted_bound_is_dropped():
    own = C.parse_cards("AH KH QH JH TH 9D 8D 7D TC 9C 8C 7C", 12)
    know = K.empty_knowledge(np.int64(own), 12)
    know[L.KNOW_HI + L.CLASS_SEQ] = 0  # believed: no sequence
    opp_played = C.parse_cards("AS KS QS")  # he has played a tierce
    hands, attempts, flags = K.sample_worlds(
        know, (opp_played, opp_played, 0), (9, 100), SUIT_TABLES, 1, 200
    )
    assert (flags & (1 << L.CLASS_SEQ)).all() and (attempts == 1).all()


def test_impossible_bounds_fall_back_and_are_counted():
    own = C.parse_cards("AH KH QH JH TH 9D 8D 7D TC 9C 8C 7C", 12)
    know = K.empty_knowledge(np.int64(own), 12)
    know[L.KNOW_LO + L.CLASS_SET] = 8 + 7  # a quatorze of aces: impossible, he cannot hold the AH
    hands, attempts, flags = K.sample_worlds(know, (0, 0, 0), (12, 50), SUIT_TABLES, 1, 20)
    assert (attempts == -51).all() and (flags & K.FLAG_FALLBACK).all()
    assert not (hands & own).any()


@pytest.mark.parametrize("seed", [1, 2])
def test_same_seed_same_worlds(seed):
    know = _tiny_case()
    a = K.sample_worlds(know, (0, 0, 0), (8, 1000), SUIT_TABLES, seed, 100)
    b = K.sample_worlds(know, (0, 0, 0), (8, 1000), SUIT_TABLES, seed, 100)
    for x, y in zip(a, b, strict=True):
        assert (x == y).all()


def test_both_knowledge_equals_deal_knowledge_per_seat():
    """The play loop's one-pass knowledge of both seats equals ``deal_knowledge`` per seat,
    declarations made or sunk at random (every class won by either seat or tied is met)."""
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    rng = np.random.default_rng(5)
    know_e = np.zeros(L.KNOW_LEN, dtype=np.int64)
    know_y = np.zeros(L.KNOW_LEN, dtype=np.int64)
    shown = 0
    for i in range(400):
        e, y = deal_full(4, i, pack, state)
        rest = [int(c) for c in pack[24:32]]
        masks = np.where(rng.random((2, 3)) < 0.8, 0xFFFFFFFF, 0).astype(np.int64)
        e_disc, y_disc = (np.int64(sum(1 << c for c in rest[a:b])) for a, b in ((0, 2), (2, 4)))
        seen = tuple(np.int64(sum(1 << c for c in rest[a:b])) for a, b in ((4, 5), (5, 6), (6, 8)))
        K.both_knowledge((e, y), (e_disc, y_disc), masks, seen, SUIT_TABLES, know_e, know_y)
        ke = K.deal_knowledge(e, e_disc, masks[0], y, masks[1], seen[0], seen[1], SUIT_TABLES)
        ky = K.deal_knowledge(y, y_disc, masks[1], e, masks[0], np.int64(0), seen[2], SUIT_TABLES)
        assert (know_e == ke).all() and (know_y == ky).all()
        shown += know_e[L.KNOW_IN] != seen[0]
    assert shown > 100  # younger showed cards often


def test_known_cards_equal_both_knowledge_masks():
    """The scalar known cards (given the class winners) equal ``both_knowledge``'s KNOW_IN and
    KNOW_OUT of both seats, with full, empty and partial declaration masks."""
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    rng = np.random.default_rng(6)
    know_e = np.zeros(L.KNOW_LEN, dtype=np.int64)
    know_y = np.zeros(L.KNOW_LEN, dtype=np.int64)
    shown = [0, 0]
    for i in range(600):
        e, y = deal_full(7, i, pack, state)
        rest = [int(c) for c in pack[24:32]]
        pick = rng.random((2, 3))
        partial = rng.integers(0, 1 << 32, size=(2, 3))
        masks = np.where(pick < 0.6, 0xFFFFFFFF, np.where(pick < 0.8, partial, 0)).astype(np.int64)
        e_disc, y_disc = (np.int64(sum(1 << c for c in rest[a:b])) for a, b in ((0, 2), (2, 4)))
        seen = tuple(np.int64(sum(1 << c for c in rest[a:b])) for a, b in ((4, 5), (5, 6), (6, 8)))
        K.both_knowledge((e, y), (e_disc, y_disc), masks, seen, SUIT_TABLES, know_e, know_y)
        winners = []
        for c in range(L.CLASS_COUNT):
            ke = K.class_key(e & masks[0, c], c, SUIT_TABLES)
            ky = K.class_key(y & masks[1, c], c, SUIT_TABLES)
            code = L.WIN_ELDER if ke > ky else L.WIN_YOUNGER if ky > ke else L.WIN_EQUAL
            winners.append(np.int64(code if ke > 0 or ky > 0 else L.WIN_NONE))
        masks_t = (tuple(masks[0]), tuple(masks[1]))
        (e_kin, e_kout), (y_kin, y_kout) = K.known_cards(
            (e, y), (e_disc, y_disc), masks_t, tuple(winners), seen, SUIT_TABLES
        )
        assert (e_kin, e_kout) == (know_e[L.KNOW_IN], know_e[L.KNOW_OUT])
        assert (y_kin, y_kout) == (know_y[L.KNOW_IN], know_y[L.KNOW_OUT])
        shown[0] += e_kin != seen[0]
        shown[1] += y_kin != 0
    assert min(shown) > 100  # each seat showed cards often
