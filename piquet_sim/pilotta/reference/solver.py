"""Brute-force double-dummy value of a position, for tests: full minimax over every legal
card (memoised on the exact position, nothing pruned or merged), written from the rules.

Value: the contracting team's card points of the rest of the round (last trick included) plus,
when a capot is still possible and that team takes every remaining trick, the capot's points
(250, or 252) minus the pack's total (so that a whole round taken is worth the capot).
"""

from __future__ import annotations

from functools import cache

from .cards import points
from .play import legal, trick_winner

CAPOT = 250


def solve(
    hands: tuple[int, int, int, int],
    trump: int,
    leader: int,
    team: int,
    capot_possible: bool = True,
    trick: tuple[tuple[int, int], ...] = (),
    kq: tuple[int, int] = (4, 3),
    exemption: bool | str = False,
    under_optional: bool = False,
    capot_points: int = CAPOT,
) -> int:
    """Exact value; ``hands`` natural masks N E S W (cards in ``trick`` already removed),
    ``trick``: (seat, card) pairs of the trick in progress, led by ``leader``; the rules:
    ``kq``, ``exemption`` (False, True, "plain_leads"), ``under_optional``, ``capot_points``."""
    total = 160 if kq == (3, 2) else 162
    bonus = capot_points - total

    @cache
    def rest(hands: tuple, trick: tuple, leader: int, capot: bool) -> int:
        if not trick and not any(hands):
            return 0
        seat = (leader + len(trick)) % 4
        options = legal(hands[seat], list(trick), trump, exemption, under_optional)
        values = []
        for card in options:
            h = list(hands)
            h[seat] &= ~(1 << card)
            t = trick + ((seat, card),)
            if len(t) < 4:
                values.append(rest(tuple(h), t, leader, capot))
                continue
            winner = trick_winner(list(t), trump)
            won = winner % 2 == team
            gain = 0
            last = not any(h)
            if won:
                gain = sum(points(c, trump, kq) for _, c in t) + (10 if last else 0)
                if last and capot:
                    gain += bonus
            values.append(gain + rest(tuple(h), (), winner, capot and won))
        return max(values) if seat % 2 == team else min(values)

    return rest(tuple(hands), tuple(trick), leader, capot_possible)
