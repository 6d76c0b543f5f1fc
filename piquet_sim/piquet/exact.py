"""Exact probabilities of a dealt 12-card hand (a uniform 12 of the 32 cards), by combinatorics.

Each distribution counts hands exactly (integers, then divided by C(32, 12)); they are the
reference the Monte Carlo odds are tested against.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from .kernels.tables import SUIT_TABLES, T_COUNT, T_SEQ_BEST

HAND = 12
N_HANDS = comb(32, HAND)


def p_carte_blanche() -> float:
    """P(no king, queen or jack among 12 cards): all 12 from the 20 other cards."""
    return comb(20, HAND) / N_HANDS


@lru_cache
def point_length_distribution() -> dict[int, float]:
    """P(longest suit has exactly L cards), L = 3..8."""
    # ways[n][m]: hands of n cards over the suits so far whose longest suit is m
    ways = {(0, 0): 1}
    for _ in range(4):
        nxt: dict[tuple[int, int], int] = {}
        for (n, m), w in ways.items():
            for k in range(0, 9):
                if n + k <= HAND:
                    key = (n + k, max(m, k))
                    nxt[key] = nxt.get(key, 0) + w * comb(8, k)
        ways = nxt
    return {m: w / N_HANDS for (n, m), w in sorted(ways.items()) if n == HAND}


@lru_cache
def best_sequence_distribution() -> dict[int, float]:
    """P(longest sequence has L cards), L = 0 (no tierce) or 3..8."""
    per_suit: dict[tuple[int, int], int] = {}  # (cards in suit, longest run of 3+) -> holdings
    for h in range(256):
        key = (int(SUIT_TABLES[T_COUNT, h]), int(SUIT_TABLES[T_SEQ_BEST, h]) >> 3)
        per_suit[key] = per_suit.get(key, 0) + 1
    ways = {(0, 0): 1}
    for _ in range(4):
        nxt: dict[tuple[int, int], int] = {}
        for (n, m), w in ways.items():
            for (k, run), hw in per_suit.items():
                if n + k <= HAND:
                    key = (n + k, max(m, run))
                    nxt[key] = nxt.get(key, 0) + w * hw
        ways = nxt
    return {m: w / N_HANDS for (n, m), w in sorted(ways.items()) if n == HAND}


@lru_cache
def best_set_distribution() -> dict[str, float]:
    """P(best set is a quatorze / a trio / none), sets of tens and higher only."""
    # state: (cards so far, best: 0 none, 1 trio, 2 quatorze); ranks T J Q K A then 7 8 9
    ways = {(0, 0): 1}
    for rank in range(8):
        counts_set = rank >= 3
        nxt: dict[tuple[int, int], int] = {}
        for (n, best), w in ways.items():
            for k in range(5):
                if n + k <= HAND:
                    level = (2 if k == 4 else 1 if k == 3 else 0) if counts_set else 0
                    key = (n + k, max(best, level))
                    nxt[key] = nxt.get(key, 0) + w * comb(4, k)
        ways = nxt
    names = {0: "none", 1: "trio", 2: "quatorze"}
    return {names[b]: w / N_HANDS for (n, b), w in sorted(ways.items()) if n == HAND}
