"""A simulated round replayed in plain Python: the reference twin of the kernels'
``simulate_round`` (deal from the stream (seed, index), dealer ``index % 4``, auction and random
play drawing from the same stream, declarations, scoring), for differential tests."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rules
from .auction import Auction, fixed_call, random_call
from .declarations import compare
from .play import Round
from .scoring import RoundScore, score_round
from .streams import Stream, stream_key

RANDOM_PLAY, GREEDY_PLAY = 0, 1
RANDOM_AUCTION, FIXED_AUCTION = 0, 1


@dataclass
class SimulatedRound:
    dealer: int
    hands: list[int]
    bidder: int = -1
    bid: int = 0
    trump: int = -1
    first_leader: int = -1
    decl_team: int = -1
    decl_points: tuple[int, int] = (0, 0)
    pilotta_seat: int = -1
    plays: list[int] | None = None
    legal_counts: list[int] | None = None
    points: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    score: RoundScore | None = None


def deal(stream: Stream) -> list[int]:
    """Seat p takes pack positions 8p .. 8p+7 (ordinal o is suit o // 8, rank o % 8)."""
    pack = stream.shuffle(32)
    return [sum(1 << pack[8 * p + i] for i in range(8)) for p in range(4)]


def simulate_round(
    seed: int, index: int, auction_policy: tuple[int, int, int], rules: Rules
) -> SimulatedRound:
    """Replay round ``index`` of ``seed`` with random play for all four seats;
    ``auction_policy`` = (policy id, param 0, param 1)."""
    stream = Stream(stream_key(seed, index))
    dealer = index % 4
    out = SimulatedRound(dealer, deal(stream))
    auction = Auction(dealer, rules.pass_is_final)
    while not auction.is_over():
        if auction_policy[0] == FIXED_AUCTION:
            level, suit = fixed_call(auction, auction_policy[1], auction_policy[2])
        else:
            level, suit = random_call(auction, auction_policy[1], auction_policy[2], stream.draw)
        auction.call(level, suit)
    out.bidder, out.bid, out.trump = auction.result()
    if out.bidder < 0:
        return out
    leader = (dealer + 1) % 4 if rules.first_lead == "after_dealer" else out.bidder
    out.first_leader = leader
    comp = compare(out.hands, out.trump, leader, rules.equal_declarations == "nobody")
    out.decl_team, out.decl_points, out.pilotta_seat = comp.team, comp.points, comp.pilotta_seat
    game = Round(out.hands, out.trump, leader, rules.partner_exemption, rules.trump_kq_points)
    plays, counts = [], []
    while not game.is_over():
        options = game.legal_actions()
        card = options[stream.draw(len(options))] if len(options) > 1 else options[0]
        plays.append(card)
        counts.append(len(options))
        game.apply(card, check=False)
    out.plays, out.legal_counts = plays, counts
    out.points = (game.points[0], game.points[1])
    out.tricks = (game.tricks[0], game.tricks[1])
    pil_team = out.pilotta_seat % 2 if out.pilotta_seat >= 0 else -1
    out.score = score_round(
        out.points,
        out.tricks,
        out.bidder % 2,
        out.bid,
        out.decl_points,
        pil_team,
        rules.contract_on_card_points_only,
        rules.failed_contract_loses_declarations,
    )
    return out
