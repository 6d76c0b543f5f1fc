"""Declarations: every sequence and four of a kind of a hand, pilotta, and the comparison.

Values (card-point units): sequence of 3 cards 20, of 4 50, of 5 or more 100 (natural order
7 8 9 10 J Q K A, any suit); four jacks 200, four nines 150, four aces, tens, kings or queens 100.
A card may be in a sequence and a four at once. Pilotta (K and Q of trumps in one hand) is not a
combination: it never enters the comparison and always scores.

Comparison key of one combination (higher is better), see :func:`combo_key`:
value, then a four before a sequence, then the longer sequence, then the higher top card
(natural order; for fours the rank: A > K > Q > 10), then a sequence in trumps.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ..layouts import Comb, Decl
from ..policies import DECL_NO_TIERCE
from ..rules import RuleSlot
from .tables import FOUR_VALUE, SEQ_RUNS

KING = 6
QUEEN = 5


@njit
def seq_value(length):
    """Value of a sequence of ``length`` (>= 3) cards."""
    if length == 3:
        return 20
    if length == 4:
        return 50
    return 100


KEY_VALUE = 512  # combo_key // KEY_VALUE is the combination's value


@njit
def combo_key(value, is_four, length, top, in_trumps):
    """Comparison key of a combination (see module docstring); always > 0."""
    return (((value * 2 + is_four) * 16 + length) * 8 + top) * 2 + in_trumps


@njit
def combination_points(hand):
    """Points of all the combinations of ``hand`` (sequences and fours; pilotta excluded),
    what :func:`declare_hand` puts in ``Decl.POINTS``, without the record."""
    points = 0
    for s in range(4):
        h = (hand >> (8 * s)) & 0xFF
        for j in range(2):
            length = SEQ_RUNS[h, 2 * j]
            if length == 0:
                break
            points += seq_value(length)
    for r in range(2, 8):
        m = (np.int64(1) << r) * 0x01010101
        if hand & m == m:
            points += FOUR_VALUE[r]
    return points


@njit
def declare_hand(hand, trump, out):
    """Fill ``out`` (int32[Decl.LEN]) with the declarations of ``hand`` (natural mask) with
    ``trump`` the trump suit: best key, points of all combinations, counts, fours, pilotta."""
    best = 0
    points = 0
    n3 = 0
    n4 = 0
    n5 = 0
    for s in range(4):
        h = (hand >> (8 * s)) & 0xFF
        for j in range(2):
            length = SEQ_RUNS[h, 2 * j]
            if length == 0:
                break
            v = seq_value(length)
            points += v
            if length == 3:
                n3 += 1
            elif length == 4:
                n4 += 1
            else:
                n5 += 1
            k = combo_key(v, 0, length, SEQ_RUNS[h, 2 * j + 1], 1 if s == trump else 0)
            if k > best:
                best = k
    fours = 0
    for r in range(2, 8):
        m = (np.int64(1) << r) * 0x01010101
        if hand & m == m:
            fours |= 1 << r
            v = FOUR_VALUE[r]
            points += v
            k = combo_key(v, 1, 4, r, 0)
            if k > best:
                best = k
    kq = (np.int64(1) << (8 * trump + KING)) | (np.int64(1) << (8 * trump + QUEEN))
    out[Decl.BEST_KEY] = best
    out[Decl.POINTS] = points
    out[Decl.N_SEQ3] = n3
    out[Decl.N_SEQ4] = n4
    out[Decl.N_SEQ5] = n5
    out[Decl.FOURS] = fours
    out[Decl.PILOTTA] = 1 if hand & kq == kq else 0


@njit
def compare_declarations(decl, first_leader, rules, out):
    """Who scores combinations. ``decl``: int32[4, Decl.LEN] per seat (all declared);
    ``first_leader``: seat leading the first trick. Fills ``out`` (int32[Comb.LEN]).

    The seat with the highest key wins for its team; between seats of both teams holding the
    same best key, the first in playing order from the first leader wins, or nobody when
    ``rules[RuleSlot.EQUAL_DECLARATIONS]``."""
    best = 0
    for p in range(4):
        if decl[p, Decl.BEST_KEY] > best:
            best = decl[p, Decl.BEST_KEY]
    team = -1
    seat = -1
    if best > 0:
        for i in range(4):
            p = (first_leader + i) % 4
            if decl[p, Decl.BEST_KEY] == best:
                seat = p
                break
        team = seat & 1
        if rules[RuleSlot.EQUAL_DECLARATIONS]:
            for p in range(4):
                if decl[p, Decl.BEST_KEY] == best and (p & 1) != team:
                    team = -1
    out[Comb.TEAM] = team
    out[Comb.SEAT] = seat
    out[Comb.POINTS_NS] = 0
    out[Comb.POINTS_EW] = 0
    if team >= 0:
        out[Comb.POINTS_NS + team] = decl[team, Decl.POINTS] + decl[team + 2, Decl.POINTS]
    out[Comb.PILOTTA_SEAT] = -1
    for p in range(4):
        if decl[p, Decl.PILOTTA]:
            out[Comb.PILOTTA_SEAT] = p


@njit
def declare_policy_hand(hand, trump, policy, out):
    """:func:`declare_hand` under a declaration policy (an id of :data:`policies.REGISTRY`):
    ``all``, or ``no-tierce`` (sequences of exactly three cards left out)."""
    declare_hand(hand, trump, out)
    if policy == DECL_NO_TIERCE and out[Decl.N_SEQ3] > 0:
        out[Decl.POINTS] -= 20 * out[Decl.N_SEQ3]
        out[Decl.N_SEQ3] = 0
        if out[Decl.BEST_KEY] // KEY_VALUE == 20:  # the best was a tierce: nothing else
            out[Decl.BEST_KEY] = 0


@njit
def combination_cards(hand, policy):
    """Mask of the cards of ``hand`` in its declared combinations (sequences of three or more
    in natural order, fours of nines to aces) under declaration policy ``policy``: the cards
    its player shows."""
    out = np.int64(0)
    for s in range(4):
        h = (hand >> (8 * s)) & 0xFF
        for j in range(2):
            length = SEQ_RUNS[h, 2 * j]
            if length == 0:
                break
            if length == 3 and policy == DECL_NO_TIERCE:
                continue
            top = SEQ_RUNS[h, 2 * j + 1]
            run = ((np.int64(1) << length) - 1) << (top - length + 1)
            out |= run << (8 * s)
    for r in range(2, 8):
        m = (np.int64(1) << r) * 0x01010101
        if hand & m == m:
            out |= m
    return out
