"""Imperfect-information play (``pimc``): perfect-information Monte Carlo over exact worlds.

At each decision the player draws ``n_worlds`` opponent hands from his knowledge
(``knowledge.sample_opponent``: his cards and discards, talon cards seen, the declarations and
answers, the cards played, the voids shown), values every candidate card in every world with the
exact double-dummy solver and plays the card of best mean value (elder maximises, younger
minimises: values are elder minus younger). Candidates are the legal cards after equivalence
reduction (two cards of one suit with nothing between them but cards already played are worth
the same in every world; cut between nine and ten under ``ten_or_higher``); every candidate meets
the same worlds. Ties go to the lowest card index.

The solver workspace is reused across candidates, worlds and decisions: its table is keyed on the
exact position (both hands' holdings relative to the cards out, leader, tricks won, pique state,
lead rule), everything a value depends on, so what it holds stays true whatever the world.

:func:`play_deal_info` plays a whole deal like ``play.play_deal`` with two more inputs, each
side's knowledge of the other (``knowledge`` arrays), so ``PLAY_PIMC`` can sit beside the
random, greedy and dd policies.
"""

from __future__ import annotations

import numpy as np

from ...core.bits import popcount32
from ...core.jit import njit
from . import layouts as L
from .knowledge import sample_opponent
from .play import PLAY_DD, choose_lead, choose_reply, dd_lead, dd_reply, write_play_record
from .solver import F_ALL, mtdf
from .tricks import (
    ELDER,
    N_TRICKS,
    SUIT_BITS,
    cards_bonus,
    legal_replies,
    pique_normalize,
    pique_start,
    trick_net,
    trick_points,
)

PLAY_PIMC = 3  # next free id after play.PLAY_DD

# pimc statistics (int64[L.PIMC_LEN], accumulated)

MAX_CANDIDATES = 12


@njit
def candidates(legal, gone, ten, out):
    """Representatives of ``legal`` after equivalence reduction into ``out`` (int64[12]), the
    lowest card of each class; ``gone``: cards no longer in either hand. Returns the count."""
    n = 0
    for s in range(4):
        h = (legal >> (8 * s)) & SUIT_BITS
        if h == 0:
            continue
        g = (gone >> (8 * s)) & SUIT_BITS
        prev = -1
        for r in range(8):
            if not (h >> r) & 1:
                continue
            same = False
            if prev >= 0:
                between = ((np.int64(1) << r) - 1) & ~((np.int64(2) << prev) - 1)
                same = (between & ~g) == 0
                if ten and prev < 3 and r >= 3:
                    same = False
            if not same:
                out[n] = 8 * s + r
                n += 1
            prev = r
    return n


@njit
def reply_value(E, Y, leader, et, ps, lead, d, ten, ws, guess):
    """Exact value (elder minus younger, rest of the deal) after ``lead`` and the reply ``d``;
    ``ps`` normalized for the tricks left, both hands still hold their cards of this trick."""
    n = popcount32(E)
    last = 1 if n == 1 else 0
    winner, net, ps2 = trick_net(lead, d, leader, ten, ps, last)
    et2 = et + (1 if winner == 0 else 0)
    if last:
        return net + cards_bonus(et2)
    lb = np.int64(1) << lead
    db = np.int64(1) << d
    if leader == 0:
        E2 = E & ~lb
        Y2 = Y & ~db
    else:
        E2 = E & ~db
        Y2 = Y & ~lb
    ps3 = pique_normalize(ps2, n - 1)
    return net + mtdf(E2, Y2, winner, et2, ps3, -1, n - 1, guess - net, ten, F_ALL, ws)


@njit
def pimc_decide(
    own, player, leader, lead, et, ps, ten, played, opp_played, voids, know, n_worlds,
    max_attempts, tables, key, state, ws, stats,
):  # fmt: skip
    """The pimc card of ``player`` (0 elder, 1 younger) holding ``own``.

    ``lead`` -1: he leads; else the opponent led that card and he answers. ``et``: elder's tricks
    so far; ``ps``: pique state normalized for the tricks left. ``played``: every card out of the
    hands (the card led in this trick included), ``opp_played`` the opponent's share, ``voids``
    the suits he has shown void in, ``know`` the player's knowledge of him.
    """
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    if lead < 0:
        legal = own
        gone = played
    else:
        legal = legal_replies(own, lead)
        gone = played & ~(np.int64(1) << lead)
    k = candidates(legal, gone, ten, cand)
    if k == 1:
        return cand[0]
    stats[L.PIMC_DECISIONS] += 1
    n_opp = popcount32(own) - (1 if lead >= 0 else 0)
    sums = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    guesses = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    pool = np.empty(32, dtype=np.int8)
    hi = np.empty(3, dtype=np.int64)
    last_v = 0
    for w in range(n_worlds):
        opp, attempts, flags = sample_opponent(
            know, played, opp_played, voids, n_opp, max_attempts, tables, key, state, pool, hi
        )
        stats[L.PIMC_WORLDS] += 1
        if attempts < 0:
            stats[L.PIMC_FALLBACKS] += 1
            stats[L.PIMC_ATTEMPTS] -= attempts
        else:
            stats[L.PIMC_ATTEMPTS] += attempts
        if flags & 7:
            stats[L.PIMC_REFUTED] += 1
        if lead >= 0:
            opp |= np.int64(1) << lead
        if player == 0:
            E = own
            Y = opp
        else:
            E = opp
            Y = own
        n = popcount32(E)
        for i in range(k):
            c = cand[i]
            g = guesses[i] if w > 0 else last_v  # MTD(f) guess: this card's value last world
            if lead < 0:
                v = mtdf(E, Y, leader, et, ps, c, n, g, ten, F_ALL, ws)
            else:
                v = reply_value(E, Y, leader, et, ps, lead, c, ten, ws, g)
            last_v = v
            stats[L.PIMC_SOLVES] += 1
            guesses[i] = v
            sums[i] += v
    best = 0
    for i in range(1, k):
        if (player == 0 and sums[i] > sums[best]) or (player == 1 and sums[i] < sums[best]):
            best = i
    return cand[best]


@njit
def play_deal_info(
    elder, younger, elder_policy, younger_policy, rules, e_pre, y_pre, repique_done, key,
    rng_state, out, ws, know_e, know_y, n_worlds, max_attempts, tables, stats, line,
):  # fmt: skip
    """Play a full deal like ``play.play_deal`` (same arguments, same ``OUT_*`` record, same net
    return: play, cards and pique, elder minus younger), a side may also play ``PLAY_PIMC``.

    ``know_e``: elder's knowledge of younger's hand, ``know_y`` younger's of elder's
    (``knowledge.deal_knowledge``); ``n_worlds`` worlds per decision, ``max_attempts`` draws per
    world before the key bounds are dropped; ``tables``: ``SUIT_TABLES``; ``stats``
    int64[L.PIMC_LEN] accumulates the sampler's counts; ``line`` (int8[24]) receives the cards
    played, lead then reply for each trick.
    """
    ten = rules[L.RULE_LEAD_TEN_OR_HIGHER]
    E = np.int64(elder)
    Y = np.int64(younger)
    ps = pique_start(e_pre, y_pre, 1 - repique_done, N_TRICKS)
    leader = ELDER
    played = np.int64(0)
    e_gone = np.int64(0)  # cards elder has played
    y_gone = np.int64(0)
    e_voids = np.int64(0)  # suits elder has shown void in
    y_voids = np.int64(0)
    e_play = 0
    y_play = 0
    e_tricks = 0
    e_pique = 0
    y_pique = 0
    for t in range(N_TRICKS):
        psn = pique_normalize(ps, N_TRICKS - t)
        lp = elder_policy if leader == ELDER else younger_policy
        fp = younger_policy if leader == ELDER else elder_policy
        lh = E if leader == ELDER else Y
        fh = Y if leader == ELDER else E
        if lp == PLAY_PIMC:
            if leader == ELDER:
                c = pimc_decide(
                    E, 0, leader, -1, e_tricks, psn, ten, played, y_gone, y_voids, know_e,
                    n_worlds, max_attempts, tables, key, rng_state, ws, stats,
                )  # fmt: skip
            else:
                c = pimc_decide(
                    Y, 1, leader, -1, e_tricks, psn, ten, played, e_gone, e_voids, know_y,
                    n_worlds, max_attempts, tables, key, rng_state, ws, stats,
                )  # fmt: skip
        elif lp == PLAY_DD:
            c = dd_lead(E, Y, leader, e_tricks, psn, ten, ws)
        else:
            c = choose_lead(lp, lh, played, key, rng_state)
        cb = np.int64(1) << c
        if fp == PLAY_PIMC:
            if leader == ELDER:
                d = pimc_decide(
                    Y, 1, leader, c, e_tricks, psn, ten, played | cb, e_gone | cb, e_voids,
                    know_y, n_worlds, max_attempts, tables, key, rng_state, ws, stats,
                )  # fmt: skip
            else:
                d = pimc_decide(
                    E, 0, leader, c, e_tricks, psn, ten, played | cb, y_gone | cb, y_voids,
                    know_e, n_worlds, max_attempts, tables, key, rng_state, ws, stats,
                )  # fmt: skip
        elif fp == PLAY_DD:
            d = dd_reply(E, Y, leader, e_tricks, psn, c, ten, ws)
        else:
            d = choose_reply(fp, fh, c, played, key, rng_state)
        db = np.int64(1) << d
        line[2 * t] = c
        line[2 * t + 1] = d
        void = (d >> 3) != (c >> 3)
        suit = SUIT_BITS << (c & 0x18)
        if leader == ELDER:
            E &= ~cb
            Y &= ~db
            e_gone |= cb
            y_gone |= db
            if void:
                y_voids |= suit
        else:
            Y &= ~cb
            E &= ~db
            y_gone |= cb
            e_gone |= db
            if void:
                e_voids |= suit
        played |= cb | db
        winner, ps, ge, gy, pe, py = trick_points(c, d, leader, ten, ps, t == N_TRICKS - 1)
        e_play += ge
        y_play += gy
        e_pique += pe
        y_pique += py
        if winner == ELDER:
            e_tricks += 1
        leader = winner
    return write_play_record(out, e_play, y_play, e_tricks, e_pique, y_pique)
