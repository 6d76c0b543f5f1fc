"""Declarations API: what a hand holds, and how two hands' declarations score.

Plain Python over the kernels in ``kernels/declarations.py``; results are dicts ready for JSON.
Points are per player; "net" values are elder minus younger.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import cards as C
from .kernels import declarations as K
from .kernels import layouts as L
from .kernels.bundles import make_env
from .kernels.tables import SEQUENCE_POINTS, SUIT_TABLES
from .rules import DEFAULT_RULES, Rules

CLASSES = ("point", "sequence", "sets")
SCORE_KEYS = ("carte_blanche", "point", "sequence", "sets", "carte_rouge", "repique")
WINNER_NAMES = {
    L.WIN_NONE: "none",
    L.WIN_ELDER: "elder",
    L.WIN_YOUNGER: "younger",
    L.WIN_EQUAL: "equal",
}
SEQUENCE_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixieme", 7: "septieme", 8: "huitieme"}
SET_NAMES = {3: "trio", 4: "quatorze"}
_SET_RANK_NAMES = {3: "tens", 4: "jacks", 5: "queens", 6: "kings", 7: "aces"}
_FULL = int(K.FULL)


@dataclass(frozen=True)
class DeclarationPolicy:
    """What a player declares: the point, sequences and sets of ``hand & mask``.

    A mask of 0 withholds the class (he answers "good"); a mask lacking some cards declares a
    lesser combination (a quart out of a quint). He never declares more than he holds.
    """

    point_mask: int = _FULL
    sequence_mask: int = _FULL
    sets_mask: int = _FULL

    @classmethod
    def sink(cls, *classes: str) -> DeclarationPolicy:
        """Withhold whole classes, e.g. ``DeclarationPolicy.sink("point")``."""
        unknown = set(classes) - set(CLASSES)
        if unknown:
            raise ValueError(f"unknown class {sorted(unknown)[0]!r}; classes are {CLASSES}")
        return cls(*(0 if name in classes else _FULL for name in CLASSES))

    def as_array(self) -> np.ndarray:
        return np.array([self.point_mask, self.sequence_mask, self.sets_mask], dtype=np.int64)

    def masks(self) -> tuple[np.int64, np.int64, np.int64]:
        """The (point, sequence, sets) masks as the kernels take them."""
        return tuple(np.int64(m) for m in (self.point_mask, self.sequence_mask, self.sets_mask))


DECLARE_ALL = DeclarationPolicy()


def describe_hand(hand: int) -> dict:
    """Combinations a hand holds and what each is worth if it wins its class.

    Returns keys: cards, point {suit, length, pips, points}, sequences [...], best_sequence,
    sets [...], best_set, carte_blanche (bool), carte_rouge_eligible (bool).
    """
    hand = int(hand)
    h = np.int64(hand)
    pk = int(K.point_key(h, SUIT_TABLES))
    point_cards = int(K.point_suits(h, pk, SUIT_TABLES))
    point_suits = [C.SUITS[s] for s in range(4) if C.suit_holding(point_cards, s)]
    rows = np.zeros((8, 3), dtype=np.int32)
    n = K.hand_sequences(h, SUIT_TABLES, rows)
    sequences = []
    for suit, length, top in sorted(rows[:n].tolist(), key=lambda r: (-r[1], -r[2])):
        cards_mask = sum(1 << C.card_index(suit, r) for r in range(top - length + 1, top + 1))
        sequences.append(
            {
                "name": SEQUENCE_NAMES[length],
                "suit": C.SUITS[suit],
                "length": length,
                "top": C.RANKS[top],
                "cards": C.card_names(cards_mask),
                "points": SEQUENCE_POINTS[length],
            }
        )
    four, trio = (int(x) for x in K.set_ranks(h))
    sets = []
    for rank in range(7, 2, -1):
        for size, ranks in ((4, four), (3, trio)):
            if ranks >> rank & 1:
                sets.append(
                    {
                        "name": f"{SET_NAMES[size]} of {_SET_RANK_NAMES[rank]}",
                        "rank": C.RANKS[rank],
                        "count": size,
                        "cards": C.card_names(hand & (0x01010101 << rank)),
                        "points": 14 if size == 4 else 3,
                    }
                )
    sets.sort(key=lambda s: (-s["count"], -C.RANKS.index(s["rank"])))
    return {
        "cards": C.card_names(hand),
        "point": {
            "suits": point_suits,
            "length": pk >> 7,
            "pips": pk & 127,
            "points": pk >> 7,
        },
        "sequences": sequences,
        "best_sequence": sequences[0] if sequences else None,
        "sequence_points": int(K.sequence_score(h, SUIT_TABLES)),
        "sets": sets,
        "best_set": sets[0] if sets else None,
        "set_points": int(K.set_score(h, SUIT_TABLES)),
        "carte_blanche": bool(K.carte_blanche(h)),
        "carte_rouge_eligible": bool(K.hand_carte_rouge_eligible(h, SUIT_TABLES)),
    }


def compare_hands(
    elder: int,
    younger: int,
    rules: Rules = DEFAULT_RULES,
    elder_policy: DeclarationPolicy = DECLARE_ALL,
    younger_policy: DeclarationPolicy = DECLARE_ALL,
    elder_carte_blanche: bool | None = None,
    younger_carte_blanche: bool | None = None,
) -> dict:
    """Score both hands' declarations class by class (play excluded), points per player.

    Carte blanche defaults to each hand's own (the hands are taken as dealt). Returns
    ``{"elder": {carte_blanche, point, sequence, sets, carte_rouge, repique, total},
    "younger": {...}, "classes": {point, sequence, sets: "elder"|"younger"|"equal"|"none"},
    "events": [[player, class, points], ...] in scoring order}``.
    """
    elder, younger = int(elder), int(younger)
    if elder & younger:
        raise C.CardError(f"the hands share {C.format_cards(elder & younger)}")
    if elder_carte_blanche is None:
        elder_carte_blanche = bool(K.carte_blanche(np.int64(elder)))
    if younger_carte_blanche is None:
        younger_carte_blanche = bool(K.carte_blanche(np.int64(younger)))
    record = np.zeros(L.DECL_LEN, dtype=np.int32)
    K.score_declarations(
        np.int64(elder),
        np.int64(younger),
        (bool(elder_carte_blanche), bool(younger_carte_blanche)),
        elder_policy.masks(),
        younger_policy.masks(),
        make_env(rules.to_array()),
        record,
    )
    return record_to_dict(record)


def record_to_dict(record: np.ndarray) -> dict:
    """The compare dict of one kernel record (int32[D_LEN])."""
    result: dict = {}
    for player, base in (("elder", L.DECL_ELDER), ("younger", L.DECL_YOUNGER)):
        scores = {key: int(record[base + i]) for i, key in enumerate(SCORE_KEYS)}
        scores["total"] = sum(scores.values())
        result[player] = scores
    result["classes"] = {
        "point": WINNER_NAMES[int(record[L.DECL_WIN_POINT])],
        "sequence": WINNER_NAMES[int(record[L.DECL_WIN_SEQUENCE])],
        "sets": WINNER_NAMES[int(record[L.DECL_WIN_SETS])],
    }
    result["events"] = scoring_events(result)
    return result


def scoring_events(result: dict) -> list[list]:
    """Scoring events in docs/rules/piquet.md order: carte blanche (elder, younger), point,
    sequences, sets,
    carte rouge (elder, younger), then repique. Each event is [player, class, points]."""
    events = []
    for key in SCORE_KEYS:
        for player in ("elder", "younger"):
            points = result[player][key]
            if points:
                events.append([player, key, points])
    return events
