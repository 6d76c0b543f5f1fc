"""A simulated round replayed in plain Python: the reference twin of the kernels'
``simulate_round`` (deal from the stream (seed, index), dealer ``index % 4``, auction and random
play drawing from the same stream, the threshold bidder and the heuristic player,
declarations, scoring), for differential tests."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rules
from .auction import BID_PARAMS, THRESHOLD_AUCTION, Auction, fixed_call, random_call, threshold_call
from .declarations import compare
from .heuristic import Table, follow, lead, note_play
from .play import Round, trick_winner
from .scoring import RoundScore, score_round
from .streams import Stream, stream_key

RANDOM_PLAY, GREEDY_PLAY, HEURISTIC_PLAY = 0, 1, 2
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


def _team(setup, team: int) -> tuple[int, list[int], int]:
    """(auction policy id, its 8 parameters, play policy id) of a team in a kernel Setup
    (layout: auction NS, EW, play NS, EW, 8 parameters NS, 8 EW)."""
    setup = [int(x) for x in setup]
    return setup[team], setup[4 + 8 * team : 12 + 8 * team], setup[2 + team]


def simulate_round(seed: int, index: int, setup, rules: Rules) -> SimulatedRound:
    """Replay round ``index`` of ``seed`` under ``setup`` (the kernels' Setup array: each
    team's auction policy, random / fixed / threshold, and play policy, random or heuristic)."""
    stream = Stream(stream_key(seed, index))
    dealer = index % 4
    out = SimulatedRound(dealer, deal(stream))
    auction = Auction(dealer, rules.pass_is_final)
    kq = rules.trump_kq_points
    while not auction.is_over():
        seat = auction.to_speak()
        policy, params, _ = _team(setup, seat % 2)
        if policy == FIXED_AUCTION:
            level, suit = fixed_call(auction, params[0], params[1])
        elif policy == THRESHOLD_AUCTION:
            named = dict(zip(BID_PARAMS, params, strict=False))
            level, suit = threshold_call(auction, out.hands[seat], named, kq)
        else:
            level, suit = random_call(auction, params[0], params[1], stream.draw)
        auction.call(level, suit)
    out.bidder, out.bid, out.trump = auction.result()
    if out.bidder < 0:
        return out
    leader = (dealer + 1) % 4 if rules.first_lead == "after_dealer" else out.bidder
    out.first_leader = leader
    names = {0: "all", 1: "no-tierce"}  # declaration policy ids at Setup slots 22 (NS), 23 (EW)
    declare = (names[int(setup[22])], names[int(setup[23])])
    comp = compare(out.hands, out.trump, leader, rules.equal_declarations == "nobody", declare)
    out.decl_team, out.decl_points, out.pilotta_seat = comp.team, comp.points, comp.pilotta_seat
    under = rules.under_trump == "optional"
    game = Round(out.hands, out.trump, leader, rules.partner_exemption, kq, under_optional=under)
    table = Table(set(), set(), out.bidder % 2, out.trump, kq)
    plays, counts = [], []
    while not game.is_over():
        options = game.legal_actions()
        seat = game.to_play()
        play_policy = _team(setup, seat % 2)[2]
        if play_policy == HEURISTIC_PLAY:
            hand = game.hands[seat]
            card = (
                lead(hand, seat, table)
                if not game.trick
                else follow(hand, options, game.trick, table)
            )
        else:
            card = options[stream.draw(len(options))] if len(options) > 1 else options[0]
        trick = game.trick + [(seat, card)]
        partner_winning = (
            len(game.trick) >= 2 and trick_winner(game.trick, out.trump) == (seat + 2) % 4
        )
        note_play(table, trick, rules.partner_exemption, partner_winning, under)
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
        rules.capot_points,
    )
    return out
