"""Exchange policies: which cards a player discards and how many he takes from the talon.

A policy is an integer id plus a float64 parameter array (``params``), dispatched inside the
kernel so the deal simulator can call it from its numba loop. Both entry points take

* ``hand``: int64 mask of the player's 12 cards;
* ``talon``: int8[8] card indices in draw order (elder draws from the front; younger draws from
  ``talon[n_elder_took:]`` in order, first the cards elder left, then his own three);
* ``key`` (uint64) and ``rng_state`` (int64[1]): the counter-based stream of ``rng.py``; random
  choices are made only through ``rng.bounded(key, rng_state, n)``;
* ``env``: the run's ``bundles.Env`` (rules array, suit tables);

and return ``(new_hand, discard_mask, n_taken)``: the 12-card hand after the exchange (int64
mask), the cards discarded (int64 mask, ``n_taken`` cards of the old hand) and the number of cards
taken. A player discards before he draws, so every policy decides from its own hand (and, for
younger, from how many cards elder took) and never looks at the talon; ``talon`` is read only to
hand over the cards drawn.

Legal counts: elder takes 1..5; younger takes 1..8-K after elder took K, or 0..8-K when
``rules[RULE_YOUNGER_MUST_EXCHANGE] == 0``.

Policies (names and ids in ``policies.py``):

* ``random``: a uniform count in the legal range, then a uniform discard of that size.
  Draws: ``n = lo + bounded(hi - lo + 1)``, then for i in 0..n-1 ``j = bounded(12 - i)`` and
  the j-th (ascending card index) card not yet discarded is discarded.
  ``params`` is ignored.
* ``max``: takes the most allowed (elder 5, younger 8-K) and keeps the best cards by a
  simple value, ``16 * rank + cards held in that suit``; the lowest values are discarded, ties
  going to the lower card index (sevens first, shorter suits first). ``params`` is ignored.
* ``greedy``: a heuristic keep value per card (below; each weight rounded to units of
  1/1024), then every card whose value is below the value of an unknown replacement card is
  discarded, the count clipped to the legal range (the lowest values go first, ties to the lower
  card index). Equivalently it scores the keep-sets "drop the n lowest"
  for every legal n by (sum of kept values + n * replacement value) and takes the best.
* ``heuristic``: the greedy rule (same kernel: every id not random or max) with its own default
  weights, fitted for heuristic play (``piquet/heuristic_exchange.py``).

Greedy parameters (``params`` float64[GW_LEN], defaults :data:`GREEDY_DEFAULT_PARAMS`); a
card's keep value is the sum of the terms that apply to it:

* ``GW_RANK`` (0): play value per rank step, times rank (seven 0 .. ace 7).
* ``GW_POINT`` (1): the card is in the point suit (the suit with the best point key; the first
  such suit on a tie).
* ``GW_POINT_LEN`` (2): added per card of the point suit beyond four, for each of its cards (a
  long point is worth keeping whole).
* ``GW_SEQ`` (3): the card lies in a sequence of 3+.
* ``GW_SEQ_NEAR`` (4): the card is not in a sequence but touches another card of its suit or is one
  rank away from one (a sequence draw).
* ``GW_SET3`` (5): ten or higher, and the hand holds 3+ of its rank (a trio or quatorze).
* ``GW_SET2`` (6): ten or higher, and the hand holds exactly 2 of its rank.
* ``GW_GUARD`` (7): younger only: a king with at least one other card of its suit, or a queen with
  at least two (a guarded card against elder's lead).
* ``GW_SINGLETON`` (8): subtracted for a singleton below the ace.
* ``GW_DRAW`` (9): the keep value of an unknown replacement card (the discard threshold).
* ``GW_LEAVE`` (10): elder only: added to the threshold, the cost of leaving a card to younger.
"""

from __future__ import annotations

import numba
import numpy as np

from ...core.engine.bits import low_index, popcount
from ...core.engine.jit import njit, njit_inline
from ...core.engine.rng import bounded, stream_key
from ..policies import EXCH_MAX, EXCH_RANDOM, GREEDY_DEFAULTS
from ..rules import RuleSlot
from . import layouts as L
from .deal import deal_full
from .declarations import carte_blanche, point_key, score_declarations, sequence_score, set_score
from .stack import stack_int64
from .tables import T_COUNT, T_HIGH_BIT, T_POINT_KEY, T_SEQ_CARDS

#: Default greedy weights (``policies.GREEDY_DEFAULTS``; the module docstring says what each
#: index weighs).
GREEDY_DEFAULT_PARAMS = np.array(GREEDY_DEFAULTS, dtype=np.float64)

ELDER_MAX_TAKE = 5
HAND = 12
TALON = 8
SPREAD = np.int64(0x01010101)
VALUE_SCALE = 1024.0  # greedy values are rounded to integer units of 1/VALUE_SCALE
# the greedy values' and keys' scratch, on the stack (no allocation per call)
_stack32 = stack_int64(32)
_stack16 = stack_int64(16)
KEY_PAD = np.int64(0x7FFFFFFFFFFFFFFF)  # above every greedy key: pads the count to 16 slots


@njit_inline
def _apply(hand, discard, talon, start, n):
    """Hand after discarding ``discard`` and drawing ``talon[start:start + n]``."""
    new_hand = hand & ~discard
    for i in range(n):
        new_hand |= np.int64(1) << np.int64(talon[start + i])
    return new_hand


@njit
def _nth_card(mask, j, tables):
    """Card index of the ``j``-th (0-based, ascending index) card of ``mask``."""
    for s in range(4):
        b = (mask >> (8 * s)) & 0xFF
        k = tables[T_COUNT, b]
        if j < k:
            for _ in range(j):
                b &= b - 1
            return s * 8 + tables[T_HIGH_BIT, b & -b]
        j -= k
    return -1


@njit
def _random_discard(hand, lo, hi, key, rng_state, tables):
    """(discard mask, n): uniform n in [lo, hi], then n cards drawn one at a time, uniformly
    among the hand's cards not yet discarded (the j-th in ascending index order)."""
    n = lo + bounded(key, rng_state, hi - lo + 1)
    discard = np.int64(0)
    for i in range(n):
        j = bounded(key, rng_state, HAND - i)
        discard |= np.int64(1) << _nth_card(hand & ~discard, j, tables)
    return discard, n


@njit
def _max_discard(hand, n, tables):
    """The ``n`` cards of lowest simple value 16 * rank + cards held in the suit, ties to the
    lower card index: ranks from the seven up, within a rank the shorter suit (then the lower
    suit index) first."""
    discard = np.int64(0)
    left = n
    for r in range(8):
        if left == 0:
            break
        cand = 0
        for s in range(4):
            if (hand >> (8 * s + r)) & 1:
                cand |= 1 << s
        while cand and left:
            best = -1
            best_k = 0
            for s in range(4):
                if (cand >> s) & 1:
                    k = tables[T_COUNT, (hand >> (8 * s)) & 0xFF] * 4 + s
                    if best < 0 or k < best_k:
                        best = s
                        best_k = k
            cand &= ~(1 << best)
            discard |= np.int64(1) << (8 * best + r)
            left -= 1
    return discard


@njit_inline
def _weight(params, i):
    """Greedy weight ``i`` in integer units of 1/VALUE_SCALE."""
    return np.int64(round(params[i] * VALUE_SCALE))


@njit_inline
def greedy_values(hand, younger, params, tables, vals):
    """Greedy keep values of every card position as integer keys ``value * 32 + card`` (value
    in units of 1/VALUE_SCALE; keys are distinct and order by value, then card index), written
    to ``vals`` (int64[32]; a card the hand does not hold gets the value it would have). Returns
    ``(below, low)``: how many of the hand's cards are valued below the replacement threshold,
    and their mask. ``younger``: the player is younger (guards count; no leave cost).

    Each term's cards are a 32-bit mask built per suit first, so the loop over the 32 positions
    is shifts and multiplies only (no table reads, no per-card branch), which the compiler
    vectorizes."""
    w_rank = _weight(params, L.GW_RANK)
    w_seq = _weight(params, L.GW_SEQ)
    w_near = _weight(params, L.GW_SEQ_NEAR)
    w_set3 = _weight(params, L.GW_SET3)
    w_set2 = _weight(params, L.GW_SET2)
    w_guard = _weight(params, L.GW_GUARD) * younger
    w_single = _weight(params, L.GW_SINGLETON)
    threshold = _weight(params, L.GW_DRAW) + _weight(params, L.GW_LEAVE) * (1 - younger)
    best_pk = 0
    point_suit = 0
    seq = np.int64(0)  # cards in a sequence of 3+
    near = np.int64(0)  # positions touching, or one rank from, a card of the suit; not in seq
    guard = np.int64(0)  # the king of a suit of 2+, the queen of a suit of 3+
    single = np.int64(0)  # every position below the ace of a singleton suit
    for s in range(4):
        h = (hand >> (8 * s)) & 0xFF
        pk = tables[T_POINT_KEY, h]
        if pk > best_pk:
            best_pk = pk
            point_suit = s
        count = tables[T_COUNT, h]
        in_seq = np.int64(tables[T_SEQ_CARDS, h])
        seq |= in_seq << (8 * s)
        near |= (((h << 1) | (h >> 1) | (h << 2) | (h >> 2)) & ~in_seq & 0xFF) << (8 * s)
        guard |= ((np.int64(count >= 2) << 6) | (np.int64(count >= 3) << 5)) << (8 * s)
        single |= (np.int64(count == 1) * 0x7F) << (8 * s)
    w_point = np.int64(
        round(
            (params[L.GW_POINT] + params[L.GW_POINT_LEN] * max((best_pk >> 7) - 4, 0)) * VALUE_SCALE
        )
    )
    point = np.int64(0xFF) << (8 * point_suit)
    s0 = hand & 0xFF
    s1 = (hand >> 8) & 0xFF
    s2 = (hand >> 16) & 0xFF
    s3 = (hand >> 24) & 0xFF
    # ranks ten and up held in 3+ suits / exactly 2, spread to every suit
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    two = ((s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)) & ~three
    three = (three & 0xF8) * SPREAD
    two = (two & 0xF8) * SPREAD
    below = np.int64(0)
    low = np.int64(0)
    for c in range(32):
        v = (
            w_point * ((point >> c) & 1)
            + w_rank * (c & 7)
            + w_seq * ((seq >> c) & 1)
            + w_near * ((near >> c) & 1)
            + w_set3 * ((three >> c) & 1)
            + w_set2 * ((two >> c) & 1)
            + w_guard * ((guard >> c) & 1)
            - w_single * ((single >> c) & 1)
        )
        vals[c] = v * 32 + c
        is_low = ((hand >> c) & 1) & np.int64(v < threshold)
        below += is_low
        low |= is_low << c
    return below, low


@njit_inline
def _gather(hand, vals, keys):
    """Write ``vals`` of the hand's cards to ``keys[0:m]`` in ascending card order; returns m."""
    m = 0
    rest = hand
    while rest:
        keys[m] = vals[low_index(rest)]
        rest &= rest - 1
        m += 1
    return m


@njit_inline
def greedy_keys(hand, younger, params, tables, keys):
    """:func:`greedy_values` of the hand's cards only, written to ``keys[0:m]`` in ascending
    card order (``keys`` int64[13]: one spare slot). Returns ``(m, below)``: the number of
    cards and how many are valued below the replacement threshold."""
    vals = numba.carray(_stack32(), 32)
    below, _ = greedy_values(hand, younger, params, tables, vals)
    return _gather(hand, vals, keys), below


@njit_inline
def _greedy_discard(hand, lo, hi, younger, params, tables):
    """(discard mask, n): every card valued below the replacement threshold, n clipped to
    [lo, hi] by the lowest values (ties to the lower card index). Unclipped, those are the
    cards below the threshold (keys order by value first); else a card's place among the 12 is
    the number of smaller keys (no sorting, no branches), over a fixed 16 slots padded with the
    largest key so the compiler vectorizes the count."""
    vals = numba.carray(_stack32(), 32)
    below, low = greedy_values(hand, younger, params, tables, vals)
    n = min(max(below, lo), hi)
    if n == below:
        return low, np.int64(n)
    keys = numba.carray(_stack16(), 16)
    for j in range(16):
        keys[j] = KEY_PAD
    m = _gather(hand, vals, keys)
    discard = np.int64(0)
    for i in range(m):
        place = 0
        ki = keys[i]
        for j in range(16):
            place += keys[j] < ki
        discard |= np.int64(place < n) << (ki & 31)
    return discard, np.int64(n)


@njit_inline
def _choose(hand, lo, hi, younger, policy, params, key, rng_state, tables):
    if policy == EXCH_RANDOM:
        # int64, not the callers' literals: one compiled signature for every call site
        return _random_discard(hand, np.int64(lo), np.int64(hi), key, rng_state, tables)
    if policy == EXCH_MAX:
        return _max_discard(hand, np.int64(hi), tables), np.int64(hi)
    return _greedy_discard(hand, lo, hi, younger, params, tables)


@njit_inline
def elder_exchange(hand, talon, policy, params, key, rng_state, env):
    """Elder's exchange: discard 1..5 cards and draw as many from the front of ``talon``.

    Returns (new hand mask, discard mask, number taken)."""
    tables = env.suit
    discard, n = _choose(hand, 1, ELDER_MAX_TAKE, False, policy, params, key, rng_state, tables)
    return _apply(hand, discard, talon, 0, n), discard, n


@njit_inline
def younger_exchange(hand, talon, n_elder_took, policy, params, key, rng_state, env):
    """Younger's exchange after elder took ``n_elder_took``: discard between 1 (0 when
    ``rules[RULE_YOUNGER_MUST_EXCHANGE] == 0``) and 8 - n_elder_took cards and draw as many from
    ``talon[n_elder_took:]`` in order. Returns (new hand mask, discard mask, number taken)."""
    lo = 1 if env.rules[RuleSlot.YOUNGER_MUST_EXCHANGE] != 0 else 0
    hi = TALON - n_elder_took
    discard, n = _choose(hand, lo, hi, True, policy, params, key, rng_state, env.suit)
    return _apply(hand, discard, talon, n_elder_took, n), discard, n


@njit_inline
def both_exchanges(elder, younger, talon, policies, params, key, rng_state, env, forced):
    """Elder's exchange, then younger's (:func:`elder_exchange`, :func:`younger_exchange`: the
    same draws and hands) by ``policies`` (elder's id, younger's) and ``params`` (their rows).
    ``forced`` (elder's discard, younger's): -1 lets the seat's policy choose; a mask discards
    those cards and takes as many in talon order, drawing nothing from the stream (as
    ``simulate.exchange_stage``: the exchange-value study's forced cells).
    Returns (elder's hand, younger's, cards elder took, cards younger took, elder's discard,
    younger's). One loop over the two seats, so the policies' code has one call site: numba
    compiles an inlined function again at every site, and the two calls inlined it twice."""
    must = env.rules[RuleSlot.YOUNGER_MUST_EXCHANGE] != 0
    e_took = np.int64(0)
    e_disc = np.int64(0)
    y_took = np.int64(0)
    y_disc = np.int64(0)
    for seat in range(2):
        is_younger = np.int64(seat)
        hand = younger if is_younger else elder
        lo = np.int64(1) if must or not is_younger else np.int64(0)
        hi = TALON - e_took if is_younger else np.int64(ELDER_MAX_TAKE)
        pol, par = policies[seat], params[seat]
        if forced[seat] >= 0:
            discard, n = forced[seat], popcount(forced[seat])
        else:
            discard, n = _choose(hand, lo, hi, is_younger, pol, par, key, rng_state, env.suit)
        # e_took is 0 at elder's turn: elder draws from the front, younger after elder's cards
        new_hand = _apply(hand, discard, talon, e_took, n)
        if is_younger:
            younger, y_disc, y_took = new_hand, discard, n
        else:
            elder, e_disc, e_took = new_hand, discard, n
    return elder, younger, e_took, y_took, e_disc, y_disc


# Trial of exchange policies over dealt hands: both exchanges, then declarations as dealt.


@njit
def potential_points(hand, tables):
    """Points the hand's point, sequences and sets would score if each won its class."""
    return (point_key(hand, tables) >> 7) + sequence_score(hand, tables) + set_score(hand, tables)


@njit
def exchange_trial(seed, start, n, stages, env):
    """Deal ``n`` deals (indices start..start+n-1 of ``seed``), exchange with the exchange
    policies of ``stages``,
    and score declarations (everyone declares all). The exchanges draw from the deal's own stream
    after the shuffle. Returns (int32[n, L.DECL_LEN] declaration records, points per player;
    int32[n, L.XT_LEN] exchange rows: cards taken and potential points per player)."""
    records = np.zeros((n, L.DECL_LEN), dtype=np.int32)
    rows = np.zeros((n, L.XT_LEN), dtype=np.int32)
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    full = np.int64(0xFFFFFFFF)
    all_masks = (full, full, full)
    e_policy = stages.ids[L.STAGE_ELDER_EXCHANGE]
    e_params = stages.params[L.STAGE_ELDER_EXCHANGE]
    y_policy = stages.ids[L.STAGE_YOUNGER_EXCHANGE]
    y_params = stages.params[L.STAGE_YOUNGER_EXCHANGE]
    for i in range(n):
        elder, younger = deal_full(seed, start + i, pack, state)
        key = stream_key(seed, start + i)
        talon = pack[24:32]
        e_cb = carte_blanche(elder)
        y_cb = carte_blanche(younger)
        e_new, _, e_took = elder_exchange(elder, talon, e_policy, e_params, key, state, env)
        y_new, _, y_took = younger_exchange(
            younger, talon, e_took, y_policy, y_params, key, state, env
        )
        score_declarations(e_new, y_new, (e_cb, y_cb), all_masks, all_masks, env, records[i])
        rows[i, L.XT_ELDER_TOOK] = e_took
        rows[i, L.XT_YOUNGER_TOOK] = y_took
        rows[i, L.XT_ELDER_POTENTIAL] = potential_points(e_new, env.suit)
        rows[i, L.XT_YOUNGER_POTENTIAL] = potential_points(y_new, env.suit)
    return records, rows
