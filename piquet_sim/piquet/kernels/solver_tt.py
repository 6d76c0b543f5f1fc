"""The double-dummy solver's lookup tables, position keys and transposition table.

Tables are built once at import with plain numpy and travel inside the workspace tuple
(numba freezes globals). Every table is indexed by ``o * 256 + h`` where ``o`` is the 8-bit
holding of one suit still in play (both hands; when following, the led card included) and
``h`` a subset of it held by one player. Row ``ten`` (0/1) is the lead rule.

* ``KEYTAB[ten, o*256+e]``: the suit's code in a position key. Under ``"every"`` only the order
  of the remaining cards matters, so the code is ``(1 << len(o)) | pext(e, o)`` (which player
  holds the 1st, 2nd … remaining card): positions that differ only in which low cards were
  played share a key. Under ``"ten_or_higher"`` ten-or-higher and nine-or-lower cards score
  differently, so the two parts are compressed separately (6 + 4 bits).
* ``REPTAB[ten, o*256+h]``: one card (the highest) of each run of ``h`` adjacent among ``o``;
  cards of a run are equivalent. Under ``"ten_or_higher"`` a run is cut between nine and ten.
* ``QTTAB[l*256+f]``: sure tricks in one suit for the leader holding ``l`` against ``f`` (bits
  0..3): all of ``l`` when ``f`` is void or ``l``'s cards above ``f``'s top outnumber ``f``, else
  those cards; bits 4..7: how many of those sure winners are ten or higher (the lead points
  they make under ``ten_or_higher`` when the leader cashes them).
* ``LOW8[h]``: index of the lowest set bit of a byte (8 for 0); ``POP8[h]``: its popcount.

Position key (int64, exact, no hashing loss): bits 0..39 the four suit codes (10 bits each),
40 the leader, 41..44 elder's tricks so far, 45..51 the pique state, 52 the lead rule. A value
stored under a key is the rest-of-deal value of that position whatever deal it came from, so the
table stays valid across solves with the same rules (``reset_tt`` is never required).

Transposition table: ``2 ** bits`` entries in buckets of two (slot 0 keeps the deeper search,
slot 1 takes the rest), key and packed data side by side so a probe touches one cache line.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ...core.engine.jit import njit, njit_inline
from ...core.engine.rank_tables import compress, run_representatives, subsets

KEY_LEADER_SHIFT = 40
KEY_TRICKS_SHIFT = 41
KEY_PIQUE_SHIFT = 45
KEY_RULE_SHIFT = 52
DEFAULT_TT_BITS = 20
GEN_SHIFT = 28  # generation of the search that stored an entry (bits 28..43 of the data)
GEN_MASK = 0xFFFF
ENTRY_BYTES = 16


def _code(e: int, o: int) -> int:
    return (1 << bin(o).count("1")) | compress(e, o)


def _reps(h: int, o: int, ten: int) -> int:
    """Under ``ten_or_higher`` runs are cut between the nine and the ten (a lead of a ten or
    higher scores)."""
    return run_representatives(h, o, lambda r, nxt: bool(ten) and r < 3 <= nxt)


TEN_UP = 0xF8  # ranks ten to ace of one suit


def _sure(l: int, f: int) -> int:
    """QTTAB entry: sure tricks | (how many of them are ten or higher) << 4."""
    if f == 0 or bin(l >> f.bit_length()).count("1") >= bin(f).count("1"):
        winners = l
    else:
        winners = l & ~((1 << f.bit_length()) - 1)
    return bin(winners).count("1") | bin(winners & TEN_UP).count("1") << 4


def build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(KEYTAB uint16[2, 65536], REPTAB uint8[2, 65536], QTTAB uint8[65536], LOW8 int8[256],
    POP8 int8[256]) as described in the module docstring."""
    keytab = np.zeros((2, 65536), dtype=np.uint16)
    reptab = np.zeros((2, 65536), dtype=np.uint8)
    qttab = np.zeros(65536, dtype=np.uint8)
    for o in range(256):
        for h in subsets(o):
            i = o * 256 + h
            keytab[0, i] = _code(h, o)
            keytab[1, i] = (_code(h >> 3, o >> 3) << 4) | _code(h & 7, o & 7)
            reptab[0, i] = _reps(h, o, 0)
            reptab[1, i] = _reps(h, o, 1)
    for l in range(256):
        for f in range(256):
            if l & f == 0:
                qttab[l * 256 + f] = _sure(l, f)
    low8 = np.array([8] + [(h & -h).bit_length() - 1 for h in range(1, 256)], dtype=np.int8)
    pop8 = np.array([bin(h).count("1") for h in range(256)], dtype=np.int8)
    return keytab, reptab, qttab, low8, pop8


KEYTAB, REPTAB, QTTAB, LOW8, POP8 = build_tables()


def make_tt(bits: int = DEFAULT_TT_BITS) -> np.ndarray:
    """Empty table of ``2 ** bits`` entries: int64[2 ** (bits + 1)], entry i is the key at
    ``2 i`` (-1 when empty) and the packed data at ``2 i + 1`` (one bucket = one cache line
    half): lower bound + 128 (bits 0..7), upper bound + 128 (8..15), best lead + 1 (16..21),
    tricks left when searched (24..27), generation (28..43, see :func:`tt_store`). Memory: 16
    bytes per entry (16 MB at 20 bits)."""
    tt = np.zeros(2 << max(bits, 1), dtype=np.int64)
    tt[0::2] = -1
    return tt


def tt_bytes(bits: int = DEFAULT_TT_BITS) -> int:
    """Bytes held by a table of ``2 ** bits`` entries."""
    return ENTRY_BYTES << max(bits, 1)


@njit
def reset_tt(tt):
    """Forget every entry (only needed to measure cold solves)."""
    for i in range(0, tt.shape[0], 2):
        tt[i] = -1
        tt[i + 1] = 0


@njit_inline
def position_key(E, Y, leader, et, ps, ten, keytab):
    """Exact int64 key of a trick-start position (see module docstring)."""
    k = np.int64(0)
    for s in range(4):
        e = (E >> (8 * s)) & 0xFF
        o = e | ((Y >> (8 * s)) & 0xFF)
        k |= np.int64(keytab[ten, o * 256 + e]) << (10 * s)
    k |= np.int64(leader) << KEY_LEADER_SHIFT
    k |= np.int64(et) << KEY_TRICKS_SHIFT
    k |= np.int64(ps) << KEY_PIQUE_SHIFT
    k |= np.int64(ten) << KEY_RULE_SHIFT
    return k


@njit_inline
def tt_bucket(key, n_entries):
    """Entry index of slot 0 of the key's bucket (Fibonacci hashing of the key)."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(n_entries - 1)) & ~np.int64(1)


@intrinsic
def _prefetch(typingctx, arr, idx):
    """LLVM's prefetch (read, keep in every cache level) of ``arr[idx]``; no effect on values."""

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    if isinstance(arr, types.Array) and idx == types.int64:
        return types.void(arr, idx), codegen
    return None


@njit_inline
def tt_prefetch(tt, key):
    """Start loading ``key``'s bucket into the cache (a later :func:`tt_probe` of it then
    waits less); values are unaffected."""
    _prefetch(tt, 2 * tt_bucket(key, tt.shape[0] >> 1))


@njit_inline
def tt_probe(tt, key):
    """Packed data of ``key``'s entry, or -1 when the table does not hold it."""
    b = 2 * tt_bucket(key, tt.shape[0] >> 1)
    if tt[b] == key:
        return tt[b + 1]
    if tt[b + 2] == key:
        return tt[b + 3]
    return np.int64(-1)


@njit_inline
def tt_lo(data):
    """Lower bound held in packed data."""
    return (data & 0xFF) - 128


@njit_inline
def tt_hi(data):
    """Upper bound held in packed data."""
    return ((data >> 8) & 0xFF) - 128


@njit_inline
def tt_move(data):
    """Best lead held in packed data (-1 for none)."""
    return ((data >> 16) & 0x3F) - 1


@njit_inline
def tt_store(tt, key, v_lo, v_hi, best, n, gen):
    """Record bounds ``v_lo <= value <= v_hi`` for ``key`` (searched with ``n`` tricks left, in
    generation ``gen``), intersected with what the table already knows about the same key.
    Slot 0 of a bucket keeps the deeper search of the current generation (the one it displaces
    moves to slot 1; an entry of an older generation is simply overwritten), slot 1 takes the
    rest."""
    b = 2 * tt_bucket(key, tt.shape[0] >> 1)
    gen &= GEN_MASK
    slot = -1
    if tt[b] == key:
        slot = b
    elif tt[b + 2] == key:
        slot = b + 2
    if slot >= 0:
        old = tt[slot + 1]
        if tt_lo(old) > v_lo:
            v_lo = tt_lo(old)
        if tt_hi(old) < v_hi:
            v_hi = tt_hi(old)
        if best < 0:
            best = tt_move(old)
    elif tt[b] < 0 or ((tt[b + 1] >> GEN_SHIFT) & GEN_MASK) != gen:
        slot = b
    elif ((tt[b + 1] >> 24) & 0xF) <= n:
        tt[b + 2] = tt[b]
        tt[b + 3] = tt[b + 1]
        slot = b
    else:
        slot = b + 2
    tt[slot] = key
    tt[slot + 1] = (
        (v_lo + 128)
        | ((v_hi + 128) << 8)
        | ((best + 1) << 16)
        | (np.int64(n) << 24)
        | (np.int64(gen) << GEN_SHIFT)
    )
