"""Exact talon odds: enumerate every draw of ``d`` cards from the cards a player cannot see.

Each ``d``-subset of the unseen cards is one equally likely draw (elder: the top ``d`` talon cards
are a uniform ``d``-subset of his 20 unseen cards; younger: the same under a uniform prior on his
20 unseen cards). ``talon_odds`` counts, over all draws, the kept hand's best point length, best
sequence key, best set key, how many wanted cards were drawn, and the points each class would
score if it won. Counts are exact integers; the API divides by the number of draws.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from . import layouts as L
from .declarations import (
    hand_carte_rouge_eligible,
    point_key,
    sequence_key,
    sequence_score,
    set_key,
    set_score,
)

N_POINT_BINS = 13  # point length 0..12
N_SEQ_BINS = 72  # sequence key length * 8 + top rank, 0 = none (max 8 * 8 + 7)
N_SET_BINS = 16  # set key: rank for a trio, 8 + rank for a quatorze, 0 = none
N_WANT_BINS = 9  # wanted cards drawn, 0..8

# Rows of the sums array.


@njit
def talon_odds(base, unseen, d, want, tables, carte_rouge):
    """Enumerate every ``d``-card draw from ``unseen`` (int64 card indices) added to ``base``
    (the kept cards, int64 mask). ``want``: int64 mask of wanted cards; ``carte_rouge``: also
    count draws after which the hand is carte-rouge eligible.

    Returns (draws, point int64[N_POINT_BINS], seq int64[N_SEQ_BINS], sets int64[N_SET_BINS],
    want int64[N_WANT_BINS], sums int64[L.TSUM_LEN]) where the histograms count draws.
    """
    point_hist = np.zeros(N_POINT_BINS, dtype=np.int64)
    seq_hist = np.zeros(N_SEQ_BINS, dtype=np.int64)
    set_hist = np.zeros(N_SET_BINS, dtype=np.int64)
    want_hist = np.zeros(N_WANT_BINS, dtype=np.int64)
    sums = np.zeros(L.TSUM_LEN, dtype=np.int64)
    m = unseen.shape[0]
    idx = np.arange(d)
    draws = 0
    while True:
        drawn = np.int64(0)
        for j in range(d):
            drawn |= np.int64(1) << unseen[idx[j]]
        hand = base | drawn
        length = point_key(hand, tables) >> 7
        point_hist[length] += 1
        seq_hist[sequence_key(hand, tables)] += 1
        set_hist[set_key(hand, tables)] += 1
        hits = drawn & want
        k = 0
        while hits:
            hits &= hits - 1
            k += 1
        want_hist[k] += 1
        sums[L.TSUM_POINT] += length
        sums[L.TSUM_SEQUENCE] += sequence_score(hand, tables)
        sums[L.TSUM_SETS] += set_score(hand, tables)
        if carte_rouge and hand_carte_rouge_eligible(hand, tables):
            sums[L.TSUM_CARTE_ROUGE] += 1
        draws += 1
        # next combination in lexicographic order
        i = d - 1
        while i >= 0 and idx[i] == m - d + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, d):
            idx[j] = idx[j - 1] + 1
    return draws, point_hist, seq_hist, set_hist, want_hist, sums
