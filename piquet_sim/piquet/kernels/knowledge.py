"""What one player knows about his opponent's hand, and worlds drawn exactly from that knowledge.

A knowledge state is an int64 array ``know[KNOW_LEN]`` held by the *observer* about the *opponent*:

* ``KNOW_IN``: cards known to be in the opponent's hand as it was at the declarations (after the
  exchange): his declared-and-shown combinations, cards elder left that younger took;
* ``KNOW_OUT``: cards known not to be in it: the observer's own hand and discards, talon cards
  he saw that the opponent did not take (elder's left cards younger did not take; the untaken
  talon shown to younger after elder's first lead);
* ``KNOW_LO + c`` / ``KNOW_HI + c`` for class ``c`` (``CLASS_POINT``, ``CLASS_SEQ``,
  ``CLASS_SET``): bounds on the opponent's best comparison key in that class (keys of
  ``declarations.py``: point ``length * 128 + pips``, sequence ``length * 8 + top``, set
  ``rank`` / ``8 + rank``), inclusive; ``NO_HI`` means unbounded;
* ``KNOW_SIZE``: how many cards the opponent held at the declarations (12).

During play the observer also knows the cards played so far, which of them the opponent played
(``opp_played``) and the suits the opponent has shown void in (``voids``, a card mask of whole
suits). The opponent's current hand is then ``(KNOW_IN & ~opp_played)`` plus ``m`` cards of the
*pool*: every card not in ``KNOW_IN | KNOW_OUT | played | voids``.

Exact sampling (:func:`sample_opponent`): the ``m`` pool cards are a uniform ``m``-subset (partial
Fisher-Yates, every draw ``rng.bounded``), which is the exact law of the hand under the card-
location constraints (every assignment of the unseen cards to places is equally likely); the key
bounds, which concern the whole declaration-time hand ``current | opp_played``, are then imposed by
rejection, which keeps the law exactly uniform over the hands meeting every bound.

Refutation: the bounds are *beliefs* (an opponent who sank a class answered "good" while holding
better), so play can prove them false: when the known part of his declaration-time hand
(``KNOW_IN | opp_played``) already beats a class's upper bound, that bound is dropped (returned as a
flag). When ``max_attempts`` draws all fail, the world is drawn without key bounds (card
constraints still hold) and the attempt count is returned negative, so callers count fallbacks.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import cards_outside, popcount32
from ...core.engine.jit import njit, njit_inline
from ...core.engine.rng import bounded, stream_key
from . import layouts as L
from .declarations import point_key, sequence_cards, sequence_key, set_cards, set_key

NO_HI = np.int64(1 << 20)
FULL = np.int64(0xFFFFFFFF)
SUIT_FULL = np.int64(0xFF)

# Flags returned by sample_opponent (bit per class: its upper bound was refuted by play).
FLAG_FALLBACK = 8  # no draw met the key bounds within max_attempts; bounds ignored
FLAG_INFEASIBLE = 16  # card constraints leave fewer pool cards than needed (bad knowledge)


@njit
def empty_knowledge(own, size):
    """Knowledge of an observer holding ``own`` (int64 mask) and nothing else: no key bounds."""
    know = np.zeros(L.KNOW_LEN, dtype=np.int64)
    know[L.KNOW_OUT] = own
    for c in range(L.CLASS_COUNT):
        know[L.KNOW_HI + c] = NO_HI
    know[L.KNOW_SIZE] = size
    return know


@njit
def class_key(hand, c, tables):
    """Best comparison key of ``hand`` in class ``c`` (0 when it holds none)."""
    if c == L.CLASS_POINT:
        return np.int64(point_key(hand, tables))
    if c == L.CLASS_SEQ:
        return np.int64(sequence_key(hand, tables))
    return np.int64(set_key(hand, tables))


@njit
def active_bounds(know, opp_played, tables, hi_out):
    """Upper bounds still believed, into ``hi_out`` (int64[3]); returns the refuted-class flags.
    A bound is refuted when the cards known to have been in the hand already exceed it."""
    known = know[L.KNOW_IN] | opp_played
    flags = 0
    for c in range(L.CLASS_COUNT):
        hi = know[L.KNOW_HI + c]
        if hi < NO_HI and class_key(known, c, tables) > hi:
            hi_out[c] = NO_HI
            flags |= 1 << c
        else:
            hi_out[c] = hi
    return flags


@njit
def meets_bounds(full_hand, know, hi, tables):
    """True when the declaration-time hand meets every lower bound and the bounds ``hi``."""
    for c in range(L.CLASS_COUNT):
        k = class_key(full_hand, c, tables)
        if k < know[L.KNOW_LO + c] or k > hi[c]:
            return False
    return True


@njit
def pool_cards(know, played, voids, pool):
    """Fill ``pool`` (int8[32]) with the cards the opponent may hold beyond his known ones;
    returns their number."""
    excluded = know[L.KNOW_IN] | know[L.KNOW_OUT] | played | voids
    return cards_outside(excluded, pool)


@njit
def sample_opponent(know, seen, draw, tables, key, state, pool, hi):
    """One opponent hand drawn uniformly from every hand consistent with ``know`` and the play
    so far. ``seen`` = (every card gone: both players', the card led in the current trick
    included; the opponent's share of them; card mask of the suits he has shown void in);
    ``draw`` = (cards he holds now, draws before the declaration bounds are dropped). ``pool``
    int8[32] and ``hi`` int64[3] are scratch.

    Returns (hand mask, attempts, flags): ``attempts`` draws were made (negative after a
    fallback); ``flags`` as FLAG_* and the refuted classes' bits.
    """
    played, opp_played, voids = seen
    n_opp, max_attempts = draw
    flags = active_bounds(know, opp_played, tables, hi)
    known_now = know[L.KNOW_IN] & ~played
    m = n_opp - popcount32(known_now)
    npool = pool_cards(know, played, voids, pool)
    if m < 0 or m > npool:
        flags |= FLAG_INFEASIBLE
        m = max(0, min(m, npool))
    constrained = False
    for c in range(L.CLASS_COUNT):
        if know[L.KNOW_LO + c] > 0 or hi[c] < NO_HI:
            constrained = True
    attempt = 0
    while True:
        attempt += 1
        hand = known_now
        for i in range(m):
            j = i + bounded(key, state, npool - i)
            t = pool[i]
            pool[i] = pool[j]
            pool[j] = t
            hand |= np.int64(1) << pool[i]
        if not constrained or (flags & FLAG_FALLBACK):
            break
        if meets_bounds(hand | opp_played, know, hi, tables):
            break
        if attempt >= max_attempts:
            flags |= FLAG_FALLBACK
    if flags & FLAG_FALLBACK:
        return hand, -attempt, flags
    return hand, attempt, flags


@njit_inline
def shown_point_cards(hand, mask, tables):
    """Cards shown with a declared point: the first suit (S H D C order) of ``hand & mask``
    whose point key is the declared one."""
    h = hand & mask
    k = point_key(h, tables)
    if k == 0:
        return np.int64(0)
    for s in range(4):
        holding = (h >> (8 * s)) & SUIT_FULL
        if point_key(holding << (8 * s), tables) == k:
            return holding << (8 * s)
    return np.int64(0)


@njit
def learn_declarations(know, own_key, opp_key, c, shown):
    """Add what class ``c``'s declarations tell the observer: he declared ``own_key`` (0 when he
    declared nothing), the opponent's declared key was ``opp_key`` and ``shown`` the cards the
    opponent showed if he won.

    Inference (the opponent taken to declare his best and to answer truthfully):
    he won -> his best equals his declared key and ``shown`` is in his hand; the observer won ->
    he answered "good": his best is no better than ``own_key``; equal -> his best equals it;
    nobody declared -> his best is 0 for sequences and sets (no bound on the point, which every
    hand holds: he sank it).
    """
    if opp_key > own_key:
        know[L.KNOW_LO + c] = max(know[L.KNOW_LO + c], opp_key)
        know[L.KNOW_HI + c] = min(know[L.KNOW_HI + c], opp_key)
        know[L.KNOW_IN] |= shown
    elif own_key > opp_key:
        know[L.KNOW_HI + c] = min(know[L.KNOW_HI + c], own_key)
    elif own_key > 0:
        know[L.KNOW_LO + c] = max(know[L.KNOW_LO + c], own_key)
        know[L.KNOW_HI + c] = min(know[L.KNOW_HI + c], own_key)
    elif c != L.CLASS_POINT:
        know[L.KNOW_HI + c] = 0


@njit
def deal_knowledge(
    obs_hand, obs_discard, obs_masks, opp_hand, opp_masks, extra_in, extra_out, tables
):
    """The observer's knowledge after the declarations of one deal.

    ``obs_hand`` / ``opp_hand``: both declaration-time hands (int64 masks); ``obs_masks`` /
    ``opp_masks``: int64[3] declaration masks (point, sequence, sets) as in
    ``declarations.score_declarations``; ``obs_discard``: the observer's discards;
    ``extra_in`` / ``extra_out``: talon cards he saw that the opponent took / did not take.
    Only what the observer may see is used: ``opp_hand`` enters through the declared keys and
    the cards the opponent shows when he wins a class.
    """
    know = empty_knowledge(obs_hand | obs_discard | extra_out, 12)
    know[L.KNOW_IN] = extra_in
    for c in range(L.CLASS_COUNT):
        own_key = class_key(obs_hand & obs_masks[c], c, tables)
        opp_decl = opp_hand & opp_masks[c]
        opp_key = class_key(opp_decl, c, tables)
        if c == L.CLASS_POINT:
            shown = shown_point_cards(opp_hand, opp_masks[c], tables)
        elif c == L.CLASS_SEQ:
            shown = sequence_cards(opp_decl, tables)
        else:
            shown = set_cards(opp_decl)
        learn_declarations(know, own_key, opp_key, c, shown)
    return know


@njit
def sample_worlds(know, seen, draw, tables, seed, n):
    """``n`` independent draws of :func:`sample_opponent` (``seen``, ``draw`` as there), world
    w on the stream (seed, w): (hands int64[n], attempts int64[n], flags int64[n])."""
    hands = np.zeros(n, dtype=np.int64)
    attempts = np.zeros(n, dtype=np.int64)
    flags = np.zeros(n, dtype=np.int64)
    pool = np.empty(32, dtype=np.int8)
    hi = np.empty(3, dtype=np.int64)
    state = np.zeros(1, dtype=np.int64)
    for w in range(n):
        state[0] = 0
        h, a, f = sample_opponent(know, seen, draw, tables, stream_key(seed, w), state, pool, hi)
        hands[w] = h
        attempts[w] = a
        flags[w] = f
    return hands, attempts, flags


@njit_inline
def _shown(hand, masks, c, tables):
    """Cards ``hand`` shows when its declaration of class ``c`` wins (as :func:`deal_knowledge`)."""
    if c == L.CLASS_POINT:
        return shown_point_cards(hand, masks[c], tables)
    if c == L.CLASS_SEQ:
        return sequence_cards(hand & masks[c], tables)
    return set_cards(hand & masks[c])


@njit_inline
def _start_knowledge(know, out, inside, size):
    """Reset ``know`` to :func:`empty_knowledge` of ``out`` with ``inside`` known in."""
    know[:] = 0
    know[L.KNOW_IN] = inside
    know[L.KNOW_OUT] = out
    for c in range(L.CLASS_COUNT):
        know[L.KNOW_HI + c] = NO_HI
    know[L.KNOW_SIZE] = size


@njit
def both_knowledge(hands, discards, masks, seen, tables, know_e, know_y):
    """Both seats' :func:`deal_knowledge`, written into ``know_e`` (elder's of younger) and
    ``know_y`` (younger's of elder) without allocating; each seat's declared keys are computed
    once and shown cards only for a class a seat wins.

    ``hands`` = (elder's, younger's declaration-time hands); ``discards`` likewise; ``masks``
    int64[2, 3] each seat's declaration masks; ``seen`` = (talon cards elder saw that younger
    took, elder saw and were left, younger saw and were left)."""
    elder, younger = hands
    e_in, e_out, y_out = seen
    _start_knowledge(know_e, elder | discards[0] | e_out, e_in, 12)
    _start_knowledge(know_y, younger | discards[1] | y_out, np.int64(0), 12)
    for c in range(L.CLASS_COUNT):
        ke = class_key(elder & masks[0, c], c, tables)
        ky = class_key(younger & masks[1, c], c, tables)
        shown_y = np.int64(0)
        shown_e = np.int64(0)
        if ky > ke:
            shown_y = _shown(younger, masks[1], c, tables)
        elif ke > ky:
            shown_e = _shown(elder, masks[0], c, tables)
        learn_declarations(know_e, ke, ky, c, shown_y)
        learn_declarations(know_y, ky, ke, c, shown_e)


@njit_inline
def known_cards(hands, discards, masks, winners, seen, tables):
    """The two masks of :func:`both_knowledge` the heuristic reads, on scalars (no knowledge
    array, no key bound): ((elder's cards known in younger's hand, known out of it), (younger's
    of elder's)). ``masks`` = (elder's (point, sequence, sets) declaration masks, younger's);
    ``winners`` the classes' ``WIN_*`` codes (as ``declarations.declaration_points`` returns
    them: the winner's key is strictly higher, so he shows his cards); ``hands``, ``discards``
    and ``seen`` as in :func:`both_knowledge`."""
    elder, younger = hands
    e_in, e_out, y_out = seen
    e_known = np.int64(e_in)
    y_known = np.int64(0)
    for c in range(L.CLASS_COUNT):
        if winners[c] == L.WIN_YOUNGER:
            e_known |= _shown(younger, masks[1], c, tables)
        elif winners[c] == L.WIN_ELDER:
            y_known |= _shown(elder, masks[0], c, tables)
    e_out_all = np.int64(elder | discards[0] | e_out)
    y_out_all = np.int64(younger | discards[1] | y_out)
    return (e_known, e_out_all), (y_known, y_out_all)
