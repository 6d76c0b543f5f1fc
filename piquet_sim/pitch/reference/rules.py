"""Pitch Six's rules in plain Python (see ``docs/rules/pitch.md``), one small function each.

Cards are ints (suit * 16 + rank, ranks 0 = two .. 12 = ace); hands are lists or masks; seats are
numbered from the dealer's left (seat 0 first to bid, the dealer last)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.engine.masks import mask_bits

GAME_VALUE = {8: 10, 9: 1, 10: 2, 11: 3, 12: 4}  # ten, jack, queen, king, ace
JACK, SIX = 9, 4
POINTS = ("high", "low", "jack", "six", "last", "game")


def suit(card: int) -> int:
    return card // 16


def rank(card: int) -> int:
    return card % 16


#: Card indices of a mask, ascending (plain Python, the core's).
cards = mask_bits


def game_value(card: int) -> int:
    return GAME_VALUE.get(rank(card), 0)


# ---------------------------------------------------------------- play
def legal_plays(
    hand: list[int],
    trick: list[int],
    trump: int | None,
    must_follow: bool,
    pitch_suit: int | None = None,
) -> list[int]:
    """Cards of ``hand`` that may be played to ``trick`` (cards already played, from the leader).

    Leading: any card; but the pitch of a round whose trump is given (``pitch_suit``) must be of
    that suit. Following: a card of the suit led, or a trump (unless ``must_follow``); any card
    when void in the suit led."""
    if not trick:
        if pitch_suit is not None:
            return [c for c in hand if suit(c) == pitch_suit]
        return list(hand)
    led = suit(trick[0])
    follow = [c for c in hand if suit(c) == led]
    if not follow:
        return list(hand)
    if must_follow or trump is None:
        return follow
    return [c for c in hand if suit(c) == led or suit(c) == trump]


def trick_winner(trick: list[int], trump: int) -> int:
    """Index in ``trick`` (0 = the leader) of the winning card: the highest trump, else the
    highest card of the suit led."""
    trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: rank(trick[i]))
    led = suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: rank(trick[i]))


def game_taker(game_points: list[int], bidder: int, tie_to_bidder: bool) -> int | None:
    """Seat scoring Game: the most game points; a tie scores nobody (or the bidder if he is
    among the tied and ``tie_to_bidder``); nobody when no game point was taken at all."""
    best = max(game_points)
    if best == 0:
        return None
    tied = [s for s, g in enumerate(game_points) if g == best]
    if len(tied) == 1:
        return tied[0]
    if tie_to_bidder and bidder in tied:
        return bidder
    return None


@dataclass
class RoundResult:
    """Everything a round decides; seats are dealer-relative."""

    trump: int
    winners: list[int]  # winner seat of each trick
    takers: dict[str, int | None]  # point name -> seat, or None
    points: list[int]  # points taken per seat
    game_points: list[int]  # game points in each seat's tricks
    made: bool
    scores: list[int]  # round score per seat: the bidder +-bid, the others their points
    legal: list[list[int]]  # the cards each play could have been, in play order

    @property
    def total(self) -> int:
        return sum(self.points)


def score_round(
    hands: list[int],
    bidder: int,
    bid: int,
    plays: list[int],
    must_follow: bool,
    low_to_capturer: bool,
    tie_to_bidder: bool,
) -> RoundResult:
    """Play out ``plays`` (every card in order, the bidder leading the first trick) from the
    dealt ``hands`` (masks, one per seat) and score the round. Raises ValueError on an illegal
    play, a card not held, or a play count that is not six tricks."""
    n = len(hands)
    held = [cards(h) for h in hands]
    if any(len(h) != 6 for h in held):
        raise ValueError("every hand needs 6 cards")
    if len(plays) != 6 * n:
        raise ValueError(f"a round is {6 * n} plays, got {len(plays)}")
    trump = suit(plays[0])
    dealt_trumps = [(c, s) for s in range(n) for c in held[s] if suit(c) == trump]
    high_card, high_seat = max(dealt_trumps)
    low_card, low_seat = min(dealt_trumps)
    takers: dict[str, int | None] = {p: None for p in POINTS}
    takers["high"] = high_seat
    if not low_to_capturer:
        takers["low"] = low_seat
    game = [0] * n
    winners = []
    offered = []
    leader = bidder
    i = 0
    for t in range(6):
        trick = []
        for k in range(n):
            seat = (leader + k) % n
            card = plays[i]
            i += 1
            allowed = legal_plays(
                held[seat], trick, None if t == 0 and k == 0 else trump, must_follow
            )
            if card not in allowed:
                raise ValueError(f"play {i}: seat {seat} may not play card {card}")
            offered.append(allowed)
            held[seat].remove(card)
            trick.append(card)
        w = (leader + trick_winner(trick, trump)) % n
        winners.append(w)
        game[w] += sum(game_value(c) for c in trick)
        for c in trick:
            if c == trump * 16 + JACK:
                takers["jack"] = w
            if c == trump * 16 + SIX:
                takers["six"] = w
            if low_to_capturer and c == low_card:
                takers["low"] = w
        if t == 5:
            takers["last"] = w
        leader = w
    takers["game"] = game_taker(game, bidder, tie_to_bidder)
    points = [0] * n
    for seat in takers.values():
        if seat is not None:
            points[seat] += 1
    made = points[bidder] >= bid
    scores = list(points)
    scores[bidder] = bid if made else -bid
    return RoundResult(trump, winners, takers, points, game, made, scores, offered)


# ---------------------------------------------------------------- auction
def legal_bids(highest: int, dealer: bool) -> list[int]:
    """Calls open to a player (0 = pass, 3..6) when the highest bid so far is ``highest``
    (0: none). Others pass or bid higher; the dealer may pass, bid higher or take the highest
    bid (steal), and must bid (3 to 6) when everyone before him passed."""
    if dealer:
        if highest == 0:
            return [3, 4, 5, 6]
        return [0] + [b for b in range(3, 7) if b >= highest]
    return [0] + [b for b in range(3, 7) if b > highest]


def auction_result(calls: list[int]) -> tuple[int, int, bool]:
    """(bidder seat, bid, stolen) from every seat's call in seat order (the dealer last)."""
    n = len(calls)
    highest = 0
    bidder = -1
    stole = False
    for seat, call in enumerate(calls):
        if call not in legal_bids(highest, seat == n - 1):
            raise ValueError(f"seat {seat} may not call {call} over {highest}")
        if call:
            stole = seat == n - 1 and call == highest
            highest, bidder = call, seat
    return bidder, highest, stole


# ---------------------------------------------------------------- the game
def apply_round(
    scores: list[int], dealer: int, bidder_seat: int, bid: int, points: list[int], target: int = 12
) -> tuple[list[int], int | None, int]:
    """Add one round to a game. ``scores`` per player (table order), ``dealer`` the player who
    dealt; the round's seats start at his left. Returns (new scores, the winning player or None,
    the next dealer). Only the bidder can win: made bid and new total >= target."""
    n = len(scores)
    new = list(scores)
    winner = None
    for seat in range(n):
        player = (dealer + 1 + seat) % n
        if seat == bidder_seat:
            made = points[seat] >= bid
            new[player] += bid if made else -bid
            if made and new[player] >= target:
                winner = player
        else:
            new[player] += points[seat]
    return new, winner, (dealer + 1) % n
