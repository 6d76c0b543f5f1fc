"""The search's position keys and transposition table.

A table entry holds the value of the *rest of the round* from a trick start (points still to
be decided, per seat), which depends only on the cards still in hand (each player's hand is
fixed by the deal), the leader, the trump, whether Game is still undecided and, if it is, the
game-point totals up to what can still change the outcome. Points already won never enter a
key, so the same entry serves every line of play reaching the position. Max^n data: an
upper and a lower bound vector (equal: the exact value) and the best move; paranoid data:
bounds on the bidder's points and the best move.

Keys (exact, two int64 words, :class:`~..layouts.TTWord`):

* ``KEYA``: the cards still in hand as 52 bits (13 per suit), the leader (3 bits at 52), the
  trump (2 bits at 55), Game live (bit 57) and the search mode (bits 58-59,
  ``search_node.table_mode``: 1 paranoid, 2 max^n under the full-order tie rule, 0 max^n
  under the static-order rule);
* ``KEYB``: when Game is live, per seat ``min(top - total, R + 1)`` in 7 bits (``top`` the
  largest total, ``R`` the game points still in hand: a player more than ``R`` behind can no
  longer tie or win, so how far behind is irrelevant); the generation above bit 42.

The hands behind a key are those of one deal: a *generation* number (bumped by
:func:`new_generation` for each new deal or rules) keeps entries of other deals from matching,
so the table never needs clearing.

Table: ``2 ** bits`` entries of four words, in buckets of two (64 bytes): slot 0 keeps the
entry searched with more tricks left, slot 1 takes the rest.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ..layouts import TTWord

DEFAULT_TT_BITS = 16  # 65,536 entries, 2 MB
GEN_SHIFT = 42
GEN_MASK = (1 << 21) - 1
LEADER_SHIFT = 52
TRUMP_SHIFT = 55
GLIVE_SHIFT = 57
MODE_SHIFT = 58
LANE13 = np.int64(0x1FFF)


def make_tt(bits: int = DEFAULT_TT_BITS) -> np.ndarray:
    """An empty table of ``2 ** bits`` entries (int64[2 ** bits * 4], 32 bytes per entry)."""
    return np.full((1 << bits) * TTWord.LEN, -1, dtype=np.int64)


@njit
def new_generation(gen, tt):
    """Start a new deal: bump the generation (clearing the table when it wraps)."""
    gen[0] += 1
    if gen[0] > GEN_MASK:
        gen[0] = 1
        tt[:] = -1


@njit
def pack_cards(out):
    """The 52 card bits of a mask (13 per suit) as one int."""
    return (
        (out & LANE13)
        | (((out >> 16) & LANE13) << 13)
        | (((out >> 32) & LANE13) << 26)
        | (((out >> 48) & LANE13) << 39)
    )


@njit
def key_a(out, leader, trump, glive, mode):
    return (
        pack_cards(out)
        | (np.int64(leader) << LEADER_SHIFT)
        | (np.int64(trump) << TRUMP_SHIFT)
        | (np.int64(glive) << GLIVE_SHIFT)
        | (np.int64(mode) << MODE_SHIFT)
    )


@njit_inline
def key_b(game, n, remaining, glive, gen):
    """Normalised game totals (see the module docstring) and the generation."""
    k = np.int64(gen) << GEN_SHIFT
    if glive:
        top = np.int64(0)
        for s in range(n):
            if game[s] > top:
                top = game[s]
        for s in range(n):
            d = top - game[s]
            if d > remaining:
                d = remaining + 1
            k |= d << (7 * s)
    return k


@njit
def _bucket(ka, kb, n_entries):
    h = np.uint64(ka) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(kb) * np.uint64(
        0xC2B2AE3D27D4EB4F
    )
    h ^= h >> np.uint64(31)
    return (np.int64(h >> np.uint64(8)) & (n_entries - 1)) & ~np.int64(1)


@njit_inline
def tt_probe(tt, ka, kb):
    """The data word stored for the key, or -1."""
    e = _bucket(ka, kb, tt.shape[0] // TTWord.LEN) * TTWord.LEN
    if tt[e] == ka and tt[e + 1] == kb:
        return tt[e + TTWord.DATA]
    e2 = e + TTWord.LEN
    if tt[e2] == ka and tt[e2 + 1] == kb:
        return tt[e2 + TTWord.DATA]
    return np.int64(-1)


@njit_inline
def tt_store(tt, ka, kb, data, depth):
    """Store (or overwrite) the entry of a key searched with ``depth`` tricks left."""
    e = _bucket(ka, kb, tt.shape[0] // TTWord.LEN) * TTWord.LEN
    e2 = e + TTWord.LEN
    if tt[e2] == ka and tt[e2 + 1] == kb:
        slot = e2
    elif tt[e] == ka and tt[e + 1] == kb:
        slot = e
    elif (
        tt[e] < 0 or tt[e + TTWord.DEPTH] <= depth or (tt[e + 1] >> GEN_SHIFT) != (kb >> GEN_SHIFT)
    ):
        for w in range(TTWord.LEN):
            tt[e2 + w] = tt[e + w]
        slot = e
    else:
        slot = e2
    tt[slot] = ka
    tt[slot + 1] = kb
    tt[slot + TTWord.DATA] = data
    tt[slot + TTWord.DEPTH] = depth
