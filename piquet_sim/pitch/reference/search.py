"""Brute-force play values of a Pitch position, for tests: every legal card at every turn, no
pruning, no table, no card merged with another. Only small endgames (or few players) are
feasible.

A :class:`Position` is the whole truth of a round in play (hands seen). Values are *points still
to be decided* from the position on, per seat (a tuple, seat 0 first):

* max^n: each player, at his turn, takes the child with the most points for himself; among
  equals (tie rule ``"first"``, the default) the card first in :func:`static_order`, or (tie
  rule ``"full"``) the outcome he prefers under :func:`prefer`, then the lowest card;
* paranoid: the bidder's points, the bidder maximising, every other player minimising.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .rules import JACK, SIX, cards, game_taker, game_value, legal_plays, suit, trick_winner


@dataclass(frozen=True)
class Position:
    """hands: cards not yet played, one mask per seat; trick: cards played to the current trick
    from ``leader`` on; trump: None before the pitch; pitch: the current trick is the round's
    first (with a given trump the pitch must be of it); score_high_low: High and Low (to the
    holders) are still to be counted when trump is known; low_card: the lowest trump in play
    while Low may still be captured (capturer rule), else None; game: game points taken so far
    per seat."""

    hands: tuple[int, ...]
    leader: int
    bidder: int
    trump: int | None
    pitch: bool = False
    score_high_low: bool = False
    low_card: int | None = None
    trick: tuple[int, ...] = ()
    game: tuple[int, ...] = ()


@dataclass(frozen=True)
class Play:
    """The rules that change play values."""

    must_follow: bool = False
    low_to_capturer: bool = False
    tie_to_bidder: bool = False


def prefer(a: tuple[int, ...], b: tuple[int, ...], mover: int, bidder: int) -> bool:
    """True when ``mover`` prefers outcome ``a`` to ``b``: more points for himself; then (a
    defender) fewer for the bidder; then fewer points in all; then the outcome that is
    lexicographically smaller in seat order (seat 0 first)."""

    def key(v: tuple[int, ...]) -> tuple:
        return (v[mover], -v[bidder] if mover != bidder else 0, -sum(v), tuple(-x for x in v))

    return key(a) > key(b)


def static_order(pos: Position, card: int) -> tuple[int, int, int]:
    """Sort key of ``card`` (smaller first) in the static order of the position's cards for
    the player to move. Leading: trumps before the other suits; by suit number; high before
    low. Following: cards that take the trick over the winning card in its own suit, then
    trumps that take it, then cards that do not (trumps among them last); by suit number; low
    before high."""
    trump = -1 if pos.trump is None else pos.trump
    s = suit(card)
    if not pos.trick:
        return (0 if s == trump else 1, s, -(card & 15))
    winning = pos.trick[trick_winner(list(pos.trick), trump)]
    if trick_winner([winning, card], trump) == 1:
        group = 0 if s == suit(winning) else 1
    else:
        group = 3 if s == trump else 2
    return (group, s, card & 15)


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _held(pos: Position) -> list[tuple[int, int]]:
    """(card, seat) of every card in hand or on the table."""
    n = len(pos.hands)
    out = [(c, s) for s in range(n) for c in cards(pos.hands[s])]
    out += [(c, (pos.leader + k) % n) for k, c in enumerate(pos.trick)]
    return out


def _trump_known(pos: Position, rules: Play) -> tuple[Position, tuple[int, ...]]:
    """Score High and Low to the holders now that trump is known (when pending)."""
    n = len(pos.hands)
    gained = [0] * n
    if pos.score_high_low:
        trumps = [(c, s) for c, s in _held(pos) if suit(c) == pos.trump]
        gained[max(trumps)[1]] += 1
        low_card, low_seat = min(trumps)
        if rules.low_to_capturer:
            pos = replace(pos, low_card=low_card)
        else:
            gained[low_seat] += 1
        pos = replace(pos, score_high_low=False)
    return pos, tuple(gained)


def to_move(pos: Position) -> int:
    return (pos.leader + len(pos.trick)) % len(pos.hands)


def legal(pos: Position, rules: Play) -> list[int]:
    seat = to_move(pos)
    pitch_suit = pos.trump if pos.pitch and not pos.trick else None
    return legal_plays(
        cards(pos.hands[seat]), list(pos.trick), pos.trump, rules.must_follow, pitch_suit
    )


def play(pos: Position, card: int, rules: Play) -> tuple[Position, tuple[int, ...]]:
    """The position after ``card`` and the points it decided (per seat)."""
    n = len(pos.hands)
    seat = to_move(pos)
    gained = (0,) * n
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card)
    pos = replace(pos, hands=tuple(hands), trick=pos.trick + (card,))
    if pos.trump is None:
        pos = replace(pos, trump=suit(card))
        pos, gained = _trump_known(pos, rules)
    if len(pos.trick) < n:
        return pos, gained
    w = (pos.leader + trick_winner(list(pos.trick), pos.trump)) % n
    won = [0] * n
    game = list(pos.game)
    game[w] += sum(game_value(c) for c in pos.trick)
    for c in pos.trick:
        if c == pos.trump * 16 + JACK or c == pos.trump * 16 + SIX:
            won[w] += 1
        if rules.low_to_capturer and c == pos.low_card:
            won[w] += 1
    if all(h == 0 for h in hands):
        won[w] += 1  # the last trick
        g = game_taker(game, pos.bidder, rules.tie_to_bidder)
        if g is not None:
            won[g] += 1
    pos = replace(pos, leader=w, trick=(), pitch=False, game=tuple(game))
    return pos, _add(gained, tuple(won))


def _start(pos: Position, rules: Play) -> tuple[Position, tuple[int, ...]]:
    n = len(pos.hands)
    if not pos.game:
        pos = replace(pos, game=(0,) * n)
    if pos.trump is not None:
        return _trump_known(pos, rules)
    return pos, (0,) * n


def maxn(pos: Position, rules: Play = Play(), tie: str = "first") -> tuple[int, ...]:
    """Points still to be decided per seat under max^n play, ties by rule ``tie``."""
    pos, gained = _start(pos, rules)
    return _add(gained, _maxn(pos, rules, tie))


def _ordered(pos: Position, rules: Play, tie: str) -> list[int]:
    cards_ = legal(pos, rules)
    if tie == "first":
        return sorted(cards_, key=lambda c: static_order(pos, c))
    if tie == "full":
        return sorted(cards_)
    raise ValueError(f"unknown tie rule {tie!r}")


def _maxn(pos: Position, rules: Play, tie: str) -> tuple[int, ...]:
    n = len(pos.hands)
    if not pos.trick and all(h == 0 for h in pos.hands):
        return (0,) * n
    mover = to_move(pos)
    best = None
    for card in _ordered(pos, rules, tie):
        child, gained = play(pos, card, rules)
        v = _add(gained, _maxn(child, rules, tie))
        if best is None:
            best = v
        elif tie == "first":
            if v[mover] > best[mover]:  # a tie keeps the earlier card
                best = v
        elif prefer(v, best, mover, pos.bidder):
            best = v
    if best is None:
        raise ValueError("no legal card")
    return best


def children_maxn(
    pos: Position, rules: Play = Play(), tie: str = "first"
) -> dict[int, tuple[int, ...]]:
    """Value (points still to be decided, per seat) of each legal card of the player to move."""
    pos, gained = _start(pos, rules)
    out = {}
    for card in legal(pos, rules):
        child, g = play(pos, card, rules)
        out[card] = _add(_add(gained, g), _maxn(child, rules, tie))
    return out


def paranoid(pos: Position, rules: Play = Play()) -> int:
    """The bidder's points still to be decided when every other player plays against him."""
    pos, gained = _start(pos, rules)
    return gained[pos.bidder] + _paranoid(pos, rules)


def _paranoid(pos: Position, rules: Play) -> int:
    if not pos.trick and all(h == 0 for h in pos.hands):
        return 0
    mover = to_move(pos)
    values = []
    for card in legal(pos, rules):
        child, gained = play(pos, card, rules)
        values.append(gained[pos.bidder] + _paranoid(child, rules))
    if not values:
        raise ValueError("no legal card")
    return max(values) if mover == pos.bidder else min(values)
