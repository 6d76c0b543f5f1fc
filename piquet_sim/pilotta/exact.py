"""Exact probabilities of dealt combinations and trump holdings (the 32 cards dealt 8 by 8),
by counting: binomials (``math.comb``), inclusion-exclusion, and an enumeration of every way one
suit's eight cards can be shared among the four hands combined suit by suit.

Scopes: a hand (one player), a team (two partners), the table (all four); an event holds for a
scope when any of its players holds it (a combination belongs to one hand). All values are
exact fractions of the 32! / (8!)^4 deals, returned as floats.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np

SCOPES = {"hand": (0,), "team": (0, 2), "table": (0, 1, 2, 3)}
FOUR_RANKS = {"J": 4, "9": 2, "A": 7, "T": 3, "K": 6, "Q": 5}  # natural rank of each four
TOTAL_DEALS = math.factorial(32) // math.factorial(8) ** 4


def _longest_runs() -> np.ndarray:
    out = np.zeros(256, dtype=np.int64)
    for h in range(256):
        best = run = 0
        for r in range(8):
            run = run + 1 if h >> r & 1 else 0
            best = max(best, run)
        out[h] = best
    return out


@cache
def _suit_classes(group: tuple[int, ...], length: int) -> np.ndarray:
    """Ways (int64[9, 9, 9, 9, 2]) to share one suit's 8 cards among the four hands, by the
    number of cards each gets and whether a player of ``group`` holds ``length`` or more of
    them in a row."""
    a = np.arange(4**8)
    owners = (a[:, None] >> (2 * np.arange(8))) & 3  # owner of each rank
    runs = _longest_runs()
    counts = np.stack([(owners == p).sum(axis=1) for p in range(4)], axis=1)
    flag = np.zeros(len(a), dtype=bool)
    for p in group:
        holding = ((owners == p) << np.arange(8)).sum(axis=1)
        flag |= runs[holding] >= length
    out = np.zeros((9, 9, 9, 9, 2), dtype=np.int64)
    np.add.at(out, (counts[:, 0], counts[:, 1], counts[:, 2], counts[:, 3], flag.astype(int)), 1)
    return out


@cache
def sequence_at_least(scope: str, length: int) -> float:
    """P(a player of the scope holds a sequence of ``length`` or more cards)."""
    classes = _suit_classes(SCOPES[scope], length)
    state = np.zeros((2, 9, 9, 9, 9), dtype=np.int64)
    state[0, 0, 0, 0, 0] = 1
    nz = np.argwhere(classes > 0)
    for _ in range(4):
        new = np.zeros_like(state)
        for c0, c1, c2, c3, f in nz:
            w = classes[c0, c1, c2, c3, f]
            for g in (0, 1):
                src = state[g, : 9 - c0, : 9 - c1, : 9 - c2, : 9 - c3]
                new[g | f, c0:, c1:, c2:, c3:] += w * src
        state = new
    yes = int(state[1, 8, 8, 8, 8])
    assert yes + int(state[0, 8, 8, 8, 8]) == TOTAL_DEALS
    return float(Fraction(yes, TOTAL_DEALS))


def longest_sequence(scope: str) -> dict[str, float]:
    """P(the longest sequence among the scope's hands is none / 3 / 4 / 5 or more cards)."""
    a3, a4, a5 = (sequence_at_least(scope, n) for n in (3, 4, 5))
    return {"none": 1 - a3, "3": a3 - a4, "4": a4 - a5, "5+": a5}


def _fours_union(group: tuple[int, ...], ranks: int) -> Fraction:
    """P(some player of ``group`` holds all four cards of one of ``ranks`` given ranks), by
    inclusion-exclusion over which player holds which ranks (at most two fours a hand)."""
    total = Fraction(0)
    for assign in product(range(len(group) + 1), repeat=ranks):
        k = [0, 0, 0, 0]
        for a in assign:
            if a:
                k[group[a - 1]] += 1
        n = sum(k)
        if n == 0 or max(k) > 2:
            continue
        ways = math.factorial(32 - 4 * n)
        for kp in k:
            ways //= math.factorial(8 - 4 * kp)
        total += (-1) ** (n + 1) * Fraction(ways, TOTAL_DEALS)
    return total


@cache
def four_of_a_rank(scope: str) -> float:
    """P(a player of the scope holds the four cards of one given rank)."""
    return float(_fours_union(SCOPES[scope], 1))


@cache
def any_four(scope: str) -> float:
    """P(a player of the scope holds a four of jacks, nines, aces, tens, kings or queens)."""
    return float(_fours_union(SCOPES[scope], len(FOUR_RANKS)))


def pilotta(scope: str) -> float:
    """P(a player of the scope holds the king and queen of the named trump): one hand's chance
    C(30, 6) / C(32, 8), times the players (the events exclude each other)."""
    return len(SCOPES[scope]) * math.comb(30, 6) / math.comb(32, 8)


def trumps(scope: str) -> list[float]:
    """Distribution (k = 0..8) of the trumps held: by the hand, by the team together, or the
    most held by one hand at the table."""
    if scope == "hand":
        return [math.comb(8, k) * math.comb(24, 8 - k) / math.comb(32, 8) for k in range(9)]
    if scope == "team":
        return [math.comb(8, k) * math.comb(24, 16 - k) / math.comb(32, 16) for k in range(9)]
    out = [Fraction(0)] * 9
    for ks in product(range(9), repeat=4):
        if sum(ks) != 8:
            continue
        ways = math.factorial(8) * math.factorial(24)
        for kp in ks:
            ways //= math.factorial(kp) * math.factorial(8 - kp)
        out[max(ks)] += Fraction(ways, TOTAL_DEALS)
    return [float(x) for x in out]
