"""The ``heuristic`` play policy written again from its description (``kernels/heuristic.py``'s
docstring), on card lists and the reference's rank orders, for differential tests."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import beats, cards_of, points, suit
from .play import exempts, trick_winner


@dataclass
class Table:
    """What the player sees: ``played`` (every card played, the trick included), ``voids``
    (set of (seat, suit) shown void), the contracting team, trump and trump (K, Q) points."""

    played: set
    voids: set
    c_team: int
    trump: int
    kq: tuple[int, int] = (4, 3)


def _strongest(cards: list[int], trump: int) -> int:
    best = cards[0]
    for c in cards[1:]:
        if beats(c, best, trump):
            best = c
    return best


def _weakest(cards: list[int], trump: int) -> int:
    worst = cards[0]
    for c in cards[1:]:
        if beats(worst, c, trump):
            worst = c
    return worst


def _out(hand: int, t: Table) -> list[int]:
    return [c for c in range(32) if c not in t.played and not hand >> c & 1]


def master(card: int, out: list[int], trump: int) -> bool:
    return not any(suit(o) == suit(card) and beats(o, card, trump) for o in out)


def dangerous(t: Table, seat: int, s: int) -> bool:
    return any(
        (o, s) in t.voids and (o, t.trump) not in t.voids for o in ((seat + 1) % 4, (seat + 3) % 4)
    )


def _place(card: int, trump: int) -> int:
    """Strength within its suit's order (0 lowest .. 7 highest)."""
    return sum(1 for r in range(8) if beats(card, (card & ~7) | r, trump))


def _dump_key(c: int, t: Table) -> tuple:
    return (suit(c) == t.trump, points(c, t.trump, t.kq), _place(c, t.trump))


def lead(hand: int, seat: int, t: Table) -> int:
    mine = cards_of(hand)
    out = _out(hand, t)
    trumps = [c for c in mine if suit(c) == t.trump]
    out_trumps = [c for c in out if suit(c) == t.trump]
    both_void = all((o, t.trump) in t.voids for o in ((seat + 1) % 4, (seat + 3) % 4))
    if seat % 2 == t.c_team and trumps and out_trumps and not both_void:
        top = _strongest(trumps, t.trump)
        if master(top, out, t.trump):
            return top
        if len(trumps) >= 3:
            return _weakest(trumps, t.trump)
    cash = []
    for s in range(4):
        held = [c for c in mine if suit(c) == s]
        if s == t.trump or not held or dangerous(t, seat, s):
            continue
        top = _strongest(held, t.trump)
        if points(top, t.trump, t.kq) > 0 and master(top, out, t.trump):
            cash.append((-points(top, t.trump, t.kq), s, top))
    if cash:
        return min(cash)[2]
    low = []
    for s in range(4):
        held = [c for c in mine if suit(c) == s]
        if s == t.trump or not held:
            continue
        c = _weakest(held, t.trump)
        low.append((points(c, t.trump, t.kq), -len(held), s, c))
    if low:
        return min(low)[3]
    return _weakest(trumps, t.trump)


def follow(hand: int, legal: list[int], trick: list[tuple[int, int]], t: Table) -> int:
    """``trick``: [(seat, card), …] so far (non-empty); ``legal``: the legal cards."""
    seat = (trick[-1][0] + 1) % 4
    pos = len(trick)
    out = _out(hand, t)
    led = suit(trick[0][1])
    w_seat = trick_winner(trick, t.trump)
    w_card = dict(trick)[w_seat]
    plain = [c for c in legal if suit(c) != t.trump]
    dump = min(legal, key=lambda c: _dump_key(c, t))
    if pos >= 2 and w_seat == (seat + 2) % 4:
        safe = pos == 3
        if not safe:
            if suit(w_card) == t.trump:
                safe = master(w_card, out, t.trump)
            else:
                last = (seat + 1) % 4
                threat = (last, led) in t.voids and (last, t.trump) not in t.voids
                no_trump = all(suit(c) != t.trump for _, c in trick)
                safe = no_trump and not threat and master(w_card, out, t.trump)
        if not safe:
            return dump
        if not plain:
            return _weakest(legal, t.trump)
        return min(plain, key=lambda c: (-points(c, t.trump, t.kq), _place(c, t.trump)))
    winners = [c for c in legal if trick_winner(trick + [(seat, c)], t.trump) == seat]
    if not winners:
        return dump
    if pos == 3:
        return min(winners, key=lambda c: _dump_key(c, t))
    masters = [
        c
        for c in winners
        if master(c, out, t.trump) and (suit(c) == t.trump or not dangerous(t, seat, led))
    ]
    if masters:
        return _weakest(masters, t.trump)
    if not plain:
        return _weakest(winners, t.trump)
    return dump


def note_play(
    t: Table,
    trick: list[tuple[int, int]],
    exemption,
    partner_winning: bool,
    under_optional: bool = False,
):
    """Record the last card of ``trick`` in the table (played, voids shown). A seat that did
    not follow a plain suit and did not trump shows a void in trumps, unless it was free not
    to trump: the partner exemption (``exemption``: False, True, "plain_leads") with its
    partner winning, or ``under_optional`` with a trump already in the trick."""
    seat, card = trick[-1]
    t.played.add(card)
    if len(trick) == 1:
        return
    led = suit(trick[0][1])
    if suit(card) != led:
        t.voids.add((seat, led))
        free = partner_winning and exempts(exemption, led, t.trump)
        trumped = any(suit(c) == t.trump for _, c in trick[:-1])
        if under_optional and trumped:
            free = True
        if led != t.trump and suit(card) != t.trump and not free:
            t.voids.add((seat, t.trump))
