"""Games to the target between players with their own strategies (bid and play policy each).

A ``Seats`` bundle holds k strategies' policy rows: ``ids[i]`` (bid id, play id) and
``params[i]`` (float64[16], the bid policy's from slot 0, the play policy's from
``PLAY_PARAMS_AT``), and ``assign`` (int64[n]): in game g player p (table position 0..n-1)
plays strategy ``assign[(p - g) % n]``, so the assignment turns one place per game and every
strategy sits in every place; the first dealer is player ``(g // n) % n``, so over ``n * n``
games every strategy also deals first from every place. Round r of game g uses the stream
(seed, g * MAX_ROUNDS + r); seat ``s`` of a round dealt by ``d`` is player
``(d + 1 + s) % n``. A game ends when a bidder makes his bid at the target or more
(``kernels/game.py``), or after ``MAX_ROUNDS`` rounds (no winner).

The play loop is ``round.play_tricks`` with each seat on its strategy's row. A ``montecarlo``
bidder (``kernels/mcbid.py``) pitches the suit he chose with his bid when he wins the auction.
Tables without such a seat run their own round kernel (:func:`table_round`), which neither
holds nor passes the bidder's work: an ordinary game runs as fast as before he existed.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import deal_hands, stream_key
from ..layouts import BID_PASS, SEATS, TRICKS, GameSlot, RoundRec
from ..policies import BID_MONTECARLO
from ..rules import RuleSlot
from .auction import auction_result, legal_calls
from .game import apply_round, new_game
from .mcbid import new_mc_work, prepare_choices
from .policies import choose_call
from .round import new_round_work, play_tricks
from .scoring import score_tricks

MAX_ROUNDS = 1000
#: Per game: the winning player (-1 none), rounds played, then 6 slots: final scores.
GAME_WINNER = 0
GAME_ROUNDS = 1
GAME_SCORES = 2
GAME_LEN = 8

REC_LEN = int(RoundRec.LEN)
GAME_ROW = int(GameSlot.LEN)

Seats = namedtuple("Seats", ["ids", "params", "assign"])

#: Scratch of one thread: ``round`` a RoundWork, ``rec`` a RoundRec row, ``game`` a GameSlot
#: row, ``rows`` int64[6] (each player's strategy row this game), ``seat_rows`` int64[6] (each
#: seat's this round) and ``pitch`` int64[6] (the suit each seat chose with its call, -1 none).
#: A table with a ``montecarlo`` seat also has an MCWork, passed apart: bundled here, its
#: arrays slowed every ordinary game by a fifth.
TableWork = namedtuple("TableWork", ["round", "rec", "game", "rows", "seat_rows", "pitch"])


@njit
def new_table_work():
    """Fresh :data:`TableWork` (one per thread)."""
    return TableWork(
        new_round_work(),
        np.zeros(REC_LEN, dtype=np.int64),
        np.zeros(GAME_ROW, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.full(SEATS, -1, dtype=np.int64),
    )


@njit_inline
def plain_call(seats, row, s, highest, calls, hand, key, state, mc):
    """(call, -1): seat ``s``'s call with the bid policy of strategy row ``row``."""
    return choose_call(seats.ids[row, 0], seats.params[row], calls, hand, key, state), np.int64(-1)


@njit_inline
def mc_call(seats, row, s, highest, calls, hand, key, state, mc):
    """(call, suit): as :func:`plain_call`, but a ``montecarlo`` bidder reads the choice made
    before the auction (``mcbid.prepare_choices``), with the suit he would pitch."""
    if seats.ids[row, 0] == BID_MONTECARLO:
        return mc.choice[s, highest, 0], mc.choice[s, highest, 1]
    return plain_call(seats, row, s, highest, calls, hand, key, state, mc)


@njit_inline
def deal_round(key, rules, dealer, tw):
    """Deal a round with the stream ``key`` into ``tw.round`` (hands and dealt hands) and set
    each seat's strategy row (``tw.seat_rows``) for the deal of ``dealer``."""
    n = rules[RuleSlot.PLAYERS]
    work = tw.round
    work.state[0] = 0
    work.hands[:] = 0
    deal_hands(key, work.pack, work.state, n, TRICKS, 13, 16, work.hands)
    for s in range(SEATS):
        work.dealt[s] = work.hands[s]
    for s in range(n):
        tw.seat_rows[s] = tw.rows[(dealer + 1 + s) % n]


@njit_inline
def bid_play_score(key, rules, seats, tw, mc, call):
    """Bid (seat s with ``call`` on its strategy row ``tw.seat_rows[s]``), play and score the
    round dealt by :func:`deal_round` into ``tw.rec``; returns (bidder seat, bid)."""
    n = rules[RuleSlot.PLAYERS]
    work, rec, seat_rows, pitch = tw.round, tw.rec, tw.seat_rows, tw.pitch
    highest = np.int64(BID_PASS)
    for s in range(n):
        calls = legal_calls(highest, 1 if s == n - 1 else 0)
        c, suit = call(seats, seat_rows[s], s, highest, calls, work.hands[s], key, work.state, mc)
        pitch[s] = suit
        work.calls[s] = c
        if c > highest:
            highest = c
    bidder, bid, stole = auction_result(work.calls, n)
    trump = play_tricks(
        rules, seats.ids, seats.params, seat_rows, work, key, bidder, pitch[bidder], rec[:0]
    )
    score_tricks(work.dealt, bidder, bid, trump, work.tricks, work.winners, rules, rec)
    rec[RoundRec.BIDDER] = bidder
    rec[RoundRec.BID] = bid
    rec[RoundRec.STOLE] = stole
    return bidder, bid


@njit
def table_round(key, rules, seats, tw):
    """A round dealt by :func:`deal_round` at a table without a ``montecarlo`` seat
    (:func:`bid_play_score`); returns (bidder seat, bid)."""
    return bid_play_score(key, rules, seats, tw, 0, plain_call)


@njit
def table_round_mc(key, rules, seats, tw, mc):
    """A round dealt by :func:`deal_round` at a table with a ``montecarlo`` seat: every such
    seat's choices first (``mcbid.prepare_choices``), then :func:`bid_play_score`."""
    for s in range(rules[RuleSlot.PLAYERS]):
        row = tw.seat_rows[s]
        if seats.ids[row, 0] == BID_MONTECARLO:
            prepare_choices(rules, tw.round.hands[s], s, key, seats.params[row], mc)
    return bid_play_score(key, rules, seats, tw, mc, mc_call)


@njit_inline
def play_game_with(seed, g, rules, seats, tw, mc, round_fn):
    """Game ``g`` from 0:0 with ``round_fn(key, rules, seats, tw, mc)`` playing each dealt
    round; writes ``tw.game``."""
    n = rules[RuleSlot.PLAYERS]
    game = tw.game
    for p in range(n):
        tw.rows[p] = seats.assign[(p - g) % n]
    new_game(game, (g // n) % n)
    points = tw.rec[RoundRec.POINTS : RoundRec.POINTS + n]
    for r in range(MAX_ROUNDS):
        key = stream_key(seed, g * MAX_ROUNDS + r)
        deal_round(key, rules, game[GameSlot.DEALER], tw)
        bidder, bid = round_fn(key, rules, seats, tw, mc)
        if apply_round(game, rules, bidder, bid, points) >= 0:
            break


@njit_inline
def plain_round(key, rules, seats, tw, mc):
    """:func:`table_round` (``mc`` unused)."""
    return table_round(key, rules, seats, tw)


@njit
def game_span(seed, first, lo, hi, rules, seats, out):
    """Games ``lo .. hi-1`` into rows ``g - first`` of ``out``; a table with a ``montecarlo``
    seat runs :func:`table_round_mc`, any other the plain :func:`table_round`."""
    n = rules[RuleSlot.PLAYERS]
    has_mc = False
    for p in range(n):
        has_mc |= seats.ids[seats.assign[p], 0] == BID_MONTECARLO
    tw = new_table_work()
    mc = new_mc_work()
    for g in range(lo, hi):
        if has_mc:
            play_game_with(seed, g, rules, seats, tw, mc, table_round_mc)
        else:
            play_game_with(seed, g, rules, seats, tw, 0, plain_round)
        game, row = tw.game, out[g - first]
        row[GAME_WINNER] = game[GameSlot.WINNER]
        row[GAME_ROUNDS] = game[GameSlot.ROUNDS]
        for p in range(n):
            row[GAME_SCORES + p] = game[GameSlot.SCORES + p]


@driver(game_span)
def play_games(seed, first, count, rules, seats):
    """Games ``first .. first+count-1``: int64[count, GAME_LEN] rows; the same whatever the
    thread count or the split into calls (64 chunks on threads, ``core.engine.jit_threads``)."""
    out = np.zeros((count, GAME_LEN), dtype=np.int64)

    def work(ch: int, lo: int, size: int) -> None:
        game_span(seed, first, first + lo, first + lo + size, rules, seats, out)

    for_spans(count, min(count, 64), work)
    return out
