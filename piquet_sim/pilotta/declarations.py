"""Declarations in words: the list of a hand's combinations for people (the kernels only count
them). Built from the kernels' tables and checked against ``kernels.declarations`` totals."""

from __future__ import annotations

import numpy as np

from .cards import card_name
from .kernels.declarations import declare_hand, seq_value
from .kernels.tables import FOUR_VALUE, SEQ_RUNS
from .layouts import DECL_LEN, Decl


def list_combinations(hand: int, trump: int = -1) -> list[dict]:
    """Every combination of ``hand``, best first: kind ("four" / "sequence"), its cards
    (canonical names, high first), value (card-point units), whether it is in trumps."""
    out = []
    for r in range(7, -1, -1):
        if FOUR_VALUE[r] and all(hand >> (8 * s + r) & 1 for s in range(4)):
            cards = " ".join(card_name(8 * s + r) for s in range(4))
            value = int(FOUR_VALUE[r])
            out.append(
                {"kind": "four", "cards": cards, "value": value, "in_trumps": False, "_key": (1, r)}
            )
    for s in range(4):
        h = (hand >> (8 * s)) & 0xFF
        for j in range(2):
            length, top = int(SEQ_RUNS[h, 2 * j]), int(SEQ_RUNS[h, 2 * j + 1])
            if length:
                cards = " ".join(card_name(8 * s + r) for r in range(top, top - length, -1))
                key = (0, length, top, s == trump)
                out.append(
                    {
                        "kind": "sequence",
                        "cards": cards,
                        "value": int(seq_value(length)),
                        "in_trumps": s == trump,
                        "_key": key,
                    }
                )
    out.sort(key=lambda c: (c["value"], c["_key"]), reverse=True)
    for c in out:
        del c["_key"]
    d = np.zeros(DECL_LEN, dtype=np.int32)
    declare_hand(np.int64(hand), max(trump, 0), d)
    assert sum(c["value"] for c in out) == int(d[Decl.POINTS])
    return out
