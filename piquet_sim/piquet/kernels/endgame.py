"""The capot endgame of the ``heuristic`` play policy: a player who has won no trick, with few
cards left, plays the card that keeps a trick in the most opponent hands he thinks possible.

Worlds: every hand the opponent may hold now, each counted once (``sure`` cards plus ``m`` of
the ``pool`` cards: all ``C(len(pool), m)`` subsets, equally likely; the declaration key bounds
and the heuristic's low-discard tilt are ignored). Hands that differ only by pool cards playing
alike against the defender are solved once and counted as many times
(:func:`_distinct_worlds`). In each world the rest of the play is solved exactly for one
question only: can the defender force one trick against an attacker who sees his cards
(:func:`defender_escapes`)? The attacker keeps the lead until he loses a trick, so the search
is the attacker's leads (only cards the defender cannot beat) and the defender's replies,
down to empty hands.

A candidate's score is the number of worlds where, after it, the defender still escapes the
capot. The heuristic's own choice stands unless another card scores strictly more; among those,
the lowest card index. Positions with more worlds than ``max_worlds`` keep the heuristic's
choice (the cost stays bounded; the search runs only with at most ``endgame`` cards each).
"""

from __future__ import annotations

import numba
import numpy as np

from ...core.engine.bits import low_index, popcount
from ...core.engine.combinatorics import n_choose
from ...core.engine.jit import njit, njit_inline
from .stack import stack_int64
from .tricks import SUIT_BITS

MAX_WORLDS = 126  # C(9, 4) or C(9, 5): larger positions keep the heuristic's choice
_stack_worlds = stack_int64(4 * MAX_WORLDS)  # distinct worlds: hands, weights, verdicts


@njit_inline
def _alike(lo, hi, other):
    """True when cards ``lo`` < ``hi`` of one hand play alike against the other hand
    ``other``: one suit, and no card of ``other`` ranks between them."""
    between = ((np.int64(1) << hi) - 1) & ~((np.int64(2) << lo) - 1)
    return (lo >> 3) == (hi >> 3) and (other & between) == 0


@njit
def defender_escapes(d, a):
    """True when the defender holding ``d`` wins at least one trick against the attacker
    holding ``a`` (as many cards) who is to lead, both seeing every card. Cards are int64 masks.

    Exact shortcuts: the attacker's safe leads (cards the defender cannot beat in their suit)
    only stay safe as the defender's cards leave, so no safe lead means a trick, all leads safe
    means none; two cards of one hand with no card of the other hand between them in their suit
    play alike, so only the first of each such run is tried."""
    if d == 0:
        return False
    safe = np.int64(0)
    m = a
    while m:
        x = low_index(m)
        m &= m - 1
        if (d & (SUIT_BITS << (x & 0x18)) & ~((np.int64(2) << x) - 1)) == 0:
            safe |= np.int64(1) << x
    if safe == 0:
        return True
    if safe == a:
        return False
    prev_x = np.int64(-1)
    while safe:
        x = low_index(safe)
        safe &= safe - 1
        if prev_x >= 0 and _alike(prev_x, x, d):
            continue  # plays as the lead just tried
        prev_x = x
        rest = a & ~(np.int64(1) << x)
        same = d & (SUIT_BITS << (x & 0x18))
        replies = same if same else d
        doomed = True
        prev_y = np.int64(-1)
        while replies:
            y = low_index(replies)
            replies &= replies - 1
            if prev_y >= 0 and _alike(prev_y, y, rest):
                continue  # plays as the reply just tried
            prev_y = y
            if defender_escapes(d & ~(np.int64(1) << y), rest):
                doomed = False
                break
        if doomed:
            return False
    return True


@njit
def after_card(own, opp, lead, c):
    """True when the defender holding ``own`` still escapes the capot after playing ``c``:
    leading it (``lead`` < 0; the opponent, holding ``opp``, takes it with any higher card of
    its suit or loses the trick) or throwing it on the opponent's ``lead`` (already out of
    ``opp``; ``c`` does not win it)."""
    rest = own & ~(np.int64(1) << c)
    if lead >= 0:
        return defender_escapes(rest, opp)
    higher = opp & (SUIT_BITS << (c & 0x18)) & ~((np.int64(2) << c) - 1)
    if higher == 0:
        return True
    while higher:
        w = low_index(higher)
        higher &= higher - 1
        if not defender_escapes(rest, opp & ~(np.int64(1) << w)):
            return False
    return True


#: Binomial coefficients C(n, k) for n, k < 9 (a class holds at most the 8 cards of a suit).
CHOOSE = np.array([[n_choose.py_func(n, k) for k in range(9)] for n in range(9)], dtype=np.int64)


@njit
def _distinct_worlds(own, sure, pool, m, out):
    """The opponent's possible hands (``sure`` plus each ``m``-subset of ``pool``) up to swaps
    of pool cards that play alike against the defender (classes: one suit, no card of ``own``
    between them; cards of one hand never meet in a trick, so such a swap changes nothing in
    any trick and the escape count is the same in both worlds): one hand per class count, the
    lowest cards of each class, into ``out[0]``, with the number of hands it stands for (the
    product of C(class size, cards taken)) into ``out[1]``; returns their number. Row
    ``out[2]`` is scratch: the pool cards in order, then the classes of two cards or more as
    place masks. Subsets run in Gosper order; one stands for its class counts when it takes, in
    each class, a card only with every lower one."""
    cards = out[2]
    k = 0
    cont = np.int64(0)  # places whose card is in the class of the card just below
    prev = np.int64(-1)
    p = pool
    while p:
        c = low_index(p)
        p &= p - 1
        cards[k] = c
        if prev >= 0 and _alike(prev, c, own):
            cont |= np.int64(1) << k
        prev = c
        k += 1
    g = 0  # classes of two cards or more, as place masks from cards[32]
    rest = cont
    while rest:
        i = low_index(rest)  # the class's second place
        run = rest ^ (rest & (rest + (np.int64(1) << i)))  # its places from the second on
        rest &= ~run
        cards[32 + g] = run | (np.int64(1) << (i - 1))
        g += 1
    n = 0
    x = (np.int64(1) << m) - 1
    top = np.int64(1) << k
    while x < top:
        if (x & cont & ~(x << 1)) == 0:
            hand = sure
            b = x
            while b:
                hand |= np.int64(1) << cards[low_index(b)]
                b &= b - 1
            w = np.int64(1)
            for j in range(g):
                cm = cards[32 + j]
                w *= CHOOSE[popcount(cm), popcount(x & cm)]
            out[0, n] = hand
            out[1, n] = w
            n += 1
        if x == 0:
            break
        low = x & -x
        r = x + low
        x = (((r ^ x) >> 2) >> low_index(low)) | r
    return n


@njit
def _escapes_each(own, lead, c, out, n):
    """How many of the opponent hands (the ``n`` distinct ones of :func:`_distinct_worlds` in
    ``out``, each standing for its weight) the defender still escapes after playing ``c``; each
    one's verdict (0 / 1) into ``out[2]``."""
    count = 0
    for i in range(n):
        e = after_card(own, out[0, i], lead, c)
        out[2, i] = e
        if e:
            count += out[1, i]
    return count


@njit
def _beats(own, lead, c, out, n, best_count):
    """True when the defender escapes after ``c`` in strictly more hands than after the card
    whose verdicts are in ``out[2]`` (``best_count`` hands): first over the hands that card
    loses (``c`` cannot do better without escaping in one of them), then over the rest, until
    the count can or can no longer exceed. ``c``'s verdicts go into ``out[3]`` (complete when
    True)."""
    gain = 0
    left = 0  # hands the best card escapes in, still to solve for ``c``
    for i in range(n):
        if out[2, i]:
            left += out[1, i]
        else:
            e = after_card(own, out[0, i], lead, c)
            out[3, i] = e
            if e:
                gain += out[1, i]
    if gain == 0:
        return False
    count = gain
    for i in range(n):
        if out[2, i]:
            e = after_card(own, out[0, i], lead, c)
            out[3, i] = e
            left -= out[1, i]
            if e:
                count += out[1, i]
            if count + left <= best_count:
                return False
    return count > best_count


@njit
def capot_endgame(own, lead, sure, pool, m, choice, max_worlds):
    """The capot defender's card (see module docstring): ``own`` his hand; ``lead`` the card
    led or -1; ``sure`` / ``pool`` the opponent's sure cards now and his other possible cards;
    ``m`` how many pool cards he holds; ``choice`` the heuristic's card; ``max_worlds`` at
    most ``MAX_WORLDS``. The choice's count is taken first; another card replaces it only when
    it escapes in strictly more worlds (the lowest card index among the best), so a count stops
    as soon as it cannot, and starts with the worlds the best card so far loses (:func:`_beats`).
    Hands alike up to swaps within a class (:func:`_distinct_worlds`) are solved once, counted
    as many times as they stand for."""
    if lead >= 0:
        same = own & (SUIT_BITS << (lead & 0x18))
        if same & ~((np.int64(2) << lead) - 1):
            return choice  # he can win this trick (the heuristic takes it)
        cand = same if same else own
    else:
        cand = own
    k = popcount(pool)
    worlds = n_choose(k, m)
    if m < 0 or m > k or worlds > min(max_worlds, MAX_WORLDS) or popcount(cand) < 2:
        return choice
    # a card with no possible opponent card between it and the choice, or the card before it,
    # counts as that one does (so cannot score strictly more): only the others are counted
    poss = sure | pool
    todo = np.int64(0)
    prev = np.int64(-1)
    c_left = cand & ~(np.int64(1) << choice)
    while c_left:
        c = low_index(c_left)
        c_left &= c_left - 1
        if not _alike(min(c, choice), max(c, choice), poss) and not (
            prev >= 0 and _alike(prev, c, poss)
        ):
            todo |= np.int64(1) << c
        prev = c
    if todo == 0:
        return choice
    out = numba.carray(_stack_worlds(), (4, MAX_WORLDS))
    n = _distinct_worlds(own, sure, pool, m, out)
    best = choice
    best_count = _escapes_each(own, lead, choice, out, n)
    while todo and best_count < worlds:
        c = low_index(todo)
        todo &= todo - 1
        if _beats(own, lead, c, out, n, best_count):
            best = c
            best_count = 0
            for i in range(n):
                out[2, i] = out[3, i]
                best_count += out[3, i] * out[1, i]
    return np.int64(best)
