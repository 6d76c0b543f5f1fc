"""The heuristic's capot endgame (``kernels/endgame.py``): the one-trick search against its
plain-Python twin, the chosen card against brute force on fully known hands, and the kernel's
whole choice against the reference on random late positions."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import numpy as np

from piquet_sim.piquet.cards import parse_cards
from piquet_sim.piquet.kernels import endgame as E
from piquet_sim.piquet.kernels import heuristic as H
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.reference import heuristic as R


def _mask(cards):
    return sum(1 << c for c in cards)


def _late_position(rng, n):
    """Two hands of ``n`` cards, the cards already played, a knowledge state true to the
    opponent (some of his cards known in, most other unseen cards known out)."""
    perm = rng.permutation(32)
    me, opp, rest = perm[:n].tolist(), perm[n : 2 * n].tolist(), perm[2 * n :].tolist()
    played = rest[: 24 - 2 * n]
    unseen = rest[24 - 2 * n :]
    know = np.zeros(L.KNOW_LEN, dtype=np.int64)
    know[L.KNOW_IN] = _mask(c for c in opp if rng.random() < 0.3)
    know[L.KNOW_OUT] = _mask(c for c in unseen if rng.random() < 0.7)
    return _mask(me), _mask(opp), _mask(played), know


def test_escape_search_matches_reference():
    rng = np.random.default_rng(1)
    hits = 0
    for _ in range(3000):
        n = int(rng.integers(1, 6))
        perm = rng.permutation(32)
        d, a = perm[:n].tolist(), perm[n : 2 * n].tolist()
        k = E.defender_escapes(np.int64(_mask(d)), np.int64(_mask(a)))
        assert k == R.escapes(frozenset(d), frozenset(a))
        hits += k
    assert 300 < hits < 2700  # both outcomes met


def test_hand_worked_escape():
    # the defender keeps K 7 of hearts and the queen of clubs against A of hearts and 8 of clubs
    d = parse_cards("KH QC")
    assert E.defender_escapes(np.int64(d), np.int64(parse_cards("AH 8C")))
    assert not E.defender_escapes(np.int64(parse_cards("KH 7H")), np.int64(parse_cards("AH 8C")))
    # throwing the 7H on a spade lead keeps a trick; throwing the QC loses every trick
    own = parse_cards("KH 7H QC")
    opp = np.int64(parse_cards("AH 8C"))
    lead = np.int64(parse_cards("AS").bit_length() - 1)
    qc = parse_cards("QC").bit_length() - 1
    got = E.capot_endgame(np.int64(own), lead, opp, np.int64(0), 0, np.int64(qc), 126)
    assert got != qc and E.after_card(np.int64(own), opp, lead, got)


def test_distinct_worlds_stand_for_every_hand_once():
    # each m-subset of the pool maps to the hand taking, in each class (one suit, no card of
    # the defender's between), as many of its lowest cards: the listed hands are exactly those,
    # each weighted by how many subsets map to it
    rng = np.random.default_rng(5)
    out = np.zeros((4, E.MAX_WORLDS), dtype=np.int64)
    merged = 0
    for _ in range(400):
        perm = rng.permutation(32).tolist()
        n_own = int(rng.integers(1, 6))
        k = int(rng.integers(0, 10))
        own, pool, sure = perm[:n_own], sorted(perm[n_own : n_own + k]), perm[n_own + k :][:2]
        m = int(rng.integers(0, k + 1))
        if comb(k, m) > E.MAX_WORLDS:
            continue
        classes = []
        for c in pool:
            if (
                classes
                and classes[-1][-1] // 8 == c // 8
                and not any(classes[-1][-1] < x < c for x in own)
            ):
                classes[-1].append(c)
            else:
                classes.append([c])
        want = Counter()
        for subset in combinations(pool, m):
            hand = _mask(sure)
            for cl in classes:
                hand |= _mask(cl[: sum(c in subset for c in cl)])
            want[hand] += 1
        n = E._distinct_worlds(
            np.int64(_mask(own)), np.int64(_mask(sure)), np.int64(_mask(pool)), m, out
        )
        assert dict(zip(out[0, :n].tolist(), out[1, :n].tolist(), strict=True)) == dict(want)
        assert n == len(want)
        merged += n < comb(k, m)
    assert merged > 100  # classes of two cards or more were met


def test_choice_escapes_whenever_a_card_does_on_known_hands():
    rng = np.random.default_rng(2)
    saved = 0
    for _ in range(2000):
        n = int(rng.integers(2, 6))
        me, opp, played, _ = _late_position(rng, n)
        lead = -1
        if rng.random() < 0.5:
            lead = int(rng.choice([c for c in range(32) if opp >> c & 1]))
            opp &= ~(1 << lead)
        choice = int(
            H.heuristic_card(
                np.int64(me),
                np.int64(lead),
                np.int64(played),
                0,
                np.zeros(L.KNOW_LEN, np.int64),
                0.0,
                True,
                0,
                0,
            )
        )
        got = int(
            E.capot_endgame(
                np.int64(me), np.int64(lead), np.int64(opp), np.int64(0), 0, np.int64(choice), 126
            )
        )
        assert got == R.capot_endgame(
            me, lead, [c for c in range(32) if opp >> c & 1], [], 0, choice, 126
        )
        escapes = [
            c
            for c in range(32)
            if me >> c & 1 and E.after_card(np.int64(me), np.int64(opp), np.int64(lead), c)
        ]
        legal = [c for c in range(32) if me >> c & 1 and (lead < 0 or c // 8 == lead // 8)]
        if lead >= 0 and not legal:
            legal = [c for c in range(32) if me >> c & 1]
        if lead >= 0 and any(c > lead for c in legal):
            continue  # a winning card: the heuristic takes the trick
        if any(c in escapes for c in legal):
            assert got in escapes
            saved += choice not in escapes
    assert saved > 20  # the endgame overruled losing choices


def test_kernel_matches_reference_on_late_positions():
    rng = np.random.default_rng(3)
    moved = 0
    for i in range(1500):
        n = int(rng.integers(1, 7))
        me, opp, played, know = _late_position(rng, n)
        lead = -1
        if i % 2:
            lead = int(rng.choice([c for c in range(32) if opp >> c & 1]))
        for endgame in (0, 5):
            args = (me, lead, played, 0, know, 0.0, True, i % 3, endgame)
            k = H.heuristic_card(
                *(np.int64(a) if isinstance(a, int) else a for a in args[:4]), *args[4:]
            )
            assert k == R.heuristic_card(*args)
            if endgame == 0:
                plain = k
        moved += k != plain
    assert moved > 10  # the endgame changed some choices
