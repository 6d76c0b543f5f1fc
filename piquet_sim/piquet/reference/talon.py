"""Plain-Python talon odds, for tests: every draw by ``itertools.combinations``, rules from
docs/rules/piquet.md written out directly (no kernels). Returns raw counts so tests compare exactly.
"""

from __future__ import annotations

from itertools import combinations

PIPS = (7, 8, 9, 10, 10, 10, 10, 11)  # seven .. ace
SEQUENCE_POINTS = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def point(cards: list[int]) -> tuple[int, int]:
    """(length, pips) of the best suit: longer first, then higher pip total."""
    best = (0, 0)
    for s in range(4):
        ranks = [c % 8 for c in cards if c // 8 == s]
        best = max(best, (len(ranks), sum(PIPS[r] for r in ranks)))
    return best


def runs(cards: list[int]) -> list[tuple[int, int]]:
    """Every maximal run of 3+ consecutive ranks in a suit as (length, top rank)."""
    out = []
    for s in range(4):
        ranks = {c % 8 for c in cards if c // 8 == s}
        r = 0
        while r < 8:
            if r in ranks:
                top = r
                while top + 1 in ranks:
                    top += 1
                if top - r + 1 >= 3:
                    out.append((top - r + 1, top))
                r = top + 1
            else:
                r += 1
    return out


def sets(cards: list[int]) -> list[tuple[int, int]]:
    """Every trio or quatorze of tens and higher as (count, rank)."""
    out = []
    for rank in range(3, 8):
        n = sum(1 for c in cards if c % 8 == rank)
        if n >= 3:
            out.append((n, rank))
    return out


def draw_counts(hand: int, discard: int, want: int = 0) -> dict:
    """Counts over every draw of popcount(discard) cards from the 20 cards not in ``hand``.

    Keys: draws; point {length: n}; sequence {(length, top) or None: n}; sets {(count, rank) or
    None: n}; want {k: n}; points {"point", "sequence", "sets": total over draws}.
    """
    kept = [c for c in _cards(hand) if not discard >> c & 1]
    unseen = [c for c in range(32) if not hand >> c & 1]
    d = bin(discard).count("1")
    out: dict = {
        "draws": 0,
        "point": {},
        "sequence": {},
        "sets": {},
        "want": {},
        "points": {"point": 0, "sequence": 0, "sets": 0},
    }
    for drawn in combinations(unseen, d):
        cards = kept + list(drawn)
        length = point(cards)[0]
        rs = runs(cards)
        ss = sets(cards)
        best_seq = max(rs) if rs else None
        best_set = max(ss) if ss else None
        k = sum(1 for c in drawn if want >> c & 1)
        out["draws"] += 1
        out["point"][length] = out["point"].get(length, 0) + 1
        out["sequence"][best_seq] = out["sequence"].get(best_seq, 0) + 1
        out["sets"][best_set] = out["sets"].get(best_set, 0) + 1
        out["want"][k] = out["want"].get(k, 0) + 1
        out["points"]["point"] += length
        out["points"]["sequence"] += sum(SEQUENCE_POINTS[n] for n, _ in rs)
        out["points"]["sets"] += sum(14 if n == 4 else 3 for n, _ in ss)
    return out
