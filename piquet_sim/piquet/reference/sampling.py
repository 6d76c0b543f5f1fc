"""Plain-Python reference for worlds consistent with a player's knowledge (tests only).

Written from docs/rules/piquet.md, not from the kernels: comparison keys of each class (point
``length * 128 + pips``, sequence ``length * 8 + top rank``, set ``rank`` / ``8 + rank``), the
check that an opponent hand meets a knowledge state (``kernels.knowledge`` layout: known-in,
known-out, lower and upper key bounds per class), and a brute-force enumeration of every
consistent hand for tiny cases, against which the exact sampler's frequencies are tested.
"""

from __future__ import annotations

from itertools import combinations

PIPS = (7, 8, 9, 10, 10, 10, 10, 11)
NO_HI = 1 << 20


def cards_of(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def point_key(hand: int) -> int:
    """Best point of a hand: length * 128 + pips of its best suit; 0 when empty."""
    best = 0
    for s in range(4):
        ranks = [r for r in range(8) if hand >> (8 * s + r) & 1]
        if ranks:
            best = max(best, len(ranks) * 128 + sum(PIPS[r] for r in ranks))
    return best


def sequence_key(hand: int) -> int:
    """Best sequence: length * 8 + top rank of the best run of 3+; 0 when none."""
    best = 0
    for s in range(4):
        run = 0
        for r in range(8):
            run = run + 1 if hand >> (8 * s + r) & 1 else 0
            if run >= 3:
                best = max(best, run * 8 + r)
    return best


def set_key(hand: int) -> int:
    """Best set among tens and higher: 8 + rank for a quatorze, rank for a trio; 0 when none."""
    best = 0
    for r in range(3, 8):
        n = sum(hand >> (8 * s + r) & 1 for s in range(4))
        if n == 4:
            best = max(best, 8 + r)
        elif n == 3:
            best = max(best, r)
    return best


KEYS = (point_key, sequence_key, set_key)


def consistent(opp_now: int, know, played: int, opp_played: int, voids: int, n_opp: int) -> bool:
    """True when ``opp_now`` (the opponent's current hand) meets every constraint of ``know``:
    size, known cards in and out, no card played, none of a void suit, and the class bounds on
    his declaration-time hand ``opp_now | opp_played``; an upper bound already beaten by the
    cards known to have been in that hand (known-in and played) counts as refuted and is
    ignored."""
    k_in, k_out = int(know[0]), int(know[1])
    lo = [int(x) for x in know[2:5]]
    hi = [int(x) for x in know[5:8]]
    if bin(opp_now).count("1") != n_opp:
        return False
    if opp_now & (k_out | played | voids):
        return False
    if (k_in & ~played) & ~opp_now:
        return False
    full = opp_now | opp_played
    known = k_in | opp_played
    for c, key in enumerate(KEYS):
        bound = hi[c]
        if bound < NO_HI and key(known) > bound:
            bound = NO_HI
        if not lo[c] <= key(full) <= bound:
            return False
    return True


def enumerate_worlds(know, played: int, opp_played: int, voids: int, n_opp: int) -> list[int]:
    """Every consistent current hand of the opponent, by brute force over the free cards."""
    k_in, k_out = int(know[0]), int(know[1])
    must = k_in & ~played
    free = [c for c in range(32) if not (k_in | k_out | played | voids) >> c & 1]
    m = n_opp - bin(must).count("1")
    if m < 0 or m > len(free):
        return []
    out = []
    for combo in combinations(free, m):
        hand = must
        for c in combo:
            hand |= 1 << c
        if consistent(hand, know, played, opp_played, voids, n_opp):
            out.append(hand)
    return out
