"""Exact talon odds for one exchange: what the kept hand holds after every possible draw.

The player discards ``discard`` from his 12 cards and draws as many cards. Every set of that many
cards among the 20 he cannot see (the 32 less his own 12) is enumerated, each counted once:

* elder: exact. The talon is a uniform 8 of his 20 unseen cards, so his top ``d`` are a uniform
  ``d``-subset (5 cards: 15,504 draws).
* younger, after elder took K: exact under a uniform prior on his 20 unseen cards, i.e. ignoring
  what elder's choice of K (and anything else) tells him about elder's hand and the talon.

Probabilities are fractions of the draws; expected points are the points each class would score
for the player if it won (point length, every sequence, every set), averaged over the draws.
"""

from __future__ import annotations

import numpy as np

from . import cards as C
from .declarations import SEQUENCE_NAMES, SET_NAMES
from .kernels import layouts as L
from .kernels import talon as K
from .kernels.tables import SUIT_TABLES
from .rules import DEFAULT_RULES, Rules

ROLES = ("elder", "younger")
ELDER_MAX = 5
TALON = 8
SEQUENCE_CLASSES = ("none", *SEQUENCE_NAMES.values())
SET_CLASSES = ("none", "trio", "quatorze")
_SET_RANK_NAMES = {3: "tens", 4: "jacks", 5: "queens", 6: "kings", 7: "aces"}

PRIOR_NOTE = {
    "elder": "exact: every draw of the unseen cards is equally likely",
    "younger": (
        "exact under a uniform prior on the unseen cards "
        "(ignores what elder's exchange tells younger)"
    ),
}


class DrawError(ValueError):
    """An impossible exchange: a discard not in the hand, a count out of range, and the like."""


def draw_range(role: str, elder_took: int | None, rules: Rules) -> tuple[int, int]:
    """(least, most) cards the player may discard and draw."""
    if role == "elder":
        return 1, ELDER_MAX
    low = 1 if rules.younger_must_exchange else 0
    return low, TALON - (ELDER_MAX if elder_took is None else elder_took)


def _check(
    hand: int, discard: int, role: str, elder_took: int | None, want: int, rules: Rules
) -> int:
    if role not in ROLES:
        raise DrawError(f"role must be elder or younger, got {role!r}")
    if C.popcount(hand) != 12:
        raise DrawError(f"a hand needs 12 cards, got {C.popcount(hand)}")
    if discard & ~hand:
        raise DrawError(f"discard {C.format_cards(discard & ~hand)} is not in the hand")
    if want & hand:
        raise DrawError(f"wanted {C.format_cards(want & hand)} already in the hand")
    if role == "elder" and elder_took is not None:
        raise DrawError("elder_took applies only to younger")
    if role == "younger" and elder_took is not None and not 1 <= elder_took <= ELDER_MAX:
        raise DrawError(f"elder takes 1 to {ELDER_MAX} cards, got {elder_took}")
    d = C.popcount(discard)
    low, high = draw_range(role, elder_took, rules)
    if not low <= d <= high:
        raise DrawError(f"{role} may discard {low} to {high} cards here, got {d}")
    return d


def _fractions(counts: dict[str, int], draws: int) -> dict[str, float]:
    return {k: v / draws for k, v in counts.items() if v}


def draw_odds(
    hand: int,
    discard: int,
    role: str = "elder",
    elder_took: int | None = None,
    want: int = 0,
    rules: Rules = DEFAULT_RULES,
) -> dict:
    """Exact distribution of the kept hand after every draw (see the module docstring).

    ``hand``, ``discard``, ``want``: card masks. ``elder_took`` (younger only) defaults to 5.
    Returns a JSON-ready dict: draws, point_length {length: p}, best_sequence {name: p},
    best_sequence_by_top {"quart to the K": p}, best_set {none|trio|quatorze: p}, best_set_by_rank,
    expected_points {point, sequence, sets, total} (points if each class won), want (None, or
    {cards, at_least {"k": p}, exactly {"k": p}}), and carte_rouge_eligible when the rule is on.
    Raises DrawError on an impossible exchange.
    """
    hand, discard, want = int(hand), int(discard), int(want)
    d = _check(hand, discard, role, elder_took, want, rules)
    if role == "younger" and elder_took is None:
        elder_took = ELDER_MAX
    kept = hand & ~discard
    unseen = np.array(C.mask_to_cards(C.FULL_PACK & ~hand), dtype=np.int64)
    draws, point, seq, sets, hits, sums = K.talon_odds(
        np.int64(kept), unseen, d, np.int64(want), SUIT_TABLES, bool(rules.carte_rouge)
    )
    draws = int(draws)

    by_length: dict[str, int] = {}
    by_top: dict[str, int] = {}
    for key in range(K.N_SEQ_BINS - 1, -1, -1):
        if seq[key]:
            name = "none" if key == 0 else SEQUENCE_NAMES[key >> 3]
            by_length[name] = by_length.get(name, 0) + int(seq[key])
            label = "none" if key == 0 else f"{name} to the {C.RANKS[key & 7]}"
            by_top[label] = int(seq[key])
    set_class: dict[str, int] = {}
    set_rank: dict[str, int] = {}
    for key in range(K.N_SET_BINS - 1, -1, -1):
        if sets[key]:
            if key == 0:
                name, label = "none", "none"
            else:
                name = SET_NAMES[4 if key >= 8 else 3]
                label = f"{name} of {_SET_RANK_NAMES[key & 7]}"
            set_class[name] = set_class.get(name, 0) + int(sets[key])
            set_rank[label] = int(sets[key])

    expected = {
        "point": sums[L.TSUM_POINT] / draws,
        "sequence": sums[L.TSUM_SEQUENCE] / draws,
        "sets": sums[L.TSUM_SETS] / draws,
    }
    expected = {k: float(v) for k, v in expected.items()}
    expected["total"] = sum(expected.values())

    want_info = None
    if want:
        top = min(C.popcount(want), d)
        exactly = [int(hits[k]) for k in range(top + 1)]
        want_info = {
            "cards": C.card_names(want),
            "at_least": {str(k): sum(exactly[k:]) / draws for k in range(1, top + 1)},
            "exactly": {str(k): exactly[k] / draws for k in range(top + 1)},
        }

    result = {
        "role": role,
        "elder_took": elder_took,
        "hand": C.card_names(hand),
        "discard": C.card_names(discard),
        "kept": C.card_names(kept),
        "cards_drawn": d,
        "unseen": len(unseen),
        "draws": draws,
        "prior": PRIOR_NOTE[role],
        "point_length": {
            str(n): int(point[n]) / draws for n in range(K.N_POINT_BINS - 1, -1, -1) if point[n]
        },
        "best_sequence": _fractions(
            {name: by_length.get(name, 0) for name in reversed(SEQUENCE_CLASSES)}, draws
        ),
        "best_sequence_by_top": _fractions(by_top, draws),
        "best_set": _fractions({name: set_class.get(name, 0) for name in SET_CLASSES[::-1]}, draws),
        "best_set_by_rank": _fractions(set_rank, draws),
        "expected_points": expected,
        "want": want_info,
    }
    if rules.carte_rouge:
        result["carte_rouge_eligible"] = int(sums[L.TSUM_CARTE_ROUGE]) / draws
    return result
