"""Positions (:class:`~..layouts.Pos` rows) at the edge of the search: legal cards, playing a
card, setting a position up for a search, and the searches' entry points.

A position's value is the points *still to be decided* from it, per seat: points of tricks not
yet complete, Last, Game (always awarded at the end of the round here; the search may settle it
earlier, which changes no total), and High and Low when ``SCORE_HIGH_LOW`` is set.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.arrays import copy_into
from ...core.engine.bits import high_index, low_index
from ...core.engine.jit import njit, njit_inline
from ..layouts import Ctx, Frame, Pos
from ..rules import RuleSlot
from .maxn import NO_BOUND, maxn
from .paranoid import mtdf
from .search_node import F_ALL, F_TIE_FULL, game_decided, nibble, shift, static_key, tie_key
from .tricks import beats, game_taker, legal_plays, mask_game_points, suit_mask, trick_bonus


@njit
def pos_trump(pos):
    """Trump of a position: given, or set by the pitch already on the table, else -1."""
    trump = pos[Pos.TRUMP]
    if trump < 0 and pos[Pos.TRICK_COUNT] > 0:
        trump = pos[Pos.TRICK] >> 4
    return trump


@njit
def pos_to_move(pos):
    return (pos[Pos.LEADER] + pos[Pos.TRICK_COUNT]) % pos[Pos.PLAYERS]


@njit
def pos_legal(pos, rules):
    """Mask of the cards the player to move may play."""
    first = pos[Pos.TRICK] if pos[Pos.TRICK_COUNT] > 0 else -1
    return legal_plays(
        pos[Pos.HANDS + pos_to_move(pos)],
        first,
        pos_trump(pos),
        rules[RuleSlot.MUST_FOLLOW],
        pos[Pos.PITCH],
    )


@njit
def _owner(pos, card):
    """Seat holding ``card`` or having played it to the trick on the table."""
    n = pos[Pos.PLAYERS]
    for s in range(n):
        if (pos[Pos.HANDS + s] >> card) & 1:
            return s
    for j in range(pos[Pos.TRICK_COUNT]):
        if pos[Pos.TRICK + j] == card:
            return (pos[Pos.LEADER] + j) % n
    return -1


@njit
def _high_low(pos, trump, low_capt):
    """(packed High and Low-to-holder points, Low card to capture or -1) once trump is known;
    cards on the table count as their players'."""
    out = np.int64(0)
    for s in range(pos[Pos.PLAYERS]):
        out |= pos[Pos.HANDS + s]
    for j in range(pos[Pos.TRICK_COUNT]):
        out |= np.int64(1) << pos[Pos.TRICK + j]
    trumps = out & suit_mask(trump)
    lo = low_index(trumps)
    gain = np.int64(1) << shift(_owner(pos, high_index(trumps)))
    if low_capt:
        return gain, lo
    return gain + (np.int64(1) << shift(_owner(pos, lo))), np.int64(-1)


@njit
def pos_play(pos, card, rules, child):
    """Write into ``child`` the position after the player to move plays ``card`` (legal
    assumed); return the points it decided (packed per seat)."""
    n = pos[Pos.PLAYERS]
    copy_into(child, pos)  # not child[:] = pos: see core.engine.arrays
    seat = pos_to_move(pos)
    child[Pos.HANDS + seat] &= ~(np.int64(1) << card)
    k = pos[Pos.TRICK_COUNT]
    child[Pos.TRICK + k] = card
    child[Pos.TRICK_COUNT] = k + 1
    gain = np.int64(0)
    trump = pos_trump(child)
    if child[Pos.TRUMP] < 0:
        child[Pos.TRUMP] = trump
    if child[Pos.SCORE_HIGH_LOW]:
        gain, low = _high_low(child, trump, rules[RuleSlot.LOW_TO])
        child[Pos.SCORE_HIGH_LOW] = 0
        child[Pos.LOW_CARD] = low
    if k + 1 < n:
        return gain
    best = child[Pos.TRICK]
    w = child[Pos.LEADER]
    tmask = np.int64(0)
    for j in range(n):
        c = child[Pos.TRICK + j]
        tmask |= np.int64(1) << c
        if j > 0 and beats(c, best, trump):
            best = c
            w = (child[Pos.LEADER] + j) % n
    last = 1 if child[Pos.HANDS + seat] == 0 else 0
    low = child[Pos.LOW_CARD] if rules[RuleSlot.LOW_TO] else np.int64(-1)
    gain += trick_bonus(tmask, trump, low, last) << shift(w)
    child[Pos.GAME + w] += mask_game_points(tmask)
    if last:
        taker = game_taker(
            child[Pos.GAME : Pos.GAME + n], n, pos[Pos.BIDDER], rules[RuleSlot.GAME_TIE]
        )
        if taker >= 0:
            gain += np.int64(1) << shift(taker)
    child[Pos.LEADER] = w
    child[Pos.TRICK_COUNT] = 0
    child[Pos.TRICK : Pos.TRICK + 6] = -1
    child[Pos.PITCH] = 0
    return gain


@njit
def setup_root(pos, rules, work, flags, paranoid):
    """Load a position into the workspace (hands, game totals, constants, ``frames[0]``);
    return the points decided at the root itself (packed): High and Low when pending and
    trump is known, and Game when it can no longer change."""
    n = pos[Pos.PLAYERS]
    ctx = work.ctx
    ctx[Ctx.PLAYERS] = n
    ctx[Ctx.BIDDER] = pos[Pos.BIDDER]
    ctx[Ctx.MUST_FOLLOW] = rules[RuleSlot.MUST_FOLLOW]
    ctx[Ctx.LOW_CAPT] = rules[RuleSlot.LOW_TO]
    ctx[Ctx.TIE_BIDDER] = rules[RuleSlot.GAME_TIE]
    ctx[Ctx.GEN] = work.gen[0]
    ctx[Ctx.FLAGS] = flags
    ctx[Ctx.PARANOID] = paranoid
    work.hands[:] = 0
    work.game[:] = 0
    work.root[:] = 0
    for s in range(n):
        work.hands[s] = pos[Pos.HANDS + s]
        work.root[s] = pos[Pos.HANDS + s]
        work.game[s] = pos[Pos.GAME + s]
        m = pos[Pos.HANDS + s]
        while m:
            work.owner[low_index(m)] = s
            m &= m - 1
    trump = pos_trump(pos)
    gain = np.int64(0)
    low = pos[Pos.LOW_CARD] if rules[RuleSlot.LOW_TO] else np.int64(-1)
    if trump >= 0 and pos[Pos.SCORE_HIGH_LOW]:
        gain, low = _high_low(pos, trump, rules[RuleSlot.LOW_TO])
    fr = work.frames
    leader = pos[Pos.LEADER]
    kc = pos[Pos.TRICK_COUNT]
    first = np.int64(-1)
    best = np.int64(-1)
    wseat = np.int64(-1)
    tmask = np.int64(0)
    for j in range(kc):
        c = pos[Pos.TRICK + j]
        tmask |= np.int64(1) << c
        if first < 0:
            first = c
        if best < 0 or beats(c, best, trump):
            best = c
            wseat = (leader + j) % n
    out = tmask
    for s in range(n):
        out |= pos[Pos.HANDS + s]
    decided, taker = game_decided(
        work.game, n, mask_game_points(out), pos[Pos.BIDDER], rules[RuleSlot.GAME_TIE]
    )
    if decided and taker >= 0:
        gain += np.int64(1) << shift(taker)
    fr[0, Frame.SEAT] = (leader + kc) % n
    fr[0, Frame.K] = kc
    fr[0, Frame.FIRST] = first
    fr[0, Frame.BEST] = best
    fr[0, Frame.WSEAT] = wseat
    fr[0, Frame.TMASK] = tmask
    fr[0, Frame.TRUMP] = trump
    fr[0, Frame.LOW] = low
    fr[0, Frame.PITCH] = pos[Pos.PITCH]
    fr[0, Frame.GLIVE] = 0 if decided else 1
    fr[0, Frame.PB] = NO_BOUND
    return gain


@njit_inline
def _solve_maxn(pos, rules, work, flags):
    gain = setup_root(pos, rules, work, flags, 0)
    if pos_legal(pos, rules) == 0 and pos[Pos.TRICK_COUNT] == 0:
        return gain  # the round is over
    v = maxn(work)
    return v if v < 0 else gain + v


@njit_inline
def _solve_paranoid(pos, rules, work, flags):
    gain = setup_root(pos, rules, work, flags, 1)
    if pos_legal(pos, rules) == 0 and pos[Pos.TRICK_COUNT] == 0:
        return nibble(gain, pos[Pos.BIDDER])
    v = mtdf(work, 2)
    return v if v < 0 else nibble(gain, pos[Pos.BIDDER]) + v


@njit
def solve_maxn(pos, rules, work, flags=F_ALL):
    """Max^n value of a position: packed points still to be decided, per seat (-1 when the
    search stopped at ``work.ctx[NODE_LIMIT]`` nodes)."""
    return _solve_maxn(pos, rules, work, flags)


@njit
def solve_paranoid(pos, rules, work, flags=F_ALL):
    """Paranoid value of a position: the bidder's points still to be decided (-1 when the
    search stopped at ``work.ctx[NODE_LIMIT]`` nodes)."""
    return _solve_paranoid(pos, rules, work, flags)


@njit_inline
def child_values(pos, rules, work, paranoid, flags, cards, values):
    """Value of each legal card of the player to move (ascending card order) into ``cards``
    and ``values`` (packed vectors; paranoid: the bidder's points), each searched with
    ``flags``; returns the count. ``paranoid`` a constant, so a kernel compiles only its own
    search (each takes 10-20 s to compile).

    Inlined, with the root's setup and the search's driver: each kernel between the kernel
    that calls it and the search would link the whole search in and have LLVM optimize and
    compile it once more (about 1 s of a cold run each)."""
    child = np.empty_like(pos)
    legal = pos_legal(pos, rules)
    k = 0
    while legal:
        c = low_index(legal)
        legal &= legal - 1
        gain = pos_play(pos, c, rules, child)
        cards[k] = c
        if paranoid:
            values[k] = nibble(gain, pos[Pos.BIDDER]) + _solve_paranoid(child, rules, work, flags)
        else:
            values[k] = gain + _solve_maxn(child, rules, work, flags)
        k += 1
    return k


@njit
def child_values_maxn(pos, rules, work, flags, cards, values):
    """:func:`child_values`, max^n: packed vectors of every seat's points."""
    return child_values(pos, rules, work, False, flags, cards, values)


@njit
def child_values_paranoid(pos, rules, work, flags, cards, values):
    """:func:`child_values`, paranoid: the bidder's points."""
    return child_values(pos, rules, work, True, flags, cards, values)


@njit
def _trick_state(pos):
    """(first card, winning card so far) of the trick on the table, -1 each at a lead."""
    if pos[Pos.TRICK_COUNT] == 0:
        return np.int64(-1), np.int64(-1)
    trump = pos_trump(pos)
    best = pos[Pos.TRICK]
    for j in range(1, pos[Pos.TRICK_COUNT]):
        if beats(pos[Pos.TRICK + j], best, trump):
            best = pos[Pos.TRICK + j]
    return pos[Pos.TRICK], best


@njit
def best_child(pos, paranoid, flags, cards, values, k):
    """Index (into ``cards``/``values`` as filled by :func:`child_values`, ``k`` cards) of the
    card the player to move chooses: max^n by his own points, ties by the tie rule of ``flags``
    (the static order, or :func:`~.search_node.pref_key` then the lowest card); paranoid, the
    bidder's best value or the defenders' worst for him, ties to the lowest card.

    No search in it: the principal line is played out by the caller, a call of the search's
    entry kernel then this one per card. A kernel that searched along the line would link the
    whole search in once more, and LLVM optimize and compile it again (about 2 s of a cold
    ``piquet pitch solve``), for a line the entry kernel already gives card by card."""
    mover = pos_to_move(pos)
    bidder = pos[Pos.BIDDER]
    full = flags & F_TIE_FULL
    first, win = _trick_state(pos)
    trump = pos_trump(pos)
    best = 0
    best_key = np.int64(-1)
    for i in range(k):
        if paranoid:
            better = i > 0 and (
                values[i] > values[best] if mover == bidder else values[i] < values[best]
            )
        else:
            key = tie_key(values[i], mover, bidder, full, static_key(cards[i], first, win, trump))
            better = key > best_key
            if better:
                best_key = key
        if better:
            best = i
    return best


#: The entry kernels by search, keyed by ``paranoid`` (a caller in Python picks one; each
#: compiles only its search): each card's value.
CHILD_VALUES = {False: child_values_maxn, True: child_values_paranoid}
