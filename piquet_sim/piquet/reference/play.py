"""Plain-Python trick play, for tests only: slow, obvious, no numba, no shared code with the
kernels beyond the card encoding.

A *state* is the whole truth of a deal in play: both hands (masks), the player to lead
(0 elder, 1 younger), tricks won so far by each, each player's points so far in the deal
(combinations and play points; they decide pique) and whether a pique is still open
(False after a repique or a pique). Values are "rest of the deal", elder minus younger:
play points still to come, last trick, cards/capot after the last trick, and any pique.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

ELDER, YOUNGER = 0, 1


def cards_of(mask: int) -> list[int]:
    """Card indices of a mask, ascending."""
    return [c for c in range(32) if mask >> c & 1]


def legal(hand: int, lead: int | None) -> list[int]:
    """Cards of ``hand`` that may be played: any card to lead; the led suit if held."""
    if lead is None:
        return cards_of(hand)
    same = [c for c in cards_of(hand) if c // 8 == lead // 8]
    return same or cards_of(hand)


@dataclass(frozen=True)
class State:
    elder: int
    younger: int
    leader: int = ELDER
    e_tricks: int = 0
    y_tricks: int = 0
    e_pts: int = 0
    y_pts: int = 0
    pique_open: bool = True


@dataclass
class Tally:
    """Points of the rest of the deal, per player."""

    play: list[int]
    pique: list[int]
    cards: list[int]
    tricks: list[int]

    def net(self) -> int:
        e = self.play[0] + self.pique[0] + self.cards[0]
        y = self.play[1] + self.pique[1] + self.cards[1]
        return e - y


def _score(pts: list[int], pique: list[int], open_: list[bool], player: int, tally: Tally) -> None:
    """One play point to ``player``; a pique when he reaches 30 and the opponent has 0."""
    tally.play[player] += 1
    pts[player] += 1
    if open_[0] and pts[1 - player] == 0 and pts[player] >= 30:
        tally.pique[player] += 30
        open_[0] = False


def play_trick(state: State, lead: int, reply: int, ten_rule: bool, tally: Tally) -> State:
    """Play one trick (lead by ``state.leader``); add its points to ``tally``; the next state."""
    leader = state.leader
    hands = [state.elder, state.younger]
    assert hands[leader] >> lead & 1 and reply in legal(hands[1 - leader], lead)
    pts = [state.e_pts, state.y_pts]
    open_ = [state.pique_open]
    if not ten_rule or lead % 8 >= 3:
        _score(pts, tally.pique, open_, leader, tally)
    winner = leader
    if reply // 8 == lead // 8 and reply % 8 > lead % 8:
        winner = 1 - leader
        if not ten_rule or reply % 8 >= 3:
            _score(pts, tally.pique, open_, winner, tally)
    hands[leader] &= ~(1 << lead)
    hands[1 - leader] &= ~(1 << reply)
    last = hands[0] == 0
    if last:
        _score(pts, tally.pique, open_, winner, tally)
    tricks = [state.e_tricks, state.y_tricks]
    tricks[winner] += 1
    tally.tricks[winner] += 1
    if last:
        if tricks[0] == 12:
            tally.cards[0] += 40
        elif tricks[1] == 12:
            tally.cards[1] += 40
        elif tricks[0] >= 7:
            tally.cards[0] += 10
        elif tricks[1] >= 7:
            tally.cards[1] += 10
    return State(hands[0], hands[1], winner, tricks[0], tricks[1], pts[0], pts[1], open_[0])


def trick_value(state: State, lead: int, reply: int, ten_rule: bool) -> tuple[int, State]:
    """(net points of this trick, elder minus younger, including pique and cards; next state)."""
    tally = Tally([0, 0], [0, 0], [0, 0], [0, 0])
    nxt = play_trick(state, lead, reply, ten_rule, tally)
    return tally.net(), nxt


@cache
def _minimax(state: State, ten_rule: bool) -> int:
    if state.elder == 0:
        return 0
    hands = (state.elder, state.younger)
    leader = state.leader
    lead_values = []
    for lead in legal(hands[leader], None):
        reply_values = []
        for reply in legal(hands[1 - leader], lead):
            net, nxt = trick_value(state, lead, reply, ten_rule)
            reply_values.append(net + _minimax(nxt, ten_rule))
        # the follower is elder when younger leads: he maximises
        lead_values.append(max(reply_values) if leader == YOUNGER else min(reply_values))
    return max(lead_values) if leader == ELDER else min(lead_values)


def minimax(state: State, ten_rule: bool = False) -> int:
    """Exact value of the rest of the deal (elder minus younger) by brute force, every legal
    card of both players tried at every step (memoised on the full state, nothing pruned)."""
    if bin(state.elder).count("1") != bin(state.younger).count("1"):
        raise ValueError("hands of unequal size")
    if state.elder & state.younger:
        raise ValueError("overlapping hands")
    return _minimax(state, ten_rule)


def replay(state: State, line: list[tuple[int, int]], ten_rule: bool = False) -> Tally:
    """Play a line of (lead, reply) pairs from ``state``; the tally of its points."""
    tally = Tally([0, 0], [0, 0], [0, 0], [0, 0])
    for lead, reply in line:
        state = play_trick(state, lead, reply, ten_rule, tally)
    return tally


def optimal_line_ok(state: State, line: list[tuple[int, int]], ten_rule: bool = False) -> bool:
    """True when every step of ``line`` is a minimax-optimal choice (the value never changes)."""
    value = minimax(state, ten_rule)
    for lead, reply in line:
        net, nxt = trick_value(state, lead, reply, ten_rule)
        if net + minimax(nxt, ten_rule) != value:
            return False
        # the lead must be optimal too: the best reply to it gives the value
        hands = (state.elder, state.younger)
        replies = [
            trick_value(state, lead, r, ten_rule) for r in legal(hands[1 - state.leader], lead)
        ]
        vals = [n + minimax(s, ten_rule) for n, s in replies]
        best = max(vals) if state.leader == YOUNGER else min(vals)
        if best != value:
            return False
        value -= net
        state = nxt
    return True


def clear_cache() -> None:
    _minimax.cache_clear()


__all__ = [
    "State",
    "Tally",
    "clear_cache",
    "legal",
    "minimax",
    "optimal_line_ok",
    "play_trick",
    "replay",
    "trick_value",
]
