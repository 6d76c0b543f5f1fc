"""The double-dummy solver's encoding, lookup tables, position keys and transposition table.

Internal encoding (solver only): card bit = suit * 8 + strength, where internal suit 0 is the
trump suit and 1..3 the other suits in S H D C order, and strength is the card's place in its
suit's play order (0 lowest): a higher bit beats a lower one of the same suit, and every trump
beats every other suit. ``to_internal`` / ``card_to_natural`` convert.

Tables (built once with plain Python; they travel in the workspace, numba freezing globals):

* ``PEXT[o * 256 + h]``: the bits of ``h`` gathered at the positions of ``o``'s set bits (which
  of the cards still out in a suit a set of players holds, lowest first);
* ``CANON[t, o]``: a suit's remaining cards ``o`` (strength bits) with the cards worth 0 points
  at the bottom of the order (trump 7 8: ``t`` = 1; other suits 7 8 9: ``t`` = 0) replaced by as
  many bits from bit 0 up: positions whose remaining cards differ only in which 0-point cards
  are gone play alike, with the same points;
* ``REPS[t, o * 256 + h]``: one card (the highest) of each run of ``h`` adjacent among ``o`` and
  worth 0 points: the cards of such a run are equivalent (cards worth points never are: the
  points go with the trick);
* ``PTS[k, c]``: card points of internal card ``c`` (``k`` = 1 under trump K 3, Q 2).

Position key of a trick start (exact, two int64 words; valid across solves, deals and rules):
word 1 = the four ``CANON`` codes (8 bits per suit) | leader << 32 | capot flag << 34 |
contracting team << 35 | the rules code << 36 (:func:`rules_code`: ``k``, bit 36; the play
options of ``tricks.play_code``, bits 37..39: the partner exemption 0..2 and optional
under-trumping; a capot worth 252, bit 40); word 2 = per suit, ``PEXT`` of the East+West cards
(bits 8 s ..) and of the South+West cards (bits 32 + 8 s ..), i.e. two bits of seat per card
out, in order. Two positions with equal keys are the same game up to renaming equal cards.
Every input a value depends on is in the key (the trump suit is not: the encoding is relative
to it), so one table serves every rules setting: the play options change which cards are
legal and the capot's worth changes values, and a table shared across settings without them in
the key gave one setting's values to the other (an earlier version's bug). Under the default
rules the code is 0 (the keys of before the options).

Transposition table: int64[2 ** bits, 4] rows (key 1, key 2, data, two-trick table), two-way
buckets (rows 2i and 2i+1; row 2i keeps the deeper search). Data: lower bound (bits 0..8), upper
bound (9..17) of the rest-of-round value, best lead as suit * 8 + its index among the suit's
cards out from the bottom, plus 1 (18..23; 0 none), tricks left (24..27).

Column 3 holds a second, direct-mapped table for the last two tricks (``solver_endgame``'s
three-trick search meets the same two-trick endings again and again: about two calls in three
repeat one of the same solve): entry i in rows 2i (key) and 2i+1 (lower and upper bounds as
above). Its key is exact (:func:`t2_key`: each hand's two cards, the leader, the capot flag, the
contracting team and the rules code), -1 empty; :func:`reset_tt` clears both tables.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import high_index, low_index
from ...core.engine.jit import njit, njit_inline
from ...core.engine.rank_tables import compress, run_representatives, subsets
from ..cards import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_STRENGTH, trump_points
from ..layouts import SolverPos

ZERO_ZONE = (3, 2)  # 0-point cards at the bottom: plain 7 8 9, trump 7 8
DEFAULT_TT_BITS = 16
F_TT = 2  # the solver's flag: transposition table
ROW_BYTES = 32
KEY_LEADER_SHIFT = 32
KEY_CAPOT_SHIFT = 34
KEY_TEAM_SHIFT = 35
KEY_RULES_SHIFT = 36


def _canon(o: int, zone: int) -> int:
    low = bin(o & ((1 << zone) - 1)).count("1")
    return (o & ~((1 << zone) - 1)) | ((1 << low) - 1)


def _reps(h: int, o: int, zone: int) -> int:
    """Runs are cut above the zero-point zone: cards worth points differ in value."""
    return run_representatives(h, o, lambda r, nxt: nxt >= zone)


def build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(PEXT uint8[65536], CANON int64[2, 256], REPS uint8[2, 65536], PTS int64[2, 32])."""
    pext = np.zeros(65536, dtype=np.uint8)
    reps = np.zeros((2, 65536), dtype=np.uint8)
    canon = np.zeros((2, 256), dtype=np.int64)
    for o in range(256):
        for t in (0, 1):
            canon[t, o] = _canon(o, ZERO_ZONE[t])
        for h in subsets(o):
            pext[o * 256 + h] = compress(h, o)
            for t in (0, 1):
                reps[t, o * 256 + h] = _reps(h, o, ZERO_ZONE[t])
    pts = np.zeros((2, 32), dtype=np.int64)
    for k, kq in enumerate(((4, 3), (3, 2))):
        tp = trump_points(kq)
        for r in range(8):
            pts[k, TRUMP_STRENGTH[r]] = tp[r]
            for s in (1, 2, 3):
                pts[k, 8 * s + PLAIN_STRENGTH[r]] = PLAIN_POINTS[r]
    return pext, canon, reps, pts


PEXT, CANON, REPS, PTS = build_tables()

#: natural rank -> strength byte maps per suit kind, and back (for conversions in kernels).
TO_STRENGTH = np.array([PLAIN_STRENGTH, TRUMP_STRENGTH], dtype=np.int64)
TO_RANK = np.array(
    [[PLAIN_STRENGTH.index(s) for s in range(8)], [TRUMP_STRENGTH.index(s) for s in range(8)]],
    dtype=np.int64,
)


@njit_inline
def internal_suit(suit, trump):
    """Internal suit of a natural suit: 0 for the trump, 1..3 for the others in order."""
    if suit == trump:
        return 0
    return suit + 1 if suit < trump else suit


@njit_inline
def natural_suit(isuit, trump):
    """Inverse of :func:`internal_suit`."""
    if isuit == 0:
        return trump
    return isuit - 1 if isuit - 1 < trump else isuit


@njit
def to_internal(mask, trump):
    """A natural mask in the solver's encoding."""
    out = np.int64(0)
    for c in range(32):
        if (mask >> c) & 1:
            s = c >> 3
            t = 1 if s == trump else 0
            out |= np.int64(1) << (8 * internal_suit(s, trump) + TO_STRENGTH[t, c & 7])
    return out


@njit
def card_to_internal(c, trump):
    """Internal card index of natural card ``c``."""
    s = c >> 3
    t = 1 if s == trump else 0
    return 8 * internal_suit(s, trump) + TO_STRENGTH[t, c & 7]


@njit
def card_to_natural(c, trump):
    """Natural card index of internal card ``c``."""
    isuit = c >> 3
    t = 1 if isuit == 0 else 0
    return 8 * natural_suit(isuit, trump) + TO_RANK[t, c & 7]


@njit
def from_internal(mask, trump):
    """A solver-encoded mask back in the natural encoding."""
    out = np.int64(0)
    for c in range(32):
        if (mask >> c) & 1:
            out |= np.int64(1) << card_to_natural(c, trump)
    return out


@njit_inline
def rules_code(st):
    """The rules a value depends on, from a position array (``layouts.SolverPos``): trump K/Q
    points (bit 0), the play options (bits 1..3), a capot worth 252 (bit 4); 0 by default."""
    return st[SolverPos.KQ] | (st[SolverPos.PLAY] << 1) | (st[SolverPos.CAPOT_252] << 4)


@njit_inline
def position_key(h0, h1, h2, h3, leader, capot, team, code, pext, canon):
    """The exact two-word key of a trick start (see module docstring)."""
    k1 = np.int64(0)
    k2 = np.int64(0)
    ew = h1 | h3
    sw = h2 | h3
    for s in range(4):
        sh = 8 * s
        o = ((h0 | h1 | h2 | h3) >> sh) & 0xFF
        k1 |= canon[1 if s == 0 else 0, o] << sh
        base = o * 256
        k2 |= np.int64(pext[base + ((ew >> sh) & 0xFF)]) << sh
        k2 |= np.int64(pext[base + ((sw >> sh) & 0xFF)]) << (32 + sh)
    k1 |= (np.int64(leader) << KEY_LEADER_SHIFT) | (np.int64(capot) << KEY_CAPOT_SHIFT)
    k1 |= (np.int64(team) << KEY_TEAM_SHIFT) | (np.int64(code) << KEY_RULES_SHIFT)
    return k1, k2


def tt_bytes(bits: int = DEFAULT_TT_BITS) -> int:
    return ROW_BYTES << max(bits, 1)


@njit
def reset_tt(tt):
    """Forget every entry (of both tables)."""
    for i in range(tt.shape[0]):
        tt[i, 0] = -1
        tt[i, 2] = 0
        tt[i, 3] = -1


@njit_inline
def tt_row(tt, k1, k2):
    """Row of slot 0 of the keys' bucket."""
    h = np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(k2) * np.uint64(
        0xC2B2AE3D27D4EB4F
    )
    h ^= h >> np.uint64(31)
    return np.int64(h & np.uint64(tt.shape[0] - 1)) & ~np.int64(1)


@njit_inline
def tt_probe(tt, k1, k2):
    """Packed data of the keys' entry, or -1."""
    b = tt_row(tt, k1, k2)
    if tt[b, 0] == k1 and tt[b, 1] == k2:
        return tt[b, 2]
    if tt[b + 1, 0] == k1 and tt[b + 1, 1] == k2:
        return tt[b + 1, 2]
    return np.int64(-1)


@njit_inline
def tt_lo(data):
    return data & 0x1FF


@njit_inline
def tt_hi(data):
    return (data >> 9) & 0x1FF


@njit_inline
def tt_move(data):
    """Best lead code (suit * 8 + index from the bottom among the suit's cards out), -1 none."""
    return ((data >> 18) & 0x3F) - 1


@njit_inline
def tt_store(tt, k1, k2, lo, hi, move, n):
    """Record ``lo <= value <= hi`` (0..511) for the keys, searched with ``n`` tricks left,
    intersected with what the table already holds for them."""
    b = tt_row(tt, k1, k2)
    slot = -1
    if tt[b, 0] == k1 and tt[b, 1] == k2:
        slot = b
    elif tt[b + 1, 0] == k1 and tt[b + 1, 1] == k2:
        slot = b + 1
    if slot >= 0:
        old = tt[slot, 2]
        if tt_lo(old) > lo:
            lo = tt_lo(old)
        if tt_hi(old) < hi:
            hi = tt_hi(old)
        if move < 0:
            move = tt_move(old)
    elif tt[b, 0] < 0 or ((tt[b, 2] >> 24) & 0xF) <= n:
        tt[b + 1, 0] = tt[b, 0]
        tt[b + 1, 1] = tt[b, 1]
        tt[b + 1, 2] = tt[b, 2]
        slot = b
    else:
        slot = b + 1
    tt[slot, 0] = k1
    tt[slot, 1] = k2
    tt[slot, 2] = lo | (hi << 9) | ((move + 1) << 18) | (np.int64(n) << 24)


@njit_inline
def flagged(v, a, b):
    """(lower, upper) bounds a fail-soft value ``v`` searched in the window (a, b) proves: at
    or below ``a`` an upper bound, at or above ``b`` a lower bound, else exact."""
    lo = 0 if v <= a else v
    hi = 511 if v >= b and v > a else v
    return lo, hi


@njit_inline
def t2_key(hands, leader, capot, team, code):
    """Exact key of a two-trick ending (two cards in each hand): each hand's cards as two 5-bit
    indices (bits 0..39), the leader (40, 41), the capot flag (42), the contracting team (43)
    and the rules code (44 ..)."""
    key = np.int64(0)
    for p in range(4):
        h = hands[p]
        key |= ((low_index(h) << 5) | high_index(h)) << (10 * p)
    key |= (np.int64(leader) << 40) | (np.int64(capot) << 42) | (np.int64(team) << 43)
    return key | (np.int64(code) << 44)


@njit_inline
def t2_row(tt, key):
    """Row of the two-trick entry of ``key`` (its bounds in the next row)."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((h >> np.uint64(32)) & np.uint64(tt.shape[0] - 1)) & ~np.int64(1)
