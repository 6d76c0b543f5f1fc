"""Declaration kernels: point, sequences, sets, carte blanche, carte rouge, repique.

Hands are int64 masks (card = suit * 8 + rank). ``tables`` is ``tables.SUIT_TABLES``; ``rules``
is ``Rules.to_array()``. A declaration policy is three masks per player: he declares the point,
the sequences and the sets of ``hand & mask`` (mask 0 withholds the class, answering "good";
a mask without some cards declares a lesser combination). He can never declare more than he holds.

Comparison keys (larger is better, 0 = nothing declared):
point ``length * 128 + pips``; sequence ``length * 8 + top rank``; set ``rank`` for a trio,
``8 + rank`` for a quatorze.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.barrier import opaque
from ...core.engine.bits import high_index, popcount
from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ..rules import RuleSlot
from . import layouts as L
from .tables import (
    DECL_FIELD,
    DECL_POINT_SHIFT,
    DECL_SEQ_SHIFT,
    T_COUNT,
    T_DECL,
    T_HIGH_BIT,
    T_POINT_KEY,
    T_SEQ_BEST,
    T_SEQ_CARDS,
    T_SEQ_COUNT,
    T_SEQ_SCORE,
)

FULL = np.int64(0xFFFFFFFF)
COURT_CARDS = np.int64(0x70707070)  # J Q K of every suit
BYTE_SPREAD = np.int64(0x01010101)  # one rank, every suit
SET_RANKS = 0xF8  # ranks that may form sets: T J Q K A

# Record written by score_declarations: per player a block of six, then the class winners.

# Class winner codes.

REPIQUE_BONUS = 60
CARTE_BLANCHE_POINTS = 10
CARTE_ROUGE_POINTS = 20


@njit_inline
def carte_blanche(hand):
    """True when the hand holds no king, queen or jack."""
    return (hand & COURT_CARDS) == 0


@njit_inline
def point_key(hand, tables):
    """Best point: length * 128 + pips of the best suit (0 for an empty hand)."""
    best = 0
    for s in range(4):
        k = tables[T_POINT_KEY, (hand >> (8 * s)) & 0xFF]
        if k > best:
            best = k
    return best


@njit_inline
def point_suits(hand, key, tables):
    """Mask of the cards of every suit whose point key equals ``key`` (several on a tie)."""
    cards = np.int64(0)
    for s in range(4):
        holding = (hand >> (8 * s)) & 0xFF
        if key > 0 and tables[T_POINT_KEY, holding] == key:
            cards |= holding << (8 * s)
    return cards


@njit_inline
def sequence_key(hand, tables):
    """Best sequence: length * 8 + top rank; 0 without a sequence of 3+."""
    best = 0
    for s in range(4):
        k = tables[T_SEQ_BEST, (hand >> (8 * s)) & 0xFF]
        if k > best:
            best = k
    return best


@njit_inline
def sequence_score(hand, tables):
    """Points of every sequence of 3+ in the hand (tierce 3, quart 4, quint 15 .. 18)."""
    total = 0
    for s in range(4):
        total += tables[T_SEQ_SCORE, (hand >> (8 * s)) & 0xFF]
    return total


@njit
def sequence_count(hand, tables):
    """Number of sequences of 3+ in the hand."""
    total = 0
    for s in range(4):
        total += tables[T_SEQ_COUNT, (hand >> (8 * s)) & 0xFF]
    return total


@njit_inline
def sequence_cards(hand, tables):
    """Mask of the cards lying in sequences of 3+."""
    cards = np.int64(0)
    for s in range(4):
        cards |= np.int64(tables[T_SEQ_CARDS, (hand >> (8 * s)) & 0xFF]) << (8 * s)
    return cards


@njit_inline
def set_ranks(hand):
    """(quatorze ranks, trio ranks) as 8-bit rank masks, ranks T..A only."""
    s0 = hand & 0xFF
    s1 = (hand >> 8) & 0xFF
    s2 = (hand >> 16) & 0xFF
    s3 = (hand >> 24) & 0xFF
    four = s0 & s1 & s2 & s3 & SET_RANKS
    three_plus = ((s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))) & SET_RANKS
    return four, three_plus & ~four


@njit_inline
def set_key(hand, tables):
    """Best set: 8 + rank for a quatorze, rank for a trio, 0 for none."""
    four, trio = set_ranks(hand)
    if four:
        return 8 + tables[T_HIGH_BIT, four]
    if trio:
        return tables[T_HIGH_BIT, trio]
    return 0


@njit_inline
def declaration_keys(hand, tables):
    """(point key, sequence key, sequence points) of the hand from one table pass (``T_DECL``):
    the same values as :func:`point_key`, :func:`sequence_key`, :func:`sequence_score`."""
    pk = 0
    qk = 0
    qs = 0
    for s in range(4):
        v = tables[T_DECL, (hand >> (8 * s)) & 0xFF]
        pk = max(pk, v >> DECL_POINT_SHIFT)
        qk = max(qk, (v >> DECL_SEQ_SHIFT) & DECL_FIELD)
        qs += v & DECL_FIELD
    return pk, qk, qs


@njit_inline
def declaration_keys_of_pairs(hand, pairs):
    """:func:`declaration_keys` from ``tables.DECL_PAIRS`` (two suits a load): the same values
    in two table loads instead of four."""
    low = np.int64(pairs[hand & 0xFFFF])
    high = np.int64(pairs[(hand >> 16) & 0xFFFF])
    return (
        max(low >> DECL_POINT_SHIFT, high >> DECL_POINT_SHIFT),
        max((low >> DECL_SEQ_SHIFT) & DECL_FIELD, (high >> DECL_SEQ_SHIFT) & DECL_FIELD),
        (low & DECL_FIELD) + (high & DECL_FIELD),
    )


@njit_inline
def set_key_score(hand):
    """(:func:`set_key`, :func:`set_score`) without branches or table loads (the set ranks are
    random data): the key is the highest bit of ``four << 8 | trio`` (set ranks are 3..7, so bit
    0, or-ed in, stands for "none" and gives 0), the score two popcounts."""
    four, trio = set_ranks(hand)
    key = high_index((four << 8) | trio | 1)
    return key, 14 * popcount(four) + 3 * popcount(trio)


@njit_inline
def set_score(hand, tables):
    """Points of every set: 14 per quatorze, 3 per trio."""
    four, trio = set_ranks(hand)
    # popcount of an 8-bit mask through the per-holding count row (row 0)
    return 14 * tables[0, four] + 3 * tables[0, trio]


@njit_inline
def set_cards(hand):
    """Mask of the cards lying in quatorzes and trios."""
    four, trio = set_ranks(hand)
    return hand & ((four | trio) * BYTE_SPREAD)


@njit_inline
def _class_winner(elder_key, younger_key):
    """W_* code of a class from both keys, without branches (the keys are random data)."""
    e_wins = np.int32(elder_key > younger_key)
    y_wins = np.int32(younger_key > elder_key)
    equal = np.int32(elder_key == younger_key) & np.int32(elder_key > 0)
    return e_wins * L.WIN_ELDER + y_wins * L.WIN_YOUNGER + equal * L.WIN_EQUAL


@njit_inline
def _beats(key, other):
    """-1 (all bits set) when ``key > other``, else 0. Points are masked with it rather than
    multiplied by the comparison: LLVM turns ``points * (key > other)`` into a branch around the
    points' table loads, and who wins a class is random data, so that branch mispredicts
    (:mod:`piquet_sim.core.engine.barrier`)."""
    return opaque(-np.int64(key > other))


@njit_inline
def _wins_mask(key, other):
    """:func:`_beats` without its barrier, for loops the compiler vectorizes (no branch there)."""
    return -np.int64(key > other)


@njit_inline
def _carte_rouge(
    hand, point_hand, point_k, wins_point, seq_hand, wins_seq, set_hand, wins_sets, tables
):
    """True when every card of ``hand`` lies in a combination that scores for its holder
    (inlined: a call inside the caller's branch would keep its tables' reference count live)."""
    covered = np.int64(0)
    if wins_seq:
        covered |= sequence_cards(seq_hand, tables)
    if wins_sets:
        covered |= set_cards(set_hand)
    if covered == hand:
        return True
    if wins_point:
        for s in range(4):
            holding = (point_hand >> (8 * s)) & 0xFF
            if tables[T_POINT_KEY, holding] == point_k and (covered | (holding << (8 * s))) == hand:
                return True
    return False


@njit_inline
def may_carte_rouge(hand, tables):
    """False when ``hand`` cannot score carte rouge whatever it wins: the cards outside its
    sequences and sets span two suits or more (carte rouge needs them all in one point suit).
    A hand for which it is False scores as if the rule were off."""
    rest = hand & ~(sequence_cards(hand, tables) | set_cards(hand))
    suits = 0
    for s in range(4):
        suits += ((rest >> (8 * s)) & 0xFF) != 0
    return suits <= 1


@njit_inline
def declaration_points(elder, younger, cb, e_masks, y_masks, env):
    """Both players' declaration points, as :func:`score_declarations` records them (same
    arguments): ((elder's DP_BLOCK points in DP_* order), (younger's), (point, sequence, sets
    winner codes)). Inlined, so a caller that sums the points never touches memory."""
    return declaration_points_under(
        elder, younger, cb, e_masks, y_masks, env, env.rules[RuleSlot.CARTE_ROUGE] != 0
    )


@njit_inline
def declaration_points_under(elder, younger, cb, e_masks, y_masks, env, carte_rouge):
    """:func:`declaration_points` with the carte rouge rule given as ``carte_rouge`` (bool). A
    hot loop tests the rule once and calls this with a constant: the compiler then drops the
    carte rouge code (and the values it would keep live) from the loop that does not need it."""
    tables = env.suit
    elder_cb, younger_cb = cb
    e_ph = elder & e_masks[0]
    y_ph = younger & y_masks[0]
    e_sh = elder & e_masks[1]
    y_sh = younger & y_masks[1]
    e_th = elder & e_masks[2]
    y_th = younger & y_masks[2]

    # Branch-free on purpose: who wins a class is random data, so branches mispredict.
    e_pk, _, _ = declaration_keys(e_ph, tables)
    y_pk, _, _ = declaration_keys(y_ph, tables)
    _, e_qk, e_qs = declaration_keys(e_sh, tables)
    _, y_qk, y_qs = declaration_keys(y_sh, tables)
    e_tk, e_ts = set_key_score(e_th)
    y_tk, y_ts = set_key_score(y_th)
    w_point = _class_winner(e_pk, y_pk)
    w_seq = _class_winner(e_qk, y_qk)
    w_sets = _class_winner(e_tk, y_tk)

    e_cb_pts = CARTE_BLANCHE_POINTS * np.int32(elder_cb)
    y_cb_pts = CARTE_BLANCHE_POINTS * np.int32(younger_cb)
    e_point = (e_pk >> 7) & _beats(e_pk, y_pk)
    y_point = (y_pk >> 7) & _beats(y_pk, e_pk)
    e_seq = e_qs & _beats(e_qk, y_qk)
    y_seq = y_qs & _beats(y_qk, e_qk)
    e_sets = e_ts & _beats(e_tk, y_tk)
    y_sets = y_ts & _beats(y_tk, e_tk)

    e_rouge = 0
    y_rouge = 0
    if carte_rouge:
        if _carte_rouge(
            elder,
            e_ph,
            e_pk,
            w_point == L.WIN_ELDER,
            e_sh,
            w_seq == L.WIN_ELDER,
            e_th,
            w_sets == L.WIN_ELDER,
            tables,
        ):
            e_rouge = CARTE_ROUGE_POINTS
        if _carte_rouge(
            younger,
            y_ph,
            y_pk,
            w_point == L.WIN_YOUNGER,
            y_sh,
            w_seq == L.WIN_YOUNGER,
            y_th,
            w_sets == L.WIN_YOUNGER,
            tables,
        ):
            y_rouge = CARTE_ROUGE_POINTS
    # ``tables`` used once more after the branch (the empty holding's count: 0), so numba
    # releases it at one point past the join and prunes the pair; otherwise every deal pays an
    # atomic incref and a decref call (with ``_carte_rouge`` inlined, as it is here).
    e_rouge += tables[T_COUNT, 0]

    # Repique: a player repiques when, at some scoring event (in class order), his running
    # total reaches 30 while the opponent's is still 0. Carte blanche alone (10) cannot reach 30,
    # so the checks start at the point. In carte rouge, elder's event comes before younger's.
    te = e_cb_pts + e_point
    ty = y_cb_pts + y_point
    e_rep = (te >= 30) & (ty == 0)
    y_rep = (ty >= 30) & (te == 0)
    te += e_seq
    ty += y_seq
    e_rep |= (te >= 30) & (ty == 0)
    y_rep |= (ty >= 30) & (te == 0)
    te += e_sets
    ty += y_sets
    e_rep |= (te >= 30) & (ty == 0)
    y_rep |= (ty >= 30) & (te == 0)
    te += e_rouge
    e_rep |= (te >= 30) & (ty == 0)
    ty += y_rouge
    y_rep |= (ty >= 30) & (te == 0)
    e_rep = REPIQUE_BONUS * np.int32(e_rep)
    y_rep = REPIQUE_BONUS * np.int32(y_rep)
    return (
        (e_cb_pts, e_point, e_seq, e_sets, e_rouge, e_rep),
        (y_cb_pts, y_point, y_seq, y_sets, y_rouge, y_rep),
        (w_point, w_seq, w_sets),
    )


@njit_inline
def declaration_totals(elder, younger, tables):
    """(elder's total, younger's total, elder repiqued, younger repiqued) of a deal where both
    declare everything and carte rouge is off: the sums :func:`declaration_points_under` gives
    with full masks and ``carte_rouge=False`` (tests hold them equal)."""
    return totals_from_keys(
        elder, younger, declaration_keys(elder, tables), declaration_keys(younger, tables)
    )


@njit_inline
def totals_from_keys(elder, younger, e_keys, y_keys):
    """:func:`declaration_totals` from each hand's (point key, sequence key, sequence points)
    of :func:`declaration_keys`. No loop, table or barrier: the random-deal loop reads the keys
    deal by deal, then calls this in one loop over a block of deals that the compiler
    vectorizes (a barrier such as :func:`_beats`'s, or a loop inlined at numba level, keeps
    that loop scalar)."""
    e_pk, e_qk, e_qs = e_keys
    y_pk, y_qk, y_qs = y_keys
    e_tk, e_ts = set_key_score(elder)
    y_tk, y_ts = set_key_score(younger)
    # running totals after carte blanche + point, + sequences, + sets (the repique checks)
    te1 = CARTE_BLANCHE_POINTS * np.int64(carte_blanche(elder)) + (
        (e_pk >> 7) & _wins_mask(e_pk, y_pk)
    )
    ty1 = CARTE_BLANCHE_POINTS * np.int64(carte_blanche(younger)) + (
        (y_pk >> 7) & _wins_mask(y_pk, e_pk)
    )
    te2 = te1 + (e_qs & _wins_mask(e_qk, y_qk))
    ty2 = ty1 + (y_qs & _wins_mask(y_qk, e_qk))
    te3 = te2 + (e_ts & _wins_mask(e_tk, y_tk))
    ty3 = ty2 + (y_ts & _wins_mask(y_tk, e_tk))
    e_rep = ((te1 >= 30) & (ty1 == 0)) | ((te2 >= 30) & (ty2 == 0)) | ((te3 >= 30) & (ty3 == 0))
    y_rep = ((ty1 >= 30) & (te1 == 0)) | ((ty2 >= 30) & (te2 == 0)) | ((ty3 >= 30) & (te3 == 0))
    e_rep = np.int64(e_rep)
    y_rep = np.int64(y_rep)
    return te3 + REPIQUE_BONUS * e_rep, ty3 + REPIQUE_BONUS * y_rep, e_rep, y_rep


@njit_inline
def score_declarations(elder, younger, cb, e_masks, y_masks, env, out):
    """Score both players' declarations into ``out`` (int32[DECL_LEN]), in points per player.

    ``cb`` = (elder dealt carte blanche, younger dealt carte blanche): scored first, 10 each.
    ``e_masks`` / ``y_masks`` = (point, sequence, sets) masks each player declares from.
    ``env``: the run's ``bundles.Env`` (rules array and suit tables).
    Repique (60) goes to a player whose combinations, counted in the order carte blanche, point,
    sequences, sets, carte rouge, reach 30 before the opponent has scored anything.
    """
    e, y, w = declaration_points(elder, younger, cb, e_masks, y_masks, env)
    out[L.DECL_ELDER + L.DP_CARTE_BLANCHE] = e[0]
    out[L.DECL_ELDER + L.DP_POINT] = e[1]
    out[L.DECL_ELDER + L.DP_SEQUENCE] = e[2]
    out[L.DECL_ELDER + L.DP_SETS] = e[3]
    out[L.DECL_ELDER + L.DP_CARTE_ROUGE] = e[4]
    out[L.DECL_ELDER + L.DP_REPIQUE] = e[5]
    out[L.DECL_YOUNGER + L.DP_CARTE_BLANCHE] = y[0]
    out[L.DECL_YOUNGER + L.DP_POINT] = y[1]
    out[L.DECL_YOUNGER + L.DP_SEQUENCE] = y[2]
    out[L.DECL_YOUNGER + L.DP_SETS] = y[3]
    out[L.DECL_YOUNGER + L.DP_CARTE_ROUGE] = y[4]
    out[L.DECL_YOUNGER + L.DP_REPIQUE] = y[5]
    out[L.DECL_WIN_POINT] = w[0]
    out[L.DECL_WIN_SEQUENCE] = w[1]
    out[L.DECL_WIN_SETS] = w[2]


@njit
def _score_rows(first, count, hands, flags, masks, env, out):
    """Rows ``first .. first+count-1`` of :func:`score_declarations_batch` (``hands``,
    ``flags`` (carte blanche), ``masks``: elder's array then younger's)."""
    elders, youngers = hands
    elder_cb, younger_cb = flags
    elder_masks, younger_masks = masks
    for i in range(first, first + count):
        e_masks = (elder_masks[i, 0], elder_masks[i, 1], elder_masks[i, 2])
        y_masks = (younger_masks[i, 0], younger_masks[i, 1], younger_masks[i, 2])
        cb = (elder_cb[i] != 0, younger_cb[i] != 0)
        score_declarations(elders[i], youngers[i], cb, e_masks, y_masks, env, out[i])


#: Chunks of :func:`score_declarations_batch` (on numba's threads; the rows never depend on it).
SCORE_CHUNKS = 64


@driver(_score_rows)
def score_declarations_batch(
    elders, youngers, elder_cb, younger_cb, elder_masks, younger_masks, env
):
    """Score n deals: hands int64[n], carte blanche flags int8[n], policy masks int64[n, 3]
    (point, sequence, sets). Returns int32[n, DECL_LEN] records. Chunks on threads
    (``core.engine.jit_threads``)."""
    n = elders.shape[0]
    out = np.zeros((n, L.DECL_LEN), dtype=np.int32)
    hands, flags = (elders, youngers), (elder_cb, younger_cb)
    masks = (elder_masks, younger_masks)

    def work(c: int, first: int, count: int) -> None:
        _score_rows(first, count, hands, flags, masks, env, out)

    for_spans(n, min(n, SCORE_CHUNKS), work)
    return out


@njit
def hand_sequences(hand, tables, out):
    """Write every sequence of 3+ as rows (suit, length, top rank) into out (int32[k, 3]);
    returns the number of rows."""
    n = 0
    for s in range(4):
        holding = (hand >> (8 * s)) & 0xFF
        length = 0
        for rank in range(9):
            if rank < 8 and (holding >> rank) & 1:
                length += 1
            else:
                if length >= 3:
                    out[n, 0] = s
                    out[n, 1] = length
                    out[n, 2] = rank - 1
                    n += 1
                length = 0
    return n


@njit
def hand_carte_rouge_eligible(hand, tables):
    """True when the hand's own combinations (best point suit, all sequences, all sets) cover all
    its cards, i.e. it scores carte rouge if it wins every class it needs."""
    pk = point_key(hand, tables)
    return _carte_rouge(hand, hand, pk, True, hand, True, hand, True, tables)
