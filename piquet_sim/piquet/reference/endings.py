"""Plain-Python endings of a deal: the last two tricks played out by hand, for the partie
objective's checks (``tests/test_expert_play.py``) and the expert positions built from them
(``scripts/expert_positions.py``). Default rules (every lead scores), no pique left; cards are
indices ``suit * 8 + rank``, seats 0 elder and 1 younger."""

from __future__ import annotations


def trick_points(lead: int, reply: int, leader: int, last: bool) -> tuple[int, list[int]]:
    """(the trick's winner, each seat's points): 1 to the leader, 1 to the follower who wins
    it, 1 more to the winner of the last trick."""
    pts = [0, 0]
    pts[leader] += 1
    winner = leader
    if reply >> 3 == lead >> 3 and reply > lead:
        winner = 1 - leader
        pts[winner] += 1
    if last:
        pts[winner] += 1
    return winner, pts


def last_two_tricks(hands: list[list[int]], leader: int, first: int, won: list[int]) -> list[int]:
    """Each seat's points in the deal's last two tricks, the cards (10 for seven tricks or
    more, 40 for all twelve) included, when ``leader`` leads ``first`` and the follower
    answers with the reply best for his net points (the first such in ascending card order);
    the last trick is forced. ``hands``: each seat's two cards; ``won``: the tricks each has
    won so far."""

    def legal(hand, lead):
        same = [c for c in hand if c >> 3 == lead >> 3]
        return sorted(same or hand)

    follower = 1 - leader
    best = None
    for reply in legal(hands[follower], first):
        w, pts = trick_points(first, reply, leader, False)
        rest = [[c for c in h if c not in (first, reply)] for h in hands]
        w2, pts2 = trick_points(rest[w][0], rest[1 - w][0], w, True)
        tricks = list(won)
        tricks[w] += 1
        tricks[w2] += 1
        cards = [40 if t == 12 else 10 if t >= 7 else 0 for t in tricks]  # capot, the cards
        total = [pts[s] + pts2[s] + cards[s] for s in (0, 1)]
        net = total[follower] - total[leader]
        if best is None or net > best[0]:
            best = (net, total)
    return best[1]


__all__ = ["last_two_tricks", "trick_points"]
