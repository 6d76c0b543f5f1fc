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

``play.player_card`` calls :func:`pimc_decide` for a player whose play policy is ``pimc``; its
parameters (worlds per decision, sampler attempts) are the policy's row of the stage params.
"""

from __future__ import annotations

import numpy as np

from ...core.bits import popcount32
from ...core.jit import njit
from . import layouts as L
from .knowledge import sample_opponent
from .solver import after_trick, mtdf
from .tricks import SUIT_BITS, cards_bonus, legal_replies

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
def adaptive_worlds(know, gone, voids, n_opp, n_worlds):
    """Worlds for one decision when the count adapts to what is still unknown: 1 when the
    opponent's hand is determined (every pool card is his, or none), else ``n_worlds`` scaled
    by the cards still to draw over 8 (ceil), at least min(4, ``n_worlds``)."""
    known_now = know[L.KNOW_IN] & ~gone
    m = n_opp - popcount32(known_now)
    excluded = know[L.KNOW_IN] | know[L.KNOW_OUT] | gone | voids
    npool = 32 - popcount32(excluded & np.int64(0xFFFFFFFF))  # as knowledge.pool_cards
    if m <= 0 or m >= npool:
        return np.int64(1)
    w = (n_worlds * m + 7) // 8
    return np.int64(max(min(4, n_worlds), min(n_worlds, w)))


@njit
def reply_value(pos, lead, reply, ws, guess):
    """Exact value (elder minus younger, rest of the deal) of the trick-start position ``pos``
    after ``lead`` and ``reply`` (both still in the hands of ``pos``)."""
    n = popcount32(pos[0])
    nxt, net, left = after_trick(pos, lead, reply, ws.env.rules[L.RULE_LEAD_TEN_OR_HIGHER], n)
    if left == 0:
        return net + cards_bonus(nxt[3])
    return net + mtdf(nxt, np.int64(-1), left, guess - net, ws)


@njit
def pimc_decide(seat, view, know, sampler, key, state, ws, stats):
    """The pimc card of ``seat`` (0 elder, 1 younger).

    ``view`` = (own hand, leader, card led or -1 when he leads, elder's tricks so far, pique
    state normalized for the tricks left, cards of the finished tricks, the opponent's share of
    them, the suits the opponent has shown void in); ``know``: the player's knowledge of the
    opponent (``knowledge.deal_knowledge``); ``sampler`` = (worlds per decision, draws per world
    before the declaration bounds are dropped, adaptive: non-zero lets :func:`adaptive_worlds`
    set the count). ``stats`` int64[PIMC_LEN] accumulates counts.
    """
    own, leader, lead, et, ps, played, opp_played, voids = view
    n_worlds, max_attempts, adaptive = sampler
    ten = ws.env.rules[L.RULE_LEAD_TEN_OR_HIGHER]
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    gone = played
    if lead < 0:
        legal = own
    else:
        legal = legal_replies(own, lead)
        played = played | (np.int64(1) << lead)
        opp_played = opp_played | (np.int64(1) << lead)
    k = candidates(legal, gone, ten, cand)
    if k == 1:
        return cand[0]
    stats[L.PIMC_DECISIONS] += 1
    n_opp = popcount32(own) - (1 if lead >= 0 else 0)
    if adaptive:
        n_worlds = adaptive_worlds(know, played, voids, n_opp, n_worlds)
    sums = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    guesses = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    pool = np.empty(32, dtype=np.int8)
    hi = np.empty(3, dtype=np.int64)
    last_v = 0
    for w in range(n_worlds):
        opp, attempts, flags = sample_opponent(
            know,
            (played, opp_played, voids),
            (n_opp, max_attempts),
            ws.env.suit,
            key,
            state,
            pool,
            hi,
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
        pos = (own, opp, leader, et, ps) if seat == 0 else (opp, own, leader, et, ps)
        n = popcount32(pos[0])
        for i in range(k):
            c = cand[i]
            g = guesses[i] if w > 0 else last_v  # MTD(f) guess: this card's value last world
            v = mtdf(pos, c, n, g, ws) if lead < 0 else reply_value(pos, lead, c, ws, g)
            last_v = v
            stats[L.PIMC_SOLVES] += 1
            guesses[i] = v
            sums[i] += v
    best = 0
    for i in range(1, k):
        if (seat == 0 and sums[i] > sums[best]) or (seat == 1 and sums[i] < sums[best]):
            best = i
    return cand[best]
