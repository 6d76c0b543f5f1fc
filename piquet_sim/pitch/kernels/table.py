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
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from ...core.jit import njit, njit_inline, njit_parallel
from ...core.rng import deal_hands, stream_key
from ..layouts import BID_PASS, SEATS, TRICKS, GameSlot, RoundRec, RuleSlot
from .auction import auction_result, legal_calls
from .game import apply_round, new_game
from .mcbid import new_mc_work, prepare_choices
from .policies import BID_MONTECARLO, choose_call
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

#: Scratch of one thread: ``round`` a RoundWork, ``mc`` an MCWork, ``rec`` a RoundRec row,
#: ``game`` a GameSlot row, ``rows`` int64[6] (each player's strategy row this game) and
#: ``seat_rows`` int64[6] (each seat's this round).
TableWork = namedtuple("TableWork", ["round", "mc", "rec", "game", "rows", "seat_rows"])


@njit
def new_table_work():
    """Fresh :data:`TableWork` (one per thread)."""
    return TableWork(
        new_round_work(),
        new_mc_work(),
        np.zeros(REC_LEN, dtype=np.int64),
        np.zeros(GAME_ROW, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
    )


@njit_inline
def seat_call(seats, row, s, highest, calls, hand, key, work, mc):
    """Seat ``s``'s call with strategy row ``row`` (``highest`` the bid so far, ``calls`` the
    legal calls); a ``montecarlo`` bidder reads the choice made before the auction
    (``mcbid.prepare_choices``) and notes the suit he would pitch in ``mc.pitch[s]``."""
    pid = seats.ids[row, 0]
    if pid == BID_MONTECARLO:
        mc.pitch[s] = mc.choice[s, highest, 1]
        return mc.choice[s, highest, 0]
    return choose_call(pid, seats.params[row], calls, hand, key, work.state)


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
        tw.mc.pitch[s] = -1
    for s in range(n):
        tw.seat_rows[s] = tw.rows[(dealer + 1 + s) % n]


@njit
def mc_counts(key, rules, seats, tw):
    """Before the auction: every ``montecarlo`` seat's choices (``mcbid.prepare_choices``).
    Kept out of :func:`table_round` so that games without such a bidder run the plain loop."""
    for s in range(rules[RuleSlot.PLAYERS]):
        row = tw.seat_rows[s]
        if seats.ids[row, 0] == BID_MONTECARLO:
            prepare_choices(rules, tw.round.hands[s], s, key, seats.params[row], tw.mc)


@njit
def table_round(key, rules, seats, tw):
    """Bid (each seat with its strategy row ``tw.seat_rows[s]``), play and score the round
    dealt by :func:`deal_round` into ``tw.rec``; returns (bidder seat, bid)."""
    n = rules[RuleSlot.PLAYERS]
    work, mc, rec, seat_rows = tw.round, tw.mc, tw.rec, tw.seat_rows
    highest = np.int64(BID_PASS)
    for s in range(n):
        calls = legal_calls(highest, 1 if s == n - 1 else 0)
        c = seat_call(seats, seat_rows[s], s, highest, calls, work.hands[s], key, work, mc)
        work.calls[s] = c
        if c > highest:
            highest = c
    bidder, bid, stole = auction_result(work.calls, n)
    trump = play_tricks(
        rules, seats.ids, seats.params, seat_rows, work, key, bidder, mc.pitch[bidder], rec[:0]
    )
    score_tricks(work.dealt, bidder, bid, trump, work.tricks, work.winners, rules, rec)
    rec[RoundRec.BIDDER] = bidder
    rec[RoundRec.BID] = bid
    rec[RoundRec.STOLE] = stole
    return bidder, bid


@njit
def play_game(seed, g, rules, seats, tw, out):
    """Game ``g`` from 0:0; writes ``out`` (GAME_LEN): the winning player, rounds, scores."""
    n = rules[RuleSlot.PLAYERS]
    game = tw.game
    has_mc = False
    for p in range(n):
        tw.rows[p] = seats.assign[(p - g) % n]
        has_mc |= seats.ids[tw.rows[p], 0] == BID_MONTECARLO
    new_game(game, (g // n) % n)
    points = tw.rec[RoundRec.POINTS : RoundRec.POINTS + n]
    for r in range(MAX_ROUNDS):
        dealer = game[GameSlot.DEALER]
        key = stream_key(seed, g * MAX_ROUNDS + r)
        deal_round(key, rules, dealer, tw)
        if has_mc:
            mc_counts(key, rules, seats, tw)
        bidder, bid = table_round(key, rules, seats, tw)
        if apply_round(game, rules, bidder, bid, points) >= 0:
            break
    out[GAME_WINNER] = game[GameSlot.WINNER]
    out[GAME_ROUNDS] = game[GameSlot.ROUNDS]
    for p in range(n):
        out[GAME_SCORES + p] = game[GameSlot.SCORES + p]


@njit
def game_span(seed, first, lo, hi, rules, seats, out):
    """Games ``lo .. hi-1`` into rows ``g - first`` of ``out``."""
    tw = new_table_work()
    for g in range(lo, hi):
        play_game(seed, g, rules, seats, tw, out[g - first])


@njit_parallel
def play_games(seed, first, count, rules, seats):
    """Games ``first .. first+count-1``: int64[count, GAME_LEN] rows; the same whatever the
    thread count or the split into calls."""
    out = np.zeros((count, GAME_LEN), dtype=np.int64)
    n_chunks = min(count, 64)
    per = (count + n_chunks - 1) // n_chunks if n_chunks else 0
    for ch in prange(n_chunks):
        lo = first + ch * per
        hi = min(first + count, lo + per)
        if lo < hi:
            game_span(seed, first, lo, hi, rules, seats, out)
    return out
