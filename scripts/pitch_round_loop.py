"""Pitch: one round of the analysis scripts, shared by ``pitch_heuristic_duel.py`` and
``pitch_heuristic_losses.py``.

It holds the deal and threshold auction of a round (``deal_and_bid``) and a factory of the six
tricks' loop (``make_round_player``), which takes the card chooser as a jitted function: the
scripts play the same rounds and differ only in who chooses each card (and in what they note
of each decision).
"""

from __future__ import annotations

import numpy as np

from piquet_sim.core.engine.jit import njit
from piquet_sim.core.engine.rng import deal_hands, stream_key
from piquet_sim.pitch.kernels.auction import auction_result, legal_calls
from piquet_sim.pitch.kernels.policies import choose_call
from piquet_sim.pitch.kernels.tricks import beats, legal_plays
from piquet_sim.pitch.layouts import BID_PASS, TRICKS, View
from piquet_sim.pitch.rules import RuleSlot


@njit
def deal_and_bid(seed, i, n, bid_id, bid_params, pack, state, dealt, calls):
    """Deals round ``i`` of ``seed`` into ``dealt`` (``pack``, ``state``: scratch) and bids it
    with the policy ``bid_id``, each seat's call in ``calls``. Returns (bidder, bid)."""
    key = stream_key(seed, i)
    state[0] = 0
    dealt[:] = 0
    deal_hands(key, pack, state, n, TRICKS, 13, 16, dealt)
    highest = np.int64(BID_PASS)
    for s in range(n):
        c = choose_call(
            bid_id, bid_params, legal_calls(highest, 1 if s == n - 1 else 0), dealt[s], key, state
        )
        calls[s] = c
        if c > highest:
            highest = c
    bidder, bid, _ = auction_result(calls, n)
    return bidder, bid


@njit
def no_note(arg, k, legal, hand, view, card):
    pass


def make_round_player(choose, note=no_note):
    """A jitted ``play(rules, hands, bidder, tricks, winners, view, arg)``: the six tricks from
    ``hands`` (modified; ``bidder`` leads), each trick's cards and winner into ``tricks`` and
    ``winners``, returning the trump. Decision ``k`` (0-based, in order of play) plays the card
    ``choose(arg, k, seat, legal, hand, view)`` of the legal cards ``legal`` of ``hand``, with
    ``view`` (a View row) filled for it; then ``note(arg, k, legal, hand, view, card)`` is
    called (the hand still holding the card). ``arg`` is handed to both unchanged."""

    @njit
    def play(rules, hands, bidder, tricks, winners, view, arg):
        n = rules[RuleSlot.PLAYERS]
        must_follow = rules[RuleSlot.MUST_FOLLOW]
        view[View.PLAYERS] = n
        view[View.BIDDER] = bidder
        view[View.PLAYED] = 0
        trump = np.int64(-1)
        leader = bidder
        k = 0
        for t in range(TRICKS):
            first = np.int64(-1)
            best = np.int64(-1)
            winner = np.int64(-1)
            tmask = np.int64(0)
            view[View.TRICK] = t
            for j in range(n):
                seat = (leader + j) % n
                legal = legal_plays(hands[seat], first, trump, must_follow, t == 0)
                view[View.SEAT] = seat
                view[View.TRUMP] = trump
                view[View.FIRST] = first
                view[View.BEST] = best
                view[View.WSEAT] = winner
                view[View.TMASK] = tmask
                view[View.IN_TRICK] = j
                card = choose(arg, k, seat, legal, hands[seat], view)
                note(arg, k, legal, hands[seat], view, card)
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
                k += 1
            tricks[t] = tmask
            winners[t] = winner
            view[View.PLAYED] |= tmask
            leader = winner
        return trump

    return play
