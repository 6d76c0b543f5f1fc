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

The play loop is ``round.play_out``'s with the policy looked up per seat (``round.play_out``
keeps one table-wide policy: its loop is the hot path of every batch).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from ...core.jit import njit, njit_parallel
from ...core.rng import deal_hands, stream_key
from ..layouts import BID_PASS, SEATS, TRICKS, GameSlot, RoundRec, RuleSlot, View
from .auction import auction_result, legal_calls
from .game import apply_round, new_game
from .policies import PLAY_PARAMS_AT, choose_call, choose_card
from .round import new_round_work
from .scoring import score_tricks
from .tricks import beats, legal_plays

MAX_ROUNDS = 1000
#: Per game: the winning player (-1 none), rounds played, then 6 slots: final scores.
GAME_WINNER = 0
GAME_ROUNDS = 1
GAME_SCORES = 2
GAME_LEN = 8

REC_LEN = int(RoundRec.LEN)
GAME_ROW = int(GameSlot.LEN)

Seats = namedtuple("Seats", ["ids", "params", "assign"])


@njit
def play_out_seats(rules, seats, rows, dealer, work, key, bidder):
    """Six tricks from ``work.hands``, seat s playing with the play policy of strategy
    ``rows[(dealer + 1 + s) % n]``; the bidder's pitch sets trump. Fills ``work.tricks`` and
    ``work.winners``; returns the trump."""
    n = rules[RuleSlot.PLAYERS]
    must_follow = rules[RuleSlot.MUST_FOLLOW]
    hands = work.hands
    view = work.seen
    view[View.PLAYERS] = n
    view[View.BIDDER] = bidder
    view[View.PLAYED] = 0
    trump = np.int64(-1)
    leader = bidder
    for t in range(TRICKS):
        first = np.int64(-1)
        best = np.int64(-1)
        winner = np.int64(-1)
        tmask = np.int64(0)
        view[View.TRICK] = t
        for j in range(n):
            seat = (leader + j) % n
            row = rows[(dealer + 1 + seat) % n]
            legal = legal_plays(hands[seat], first, trump, must_follow, t == 0)
            view[View.SEAT] = seat
            view[View.TRUMP] = trump
            view[View.FIRST] = first
            view[View.BEST] = best
            view[View.WSEAT] = winner
            view[View.TMASK] = tmask
            view[View.IN_TRICK] = j
            card = choose_card(
                seats.ids[row, 1],
                seats.params[row, PLAY_PARAMS_AT:],
                legal,
                hands[seat],
                view,
                key,
                work.state,
            )
            bit = np.int64(1) << card
            hands[seat] &= ~bit
            tmask |= bit
            if first < 0:
                first = card
                if trump < 0:
                    trump = card >> 4
            if best < 0 or beats(card, best, trump):
                best = card
                winner = seat
        work.tricks[t] = tmask
        work.winners[t] = winner
        view[View.PLAYED] |= tmask
        leader = winner
    return trump


@njit
def table_round(key, rules, seats, rows, dealer, work, rec):
    """Deal, bid (each seat with its player's strategy, ``rows[player]``), play and score one
    round into ``rec``; returns (bidder seat, bid)."""
    n = rules[RuleSlot.PLAYERS]
    work.state[0] = 0
    work.hands[:] = 0
    deal_hands(key, work.pack, work.state, n, TRICKS, 13, 16, work.hands)
    for s in range(SEATS):
        work.dealt[s] = work.hands[s]
    highest = np.int64(BID_PASS)
    for s in range(n):
        row = rows[(dealer + 1 + s) % n]
        calls = legal_calls(highest, 1 if s == n - 1 else 0)
        c = choose_call(seats.ids[row, 0], seats.params[row], calls, work.hands[s], key, work.state)
        work.calls[s] = c
        if c > highest:
            highest = c
    bidder, bid, stole = auction_result(work.calls, n)
    trump = play_out_seats(rules, seats, rows, dealer, work, key, bidder)
    score_tricks(work.dealt, bidder, bid, trump, work.tricks, work.winners, rules, rec)
    rec[RoundRec.BIDDER] = bidder
    rec[RoundRec.BID] = bid
    rec[RoundRec.STOLE] = stole
    return bidder, bid


@njit
def play_game(seed, g, rules, seats, work, rec, game, rows, out):
    """Game ``g`` from 0:0; writes ``out`` (GAME_LEN): the winning player, rounds, scores."""
    n = rules[RuleSlot.PLAYERS]
    for p in range(n):
        rows[p] = seats.assign[(p - g) % n]
    new_game(game, (g // n) % n)
    points = rec[RoundRec.POINTS : RoundRec.POINTS + n]
    for r in range(MAX_ROUNDS):
        dealer = game[GameSlot.DEALER]
        key = stream_key(seed, g * MAX_ROUNDS + r)
        bidder, bid = table_round(key, rules, seats, rows, dealer, work, rec)
        if apply_round(game, rules, bidder, bid, points) >= 0:
            break
    out[GAME_WINNER] = game[GameSlot.WINNER]
    out[GAME_ROUNDS] = game[GameSlot.ROUNDS]
    for p in range(n):
        out[GAME_SCORES + p] = game[GameSlot.SCORES + p]


@njit
def game_span(seed, first, lo, hi, rules, seats, out):
    """Games ``lo .. hi-1`` into rows ``g - first`` of ``out``."""
    work = new_round_work()
    rec = np.zeros(REC_LEN, dtype=np.int64)
    game = np.zeros(GAME_ROW, dtype=np.int64)
    rows = np.zeros(SEATS, dtype=np.int64)
    for g in range(lo, hi):
        play_game(seed, g, rules, seats, work, rec, game, rows, out[g - first])


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
