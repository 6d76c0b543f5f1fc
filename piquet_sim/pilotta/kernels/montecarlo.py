"""The ``montecarlo`` bidding policy: value each trump suit by playing sampled worlds.

At its call a seat deals the 24 cards it does not hold uniformly to the three other seats
``worlds`` times (from the round's stream) and, in each world and each trump suit, plays the
round with heuristic play at all four seats, itself contracting and leading (the player after
the dealer under ``first_lead = after_dealer``). Its team's reach in a suit is the mean over the
worlds of what a contract is measured against: its card points (``capot_points``, 250 or 252,
for its capot) plus the combinations its team scores after the comparison (everyone declaring
all) plus its pilotta. It bids in its best suit (lowest on ties) the lowest level above the
last bid when its reach minus ``margin`` reaches that level (160 at most; it never bids the
capot), never over its partner, and passes otherwise. The auction so far is not used to
shape the worlds.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import cards_outside
from ...core.engine.jit import njit
from ..layouts import COMB_LEN, DECL_LEN, SETUP_LEN, AState, Comb, Decl, MCParam, Setup
from ..policies import PLAY_HEURISTIC
from ..rules import RuleSlot
from .declarations import compare_declarations, declare_hand
from .draws import draw
from .play import play_round
from .tables import CAPOTS


@njit
def mc_reach(hand, p, dealer, worlds, rules, key, state, reach):
    """Fill ``reach`` (float64[4]) with seat ``p``'s mean team reach per trump suit over
    ``worlds`` uniform worlds (module docstring)."""
    setup = np.zeros(SETUP_LEN, dtype=np.int64)
    setup[Setup.PLAY_NS] = PLAY_HEURISTIC
    setup[Setup.PLAY_EW] = PLAY_HEURISTIC
    rest = np.zeros(24, dtype=np.int64)
    cards_outside(hand, rest)
    hands = np.zeros(4, dtype=np.int64)
    h = np.zeros(4, dtype=np.int64)
    plays = np.zeros(32, dtype=np.int8)
    legal_n = np.zeros(32, dtype=np.int8)
    decl = np.zeros((4, DECL_LEN), dtype=np.int32)
    comb = np.zeros(COMB_LEN, dtype=np.int32)
    leader = (dealer + 1) % 4 if rules[RuleSlot.FIRST_LEAD] else p
    team = p & 1
    total = 160 if rules[RuleSlot.TRUMP_KQ_POINTS] else 162
    capot = CAPOTS[rules[RuleSlot.CAPOT_POINTS]]
    for t in range(4):
        reach[t] = 0.0
    for _ in range(worlds):
        for i in range(23, 0, -1):
            j = draw(key, state, i + 1)
            rest[i], rest[j] = rest[j], rest[i]
        hands[p] = hand
        for j in range(3):
            m = np.int64(0)
            for i in range(8):
                m |= np.int64(1) << rest[8 * j + i]
            hands[(p + 1 + j) % 4] = m
        for t in range(4):
            for q in range(4):
                h[q] = hands[q]
                declare_hand(hands[q], t, decl[q])
            raw_ns, tricks_ns = play_round(
                h, t, leader, team, rules, setup, key, state, plays, legal_n
            )
            raw = raw_ns if team == 0 else total - raw_ns
            tricks = tricks_ns if team == 0 else 8 - tricks_ns
            v = capot if tricks == 8 else (0 if tricks == 0 else raw)
            compare_declarations(decl, leader, rules, comb)
            v += comb[Comb.POINTS_NS + team]
            for q in (team, team + 2):
                v += 20 * decl[q, Decl.PILOTTA]
            reach[t] += v
    for t in range(4):
        reach[t] /= worlds


@njit
def mc_call(hand, p, ast, params, rules, key, state):
    """Seat ``p``'s call under the montecarlo policy (``params``: :class:`layouts.MCParam`):
    (level, suit), or (-1, -1) for a pass."""
    b = ast[AState.BIDDER]
    if b >= 0 and (b & 1) == (p & 1):
        return -1, -1  # never over the partner
    reach = np.zeros(4)
    mc_reach(hand, p, ast[AState.DEALER], params[MCParam.WORLDS], rules, key, state, reach)
    best = 0
    for t in range(1, 4):
        if reach[t] > reach[best]:
            best = t
    x = reach[best] - params[MCParam.MARGIN]
    level = ast[AState.LEVEL] + 1
    if level <= 8 and x >= 80 + 10 * level:
        return level, best
    return -1, -1
