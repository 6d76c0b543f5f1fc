"""Playing the eight tricks of a round with policies (ids of :data:`policies.REGISTRY`).

``play_round`` plays from a trick start with all four hands known to the kernel (each policy
only looks at its own hand, the trick, the cards already played and the voids shown) and
records every card in playing order with the number of legal cards the player had.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import low_index, popcount, popcount32, select_bit
from ...core.engine.jit import njit, njit_inline
from ..layouts import VIEW_LEN, Setup, View
from ..policies import PLAY_GREEDY, PLAY_HEURISTIC
from ..rules import RuleSlot
from .draws import draw
from .heuristic import heuristic_card
from .tables import STRENGTH
from .tricks import (
    SUIT_BITS,
    UNDER_OPTIONAL,
    card_points,
    card_power,
    exempt_now,
    legal_cards,
    play_code,
)


@njit
def random_card(mask, key, state):
    """A uniform card of a non-empty mask (no draw when only one card is legal)."""
    n = popcount(mask)
    if n == 1:
        return low_index(mask)
    return select_bit(mask, draw(key, state, n))


@njit
def _strength(card, trump):
    return STRENGTH[1 if (card >> 3) == trump else 0, card & 7]


@njit
def greedy_lead(hand, played, trump, kq):
    """Lead: the master card (strongest unplayed card of its suit) worth most points; else the
    lowest card of the longest plain suit (the lowest trump when only trumps are left)."""
    best = -1
    best_pts = -1
    for s in range(4):
        h = (hand >> (8 * s)) & SUIT_BITS
        if h == 0:
            continue
        out = ((~played) >> (8 * s)) & SUIT_BITS & ~h  # unplayed cards of others
        t = 1 if s == trump else 0
        top = -1
        for r in range(8):
            if (h >> r) & 1 and (top < 0 or STRENGTH[t, r] > STRENGTH[t, top]):
                top = r
        master = True
        for r in range(8):
            if (out >> r) & 1 and STRENGTH[t, r] > STRENGTH[t, top]:
                master = False
        if master:
            c = 8 * s + top
            pts = card_points(c, trump, kq)
            if pts > best_pts:
                best_pts = pts
                best = c
    if best >= 0:
        return best
    longest = -1
    n_long = 0
    for s in range(4):
        n = popcount32((hand >> (8 * s)) & SUIT_BITS)
        if s != trump and n > n_long:
            n_long = n
            longest = s
    if longest < 0:
        longest = trump
    h = (hand >> (8 * longest)) & SUIT_BITS
    t = 1 if longest == trump else 0
    low = -1
    for r in range(8):
        if (h >> r) & 1 and (low < 0 or STRENGTH[t, r] < STRENGTH[t, low]):
            low = r
    return 8 * longest + low


@njit
def greedy_follow(legal, led, trump, win_power, partner_winning, kq):
    """Follow: partner winning, the legal card worth most points; else the cheapest card that
    wins the trick; else the legal card worth fewest points (lowest in its order on ties)."""
    pick = -1
    pick_a = 0
    pick_b = 0
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        pts = card_points(c, trump, kq)
        st = _strength(c, trump)
        if partner_winning:
            a, b = -pts, st  # most points, then the lowest
        else:
            pw = card_power(c, led, trump)
            if pw > win_power:
                a, b = -1000 + pw, 0  # the cheapest winner first
            else:
                a, b = pts, st
        if pick < 0 or a < pick_a or (a == pick_a and b < pick_b):
            pick = c
            pick_a = a
            pick_b = b
    return pick


@njit_inline
def policy_card(policy, hand, legal, view, partner_winning, key, state):
    """The card of a simple policy (random, greedy, heuristic; anything else plays random) for
    the seat and trick described by ``view`` (:class:`layouts.View`, filled)."""
    if policy == PLAY_HEURISTIC:
        return heuristic_card(hand, legal, view)
    if policy == PLAY_GREEDY:
        trump = view[View.TRUMP]
        kq = view[View.KQ]
        if view[View.POS] == 0:
            return greedy_lead(hand, view[View.PLAYED], trump, kq)
        return greedy_follow(
            legal, view[View.LED], trump, view[View.WIN_POWER], partner_winning, kq
        )
    return random_card(legal, key, state)


@njit_inline
def card_played(c, p, led, trump, rules, voids, win_power, win_seat, top_trump, pts):
    """The trick's bookkeeping after seat ``p`` played card ``c`` (``led`` -1 on the lead):
    returns the new (led suit, voids, winning power, winning seat, top trump strength, card
    points of the trick so far). A seat that did not follow is void in the suit led, and in
    trumps too unless it played one or was free not to (partner winning, under the exemption;
    a trump in the trick it could not beat, under optional under-trumping)."""
    if led < 0:
        led = c >> 3
    elif (c >> 3) != led:
        voids |= np.int64(1) << (4 * p + led)
        if led != trump and (c >> 3) != trump:
            code = play_code(rules)
            # past the lead, the partner is winning exactly when he holds the trick
            free = exempt_now(code, win_seat == (p + 2) % 4, led, trump)
            if not free and not (code & UNDER_OPTIONAL and top_trump >= 0):
                voids |= np.int64(1) << (4 * p + trump)
    pw = card_power(c, led, trump)
    if pw > win_power:
        win_power = pw
        win_seat = p
    if (c >> 3) == trump and STRENGTH[1, c & 7] > top_trump:
        top_trump = STRENGTH[1, c & 7]
    pts += card_points(c, trump, rules[RuleSlot.TRUMP_KQ_POINTS])
    return led, voids, win_power, win_seat, top_trump, pts


@njit
def play_round(hands, trump, leader, c_team, rules, setup, key, state, plays, legal_n):
    """Play the tricks left from a trick start (``hands`` int64[4] natural masks, equal sizes,
    modified in place) with ``leader`` to lead and ``c_team`` contracting; each team plays its
    Setup play policy. Writes the cards in playing order into ``plays`` and the number of legal
    cards of each play into ``legal_n`` (int8 rows, from position 0). Returns (NS card points
    with the last trick, NS tricks) of these tricks."""
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    return play_round_in(
        hands, trump, leader, c_team, rules, setup, key, state, plays, legal_n, view
    )


@njit
def play_random(hands, trump, leader, rules, key, state, plays, legal_n):
    """:func:`play_round` when both teams play random cards: the same cards, draws and
    counts, without the view and the voids no random player reads."""
    kq = rules[RuleSlot.TRUMP_KQ_POINTS]
    code = play_code(rules)
    n_tricks = popcount32(hands[0])
    pts_ns = 0
    tricks_ns = 0
    step = 0
    for t in range(n_tricks):
        led = -1
        top_trump = -1
        win_power = -1
        win_seat = leader
        pts = 0
        for i in range(4):
            p = (leader + i) % 4
            partner_winning = i >= 2 and win_seat == (p + 2) % 4
            legal = legal_cards(hands[p], i, led, trump, top_trump, partner_winning, code)
            c = random_card(legal, key, state)
            plays[step] = c
            legal_n[step] = popcount(legal)
            step += 1
            hands[p] &= ~(np.int64(1) << c)
            if led < 0:
                led = c >> 3
            pw = card_power(c, led, trump)
            if pw > win_power:
                win_power = pw
                win_seat = p
            if (c >> 3) == trump and STRENGTH[1, c & 7] > top_trump:
                top_trump = STRENGTH[1, c & 7]
            pts += card_points(c, trump, kq)
        if t == n_tricks - 1:
            pts += 10
        if (win_seat & 1) == 0:
            pts_ns += pts
            tricks_ns += 1
        leader = win_seat
    return pts_ns, tricks_ns


@njit
def play_round_in(hands, trump, leader, c_team, rules, setup, key, state, plays, legal_n, view):
    """:func:`play_round` with the caller's ``view`` (int64[VIEW_LEN]) as scratch: a driver's,
    allocated once for all its rounds."""
    policy_ns = setup[Setup.PLAY_NS]
    policy_ew = setup[Setup.PLAY_EW]
    kq = rules[RuleSlot.TRUMP_KQ_POINTS]
    exempt = play_code(rules)
    n_tricks = popcount32(hands[0])
    played = np.int64(0)
    for p in range(4):
        played |= hands[p]
    played = ~played & 0xFFFFFFFF
    view[View.C_TEAM] = c_team
    view[View.TRUMP] = trump
    view[View.KQ] = kq
    voids = np.int64(0)
    pts_ns = 0
    tricks_ns = 0
    step = 0
    for t in range(n_tricks):
        led = -1
        top_trump = -1
        win_power = -1
        win_seat = leader
        pts = 0
        for i in range(4):
            p = (leader + i) % 4
            partner_winning = i >= 2 and win_seat == (p + 2) % 4
            legal = legal_cards(hands[p], i, led, trump, top_trump, partner_winning, exempt)
            policy = policy_ns if (p & 1) == 0 else policy_ew
            view[View.SEAT] = p
            view[View.POS] = i
            view[View.LED] = led
            view[View.TOP_TRUMP] = top_trump
            view[View.WIN_POWER] = win_power
            view[View.WIN_SEAT] = win_seat
            view[View.PLAYED] = played
            view[View.VOIDS] = voids
            c = policy_card(policy, hands[p], legal, view, partner_winning, key, state)
            plays[step] = c
            legal_n[step] = popcount(legal)
            step += 1
            hands[p] &= ~(np.int64(1) << c)
            played |= np.int64(1) << c
            led, voids, win_power, win_seat, top_trump, pts = card_played(
                c, p, led, trump, rules, voids, win_power, win_seat, top_trump, pts
            )
        if t == n_tricks - 1:
            pts += 10
        if (win_seat & 1) == 0:
            pts_ns += pts
            tricks_ns += 1
        leader = win_seat
    return pts_ns, tricks_ns
