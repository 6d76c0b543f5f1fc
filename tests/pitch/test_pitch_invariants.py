"""Invariants at every step of random play, stepping with the kernels' own rules
(``legal_plays``, ``beats``) and scoring with ``replay_round``: a legal card exists until the
round ends and is held; no card is lost or doubled (hands plus cards played are always the deal,
disjoint, each hand the right size); the trick's winner holds the best card; and exactly the
points in play are awarded (High, Low, Last always; Jack and Six when dealt; Game unless tied
or nobody took a game point)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from piquet_sim.pitch.kernels.auction import auction_result, legal_calls
from piquet_sim.pitch.kernels.replay import replay_round
from piquet_sim.pitch.kernels.tricks import beats, legal_plays
from piquet_sim.pitch.layouts import Point, RoundRec
from piquet_sim.pitch.rules import Rules

ROUNDS = 400


def _bits(m: int) -> list[int]:
    return [c for c in range(64) if m >> c & 1]


def play_random_round(rng: random.Random, rules: Rules) -> None:
    n = rules.players
    arr = rules.to_array()
    deck = rng.sample(range(52), 6 * n)
    dealt = [sum(1 << ((o // 13) * 16 + o % 13) for o in deck[6 * s : 6 * s + 6]) for s in range(n)]
    hands = list(dealt)
    calls = np.zeros(6, dtype=np.int64)
    highest = 0
    for seat in range(n):
        options = [b for b in range(7) if legal_calls(highest, int(seat == n - 1)) >> b & 1]
        assert options, "a seat always has a legal call"
        calls[seat] = rng.choice(options)
        highest = max(highest, int(calls[seat]))
    bidder, bid, _ = (int(x) for x in auction_result(calls, n))
    assert 0 <= bidder < n and 3 <= bid <= 6
    played = 0
    plays = []
    trump = -1
    leader = bidder
    for t in range(6):
        first = best = winner = -1
        for j in range(n):
            seat = (leader + j) % n
            legal = int(
                legal_plays(
                    np.int64(hands[seat]), first, trump, int(rules.must_follow), int(t == 0)
                )
            )
            assert legal != 0 and legal & ~hands[seat] == 0, "a held legal card exists"
            card = rng.choice(_bits(legal))
            hands[seat] &= ~(1 << card)
            assert not played >> card & 1, "no card is played twice"
            played |= 1 << card
            plays.append(card)
            if first < 0:
                first = card
                trump = card >> 4 if trump < 0 else trump
            if best < 0 or beats(card, best, trump):
                best, winner = card, seat
            # no card lost or doubled
            union = played
            for s in range(n):
                assert union & hands[s] == 0
                union |= hands[s]
            assert union == sum(dealt)
            for s in range(n):
                done = t + (1 if (s - leader) % n <= j else 0)
                assert bin(hands[s]).count("1") == 6 - done
        # the winner's card is the highest trump, else the highest of the suit led
        trick = plays[-n:]
        trumps = [c for c in trick if c >> 4 == trump]
        top = max(trumps) if trumps else max(c for c in trick if c >> 4 == first >> 4)
        assert best == top
        leader = winner
    assert all(h == 0 for h in hands)
    d = np.zeros(6, dtype=np.int64)
    d[:n] = dealt
    rec = np.zeros(RoundRec.LEN, dtype=np.int64)
    assert replay_round(d, calls, np.array(plays, dtype=np.int64), arr, rec) == -1
    in_play = sum(dealt)
    jack = in_play >> (16 * trump + 9) & 1
    six = in_play >> (16 * trump + 4) & 1
    game = int(rec[RoundRec.TAKER + Point.GAME] >= 0)
    assert rec[RoundRec.TOTAL] == 3 + jack + six + game
    assert rec[RoundRec.POINTS : RoundRec.POINTS + n].sum() == rec[RoundRec.TOTAL]
    for p in (Point.HIGH, Point.LOW, Point.LAST):
        assert rec[RoundRec.TAKER + p] >= 0
    assert (rec[RoundRec.TAKER + Point.JACK] >= 0) == bool(jack)
    assert (rec[RoundRec.TAKER + Point.SIX] >= 0) == bool(six)
    assert sum(rec[RoundRec.GAME_PTS : RoundRec.GAME_PTS + n]) == sum(
        (10, 1, 2, 3, 4)[r - 8] for c in _bits(in_play) if (r := c % 16) >= 8
    )


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize(
    "option", [{}, {"must_follow": True}, {"low_to": "capturer"}, {"game_tie": "bidder"}]
)
def test_random_play_invariants(players, option):
    rng = random.Random(1000 * players + len(option))
    rules = Rules(players=players, **option)
    for _ in range(ROUNDS // 4):
        play_random_round(rng, rules)
