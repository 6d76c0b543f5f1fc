"""Round scoring written from the rules (steps 1 to 5) and the game to 351."""

from __future__ import annotations

from dataclasses import dataclass

CAPOT = 250
BID_CAPOT = 250


@dataclass
class RoundScore:
    card: tuple[int, int]  # step 1, per team (250 / 0 for a capot)
    capot_team: int
    made: bool
    final: tuple[int, int]  # after a failed contract gave everything away
    card_gp: tuple[int, int]
    bid_gp: tuple[int, int]
    comb_gp: tuple[int, int]
    pilotta_gp: tuple[int, int]

    @property
    def total(self) -> tuple[int, int]:
        return tuple(
            self.card_gp[t] + self.bid_gp[t] + self.comb_gp[t] + self.pilotta_gp[t] for t in (0, 1)
        )


def game_points(a: int, b: int) -> tuple[int, int]:
    """Last digit dropped; the point lost by rounding goes to the larger dropped digit, then to
    the team with more points."""
    ga, gb = a // 10, b // 10
    if ga + gb < (a + b) // 10:
        if a % 10 > b % 10 or (a % 10 == b % 10 and a >= b):
            ga += 1
        else:
            gb += 1
    return ga, gb


def score_round(
    points: tuple[int, int],
    tricks: tuple[int, int],
    contracting_team: int,
    bid: int,
    combos: tuple[int, int],
    pilotta_team: int,
    cards_only: bool = False,
    failed_loses_declarations: bool = True,
    capot_points: int = CAPOT,
) -> RoundScore:
    """Score a round. ``points``: card points taken in play per team (last trick included);
    ``tricks`` per team; ``bid``: 80..160 or 250 for the capot; ``combos``: combination points
    each team scores after the comparison; ``pilotta_team``: -1 when nobody holds it;
    ``capot_points``: a capot's step-1 points (250, or 252)."""
    c, d = contracting_team, 1 - contracting_team
    card = list(points)
    capot_team = -1
    for t in (0, 1):
        if tricks[t] == 8:
            capot_team = t
            card[t], card[1 - t] = capot_points, 0
    if bid == BID_CAPOT:
        made = tricks[c] == 8
    else:
        counted = card[c]
        if not cards_only:
            counted += combos[c] + (20 if pilotta_team == c else 0)
        made = counted >= bid
    final = list(card)
    if not made:
        final[d] = card[0] + card[1]
        final[c] = 0
    card_gp = game_points(final[0], final[1])
    bid_gp = [0, 0]
    bid_gp[c if made else d] = 25 if bid == BID_CAPOT else bid // 10
    comb_gp = [combos[0] // 10, combos[1] // 10]
    if not made and failed_loses_declarations:
        comb_gp[d] += comb_gp[c]
        comb_gp[c] = 0
    pil = [0, 0]
    if pilotta_team >= 0:
        pil[pilotta_team] = 2
    return RoundScore(
        (card[0], card[1]),
        capot_team,
        made,
        (final[0], final[1]),
        card_gp,
        (bid_gp[0], bid_gp[1]),
        (comb_gp[0], comb_gp[1]),
        (pil[0], pil[1]),
    )


@dataclass
class GameState:
    """A game to ``target``: totals per team, rounds dealt, the next dealer."""

    target: int = 351
    ns: int = 0
    ew: int = 0
    rounds: int = 0
    dealer: int = 0
    winner: int = -1

    def add(self, ns: int, ew: int) -> None:
        """Add a round's game points (0, 0 for a thrown-in round); the deal passes on."""
        assert self.winner < 0
        self.ns += ns
        self.ew += ew
        self.rounds += 1
        self.dealer = (self.dealer + 1) % 4
        if max(self.ns, self.ew) >= self.target and self.ns != self.ew:
            self.winner = 0 if self.ns > self.ew else 1
