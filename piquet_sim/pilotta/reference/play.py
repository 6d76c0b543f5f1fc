"""Trick play written from the rules: legal cards, the trick winner, and a round as a state
machine (legal actions, apply, outcome) in the style of OpenSpiel's game states."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import beats, cards_of, points, suit


def trick_winner(trick: list[tuple[int, int]], trump: int) -> int:
    """Seat winning a non-empty trick [(seat, card), …]: highest trump, else highest card of
    the suit led."""
    led = suit(trick[0][1])
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if suit(card) == suit(best):
            if beats(card, best, trump):
                best_seat, best = seat, card
        elif suit(card) == trump:
            best_seat, best = seat, card
    assert suit(best) in (led, trump)
    return best_seat


def exempts(exemption, led: int, trump: int) -> bool:
    """Does the partner exemption (``Rules.partner_exemption``: False never, True always,
    "plain_leads") apply to a trick led in ``led``?"""
    if exemption == "plain_leads":
        return led != trump
    return bool(exemption)


def legal(
    hand: int,
    trick: list[tuple[int, int]],
    trump: int,
    exemption=False,
    under_optional: bool = False,
) -> list[int]:
    """Cards of ``hand`` the next player may add to ``trick`` [(seat, card), …].
    ``exemption``: the partner exemption (False, True or "plain_leads"); ``under_optional``:
    a player void in the plain suit led who cannot beat the trump in the trick may play any
    card."""
    mine = cards_of(hand)
    if not trick:
        return mine
    me = (trick[-1][0] + 1) % 4
    partner_winning = len(trick) >= 2 and trick_winner(trick, trump) == (me + 2) % 4
    led = suit(trick[0][1])
    free = partner_winning and exempts(exemption, led, trump)
    trumps_played = [c for _, c in trick if suit(c) == trump]
    highest = None
    for c in trumps_played:
        if highest is None or beats(c, highest, trump):
            highest = c
    follow = [c for c in mine if suit(c) == led]
    if follow:
        if led == trump and not free:
            higher = [c for c in follow if beats(c, highest, trump)]
            return higher or follow
        return follow
    if free:
        return mine
    my_trumps = [c for c in mine if suit(c) == trump]
    if not my_trumps:
        return mine
    if highest is not None:
        higher = [c for c in my_trumps if beats(c, highest, trump)]
        if not higher and under_optional:
            return mine
        return higher or my_trumps
    return my_trumps


@dataclass
class Round:
    """The play of a round from a trick start. ``hands``: four masks of equal size (N E S W);
    ``leader``: seat to lead; ``exemption``: the partner exemption (False, True,
    "plain_leads"); ``kq``: trump (king, queen) points; ``under_optional``: under-trumping
    optional."""

    hands: list[int]
    trump: int
    leader: int
    exemption: bool | str = False
    kq: tuple[int, int] = (4, 3)
    trick: list[tuple[int, int]] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])  # card points per team so far
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    history: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) in order
    under_optional: bool = False

    def __post_init__(self) -> None:
        self.hands = list(self.hands)
        self.n_tricks = bin(self.hands[0]).count("1")

    def to_play(self) -> int:
        if not self.trick:
            return self.leader
        return (self.trick[-1][0] + 1) % 4

    def is_over(self) -> bool:
        return not any(self.hands) and not self.trick

    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        seat = self.to_play()
        return legal(self.hands[seat], self.trick, self.trump, self.exemption, self.under_optional)

    def apply(self, card: int, check: bool = True) -> None:
        """Play ``card`` for the seat to play (``check``: first make sure it is legal)."""
        seat = self.to_play()
        if check and card not in self.legal_actions():
            raise ValueError(f"card {card} is not legal for seat {seat}")
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        self.history.append((seat, card))
        if len(self.trick) == 4:
            winner = trick_winner(self.trick, self.trump)
            pts = sum(points(c, self.trump, self.kq) for _, c in self.trick)
            if not any(self.hands):
                pts += 10
            self.points[winner % 2] += pts
            self.tricks[winner % 2] += 1
            self.leader = winner
            self.trick = []
