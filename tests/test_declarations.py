"""Declarations (docs/rules/piquet.md "Declarations", "Carte blanche", "Order of scoring"):
hand-worked cases, a differential test of the kernels against the plain-Python reference, and
properties.

Every hand-worked case states its expected numbers, worked out by hand in the comment above it,
and checks both ``piquet.reference.score_deal`` and ``piquet.declarations.compare_hands``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet_sim.piquet.cards import FULL_PACK, format_cards, parse_cards
from piquet_sim.piquet.declarations import (
    DECLARE_ALL,
    DeclarationPolicy,
    compare_hands,
    describe_hand,
)
from piquet_sim.piquet.kernels import declarations as K
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels.bundles import make_env
from piquet_sim.piquet.kernels.tables import SUIT_TABLES
from piquet_sim.piquet.reference import declarations as R
from piquet_sim.piquet.reference import describe, score_deal
from piquet_sim.piquet.rules import Rules

PLAYERS = ("elder", "younger")
CLASSES = ("point", "sequence", "sets")
SCORE_KEYS = ("carte_blanche", "point", "sequence", "sets", "carte_rouge", "repique")
ROUGE = Rules(carte_rouge=True)
PLAIN = Rules()


def hand(text: str) -> int:
    return parse_cards(text, 12)


def without(text: str) -> int:
    """A policy mask declaring everything except these cards."""
    return FULL_PACK & ~parse_cards(text)


def expected(classes: str, *events: tuple[str, str, int]) -> dict:
    """The compare dict implied by the class winners ("elder younger equal") and the scoring
    events, written in scoring order."""
    result = {p: dict.fromkeys((*SCORE_KEYS, "total"), 0) for p in PLAYERS}
    for player, key, points in events:
        result[player][key] += points
        result[player]["total"] += points
    result["classes"] = dict(zip(CLASSES, classes.split(), strict=True))
    result["events"] = [list(e) for e in events]
    return result


def check(
    elder,
    younger,
    want,
    rules=PLAIN,
    elder_policy=DECLARE_ALL,
    younger_policy=DECLARE_ALL,
    **carte_blanche,
):
    e, y = hand(elder), hand(younger)
    ref = score_deal(e, y, rules, elder_policy, younger_policy, **carte_blanche)
    api = compare_hands(e, y, rules, elder_policy, younger_policy, **carte_blanche)
    assert ref == want, "reference"
    assert api == want, "kernel"


# --------------------------------------------------------------------------- point

# Elder: S A Q T 8 (4 cards, 11+10+10+8 = 39), H K J 9 7 (36), D K J 9 7 (36); no runs, no sets.
ELDER_4_39 = "AS QS TS 8S KH JH 9H 7H KD JD 9D 7D"


def test_point_equal_length_higher_pips_wins():
    # Younger: S K J 9 7 (4 cards, 36), H Q T 8, D Q T 8, C 9 7: no runs, no sets.
    # Point 4 v 4, 39 pips v 36: elder scores 4. Neither holds a sequence or a set: "none".
    check(
        ELDER_4_39,
        "KS JS 9S 7S QH TH 8H QD TD 8D 9C 7C",
        expected("elder none none", ("elder", "point", 4)),
    )


def test_point_fully_equal_nobody_scores():
    # Younger: H A Q T 8 (4 cards, 39), S K J 9 7, C K J 9 7. Point 4/39 each: equal.
    check(ELDER_4_39, "AH QH TH 8H KS JS 9S 7S KC JC 9C 7C", expected("equal none none"))


def test_longer_point_wins_and_higher_trio_wins():
    # Elder: C K J T 8 7 (5 cards, 45), S A Q 9, H K 9, D A K; trio of kings (C H D).
    # Younger: H A Q T 8 (4, 39), S K J 8 7 (4, 35), D Q T 8, C Q; trio of queens (H C D).
    # No runs of 3 anywhere. Point 5 v 4: elder 5. Trio K beats trio Q: elder 3. Total 8.
    check(
        "KC JC TC 8C 7C AS QS 9S KH 9H AD KD",
        "AH QH TH 8H KS JS 8S 7S QC 8D QD TD",
        expected("elder none elder", ("elder", "point", 5), ("elder", "sets", 3)),
    )


def test_neither_declares_point_is_none():
    # Same hands as the pips case with both players withholding the point: nobody declared it.
    sink = DeclarationPolicy.sink("point")
    check(
        ELDER_4_39,
        "KS JS 9S 7S QH TH 8H QD TD 8D 9C 7C",
        expected("none none none"),
        elder_policy=sink,
        younger_policy=sink,
    )


# ------------------------------------------------------------- the docs/rules/piquet.md example

# Elder: S A K Q J T (quint, 15; point 5 cards 51), H A K 7, D A K 7, C A:
#   quatorze of aces 14 + trio of kings (S H D) 3 = 17.
# Younger: C K Q J 9 8 7 (6 cards, 54 pips), S 9 8 7, H Q J T: tierces only (best to the king),
#   no sets (queens C H, jacks C H).
RULES_ELDER = "AS KS QS JS TS AH KH 7H AD KD 7D AC"
RULES_YOUNGER = "KC QC JC 9C 8C 7C 9S 8S 7S QH JH TH"
RULES_RESULT = expected(
    "younger elder elder", ("younger", "point", 6), ("elder", "sequence", 15), ("elder", "sets", 17)
)


def test_rules_example_point_to_younger_stops_repique():
    # Younger's point (6) scores first, so elder's 15 + 17 = 32 is no repique.
    check(RULES_ELDER, RULES_YOUNGER, RULES_RESULT)


def test_withheld_point_lets_opponent_score_and_repique():
    # Younger sinks his point: elder's 5 scores, then 5 + 15 + 17 = 37 >= 30 with younger on 0.
    check(
        RULES_ELDER,
        RULES_YOUNGER,
        expected(
            "elder elder elder",
            ("elder", "point", 5),
            ("elder", "sequence", 15),
            ("elder", "sets", 17),
            ("elder", "repique", 60),
        ),
        younger_policy=DeclarationPolicy.sink("point"),
    )


@pytest.mark.parametrize("cls", ["sequence", "sets"])
def test_sinking_a_class_the_opponent_wins_anyway_changes_nothing(cls):
    check(RULES_ELDER, RULES_YOUNGER, RULES_RESULT, younger_policy=DeclarationPolicy.sink(cls))


def test_declaring_a_quart_out_of_a_quint():
    # Elder leaves out the ten: A K Q J of spades is a quart (4), still better than a tierce.
    check(
        RULES_ELDER,
        RULES_YOUNGER,
        expected(
            "younger elder elder",
            ("younger", "point", 6),
            ("elder", "sequence", 4),
            ("elder", "sets", 17),
        ),
        elder_policy=DeclarationPolicy(sequence_mask=without("TS")),
    )


# --------------------------------------------------------------------------- sequences, repique

# Elder: S A K Q J T 9 (sixieme 16; point 6 cards, 60), quatorze of aces 14, trio of kings
#   (S H D) 3, and 7C. Younger: H Q J T 9 8 (quint to the queen), D Q J T 9 (quart), C Q J T
#   (tierce), trios of Q J T.
SIX_ELDER = "AS KS QS JS TS 9S AH AD AC KH KD 7C"
SIX_YOUNGER = "QH JH TH 9H 8H QD JD TD 9D QC JC TC"


@pytest.mark.parametrize("rules", [PLAIN, ROUGE], ids=["plain", "carte_rouge"])
def test_longer_sequence_wins_and_repique(rules):
    # Elder: point 6, sixieme 16 (beats a quint), sets 17: 6, 22, 39 -> repique. Total 99.
    # Carte rouge on changes nothing: the 7C lies in no combination.
    check(
        SIX_ELDER,
        SIX_YOUNGER,
        expected(
            "elder elder elder",
            ("elder", "point", 6),
            ("elder", "sequence", 16),
            ("elder", "sets", 17),
            ("elder", "repique", 60),
        ),
        rules=rules,
    )


def test_declaring_a_quint_out_of_a_sixieme_still_wins():
    # Without the 9S elder shows a quint to the ace: beats younger's quint to the queen (higher
    # top card). 6 + 15 + 17 = 38: repique, total 98.
    check(
        SIX_ELDER,
        SIX_YOUNGER,
        expected(
            "elder elder elder",
            ("elder", "point", 6),
            ("elder", "sequence", 15),
            ("elder", "sets", 17),
            ("elder", "repique", 60),
        ),
        elder_policy=DeclarationPolicy(sequence_mask=without("9S")),
    )


def test_declaring_a_quart_loses_sequences_to_a_quint():
    # Without T9 of spades elder shows a quart: younger's quint wins and he scores every
    # sequence he declares, 15 + 4 + 3 = 22, which also stops elder's repique.
    check(
        SIX_ELDER,
        SIX_YOUNGER,
        expected(
            "elder younger elder",
            ("elder", "point", 6),
            ("younger", "sequence", 22),
            ("elder", "sets", 17),
        ),
        elder_policy=DeclarationPolicy(sequence_mask=without("TS 9S")),
    )


def test_equal_sequences_nobody_scores():
    # Elder: S Q J T 7 (tierce to the queen; point 4, 37), D 9 8 7 (tierce), C A Q 8, H K 8.
    # Younger: H A Q J T (tierce to the queen; point 4, 41), S A K 9, D A Q T, C K J; trio aces.
    # Best sequences equal (3 cards to the queen): nobody scores, not even elder's second
    # tierce. Younger: point 4, sets 3.
    check(
        "QS JS TS 7S 9D 8D 7D AC QC 8C KH 8H",
        "AH QH JH TH AS KS 9S AD QD TD KC JC",
        expected("younger equal younger", ("younger", "point", 4), ("younger", "sets", 3)),
    )


def test_equal_stops_no_repique_and_higher_quatorze_wins():
    # Elder: quatorzes of aces and kings (28), D A K 9 8 7 (point 5, 45; tierce to the 9), TS.
    # Younger: quatorze of queens, C Q 9 8 7 (point 4; tierce to the 9), S Q J 9, H Q T 8, D Q T.
    # Sequences equal (tierce to the nine each). Aces beat queens. Elder 5 + 28 = 33 with
    # younger on nothing: repique. Total 93.
    check(
        "AS KS TS AH KH AD KD 9D 8D 7D AC KC",
        "QS JS 9S QH TH 8H QD TD QC 9C 8C 7C",
        expected(
            "elder equal elder",
            ("elder", "point", 5),
            ("elder", "sets", 28),
            ("elder", "repique", 60),
        ),
    )


# --------------------------------------------------------------------------- sets

# Elder: quatorze of tens, S K T 8 7 and H K T 8 7 (point 4, 35 each), D T 7, C T 7.
# Younger: trio of aces (S H D), D A K 9 8 (point 4, 38), S A Q 9, H A Q 9, C K J. No runs of 3.
TENS_ELDER = "TS 8S 7S KS TH 8H 7H KH TD 7D TC 7C"
TENS_YOUNGER = "AS QS 9S AH QH 9H AD KD 9D 8D KC JC"


def test_any_quatorze_beats_any_trio():
    # Quatorze of tens beats trio of aces: elder 14. Younger's point 38 v 35: 4.
    check(
        TENS_ELDER,
        TENS_YOUNGER,
        expected("younger none elder", ("younger", "point", 4), ("elder", "sets", 14)),
    )


def test_declaring_a_trio_out_of_a_quatorze():
    # Elder shows only three tens: trio of aces beats trio of tens, younger scores 3.
    check(
        TENS_ELDER,
        TENS_YOUNGER,
        expected("younger none younger", ("younger", "point", 4), ("younger", "sets", 3)),
        elder_policy=DeclarationPolicy(sets_mask=without("TC")),
    )


# --------------------------------------------------------------------------- carte blanche

# Younger: no K Q J. Quatorze of aces (14), H A T 9 8 7 and D A T 9 8 7 (point 5, 45, two suits;
#   quarts to the ten, 4 + 4). Elder: quatorzes of K and Q, trio of J, tierces K Q J (3 suits),
#   point 3.
CB_ELDER = "KS QS 9S KH QH JH KD QD JD KC QC JC"
CB_YOUNGER = "AS AH AD AC TH 9H 8H 7H TD 9D 8D 7D"


def test_carte_blanche_counts_toward_repique():
    # Younger: 10 + 5 + 8 + 14 = 37, reaching 30 at the sets with elder on 0: repique. 97.
    check(
        CB_ELDER,
        CB_YOUNGER,
        expected(
            "younger younger younger",
            ("younger", "carte_blanche", 10),
            ("younger", "point", 5),
            ("younger", "sequence", 8),
            ("younger", "sets", 14),
            ("younger", "repique", 60),
        ),
    )


def test_without_carte_blanche_no_repique():
    # Forced off: 5 + 8 + 14 = 27, short of 30.
    check(
        CB_ELDER,
        CB_YOUNGER,
        expected(
            "younger younger younger",
            ("younger", "point", 5),
            ("younger", "sequence", 8),
            ("younger", "sets", 14),
        ),
        younger_carte_blanche=False,
    )


def test_both_carte_blanche_elder_first_and_no_repique():
    # Elder's carte blanche forced on: it is scored first (elder's event before younger's) and
    # stops younger's repique: younger 10 + 27 = 37, elder 10.
    check(
        CB_ELDER,
        CB_YOUNGER,
        expected(
            "younger younger younger",
            ("elder", "carte_blanche", 10),
            ("younger", "carte_blanche", 10),
            ("younger", "point", 5),
            ("younger", "sequence", 8),
            ("younger", "sets", 14),
        ),
        elder_carte_blanche=True,
    )


# Elder: no K Q J: quarts T 9 8 7 in H D C, trio of tens; point 4. Younger: S A K Q J T 9 8
# (septieme 17; point 7, 68), quatorze of aces 14, trio of kings (S H D) 3.
BLANK_ELDER = "TH 9H 8H 7H TD 9D 8D 7D TC 9C 8C 7C"
BLANK_YOUNGER = "AS KS QS JS TS 9S 8S AH AD AC KH KD"


def test_carte_blanche_stops_opponents_repique():
    # Younger 7 + 17 + 17 = 41 but elder scored 10 first: no repique.
    check(
        BLANK_ELDER,
        BLANK_YOUNGER,
        expected(
            "younger younger younger",
            ("elder", "carte_blanche", 10),
            ("younger", "point", 7),
            ("younger", "sequence", 17),
            ("younger", "sets", 17),
        ),
    )


def test_carte_blanche_stops_repique_even_with_carte_rouge():
    # Every younger card lies in a scoring combination (spades: point and septieme; AH AD AC:
    # aces; KH KD: kings): carte rouge 20, younger 61, still no repique.
    check(
        BLANK_ELDER,
        BLANK_YOUNGER,
        expected(
            "younger younger younger",
            ("elder", "carte_blanche", 10),
            ("younger", "point", 7),
            ("younger", "sequence", 17),
            ("younger", "sets", 17),
            ("younger", "carte_rouge", 20),
        ),
        rules=ROUGE,
    )


def test_repique_without_the_carte_blanche():
    # Elder's carte blanche forced off: younger 41 with elder on 0: repique, 101.
    check(
        BLANK_ELDER,
        BLANK_YOUNGER,
        expected(
            "younger younger younger",
            ("younger", "point", 7),
            ("younger", "sequence", 17),
            ("younger", "sets", 17),
            ("younger", "repique", 60),
        ),
        elder_carte_blanche=False,
    )


# --------------------------------------------------------------------------- carte rouge

# Elder all in combinations: S A K Q J T 9 (point 6, sixieme), quatorzes of aces and kings.
ROUGE_ELDER = "AS KS QS JS TS 9S AH AD AC KH KD KC"


@pytest.mark.parametrize(
    ("rules", "rouge"),
    [(PLAIN, ()), (ROUGE, (("elder", "carte_rouge", 20),))],
    ids=["off", "on"],
)
def test_carte_rouge_on_and_off(rules, rouge):
    # Point 6, sixieme 16, sets 28 (= 50, repique), carte rouge 20 only with the option.
    check(
        ROUGE_ELDER,
        SIX_YOUNGER,
        expected(
            "elder elder elder",
            ("elder", "point", 6),
            ("elder", "sequence", 16),
            ("elder", "sets", 28),
            *rouge,
            ("elder", "repique", 60),
        ),
        rules=rules,
    )


# Elder: S A T 9 8 (38) and H A K Q 7 (38) tie for the point; tierces T 9 8 (S) and A K Q (H);
#   quatorze of aces, trio of kings (H D C). The 7H is covered only if the point declared is
#   hearts, the second of the tied suits. Younger: S K Q J 7 (4, 37; tierce to the king),
#   H J T 8, D Q J 9, C Q T: trios of queens and jacks.
TIE_ELDER = "AS TS 9S 8S AH KH QH 7H AD KD AC KC"
TIE_YOUNGER = "KS QS JS 7S JH TH 8H QD JD 9D QC TC"


def test_carte_rouge_through_either_tied_point_suit_and_repique():
    # Elder: point 4, sequences 3 + 3, sets 14 + 3 = 27; carte rouge 20 takes him to 47 with
    # younger on nothing: repique (carte rouge counts toward it). Total 107.
    check(
        TIE_ELDER,
        TIE_YOUNGER,
        expected(
            "elder elder elder",
            ("elder", "point", 4),
            ("elder", "sequence", 6),
            ("elder", "sets", 17),
            ("elder", "carte_rouge", 20),
            ("elder", "repique", 60),
        ),
        rules=ROUGE,
    )


def test_no_carte_rouge_without_the_option():
    check(
        TIE_ELDER,
        TIE_YOUNGER,
        expected(
            "elder elder elder",
            ("elder", "point", 4),
            ("elder", "sequence", 6),
            ("elder", "sets", 17),
        ),
    )


def test_sunk_point_loses_carte_rouge():
    # Elder withholds the point: younger's 4 cards score, and the 7H is in no scoring combination.
    check(
        TIE_ELDER,
        TIE_YOUNGER,
        expected(
            "younger elder elder",
            ("younger", "point", 4),
            ("elder", "sequence", 6),
            ("elder", "sets", 17),
        ),
        rules=ROUGE,
        elder_policy=DeclarationPolicy.sink("point"),
    )


def test_carte_rouge_of_carte_blanche_hand_counts_toward_repique():
    # CB hands with carte rouge: younger's aces (sets) and T987 of H and D (quarts) cover all
    # 12 cards. Forced no carte blanche: 27 + carte rouge 20 = 47: repique, 107.
    check(
        CB_ELDER,
        CB_YOUNGER,
        expected(
            "younger younger younger",
            ("younger", "point", 5),
            ("younger", "sequence", 8),
            ("younger", "sets", 14),
            ("younger", "carte_rouge", 20),
            ("younger", "repique", 60),
        ),
        rules=ROUGE,
        younger_carte_blanche=False,
    )


def test_withholding_everything_is_none_everywhere():
    sink = DeclarationPolicy.sink(*CLASSES)
    check(
        RULES_ELDER,
        RULES_YOUNGER,
        expected("none none none"),
        rules=ROUGE,
        elder_policy=sink,
        younger_policy=sink,
    )


def test_overlapping_hands_are_refused():
    from piquet_sim.piquet.cards import CardError

    with pytest.raises(CardError, match="share AS"):
        score_deal(hand(RULES_ELDER), hand("AS QC JC 9C 8C 7C 9S 8S 7S QH JH TH"))
    with pytest.raises(CardError, match="share AS"):
        compare_hands(hand(RULES_ELDER), hand("AS QC JC 9C 8C 7C 9S 8S 7S QH JH TH"))


# --------------------------------------------------------------------------- describing a hand


def test_describe_tied_point_suits_and_carte_rouge_eligible():
    info = describe(hand(TIE_ELDER))
    assert info["point"] == {"suits": ["S", "H"], "length": 4, "pips": 38, "points": 4}
    assert [(q["name"], q["suit"], q["top"]) for q in info["sequences"]] == [
        ("tierce", "H", "A"),
        ("tierce", "S", "T"),
    ]
    assert info["sequence_points"] == 6
    assert [s["name"] for s in info["sets"]] == ["quatorze of aces", "trio of kings"]
    assert info["best_set"]["cards"] == ["AS", "AH", "AD", "AC"]
    assert info["set_points"] == 17
    assert info["carte_rouge_eligible"] is True
    assert info["carte_blanche"] is False
    assert info == describe_hand(hand(TIE_ELDER))


@pytest.mark.parametrize(
    ("text", "seq_points", "set_points", "blanche", "rouge"),
    [
        ("AS KS QS JS TS 9S 8S 7S AH KH QH JH", 18 + 4, 0, False, True),  # huitieme + quart
        (SIX_ELDER, 16, 17, False, False),  # the 7C lies in nothing
        (ROUGE_ELDER, 16, 28, False, True),
        (BLANK_ELDER, 12, 3, True, True),  # three quarts cover everything
        (ELDER_4_39, 0, 0, False, False),
    ],
)
def test_describe_matches_describe_hand(text, seq_points, set_points, blanche, rouge):
    info = describe(hand(text))
    assert info["sequence_points"] == seq_points
    assert info["set_points"] == set_points
    assert info["carte_blanche"] is blanche
    assert info["carte_rouge_eligible"] is rouge
    assert info == describe_hand(hand(text))


# --------------------------------------------------------------------------- differential test

COURTS = 0x70707070  # J Q K of every suit (bits 4, 5, 6 of each suit byte)


def _random_deals(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    order = rng.random((n, 32)).argsort(axis=1)
    bits = np.left_shift(np.int64(1), order.astype(np.int64))
    return bits[:, :12].sum(axis=1), bits[:, 12:24].sum(axis=1)


def _combination_hand(rnd: random.Random, blank: bool) -> int:
    """A hand built from random runs, quatorzes and trios, topped up from one suit, so that
    carte rouge and repique come often; ``blank``: no K Q J (carte blanche)."""
    allowed = [r for r in range(8) if not (blank and r in (4, 5, 6))]
    cards: set[tuple[int, int]] = set()
    for _ in range(30):
        if len(cards) == 12:
            break
        kind = rnd.randrange(3)
        if kind == 0:
            suit, length = rnd.randrange(4), rnd.randint(3, 8)
            top = rnd.randint(length - 1, 7)
            combo = {(suit, r) for r in range(top - length + 1, top + 1)}
        else:
            rank = rnd.choice([3, 4, 5, 6, 7])
            suits = range(4) if kind == 1 else rnd.sample(range(4), 3)
            combo = {(s, rank) for s in suits}
        if all(r in allowed for _, r in combo) and len(cards | combo) <= 12:
            cards |= combo
    long_suit = rnd.randrange(4)
    pool = [(s, r) for s in range(4) for r in allowed if (s, r) not in cards]
    rnd.shuffle(pool)
    pool.sort(key=lambda c: c[0] != long_suit)
    cards.update(pool[: 12 - len(cards)])
    return R.mask_of(cards)


def _targeted_deals(rnd: random.Random, n: int) -> tuple[np.ndarray, np.ndarray]:
    elders, youngers = np.zeros(n, np.int64), np.zeros(n, np.int64)
    for i in range(n):
        strong = _combination_hand(rnd, blank=rnd.random() < 0.2)
        rest = [c for c in range(32) if not strong >> c & 1]
        other = sum(1 << c for c in rnd.sample(rest, 12))
        elders[i], youngers[i] = (strong, other) if i % 2 else (other, strong)
    return elders, youngers


def _policies(rng: np.random.Generator, hands: np.ndarray, fraction: float) -> np.ndarray:
    """Policy masks (n, 3): FULL for most deals; on ``fraction`` of them each class is withheld
    (30%), declared without one to three of the hand's cards (40%), declared from a random
    32-bit mask (15%) or declared in full."""
    n = hands.shape[0]
    bits = np.left_shift(np.int64(1), np.arange(32, dtype=np.int64))
    in_hand = (hands[:, None, None] & bits) != 0  # (n, 1, 32)
    keys = np.where(in_hand, rng.random((n, 3, 32)), 2.0)
    k = rng.integers(1, 4, (n, 3, 1))
    threshold = np.take_along_axis(np.sort(keys, axis=2), k - 1, axis=2)
    dropped = ((keys <= threshold) & in_hand) @ bits  # (n, 3): the k cards left out
    u = rng.random((n, 3))
    random_masks = rng.integers(0, 1 << 32, (n, 3), dtype=np.int64)
    masks = np.select(
        [u < 0.3, u < 0.7, u < 0.85], [0, FULL_PACK & ~dropped, random_masks], FULL_PACK
    ).astype(np.int64)
    chosen = rng.random(n) < fraction
    return np.where(chosen[:, None], masks, np.int64(FULL_PACK))


WIN_CODE = {
    "none": L.WIN_NONE,
    "elder": L.WIN_ELDER,
    "younger": L.WIN_YOUNGER,
    "equal": L.WIN_EQUAL,
}
P_INDEX = {
    "carte_blanche": L.DP_CARTE_BLANCHE,
    "point": L.DP_POINT,
    "sequence": L.DP_SEQUENCE,
    "sets": L.DP_SETS,
    "carte_rouge": L.DP_CARTE_ROUGE,
    "repique": L.DP_REPIQUE,
}
D_BASE = {"elder": L.DECL_ELDER, "younger": L.DECL_YOUNGER}
D_WIN = {"point": L.DECL_WIN_POINT, "sequence": L.DECL_WIN_SEQUENCE, "sets": L.DECL_WIN_SETS}


def _as_record(result: dict) -> list[int]:
    row = [0] * L.DECL_LEN
    for p in PLAYERS:
        for key, index in P_INDEX.items():
            row[D_BASE[p] + index] = result[p][key]
    for cls, index in D_WIN.items():
        row[index] = WIN_CODE[result["classes"][cls]]
    return row


class Coverage:
    """Counts of the rule paths the differential deals exercised (from the reference)."""

    def __init__(self):
        self.counts: dict[str, int] = {}

    def add(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1

    def record(self, r: dict) -> None:
        for cls in CLASSES:
            self.add(f"{cls}:{r['classes'][cls]}")
        for p in PLAYERS:
            o = "younger" if p == "elder" else "elder"
            s = r[p]
            combos = s["total"] - s["repique"]
            for key in SCORE_KEYS:
                if s[key]:
                    self.add(f"{p}:{key}")
            if s["repique"] and combos - s["carte_blanche"] < 30:
                self.add("repique reached through carte blanche")
            if s["repique"] and combos - s["carte_rouge"] < 30:
                self.add("repique reached through carte rouge")
            if combos - s["carte_blanche"] >= 30 and r[o]["total"] == r[o]["carte_blanche"] > 0:
                self.add("repique stopped by carte blanche")
            if not s["repique"] and combos >= 30 and r[o]["total"] > 0:
                self.add("30 reached after the opponent scored")


def _differential(elders, youngers, rules, rng, sink_fraction, forced_fraction, coverage):
    n = elders.shape[0]
    e_masks = _policies(rng, elders, sink_fraction)
    y_masks = _policies(rng, youngers, sink_fraction)
    natural_e = (elders & COURTS) == 0
    natural_y = (youngers & COURTS) == 0
    forced = rng.random(n) < forced_fraction
    e_cb = np.where(forced, rng.random(n) < 0.5, natural_e).astype(np.int8)
    y_cb = np.where(forced, rng.random(n) < 0.5, natural_y).astype(np.int8)
    out = K.score_declarations_batch(
        elders, youngers, e_cb, y_cb, e_masks, y_masks, make_env(rules.to_array())
    )
    expected_rows = np.zeros_like(out)
    for i in range(n):
        r = score_deal(
            int(elders[i]),
            int(youngers[i]),
            rules,
            tuple(e_masks[i]),
            tuple(y_masks[i]),
            bool(e_cb[i]) if forced[i] else None,
            bool(y_cb[i]) if forced[i] else None,
        )
        expected_rows[i] = _as_record(r)
        coverage.record(r)
    bad = np.flatnonzero((out != expected_rows).any(axis=1))
    if bad.size:
        i = int(bad[0])
        pytest.fail(
            f"{bad.size} of {n} deals differ ({rules}); first: elder {format_cards(elders[i])} "
            f"younger {format_cards(youngers[i])} masks {e_masks[i].tolist()} "
            f"{y_masks[i].tolist()} cb {e_cb[i]} {y_cb[i]}\nkernel    {out[i].tolist()}\n"
            f"reference {expected_rows[i].tolist()}"
        )
    return n


def test_kernel_matches_reference_on_random_and_targeted_deals():
    rng = np.random.default_rng(20240611)
    rnd = random.Random(20240611)
    coverage = Coverage()
    total = 0
    for rules in (PLAIN, ROUGE):
        elders, youngers = _random_deals(rng, 50_000)
        total += _differential(elders, youngers, rules, rng, 0.25, 0.05, coverage)
    for rules in (ROUGE, PLAIN):
        elders, youngers = _targeted_deals(rnd, 5_000)
        total += _differential(elders, youngers, rules, rng, 0.15, 0.1, coverage)
    assert total >= 110_000
    c = coverage.counts
    for cls in CLASSES:
        for winner in ("none", "elder", "younger") + (("equal",) if cls != "sets" else ()):
            assert c.get(f"{cls}:{winner}", 0) >= 20, (cls, winner, c)
    # docs/rules/piquet.md: "No equal is possible" for sets (the two hands cannot share a rank's
    # cards).
    assert c.get("sets:equal", 0) == 0
    for p in PLAYERS:
        for key in SCORE_KEYS:
            assert c.get(f"{p}:{key}", 0) >= 100, (p, key, c)
    for path in (
        "repique reached through carte blanche",
        "repique reached through carte rouge",
        "repique stopped by carte blanche",
        "30 reached after the opponent scored",
    ):
        assert c.get(path, 0) >= 10, (path, c)


def test_api_matches_reference_with_events():
    """compare_hands (events included) against the reference on deals where much happens."""
    rnd = random.Random(7)
    elders, youngers = _targeted_deals(rnd, 1_500)
    for i in range(elders.shape[0]):
        e, y = int(elders[i]), int(youngers[i])
        for rules in (PLAIN, ROUGE):
            assert compare_hands(e, y, rules) == score_deal(e, y, rules)
        assert describe_hand(e) == describe(e)


# --------------------------------------------------------------------------- properties

_mask = st.one_of(st.just(FULL_PACK), st.just(0), st.integers(0, FULL_PACK))
_policy = st.tuples(_mask, _mask, _mask)
_deal = st.permutations(range(32)).map(
    lambda p: (sum(1 << c for c in p[:12]), sum(1 << c for c in p[12:24]))
)
_forced = st.one_of(st.none(), st.booleans())
_rules = st.sampled_from([PLAIN, ROUGE])


def _both(e, y, rules, pe, py, ce, cy):
    ref = score_deal(e, y, rules, pe, py, ce, cy)
    api = compare_hands(e, y, rules, DeclarationPolicy(*pe), DeclarationPolicy(*py), ce, cy)
    return ref, api


_SWAP = {"elder": "younger", "younger": "elder", "equal": "equal", "none": "none"}
_ORDER = {k: i for i, k in enumerate(SCORE_KEYS)}


def _mirror(r: dict) -> dict:
    events = sorted(
        ([_SWAP[p], k, v] for p, k, v in r["events"]),
        key=lambda e: (_ORDER[e[1]], PLAYERS.index(e[0])),
    )
    return {
        "elder": r["younger"],
        "younger": r["elder"],
        "classes": {cls: _SWAP[w] for cls, w in r["classes"].items()},
        "events": events,
    }


@settings(max_examples=300, deadline=None)
@given(_deal, _policy, _policy, _forced, _forced, _rules)
def test_swapping_elder_and_younger_swaps_the_result(deal, pe, py, ce, cy, rules):
    e, y = deal
    for straight, swapped in zip(
        _both(e, y, rules, pe, py, ce, cy), _both(y, e, rules, py, pe, cy, ce), strict=True
    ):
        assert _mirror(swapped) == straight


@settings(max_examples=300, deadline=None)
@given(_deal, _policy, _policy, _forced, _forced, _rules)
def test_scores_are_never_negative_and_add_up(deal, pe, py, ce, cy, rules):
    for r in _both(*deal, rules, pe, py, ce, cy):
        for p in PLAYERS:
            assert all(r[p][k] >= 0 for k in SCORE_KEYS)
            assert r[p]["total"] == sum(r[p][k] for k in SCORE_KEYS)
            for cls in CLASSES:
                assert (r[p][cls] > 0) == (r["classes"][cls] == p)
        assert not (r["elder"]["repique"] and r["younger"]["repique"])


@settings(max_examples=300, deadline=None)
@given(_deal, _policy, _policy, _forced, _forced, _rules, st.sampled_from(range(3)))
def test_a_withheld_class_never_scores_for_its_holder(deal, pe, py, ce, cy, rules, j):
    pe = tuple(0 if i == j else m for i, m in enumerate(pe))
    for r in _both(*deal, rules, pe, py, ce, cy):
        assert r["elder"][CLASSES[j]] == 0
        assert r["classes"][CLASSES[j]] != "elder"


_KERNEL_KEY = {
    "point": lambda h: int(K.point_key(np.int64(h), SUIT_TABLES)),
    "sequence": lambda h: int(K.sequence_key(np.int64(h), SUIT_TABLES)),
    "sets": lambda h: int(K.set_key(np.int64(h), SUIT_TABLES)),
}


def _ref_key(cls: str, mask: int):
    key = R.class_key(cls, R.cards_of(mask))
    return (0, 0) if key is None else key


@settings(max_examples=300, deadline=None)
@given(_deal, _mask, st.integers(0, FULL_PACK))
def test_declaring_from_a_sub_mask_never_increases_the_class_key(deal, mask, sub):
    h = deal[0]
    for cls in CLASSES:
        assert _ref_key(cls, h & mask & sub) <= _ref_key(cls, h & mask)
        assert _KERNEL_KEY[cls](h & mask & sub) <= _KERNEL_KEY[cls](h & mask)


def test_one_pass_keys_match_the_single_keys():
    """``declaration_keys`` (one ``T_DECL`` lookup per suit) and the branch-free
    ``set_key_score`` give the values of the one-class functions, on every holding and on
    random hands."""
    tables = SUIT_TABLES
    rnd = random.Random(19)
    hands = [h << (8 * s) for h in range(256) for s in range(4)]
    hands += [sum(1 << c for c in rnd.sample(range(32), rnd.randint(0, 14))) for _ in range(3000)]
    for hand in hands:
        hand = np.int64(hand)
        pk, qk, qs = K.declaration_keys(hand, tables)
        assert (pk, qk, qs) == (
            K.point_key(hand, tables),
            K.sequence_key(hand, tables),
            K.sequence_score(hand, tables),
        )
        assert K.set_key_score(hand) == (K.set_key(hand, tables), K.set_score(hand, tables))


def test_beats_is_the_mask_of_the_comparison():
    """``_beats``, the mask the branch-free scoring keeps a class's points with, is -1 exactly
    when the first key is the larger, over the keys' whole range (point keys reach 12 * 128 +
    pips; 0 = nothing declared) and in either integer width the callers pass."""
    keys = [0, 1, 2, 7, 8, 9, 15, 127, 128, 600, 1407, 1408, 2047, 2**31 - 1]
    for a in keys:
        for b in keys:
            assert K._beats(np.int64(a), np.int64(b)) == -int(a > b)
            assert K._beats(np.int32(a), np.int32(b)) == -int(a > b)


def test_keys_from_the_two_suit_table_match_the_one_suit_keys():
    """``declaration_keys_of_pairs`` (``DECL_PAIRS``: two suits a load) gives
    ``declaration_keys``'s (point key, sequence key, sequence points) on every pair of
    holdings in suits 0-1 (each as its own hand, and beside a fixed pair in suits 2-3) and on
    random hands; a hand-worked case: two sequences in two suits add up."""
    from piquet_sim.piquet.kernels.tables import DECL_PAIRS

    tables = SUIT_TABLES
    rng = np.random.default_rng(11)
    hands = np.concatenate(
        [
            np.arange(1 << 16, dtype=np.int64),
            np.arange(1 << 16, dtype=np.int64) | (0xB5 << 16) | (0x3C << 24),
            _random_deals(rng, 20_000)[0],
        ]
    )
    for h in hands:
        h = np.int64(h)
        assert K.declaration_keys_of_pairs(h, DECL_PAIRS) == K.declaration_keys(h, tables), h
    # a quint to the ace of spades (15) and a tierce to the king of hearts (3); the point is
    # the spades (5 cards, 11 + 10 + 10 + 10 + 10 = 51 pips): 5 * 128 + 51
    both = np.int64(hand("AS KS QS JS TS KH QH JH 7D 7C 8C 9D"))
    assert K.declaration_keys_of_pairs(both, DECL_PAIRS) == (5 * 128 + 51, 5 * 8 + 7, 18)


def test_lean_totals_and_carte_rouge_filter_match_the_general_scoring():
    """``declaration_totals`` (the random-deal loop's scoring: everyone declares everything,
    carte rouge off) gives each player's total and repique of ``score_declarations_batch``; and
    ``may_carte_rouge`` (the loop's test for taking the general scoring under carte rouge) is
    True for every hand that scores carte rouge, while a deal where it is False for both hands
    scores the same with the rule on and off. Random and targeted deals (carte rouge, repique
    and carte blanche often)."""
    rng = np.random.default_rng(5)
    rnd = random.Random(5)
    e1, y1 = _random_deals(rng, 20_000)
    e2, y2 = _targeted_deals(rnd, 5_000)
    elders, youngers = np.concatenate([e1, e2]), np.concatenate([y1, y2])
    n = elders.shape[0]
    full = np.full((n, 3), FULL_PACK, dtype=np.int64)
    cb_e = ((elders & COURTS) == 0).astype(np.int8)
    cb_y = ((youngers & COURTS) == 0).astype(np.int8)
    plain, rouge = (
        K.score_declarations_batch(
            elders, youngers, cb_e, cb_y, full, full, make_env(rules.to_array())
        )
        for rules in (PLAIN, ROUGE)
    )
    tables = SUIT_TABLES
    e_block = slice(L.DECL_ELDER, L.DECL_ELDER + L.DP_BLOCK)
    y_block = slice(L.DECL_YOUNGER, L.DECL_YOUNGER + L.DP_BLOCK)
    repiques = rouges = filtered = 0
    for i in range(n):
        e, y = np.int64(elders[i]), np.int64(youngers[i])
        te, ty, e_rep, y_rep = K.declaration_totals(e, y, tables)
        assert (te, ty) == (plain[i, e_block].sum(), plain[i, y_block].sum()), i
        assert e_rep == (plain[i, L.DECL_ELDER + L.DP_REPIQUE] > 0), i
        assert y_rep == (plain[i, L.DECL_YOUNGER + L.DP_REPIQUE] > 0), i
        repiques += e_rep + y_rep
        may_e, may_y = K.may_carte_rouge(e, tables), K.may_carte_rouge(y, tables)
        assert may_e or rouge[i, L.DECL_ELDER + L.DP_CARTE_ROUGE] == 0, i
        assert may_y or rouge[i, L.DECL_YOUNGER + L.DP_CARTE_ROUGE] == 0, i
        rouges += (rouge[i, L.DECL_ELDER + L.DP_CARTE_ROUGE] > 0) + (
            rouge[i, L.DECL_YOUNGER + L.DP_CARTE_ROUGE] > 0
        )
        if not (may_e or may_y):
            np.testing.assert_array_equal(rouge[i], plain[i])
        filtered += i < 20_000 and (may_e or may_y)
    assert repiques >= 100 and rouges >= 100, (repiques, rouges)
    # the filter lets few random deals through to the general scoring
    assert filtered < 0.05 * 20_000, filtered
    # hand-worked: a quart in spades, four kings, a tierce in hearts, and AD 9D loose: the
    # loose cards lie in one suit, which may be the point ...
    assert K.may_carte_rouge(np.int64(hand("AS KS QS JS KH KD KC 7H 8H 9H AD 9D")), tables)
    # ... a sixieme in spades, a tierce in hearts and 7D 8C 9H loose in three suits: never
    assert not K.may_carte_rouge(np.int64(hand("AS KS QS JS TS 9S AH KH QH 7D 8C 9H")), tables)
