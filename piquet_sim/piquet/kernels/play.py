"""Playing out the twelve tricks of a deal: policies, the full-deal kernel and a batch driver.

The rules of a trick (legal replies, who wins, play points, pique) are in ``tricks.py`` and
are re-exported here; the exact solver is in ``solver.py``. Policies are data: an int id
dispatched inside the kernel.

* ``PLAY_RANDOM`` (0): a uniform legal card, drawn with ``rng.bounded``;
* ``PLAY_GREEDY`` (1): a human-like rule on public information (own hand and cards played):
  lead a master card (higher than every unseen card of its suit) from the longest suit holding
  one, else the lowest card of the longest suit; follow with the cheapest winning card, else the
  lowest card of the suit; when void, throw the lowest card of the weakest suit (lowest top
  card, masters counting as strength), sparing a lone guard of a queen or king;
* ``PLAY_DD`` (2): the double-dummy move (exact solver; both sides DD = a principal variation).
  It needs a solver workspace (``solver.make_workspace()``), the ``ws`` argument of
  :func:`play_deal`; random and greedy never touch it (pass ``make_workspace(1)``).

Output record (``out``, int32[PO_LEN]): play points (leads, wins of the opponent's leads,
last trick), tricks, cards (10, 40 or 0) and pique (30 or 0) per player.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.bits import high_index, low_index, popcount32, select_bit
from ...core.jit import njit, njit_parallel
from ...core.rng import bounded, stream_key
from . import layouts as L
from .deal import N_PACK, deal_hands
from .solver import F_ALL, best_lead, best_reply, lead_value, new_workspace, solve_position
from .tricks import (
    ELDER,
    N_TRICKS,
    SUIT_BITS,
    YOUNGER,
    cards_bonus,
    legal_replies,
    pique_normalize,
    pique_start,
    trick_points,
)

PLAY_RANDOM = 0
PLAY_GREEDY = 1
PLAY_DD = 2
PLAY_POLICIES = ("random", "greedy", "dd")


BATCH_CHUNKS = 64  # fixed, so results never depend on the thread count


@njit
def random_card(mask, key, rng_state):
    """A uniform card of a non-empty mask: the k-th lowest for one ``bounded`` draw k (no draw
    when only one card is legal)."""
    n = popcount32(mask)
    if n == 1:
        return low_index(mask)
    return select_bit(mask, bounded(key, rng_state, n))


@njit
def _is_master(card, unseen):
    """True when no unseen card of the card's suit ranks above it."""
    above = (SUIT_BITS << (card & 0x18)) & ~((np.int64(2) << card) - 1)
    return (unseen & above) == 0


@njit
def greedy_lead(hand, unseen):
    """Greedy lead: a master from the longest suit holding one, else the lowest card of the
    longest suit (ties: the higher top card)."""
    best_master = -1
    best_master_len = -1
    best_low = -1
    best_low_key = -1
    for s in range(4):
        h = hand & (SUIT_BITS << (8 * s))
        if h == 0:
            continue
        n = popcount32(h)
        top = high_index(h)
        if _is_master(top, unseen) and n > best_master_len:
            best_master = top
            best_master_len = n
        k = n * 8 + (top & 7)
        if k > best_low_key:
            best_low_key = k
            best_low = low_index(h)
    return best_master if best_master >= 0 else best_low


@njit
def greedy_reply(hand, lead, unseen):
    """Greedy reply: the cheapest winner, else the lowest card of the suit; void, the lowest
    card of the weakest suit (see module docstring)."""
    legal = legal_replies(hand, lead)
    same = legal & (SUIT_BITS << (lead & 0x18))
    if same:
        winners = same & ~((np.int64(2) << lead) - 1)
        if winners:
            return low_index(winners)
        return low_index(same)
    best = -1
    best_key = 1 << 30
    for s in range(4):
        h = hand & (SUIT_BITS << (8 * s))
        if h == 0:
            continue
        n = popcount32(h)
        top = high_index(h)
        strength = top & 7
        if _is_master(top, unseen):
            strength += 8
        if n == 2 and (top & 7) >= 5 and strength < 8:
            strength += 4  # the low card guards a queen or king
        k = strength * 16 + n
        if k < best_key:
            best_key = k
            best = low_index(h)
    return best


@njit
def choose_lead(policy, hand, played, key, rng_state):
    """The lead of a random or greedy player holding ``hand`` (``played``: cards gone)."""
    if policy == PLAY_GREEDY:
        return greedy_lead(hand, np.int64(0xFFFFFFFF) & ~(hand | played))
    return random_card(hand, key, rng_state)


@njit
def choose_reply(policy, hand, lead, played, key, rng_state):
    """The reply to ``lead`` of a random or greedy player holding ``hand``."""
    if policy == PLAY_GREEDY:
        return greedy_reply(hand, lead, np.int64(0xFFFFFFFF) & ~(hand | played))
    return random_card(legal_replies(hand, lead), key, rng_state)


@njit
def dd_lead(E, Y, leader, et, ps, ten, ws):
    """The double-dummy lead (first optimal card by index); ``ps`` normalized."""
    v = solve_position(E, Y, leader, et, ps, ten, F_ALL, ws)
    return best_lead(E, Y, leader, et, ps, v, ten, F_ALL, ws)


@njit
def dd_reply(E, Y, leader, et, ps, lead, ten, ws):
    """The double-dummy reply to ``lead`` (first optimal card by index)."""
    v = lead_value(E, Y, leader, et, ps, lead, ten, F_ALL, ws)
    return best_reply(E, Y, leader, et, ps, lead, v, ten, F_ALL, ws)


@njit
def write_play_record(out, e_play, y_play, e_tricks, e_pique, y_pique):
    """Write the ``OUT_*`` record of a finished deal (cards and capot from the tricks) and
    return the net points of the play, elder minus younger."""
    cards = cards_bonus(e_tricks)
    e_cards = max(cards, 0)
    y_cards = max(-cards, 0)
    out[L.PO_E_PLAY] = e_play
    out[L.PO_Y_PLAY] = y_play
    out[L.PO_E_TRICKS] = e_tricks
    out[L.PO_Y_TRICKS] = N_TRICKS - e_tricks
    out[L.PO_E_CARDS] = e_cards
    out[L.PO_Y_CARDS] = y_cards
    out[L.PO_E_PIQUE] = e_pique
    out[L.PO_Y_PIQUE] = y_pique
    return (e_play + e_cards + e_pique) - (y_play + y_cards + y_pique)


@njit
def play_deal(
    elder,
    younger,
    elder_policy,
    younger_policy,
    rules,
    e_pre,
    y_pre,
    repique_done,
    key,
    rng_state,
    out,
    ws,
):
    """Play a full deal from elder's first lead; write the ``OUT_*`` record into ``out``.

    ``elder``/``younger``: 12-card masks. ``rules``: ``Rules.to_array()``. ``e_pre``/``y_pre``:
    points before play (combinations, carte blanche included, repique bonus excluded);
    ``repique_done`` 1 when a repique was scored (no pique then). Random draws come only from
    ``rng.bounded(key, rng_state, n)``. ``ws``: solver workspace (used by ``PLAY_DD`` only).
    Returns the net points of the play (elder minus younger: play, cards and pique).
    """
    ten = rules[L.RULE_LEAD_TEN_OR_HIGHER]
    E = np.int64(elder)
    Y = np.int64(younger)
    ps = pique_start(e_pre, y_pre, 1 - repique_done, N_TRICKS)
    leader = ELDER
    played = np.int64(0)
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
        if lp == PLAY_DD:
            c = dd_lead(E, Y, leader, e_tricks, psn, ten, ws)
        else:
            c = choose_lead(lp, lh, played, key, rng_state)
        if fp == PLAY_DD:
            d = dd_reply(E, Y, leader, e_tricks, psn, c, ten, ws)
        else:
            d = choose_reply(fp, Y if leader == ELDER else E, c, played, key, rng_state)
        cb = np.int64(1) << c
        db = np.int64(1) << d
        if leader == ELDER:
            E &= ~cb
            Y &= ~db
        else:
            Y &= ~cb
            E &= ~db
        played |= cb | db
        # events in order: lead point, win point, last-trick point; pique checked after each
        winner, ps, ge, gy, pe, py = trick_points(c, d, leader, ten, ps, t == N_TRICKS - 1)
        e_play += ge
        y_play += gy
        e_pique += pe
        y_pique += py
        if winner == ELDER:
            e_tricks += 1
        leader = winner
    return write_play_record(out, e_play, y_play, e_tricks, e_pique, y_pique)


@njit_parallel
def play_batch(
    seed, start, n, elder_policy, younger_policy, rules, e_pre, y_pre, repique_done, tables, tt_bits
):
    """Deals ``start .. start+n-1`` of ``seed`` (``rng.deal_hands``) played out: int32 rows
    [n, L.PO_LEN]. Parallel over a fixed number of chunks, each deal on its own stream
    (the play continues the deal's stream), so rows are identical whatever the thread count.
    ``tt_bits``: size of each chunk's solver table (used only by ``PLAY_DD``)."""
    rows = np.zeros((n, L.PO_LEN), dtype=np.int32)
    n_chunks = min(n, BATCH_CHUNKS)
    per = (n + n_chunks - 1) // n_chunks if n_chunks else 0
    uses_dd = elder_policy == PLAY_DD or younger_policy == PLAY_DD
    for ch in prange(n_chunks):
        pack = np.empty(N_PACK, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        ws = new_workspace(tables, tt_bits, uses_dd)
        for i in range(ch * per, min(n, (ch + 1) * per)):
            index = start + i
            elder, younger = deal_hands(seed, index, pack, state)
            key = stream_key(seed, index)
            play_deal(
                elder,
                younger,
                elder_policy,
                younger_policy,
                rules,
                e_pre,
                y_pre,
                repique_done,
                key,
                state,
                rows[i],
                ws,
            )
    return rows


__all__ = [
    "ELDER",
    "PLAY_DD",
    "PLAY_GREEDY",
    "PLAY_POLICIES",
    "PLAY_RANDOM",
    "YOUNGER",
    "choose_lead",
    "choose_reply",
    "dd_lead",
    "dd_reply",
    "greedy_lead",
    "greedy_reply",
    "new_workspace",
    "play_batch",
    "play_deal",
]
