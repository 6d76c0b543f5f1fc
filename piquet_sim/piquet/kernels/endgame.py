"""The capot endgame of the ``heuristic`` play policy: a player who has won no trick, with few
cards left, plays the card that keeps a trick in the most opponent hands he thinks possible.

Worlds: every hand the opponent may hold now, each counted once (``sure`` cards plus ``m`` of
the ``pool`` cards: all ``C(len(pool), m)`` subsets, enumerated in Gosper order; equally likely,
the declaration key bounds and the heuristic's low-discard tilt are ignored). In each world the
rest of the play is solved exactly for one question only: can the defender force one trick
against an attacker who sees his cards (:func:`defender_escapes`)? The attacker keeps the lead
until he loses a trick, so the search is the attacker's leads (only cards the defender cannot
beat) and the defender's replies, down to empty hands.

A candidate's score is the number of worlds where, after it, the defender still escapes the
capot. The heuristic's own choice stands unless another card scores strictly more; among those,
the lowest card index. Positions with more worlds than ``max_worlds`` keep the heuristic's
choice (the cost stays bounded; the search runs only with at most ``endgame`` cards each).
"""

from __future__ import annotations

import numba
import numpy as np

from ...core.bits import low_index, popcount32
from ...core.jit import njit, njit_inline
from .stack import stack_words
from .tricks import SUIT_BITS

MAX_WORLDS = 126  # C(9, 4) or C(9, 5): larger positions keep the heuristic's choice
_stack_hands = stack_words(MAX_WORLDS)  # the distinct worlds' hands, on the stack
_stack_weights = stack_words(MAX_WORLDS)  # how many worlds each stands for


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


@njit
def n_choose(n, k):
    """The binomial coefficient C(n, k) (0 when k < 0 or k > n)."""
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit
def _spread(x, pool):
    """The cards of ``pool`` whose places among its set bits (lowest first) are set in ``x``."""
    out = np.int64(0)
    m = pool
    i = 0
    while m:
        b = m & -m
        m &= m - 1
        if (x >> i) & 1:
            out |= b
        i += 1
    return out


@njit
def _classes(own, pool):
    """Pool cards that play alike against the defender: the places (among ``pool``'s set bits,
    lowest first) whose card has the pool card just below it in one class (one suit, no card
    of ``own`` between them). Cards of one hand never meet in a trick, so swapping a card of
    the opponent's hand for another of its class swaps nothing in any trick: the escape count
    is the same in both worlds."""
    cont = np.int64(0)
    prev = np.int64(-1)
    i = 0
    m = pool
    while m:
        c = low_index(m)
        m &= m - 1
        if prev >= 0 and _alike(prev, c, own):
            cont |= np.int64(1) << i
        prev = c
        i += 1
    return cont


@njit
def _weight(x, cont, k):
    """How many worlds the class-canonical subset ``x`` stands for (:func:`_classes`): the
    product over classes of C(class size, its places taken in ``x``)."""
    w = 1
    i = 0
    while i < k:
        size = 1
        taken = (x >> i) & 1
        j = i + 1
        while j < k and (cont >> j) & 1:
            size += 1
            taken += (x >> j) & 1
            j += 1
        w *= n_choose(size, taken)
        i = j
    return w


@njit
def _distinct_worlds(own, sure, pool, m, hands, weights):
    """The opponent's possible hands (``sure`` plus each ``m``-subset of ``pool``) up to
    swaps within a class (:func:`_classes`): one hand per class count, the lowest cards of
    each class, into ``hands``, with the number of hands it stands for into ``weights``;
    returns their number. The subsets run in Gosper order; a subset stands for its class
    counts when it takes, in each class, a card only with every lower one."""
    k = popcount32(pool)
    cont = _classes(own, pool)
    n = 0
    x = (np.int64(1) << m) - 1
    top = np.int64(1) << k
    while x < top:
        if (x & cont & ~(x << 1)) == 0:
            hands[n] = sure | _spread(x, pool)
            weights[n] = 1 if cont == 0 else _weight(x, cont, k)
            n += 1
        if x == 0:
            break
        low = x & -x
        r = x + low
        x = (((r ^ x) >> 2) // low) | r
    return n


@njit
def _escapes_in(own, lead, c, hands, weights, n, worlds, bar):
    """In how many of the ``worlds`` opponent hands (``n`` distinct ones in ``hands``, each
    standing for ``weights`` hands) the defender still escapes after playing ``c``; the count
    stops early (returned at most ``bar``) once it can no longer exceed ``bar``."""
    count = 0
    done = 0
    for i in range(n):
        w = weights[i]
        if after_card(own, hands[i], lead, c):
            count += w
        done += w
        if count + (worlds - done) <= bar:
            return bar
    return count


@njit
def capot_endgame(own, lead, sure, pool, m, choice, max_worlds):
    """The capot defender's card (see module docstring): ``own`` his hand; ``lead`` the card
    led or -1; ``sure`` / ``pool`` the opponent's sure cards now and his other possible cards;
    ``m`` how many pool cards he holds; ``choice`` the heuristic's card; ``max_worlds`` at
    most ``MAX_WORLDS``. The choice's count is taken first; another card replaces it only when
    it escapes in strictly more worlds (the lowest card index among the best), so a count stops
    as soon as it cannot. Hands alike up to swaps within a class (:func:`_classes`) are solved
    once, counted as many times as they stand for."""
    if lead >= 0:
        same = own & (SUIT_BITS << (lead & 0x18))
        if same & ~((np.int64(2) << lead) - 1):
            return choice  # he can win this trick (the heuristic takes it)
        cand = same if same else own
    else:
        cand = own
    k = popcount32(pool)
    worlds = n_choose(k, m)
    if m < 0 or m > k or worlds > min(max_worlds, MAX_WORLDS) or popcount32(cand) < 2:
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
    hands = numba.carray(_stack_hands(), MAX_WORLDS).view(np.int64)
    weights = numba.carray(_stack_weights(), MAX_WORLDS).view(np.int64)
    n = _distinct_worlds(own, sure, pool, m, hands, weights)
    best = choice
    best_count = _escapes_in(own, lead, choice, hands, weights, n, worlds, -1)
    while todo and best_count < worlds:
        c = low_index(todo)
        todo &= todo - 1
        count = _escapes_in(own, lead, c, hands, weights, n, worlds, best_count)
        if count > best_count:
            best = c
            best_count = count
    return np.int64(best)
