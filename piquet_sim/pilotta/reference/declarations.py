"""Declarations written from the rules: list every combination of a hand, compare, score."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import NATURAL

FOUR_VALUES = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}


@dataclass(frozen=True)
class Combination:
    kind: str  # "sequence" or "four"
    value: int  # card-point units
    length: int  # cards in a sequence (4 for a four)
    top: int  # natural rank index of the top card (the rank of a four)
    suit: int  # -1 for a four
    in_trumps: bool

    def sort_key(self) -> tuple:
        """Higher is better: value, four before sequence, longer, higher top card in the
        natural order (fours of equal value: A > K > Q > 10), in trumps."""
        return (self.value, self.kind == "four", self.length, self.top, self.in_trumps)


def combinations(hand: int, trump: int) -> list[Combination]:
    """Every sequence (maximal run of 3+ consecutive cards of a suit) and four of a kind."""
    out = []
    for s in range(4):
        run = 0
        for r in range(9):
            if r < 8 and hand >> (8 * s + r) & 1:
                run += 1
                continue
            if run >= 3:
                value = {3: 20, 4: 50}.get(run, 100)
                out.append(Combination("sequence", value, run, r - 1, s, s == trump))
            run = 0
    for r, ch in enumerate(NATURAL):
        if ch in FOUR_VALUES and all(hand >> (8 * s + r) & 1 for s in range(4)):
            out.append(Combination("four", FOUR_VALUES[ch], 4, r, -1, False))
    return out


def declared(hand: int, trump: int, policy: str = "all") -> list[Combination]:
    """The combinations a player announces: all, or under ``no-tierce`` all but the sequences
    of exactly three cards."""
    combos = combinations(hand, trump)
    if policy == "no-tierce":
        combos = [c for c in combos if not (c.kind == "sequence" and c.length == 3)]
    return combos


def has_pilotta(hand: int, trump: int) -> bool:
    """K and Q of trumps in the hand."""
    return bool(hand >> (8 * trump + 6) & 1 and hand >> (8 * trump + 5) & 1)


@dataclass
class Comparison:
    team: int  # 0 NS, 1 EW, -1 nobody
    seat: int  # seat of the winning (first) best combination, -1 none
    points: tuple[int, int]  # combination points scored by NS and EW (card-point units)
    pilotta_seat: int


def compare(
    hands: list[int],
    trump: int,
    first_leader: int,
    nobody_on_tie: bool,
    policies: tuple[str, str] = ("all", "all"),
) -> Comparison:
    """Which team scores its combinations, and how much each team scores; ``policies``: the
    declaration policy of NS and of EW (only declared combinations count)."""
    combos = [declared(h, trump, policies[p % 2]) for p, h in enumerate(hands)]
    best = [max((c.sort_key() for c in cs), default=None) for cs in combos]
    present = [b for b in best if b is not None]
    pil = next((p for p in range(4) if has_pilotta(hands[p], trump)), -1)
    if not present:
        return Comparison(-1, -1, (0, 0), pil)
    top = max(present)
    order = [(first_leader + i) % 4 for i in range(4)]
    seat = next(p for p in order if best[p] == top)
    team = seat % 2
    if nobody_on_tie and any(best[p] == top and p % 2 != team for p in range(4)):
        team = -1
    pts = [0, 0]
    if team >= 0:
        pts[team] = sum(c.value for p in (team, team + 2) for c in combos[p])
    return Comparison(team, seat, (pts[0], pts[1]), pil)
