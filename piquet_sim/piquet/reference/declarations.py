"""Reference scoring of the declarations of docs/rules/piquet.md, in plain Python (slow, meant to
be obvious).

Written from ``docs/rules/piquet.md`` alone, independently of ``piquet_sim.kernels``; the tests
compare the
two on hand-worked cases and on many random deals. A card here is a pair ``(suit, rank)`` with
suit 0..3 (S H D C) and rank 0 (seven) .. 7 (ace); hands come in and go out as the 32-bit masks
of :mod:`piquet_sim.cards` (bit ``suit * 8 + rank``) and are turned into sets of pairs at once.

Rules implemented (docs/rules/piquet.md, "Declarations", "Order of scoring", "Carte blanche"):

* Point: the suit with most cards; longer wins, then higher pip total; still equal is "equal".
  The winner scores 1 per card of his point.
* Sequences: 3+ cards of a suit consecutive in rank (tierce 3, quart 4, quint 15 .. huitieme 18);
  longer wins, then higher top card, else "equal"; the winner scores every sequence he declares.
* Sets: 3 or 4 cards of one rank among A K Q J 10 (trio 3, quatorze 14); any quatorze beats any
  trio, like sets by rank; the winner scores every set he declares.
* "none": neither player declared anything in the class. "equal": nobody scores it.
* Carte blanche (no K, Q or J dealt): 10, scored first (elder's event before younger's).
* Carte rouge (option): 20, after the sets, to a player each of whose 12 cards lies in a
  combination scoring for him (the point suit he declares, if he wins the point: with two suits
  tied for his point either may be the one declared; his declared sequences if he wins
  sequences; his declared sets if he wins sets). Carte blanche covers no card.
* Repique: 60 to a player whose combinations, counted in the order carte blanche, point,
  sequences, sets, carte rouge, reach 30 while the opponent has scored nothing.

A policy says what a player declares: three masks (point, sequences, sets); he declares the class
from ``hand & mask``; a mask of 0 withholds the class.
"""

from __future__ import annotations

from ..cards import FULL_PACK, PIPS, RANKS, SUITS, CardError, card_index, card_name, format_cards
from ..rules import Rules

PLAYERS = ("elder", "younger")
CLASSES = ("point", "sequence", "sets")

ACE, KING, QUEEN, JACK, TEN = 7, 6, 5, 4, 3
COURT_RANKS = (KING, QUEEN, JACK)
SET_RANKS = (ACE, KING, QUEEN, JACK, TEN)  # nines, eights and sevens never form sets

#: Points of a sequence of a given length.
SEQUENCE_POINTS = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}
SEQUENCE_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixieme", 7: "septieme", 8: "huitieme"}
#: Points of a set by its number of cards.
SET_POINTS = {3: 3, 4: 14}
SET_NAMES = {3: "trio", 4: "quatorze"}
SET_RANK_NAMES = {TEN: "tens", JACK: "jacks", QUEEN: "queens", KING: "kings", ACE: "aces"}

CARTE_BLANCHE = 10
CARTE_ROUGE = 20
REPIQUE = 60
REPIQUE_TARGET = 30

DECLARE_ALL = (FULL_PACK, FULL_PACK, FULL_PACK)


# --------------------------------------------------------------------------- cards and masks


#: (suit, rank) of each card index suit * 8 + rank.
CARD_OF_INDEX = tuple((index // 8, index % 8) for index in range(32))


def cards_of(mask: int) -> frozenset[tuple[int, int]]:
    """The (suit, rank) pairs of a hand mask."""
    mask = int(mask)
    return frozenset(CARD_OF_INDEX[i] for i in range(32) if mask >> i & 1)


def mask_of(cards) -> int:
    """The hand mask of some (suit, rank) pairs."""
    mask = 0
    for suit, rank in cards:
        mask |= 1 << card_index(suit, rank)
    return mask


def names(cards) -> list[str]:
    """Canonical card names, suits S H D C, high rank first."""
    ordered = sorted(cards, key=lambda c: (c[0], -c[1]))
    return [card_name(card_index(s, r)) for s, r in ordered]


def keep(cards, mask: int) -> frozenset[tuple[int, int]]:
    """The cards whose bit is set in ``mask`` (what a player declares from)."""
    if mask & FULL_PACK == FULL_PACK:
        return frozenset(cards)
    return frozenset((s, r) for s, r in cards if mask >> card_index(s, r) & 1)


# --------------------------------------------------------------------------- combinations


def by_suit(cards) -> dict[int, set[int]]:
    """Ranks held in each suit that has any."""
    suits: dict[int, set[int]] = {}
    for suit, rank in cards:
        suits.setdefault(suit, set()).add(rank)
    return suits


def point_options(cards) -> list[dict]:
    """Every suit that is a best point of the hand (several when they tie), as dicts
    {suit, length, pips, cards}; empty when the hand is empty."""
    suits = by_suit(cards)
    # (length, pips) of every suit held
    keys = {suit: (len(ranks), sum(PIPS[rank] for rank in ranks)) for suit, ranks in suits.items()}
    if not keys:
        return []
    best = max(keys.values())
    return [
        {
            "suit": suit,
            "length": best[0],
            "pips": best[1],
            "cards": frozenset((suit, rank) for rank in suits[suit]),
        }
        for suit in sorted(suits)
        if keys[suit] == best
    ]


def sequences(cards) -> list[dict]:
    """Every sequence (maximal run of 3+ consecutive ranks in one suit) as dicts
    {suit, length, top, cards}, in suit order then high to low."""
    found = []
    for suit, ranks in sorted(by_suit(cards).items()):
        rank = 7
        while rank >= 0:
            if rank in ranks:
                top = rank
                while rank - 1 in ranks:
                    rank -= 1
                length = top - rank + 1
                if length >= 3:
                    run = frozenset((suit, r) for r in range(rank, top + 1))
                    found.append({"suit": suit, "length": length, "top": top, "cards": run})
            rank -= 1
    return found


def sets(cards) -> list[dict]:
    """Every trio or quatorze (ranks A K Q J 10 only) as dicts {rank, count, cards}, high
    rank first."""
    of_rank: dict[int, set[tuple[int, int]]] = {}
    for card in cards:
        of_rank.setdefault(card[1], set()).add(card)
    return [
        {"rank": rank, "count": len(of_rank[rank]), "cards": frozenset(of_rank[rank])}
        for rank in SET_RANKS
        if len(of_rank.get(rank, ())) >= 3
    ]


def has_carte_blanche(cards) -> bool:
    """True when the hand holds no king, queen or jack."""
    return not any(rank in COURT_RANKS for _, rank in cards)


def show(cls: str, cards) -> tuple[tuple[int, int] | None, int, list[frozenset]]:
    """What a player shows in one class from the cards he declares it from:
    (comparison key, points if it wins, card groups).

    Keys (larger wins; None: nothing to declare): point (length, pips); sequence (length, top
    rank) of the best one; sets (number of cards, rank) of the best one, so any quatorze beats
    any trio. Points: point 1 a card; every sequence and every set he declares. Card groups:
    for the point the tied best suits (he declares one of them); otherwise every combination.
    """
    if cls == "point":
        options = point_options(cards)
        if not options:
            return None, 0, []
        best = options[0]
        return (best["length"], best["pips"]), best["length"], [o["cards"] for o in options]
    if cls == "sequence":
        seqs = sequences(cards)
        key = max(((q["length"], q["top"]) for q in seqs), default=None)
        return key, sum(SEQUENCE_POINTS[q["length"]] for q in seqs), [q["cards"] for q in seqs]
    found = sets(cards)
    key = max(((t["count"], t["rank"]) for t in found), default=None)
    return key, sum(SET_POINTS[t["count"]] for t in found), [t["cards"] for t in found]


def class_key(cls: str, cards) -> tuple[int, int] | None:
    """The comparison key of one class (see :func:`show`)."""
    return show(cls, cards)[0]


def class_winner(elder_key, younger_key) -> str:
    """'elder', 'younger', 'equal', or 'none' (neither declared anything)."""
    if elder_key is None and younger_key is None:
        return "none"
    if younger_key is None:
        return "elder"
    if elder_key is None:
        return "younger"
    if elder_key > younger_key:
        return "elder"
    if younger_key > elder_key:
        return "younger"
    return "equal"


def covers_whole_hand(hand, won: dict[str, bool], groups: dict[str, list[frozenset]]) -> bool:
    """Carte rouge test: does every card of ``hand`` lie in a combination scoring for him?
    ``groups[cls]`` are the card groups of :func:`show` for what he declared."""
    covered: set[tuple[int, int]] = set()
    for cls in ("sequence", "sets"):
        if won[cls]:
            for combo in groups[cls]:
                covered |= combo
    point_choices = [frozenset()]
    if won["point"]:
        # With two suits tied for his point he may declare either one.
        point_choices = groups["point"]
    return any(covered | choice == set(hand) for choice in point_choices)


def _policy_masks(policy) -> tuple[int, int, int]:
    """(point, sequence, sets) masks of a policy: a 3-tuple or anything with ``*_mask``."""
    if hasattr(policy, "point_mask"):
        return (int(policy.point_mask), int(policy.sequence_mask), int(policy.sets_mask))
    point, sequence, sets_ = policy
    return (int(point), int(sequence), int(sets_))


# --------------------------------------------------------------------------- the deal


def score_deal(
    elder: int,
    younger: int,
    rules: Rules = Rules(),  # noqa: B008  (Rules is frozen)
    elder_policy=DECLARE_ALL,
    younger_policy=DECLARE_ALL,
    elder_carte_blanche: bool | None = None,
    younger_carte_blanche: bool | None = None,
) -> dict:
    """Score both players' declarations (play excluded), points per player.

    Same result as :func:`piquet_sim.declarations.compare_hands`: ``{"elder": {carte_blanche,
    point, sequence, sets, carte_rouge, repique, total}, "younger": {...}, "classes": {point,
    sequence, sets: "elder"|"younger"|"equal"|"none"}, "events": [[player, class, points], ...]}``.
    Carte blanche defaults to each hand's own; pass a bool to force it.
    """
    elder, younger = int(elder), int(younger)
    if elder & younger:
        raise CardError(f"the hands share {format_cards(elder & younger)}")
    hand = {"elder": cards_of(elder), "younger": cards_of(younger)}
    masks = {"elder": _policy_masks(elder_policy), "younger": _policy_masks(younger_policy)}
    # declared[player][cls]: the cards he declares that class from
    declared = {
        p: {cls: keep(hand[p], masks[p][i]) for i, cls in enumerate(CLASSES)} for p in PLAYERS
    }
    carte_blanche = {
        "elder": has_carte_blanche(hand["elder"])
        if elder_carte_blanche is None
        else bool(elder_carte_blanche),
        "younger": has_carte_blanche(hand["younger"])
        if younger_carte_blanche is None
        else bool(younger_carte_blanche),
    }

    shown = {p: {cls: show(cls, declared[p][cls]) for cls in CLASSES} for p in PLAYERS}
    score = {
        p: dict.fromkeys(("carte_blanche", *CLASSES, "carte_rouge", "repique"), 0) for p in PLAYERS
    }
    winners = {}
    for cls in CLASSES:
        winner = class_winner(shown["elder"][cls][0], shown["younger"][cls][0])
        winners[cls] = winner
        if winner in PLAYERS:
            score[winner][cls] = shown[winner][cls][1]

    for p in PLAYERS:
        if carte_blanche[p]:
            score[p]["carte_blanche"] = CARTE_BLANCHE
        won = {cls: winners[cls] == p for cls in CLASSES}
        groups = {cls: shown[p][cls][2] for cls in CLASSES}
        if rules.carte_rouge and covers_whole_hand(hand[p], won, groups):
            score[p]["carte_rouge"] = CARTE_ROUGE

    # Scoring events in the order of docs/rules/piquet.md: carte blanche (elder, younger), point,
    # sequences,
    # sets, carte rouge (elder, younger).
    events = []
    for key in ("carte_blanche", *CLASSES, "carte_rouge"):
        for p in PLAYERS:
            if score[p][key]:
                events.append([p, key, score[p][key]])

    # Repique: walk the events; 30 reached while the opponent still has nothing.
    running = {"elder": 0, "younger": 0}
    for player, _, points in events:
        running[player] += points
        opponent = "younger" if player == "elder" else "elder"
        if running[player] >= REPIQUE_TARGET and running[opponent] == 0:
            score[player]["repique"] = REPIQUE
    for p in PLAYERS:
        if score[p]["repique"]:
            events.append([p, "repique", REPIQUE])

    result: dict = {}
    for p in PLAYERS:
        result[p] = dict(score[p])
        result[p]["total"] = sum(score[p].values())
    result["classes"] = winners
    result["events"] = events
    return result


# --------------------------------------------------------------------------- describing a hand


def describe(hand: int) -> dict:
    """What a hand holds, in the shape of :func:`piquet_sim.declarations.describe_hand`:
    cards, point {suits, length, pips, points}, sequences (best first), best_sequence,
    sequence_points, sets (best first), best_set, set_points, carte_blanche,
    carte_rouge_eligible (its own best point suit, sequences and sets cover all its cards)."""
    cards = cards_of(hand)
    options = point_options(cards)
    seqs = sorted(sequences(cards), key=lambda q: (-q["length"], -q["top"], q["suit"]))
    seq_rows = [
        {
            "name": SEQUENCE_NAMES[q["length"]],
            "suit": SUITS[q["suit"]],
            "length": q["length"],
            "top": RANKS[q["top"]],
            "cards": names(q["cards"]),
            "points": SEQUENCE_POINTS[q["length"]],
        }
        for q in seqs
    ]
    set_list = sorted(sets(cards), key=lambda t: (-t["count"], -t["rank"]))
    set_rows = [
        {
            "name": f"{SET_NAMES[t['count']]} of {SET_RANK_NAMES[t['rank']]}",
            "rank": RANKS[t["rank"]],
            "count": t["count"],
            "cards": names(t["cards"]),
            "points": SET_POINTS[t["count"]],
        }
        for t in set_list
    ]
    length = options[0]["length"] if options else 0
    all_won = dict.fromkeys(CLASSES, True)
    own = {cls: show(cls, cards)[2] for cls in CLASSES}
    return {
        "cards": names(cards),
        "point": {
            "suits": [SUITS[p["suit"]] for p in options],
            "length": length,
            "pips": options[0]["pips"] if options else 0,
            "points": length,
        },
        "sequences": seq_rows,
        "best_sequence": seq_rows[0] if seq_rows else None,
        "sequence_points": sum(q["points"] for q in seq_rows),
        "sets": set_rows,
        "best_set": set_rows[0] if set_rows else None,
        "set_points": sum(t["points"] for t in set_rows),
        "carte_blanche": has_carte_blanche(cards),
        "carte_rouge_eligible": covers_whole_hand(cards, all_won, own),
    }
