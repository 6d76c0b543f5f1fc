"""The ``heuristic`` play policy: card counting, guards and capot defence on what the player knows.

Everything is read from the player's own view: his hand, the cards played, the suits the
opponent has shown void in and his knowledge state (``knowledge.py``: cards known in the
opponent's hand from his declarations, cards known out of it: own discards, talon cards seen).
The opponent's *possible* cards are every card not in the player's hand, not played, not known
out and not in a suit he has shown void in; the *sure* ones are those known in his hand.

A card's *trick chance* (:func:`card_chance`): with ``a1`` sure and ``a2`` other possible
opponent cards above it in its suit and ``b`` of the player's own cards below it (each can be
given up to draw one higher card), the chance that the opponent holds at most ``b`` cards above
it, each other possible card held independently with probability ``f`` (his unknown cards over
the possible cards not sure, tilted so that the cards he does not hold - his discards - are
more likely low ones; :func:`opponent_view`): ``P(a1 + Binomial(a2, f) <= b)``. A card also
counts 1 when the opponent can hold no more cards of the suit than the player holds masters
above it (length). A suit's value is its best chance plus ``depth`` times the others'
(:func:`suit_value`).

* lead: a card of a suit the opponent cannot follow (a sure trick); else a free master (no
  possible opponent card above it nor above the next card of its suit) from the longest suit
  holding one; else, with one suit left, its master or its lowest card; else the lead that costs
  the least value: a suit's lowest card (the opponent assumed to win with his cheapest possible
  winner; from a suit whose top card is no master, the bottom card of its top sequence - the
  cards above every possible card of his below the top - when it holds two or more: it wins or
  draws his higher card where the lowest would give him a cheap trick) or its top card when a
  master (he follows with his lowest), ties to the master, the longer suit, then the higher top
  card. So a master that is a short suit's only guard stays
  in hand as an entry while a long suit is led (cashing it first let the opponent run that
  suit: how an earlier version threw its aces away);
* follow: the cheapest winning card, else the lowest card of the suit (a player without a trick
  takes any trick he can: the capot defence is this and the guard-keeping discard);
* discard (void in the suit led): the lowest card of the suit whose value drops least, ties to
  the shorter suit (the point suit is kept), then the lower top card; a player who has won no
  trick yet first minimises the chance of winning none (product over suits of 1 - best chance
  times the chance the opponent holds a card of the suit: masters in a suit he cannot lead do
  not stop a capot);
* capot endgame: a player who has won no trick and holds at most ``endgame`` cards (a policy
  parameter, default 5) plays, instead of the card above, the card that keeps a trick in
  strictly more of the opponent's possible hands, each solved exactly (``endgame.py``).

Speed: the play loop calls :func:`heuristic_turn` with scalars read once per deal
(:func:`seat_setup`), and no decision allocates (the pool law and the suit caps are scalars;
the discard's per-suit values live on the stack). At depth 0 without tilt (the defaults) a
suit's value is its top card's chance, read from :data:`CHANCE` (built at import by the same
arithmetic, so the same floats and the same cards: :func:`table_move`); other parameters take
the arithmetic (:func:`general_move`). The play loop at default parameters compiles the table
path alone (:func:`table_turn`; ``screen.table_play_deal``): the arithmetic is about a third of
the first run's compilation of the trick loop.

Every step has a plain-Python twin in ``reference/heuristic.py``; tests compare them.
"""

from __future__ import annotations

import numba
import numpy as np

from ...core.engine.bits import high_index, low_index, popcount
from ...core.engine.jit import njit, njit_inline
from . import layouts as L
from .endgame import MAX_WORLDS, capot_endgame
from .stack import as_float64, stack_words
from .tricks import SUIT_BITS

FULL = np.int64(0xFFFFFFFF)
_stack12 = stack_words(12)  # the discard's per-suit values, on the stack


@njit
def binom_cdf(n, f, k):
    """P(Binomial(n, f) <= k) for n <= 8, by the term recurrence (0 when k < 0)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if f <= 0.0:
        return 1.0
    if f >= 1.0:
        return 0.0
    q = 1.0 - f
    term = 1.0
    for _ in range(n):
        term *= q
    total = term
    ratio = f / q
    for i in range(k):
        term = term * (n - i) / (i + 1) * ratio
        total += term
    return total


@njit_inline
def pool_chance(r, fz):
    """The chance the opponent holds a pool card of rank ``r``; ``fz`` = (pool cards he does not
    hold, total weight of the pool, bias) from :func:`opponent_view`: ``1 - out * w[r] / W``
    clipped to [0, 1], ``w[r] = (8 - r) ** bias`` (0 when the pool is empty)."""
    out, total, bias = fz
    if total <= 0.0:
        return 0.0
    w = 1.0
    for _ in range(bias):
        w *= 8 - r
    return min(1.0, max(0.0, 1.0 - out * w / total))


@njit_inline
def cap_of(caps, s):
    """The most cards of suit ``s`` the opponent can hold (``caps``: 8 bits per suit)."""
    return (caps >> (8 * s)) & 0xFF


#: The largest pool in :data:`CHANCE`: every pool a hand of two cards or more can leave (30
#: possible cards beside his own; a last card needs no view). In a deal of twelve-card hands the
#: pool never exceeds 20 (the player's hand and the cards played are never his).
TABLE_POOL = 30


def _chance_table() -> np.ndarray:
    """The trick chances without tilt (``bias`` 0), by (pool size, pool cards he does not hold,
    ``a2``, ``k``): entry ``[n, out, a2, k]`` (``1 <= a2 <= 7``, ``0 <= k < a2``) is
    :func:`card_chance`'s ``binom_cdf(a2, mean chance of a2 pool cards, k)`` and entry
    ``[n, out, 0, c]`` the chance he holds one of ``c`` pool cards of a suit (the discard's
    reach), each computed by the kernels' own arithmetic (``py_func``: the same operations in
    the same order, so every entry equals the value the arithmetic gives)."""
    t = np.zeros((TABLE_POOL + 1, TABLE_POOL + 1, 8, 8))
    for n in range(TABLE_POOL + 1):
        for out in range(n + 1):
            fz = (float(out), float(n), 0)
            f = pool_chance.py_func(0, fz)  # every pool card alike without tilt
            q = 1.0
            for c in range(8):
                t[n, out, 0, c] = 1.0 - q
                q *= 1.0 - f
            for a2 in range(1, 8):
                fsum = 0.0
                for _ in range(a2):
                    fsum += f
                for k in range(a2):
                    t[n, out, a2, k] = binom_cdf.py_func(a2, fsum / a2, k)
    return t.ravel()


#: :func:`_chance_table`, flat (row offsets from :func:`table_row`), built once at import.
CHANCE = _chance_table()


@njit_inline
def table_row(n_pool, out):
    """Offset in :data:`CHANCE` of the pool law (``n_pool`` <= ``TABLE_POOL`` pool cards,
    ``out`` of them not in his hand)."""
    return np.int64((n_pool * (TABLE_POOL + 1) + out) * 64)


@njit_inline
def _chance_at(k, a2, row):
    """P(Binomial(a2, f) <= k) from :data:`CHANCE` at ``row`` (0 when k < 0, 1 when k >= a2)."""
    if k < 0:
        return 0.0
    if k >= a2:
        return 1.0
    return CHANCE[row + 8 * a2 + k]


@njit_inline
def top_chances(mine, sure, pool, cap, row):
    """(:func:`top_chance` of ``mine``, of ``mine`` without its lowest card): one top card, one
    card fewer below it."""
    if mine == 0:
        return 0.0, 0.0
    if (mine & (mine - 1)) == 0:
        return top_chance(mine, sure, pool, cap, row), 0.0
    if cap == 0 or (sure | pool) == 0:
        return 1.0, 1.0
    above = ~((np.int64(2) << high_index(mine)) - 1) & SUIT_BITS
    k = popcount(mine) - 1 - popcount(sure & above)
    a2 = popcount(pool & above)
    return _chance_at(k, a2, row), _chance_at(k - 1, a2, row)


@njit_inline
def top_chance(mine, sure, pool, cap, row):
    """:func:`card_chance` of the top card of ``mine`` (0 when empty) without tilt, read from
    :data:`CHANCE` at ``row`` (:func:`table_row`). The top card never wins by length: no card
    of ``mine`` lies above it."""
    if mine == 0:
        return 0.0
    if cap == 0 or (sure | pool) == 0:
        return 1.0
    above = ~((np.int64(2) << high_index(mine)) - 1) & SUIT_BITS
    k = popcount(mine) - 1 - popcount(sure & above)
    return _chance_at(k, popcount(pool & above), row)


@njit
def card_chance(r, mine, sure, pool, cap, fz):
    """Trick chance of the card of rank ``r`` in a suit holding ``mine`` (8-bit rank masks:
    ``sure`` / ``pool`` the opponent's sure and other possible cards of the suit; ``cap`` the
    most cards of the suit he can hold; ``fz`` the pool law of :func:`pool_chance`: the mean
    chance over the pool cards above ``r`` drives the binomial)."""
    above = ~((np.int64(2) << r) - 1) & SUIT_BITS
    poss = sure | pool
    if poss == 0 or cap == 0:
        return 1.0
    masters = mine & ~((np.int64(2) << high_index(poss)) - 1)
    if cap <= popcount(masters & above):
        return 1.0  # his cards of the suit fall under the masters: this one wins by length
    a1 = popcount(sure & above)
    b = popcount(mine & ((np.int64(1) << r) - 1))
    hi = pool & above
    if b < a1:
        return 0.0  # as binom_cdf below, without the pool loop
    if b - a1 >= popcount(hi):
        return 1.0
    a2 = 0
    fsum = 0.0
    while hi:
        x = low_index(hi)
        hi &= hi - 1
        fsum += pool_chance(x, fz)
        a2 += 1
    return binom_cdf(a2, fsum / a2 if a2 else 0.0, b - a1)


@njit
def suit_value(mine, sure, pool, cap, fz, lam):
    """Value of the holding ``mine`` (8-bit masks as :func:`card_chance`): its best trick
    chance plus ``lam`` times the others' (the opponent picks the suits he leads, so a stopper
    in each suit is worth more than a second winner in one).

    With ``lam`` 0 and no tilt (``fz`` bias 0) this is the top card's chance alone: every pool
    card then has the same chance, so a card never has a better chance than a higher one of its
    suit (fewer cards above it, more of his own below)."""
    if lam == 0.0 and fz[2] == 0:
        return card_chance(high_index(mine), mine, sure, pool, cap, fz) if mine else 0.0
    best = 0.0
    total = 0.0
    m = mine
    while m:
        r = low_index(m)
        m &= m - 1
        v = card_chance(r, mine, sure, pool, cap, fz)
        total += v
        if v > best:
            best = v
    return best + lam * (total - best)


@njit
def opponent_view(own, gone, voids, kin, kout, n_opp, bias):
    """(sure, pool, caps, fz): the opponent's sure cards, his other possible cards, the most
    cards he can hold in each suit (8 bits per suit, :func:`cap_of`) and the law of the pool
    cards (:func:`pool_chance`). ``gone``: every card played, the current lead included;
    ``kin`` / ``kout``: the knowledge state's cards known in / out of his hand; ``n_opp``: his
    cards now. The ``d`` pool cards he does not hold (his discards, talon cards unseen) are
    taken to be low: a pool card of rank r is out of his hand with chance ``d * w[r] / W``,
    ``w[r] = (8 - r) ** bias`` and W the sum of w over the pool (``bias`` 0: every card
    alike)."""
    sure = kin & ~gone
    poss = FULL & ~(own | gone | kout | voids)
    sure &= poss
    pool = poss & ~sure
    n_sure = popcount(sure)
    n_pool = popcount(pool)
    unknown = max(0, n_opp - n_sure)
    out = max(0, n_pool - unknown)
    total = 0.0
    m = pool
    while m:
        x = 1.0
        for _ in range(bias):
            x *= 8 - (low_index(m) & 7)
        total += x
        m &= m - 1
    caps = np.int64(0)
    for s in range(4):
        in_s = popcount((poss >> (8 * s)) & SUIT_BITS)
        sure_out = n_sure - popcount((sure >> (8 * s)) & SUIT_BITS)
        caps |= np.int64(max(0, min(in_s, n_opp - sure_out))) << (8 * s)
    return sure, pool, caps, (np.float64(out), total, np.int64(bias))


@njit_inline
def _pick_discard(own, buf, capot):
    """The discard from ``buf`` (each suit's value before and after losing its lowest card, and
    the chance the player can lead it): with ``capot`` the least chance of winning no trick
    first, then the least value dropped, the shortest suit, the lowest top; the lowest card of
    the chosen suit."""
    best = -1
    best_none = np.inf
    best_drop = 1e9
    best_len = 99
    best_top = 99
    for s in range(4):
        mine = (own >> (8 * s)) & SUIT_BITS
        if mine == 0:
            continue
        none = 0.0
        if capot:
            none = 1.0
            for t in range(4):
                none *= 1.0 - min(1.0, buf[4 + t] if t == s else buf[t]) * buf[8 + t]
        drop = buf[s] - buf[4 + s]
        n = popcount(mine)
        top = high_index(mine)
        if none < best_none or (
            none == best_none
            and (
                drop < best_drop
                or (drop == best_drop and (n < best_len or (n == best_len and top < best_top)))
            )
        ):
            best = 8 * s + low_index(mine)
            best_none = none
            best_drop = drop
            best_len = n
            best_top = top
    return np.int64(best)


@njit
def heuristic_discard(own, sure, pool, caps, fz, lam, capot):
    """The discard of a player void in the suit led (see module docstring). With ``capot``
    (he has won no trick yet) the first key is the chance of winning none: the product over
    suits of 1 - (value, at most 1) x (chance he holds a card of the suit, so can lead it)
    after the discard."""
    buf = numba.carray(as_float64(_stack12()), 12)  # before, after, reach per suit
    for s in range(4):
        buf[s] = 0.0
        buf[4 + s] = 0.0
        buf[8 + s] = 1.0  # chance he holds a card of the suit (he must lead it to lose a trick)
        mine = (own >> (8 * s)) & SUIT_BITS
        if mine == 0:
            continue
        so = (sure >> (8 * s)) & SUIT_BITS
        po = (pool >> (8 * s)) & SUIT_BITS
        cap = cap_of(caps, s)
        buf[s] = suit_value(mine, so, po, cap, fz, lam)
        buf[4 + s] = suit_value(mine & (mine - 1), so, po, cap, fz, lam)
        if so == 0:
            q = 1.0
            m = po
            while m:
                q *= 1.0 - pool_chance(low_index(m), fz)
                m &= m - 1
            buf[8 + s] = 1.0 - q
    return _pick_discard(own, buf, capot)


@njit_inline
def _lead_shortcut(own, poss, caps):
    """The lead that needs no trick chance, else -1: the lowest card of the first suit the
    opponent cannot follow (a sure trick); else a free master (a master, no possible card of
    ``poss`` above it, with a second master under it: cashing it leaves the suit guarded) from
    the longest suit holding one; else, with one suit, its top card when a master, else its
    lowest card."""
    best_free = -1
    best_free_len = -1
    held = 0
    last = 0
    for s in range(4):
        mine = (own >> (8 * s)) & SUIT_BITS
        if mine == 0:
            continue
        held += 1
        last = s
        if cap_of(caps, s) == 0:
            return np.int64(8 * s + low_index(mine))  # he cannot follow: a sure trick
        top = high_index(mine)
        rest = mine & ~(np.int64(1) << top)
        n = popcount(mine)
        free = rest != 0 and (((poss >> (8 * s)) & SUIT_BITS) >> (high_index(rest) + 1)) == 0
        if free and n > best_free_len:
            best_free = 8 * s + top
            best_free_len = n
    if best_free >= 0:
        return np.int64(best_free)
    if held == 1:
        mine = (own >> (8 * last)) & SUIT_BITS
        top = high_index(mine)
        if (((poss >> (8 * last)) & SUIT_BITS) >> (top + 1)) == 0:
            return np.int64(8 * last + top)  # one suit: its master first
        return np.int64(8 * last + low_index(mine))  # else its lowest card, whatever it costs
    return np.int64(-1)


@njit_inline
def _least_drop_lead(own, sure, pool, caps, values, law):
    """The lead that costs the least value: per suit, its lowest card (his cheapest possible
    winner taken to fall on it) and, when its top card is a master, that master (his lowest
    possible card following); ties to the master, then the longer suit, then the higher top
    card. Cashing a master that guards a short suit costs that guard (the opponent can then run
    the suit), where a low lead from a long suit often costs nothing: masters are kept as
    entries until they are free. ``values(mine, sure, pool, cap, law)`` gives a suit's value,
    its value after the low lead and after the master's (:func:`table_lead_values` or
    :func:`general_lead_values`)."""
    best = -1
    best_drop = 1e9
    best_kind = 2
    best_len = -1
    best_top = -1
    for s in range(4):
        mine = (own >> (8 * s)) & SUIT_BITS
        if mine == 0:
            continue
        so = (sure >> (8 * s)) & SUIT_BITS
        po = (pool >> (8 * s)) & SUIT_BITS
        top = high_index(mine)
        master = ((so | po) >> (top + 1)) == 0
        before, after, cashed = values(mine, so, po, cap_of(caps, s), master, law)
        n = popcount(mine)
        for kind in range(2):  # 0: the master, 1: the lowest card
            if kind == 0 and not master:
                continue
            drop = before - (cashed if kind == 0 else after)
            if drop < best_drop or (
                drop == best_drop
                and (
                    kind < best_kind
                    or (kind == best_kind and (n > best_len or (n == best_len and top > best_top)))
                )
            ):
                card = low_index(mine)
                if kind == 1 and not master:
                    below = (so | po) & ((np.int64(1) << top) - 1)
                    equals = mine & ~((np.int64(2) << high_index(below)) - 1) if below else mine
                    if equals & (equals - 1):
                        card = low_index(equals)  # the bottom of the top sequence
                best = 8 * s + (top if kind == 0 else card)
                best_drop = drop
                best_kind = kind
                best_len = n
                best_top = top
    return np.int64(best)


@njit_inline
def _after_lead(mine, so, po, cap):
    """The suit after its lowest card is led and his cheapest possible winner falls on it:
    (mine, sure, pool, cap) without them (his cards unchanged when none is higher)."""
    low = low_index(mine)
    higher = (so | po) & ~((np.int64(2) << low) - 1)
    if higher == 0:
        return mine & (mine - 1), so, po, cap
    w = np.int64(1) << low_index(higher)  # his cheapest possible winner
    return mine & (mine - 1), so & ~w, po & ~w, max(0, cap - 1)


@njit_inline
def _after_cash(mine, so, po, cap):
    """The suit after its top card (a master) is led and his lowest possible card follows it:
    (mine, sure, pool, cap) without them (``so | po`` not empty: he can follow)."""
    poss = so | po
    w = poss & -poss  # his lowest possible card
    return mine & ~(np.int64(1) << high_index(mine)), so & ~w, po & ~w, max(0, cap - 1)


@njit_inline
def general_lead_values(mine, so, po, cap, master, law):
    """A suit's :func:`suit_value` before the lead, after the lead of its lowest card and, when
    ``master``, after the lead of its top card (else 0) (``law`` = (pool law ``fz``, depth
    ``lam``))."""
    fz, lam = law
    m2, so2, po2, cap2 = _after_lead(mine, so, po, cap)
    cashed = 0.0
    if master:
        m3, so3, po3, cap3 = _after_cash(mine, so, po, cap)
        cashed = suit_value(m3, so3, po3, cap3, fz, lam)
    return suit_value(mine, so, po, cap, fz, lam), suit_value(m2, so2, po2, cap2, fz, lam), cashed


@njit
def heuristic_lead(own, sure, pool, caps, fz, lam):
    """The lead (see module docstring)."""
    card = _lead_shortcut(own, sure | pool, caps)
    if card >= 0:
        return card
    return _least_drop_lead(own, sure, pool, caps, general_lead_values, (fz, lam))


@njit_inline
def fast_view(own, gone, voids, kin, kout, n_opp):
    """(sure, pool, caps, row): :func:`opponent_view` without tilt, the pool law as its
    :data:`CHANCE` row (:func:`table_row`; ``own`` holds two cards or more)."""
    sure = kin & ~gone
    poss = FULL & ~(own | gone | kout | voids)
    sure &= poss
    pool = poss & ~sure
    n_sure = popcount(sure)
    n_pool = popcount(pool)
    out = max(0, n_pool - max(0, n_opp - n_sure))
    caps = np.int64(0)
    for s in range(4):
        in_s = popcount((poss >> (8 * s)) & SUIT_BITS)
        sure_out = n_sure - popcount((sure >> (8 * s)) & SUIT_BITS)
        caps |= np.int64(max(0, min(in_s, n_opp - sure_out))) << (8 * s)
    return sure, pool, caps, table_row(n_pool, out)


@njit_inline
def table_lead_values(mine, so, po, cap, master, row):
    """:func:`general_lead_values` at depth 0 without tilt: :func:`top_chance` before the lead,
    after the low lead and after the master's, from :data:`CHANCE` at ``row``."""
    m2, so2, po2, cap2 = _after_lead(mine, so, po, cap)
    cashed = 0.0
    if master:
        m3, so3, po3, cap3 = _after_cash(mine, so, po, cap)
        cashed = top_chance(m3, so3, po3, cap3, row)
    return top_chance(mine, so, po, cap, row), top_chance(m2, so2, po2, cap2, row), cashed


@njit
def fast_lead(own, sure, pool, caps, row):
    """:func:`heuristic_lead` at depth 0 without tilt, trick chances from :data:`CHANCE`."""
    card = _lead_shortcut(own, sure | pool, caps)
    if card >= 0:
        return card
    return _least_drop_lead(own, sure, pool, caps, table_lead_values, row)


@njit
def fast_discard(own, sure, pool, caps, row, capot):
    """:func:`heuristic_discard` at depth 0 without tilt, trick chances and reaches from
    :data:`CHANCE` (the reaches only with ``capot``: nothing else reads them)."""
    buf = numba.carray(as_float64(_stack12()), 12)  # before, after, reach per suit
    for s in range(4):
        mine = (own >> (8 * s)) & SUIT_BITS
        so = (sure >> (8 * s)) & SUIT_BITS
        po = (pool >> (8 * s)) & SUIT_BITS
        buf[s], buf[4 + s] = top_chances(mine, so, po, cap_of(caps, s), row)
        buf[8 + s] = 1.0
        if capot and mine != 0 and so == 0:
            buf[8 + s] = CHANCE[row + popcount(po)]
    return _pick_discard(own, buf, capot)


@njit
def _normal_move(own, lead, played, voids, kin, kout, lam, capot, bias):
    if lead >= 0:
        same = own & (SUIT_BITS << (lead & 0x18))
        if same:
            winners = same & ~((np.int64(2) << lead) - 1)
            if winners:
                return low_index(winners)
            return low_index(same)
        gone = played | (np.int64(1) << lead)
        n_opp = popcount(own) - 1
        sure, pool, caps, fz = opponent_view(own, gone, voids, kin, kout, n_opp, bias)
        return heuristic_discard(own, sure, pool, caps, fz, lam, capot)
    sure, pool, caps, fz = opponent_view(own, played, voids, kin, kout, popcount(own), bias)
    return heuristic_lead(own, sure, pool, caps, fz, lam)


@njit
def general_move(own, lead, played, voids, kin, kout, lam, capot, bias, endgame):
    """:func:`heuristic_move` by the arithmetic alone, whatever the parameters (the table
    path's twin, for tests)."""
    choice = _normal_move(own, lead, played, voids, kin, kout, lam, capot, bias)
    n = popcount(own)
    if not capot or n > endgame:
        return choice
    gone = played
    n_opp = n
    if lead >= 0:
        gone = played | (np.int64(1) << lead)
        n_opp = n - 1
    sure, pool, _, _ = opponent_view(own, gone, voids, kin, kout, n_opp, bias)
    m = n_opp - popcount(sure)
    return capot_endgame(own, lead, sure, pool, m, choice, MAX_WORLDS)


@njit_inline
def _without_view(own, lead, endgame_on):
    """The card that needs no view of the opponent's hand, else -1: his last card; a follow in
    suit with a winner (the endgame keeps a winner too), or with one card of the suit or no
    endgame (the lowest); void in the suit led, one suit left and no endgame: its lowest card
    (the only suit to throw from)."""
    if (own & (own - 1)) == 0:
        return low_index(own)
    if lead >= 0:
        same = own & (SUIT_BITS << (lead & 0x18))
        if same:
            winners = same & ~((np.int64(2) << lead) - 1)
            if winners:
                return low_index(winners)
            if not endgame_on or (same & (same - 1)) == 0:
                return low_index(same)
        elif not endgame_on and (own & ~(SUIT_BITS << (low_index(own) & 0x18))) == 0:
            return low_index(own)
    return np.int64(-1)


@njit
def table_move(own, lead, played, voids, kin, kout, capot, endgame):
    """:func:`heuristic_move` at depth 0 without tilt (the policy's defaults): the trick chances
    read from :data:`CHANCE` (:func:`fast_lead`, :func:`fast_discard`), the same cards as
    :func:`general_move`, whose arithmetic this kernel never compiles (the first run's path:
    ``screen.table_play_deal``). Every pool fits the table: a hand of two cards or more leaves
    at most ``TABLE_POOL`` possible cards."""
    n = popcount(own)
    endgame_on = capot and n <= endgame
    card = _without_view(own, lead, endgame_on)
    if card >= 0:
        return card
    gone = played
    n_opp = n
    if lead >= 0:
        gone = played | (np.int64(1) << lead)
        n_opp = n - 1
    sure, pool, caps, row = fast_view(own, gone, voids, kin, kout, n_opp)
    if lead < 0:
        choice = fast_lead(own, sure, pool, caps, row)
    else:
        same = own & (SUIT_BITS << (lead & 0x18))
        if same:
            choice = low_index(same)  # the endgame may still choose among them
        elif (own & ~(SUIT_BITS << (low_index(own) & 0x18))) == 0:
            choice = low_index(own)  # one suit left
        else:
            choice = fast_discard(own, sure, pool, caps, row, capot)
    if not endgame_on:
        return choice
    return capot_endgame(own, lead, sure, pool, n_opp - popcount(sure), choice, MAX_WORLDS)


@njit
def heuristic_move(own, lead, played, voids, kin, kout, lam, capot, bias, endgame):
    """:func:`heuristic_card` with the knowledge state given as its two card masks (``kin`` =
    ``know[KNOW_IN]``, ``kout`` = ``know[KNOW_OUT]``: all the rule reads), so the play loop
    calls it with scalars only. At depth 0 without tilt (the defaults) this is
    :func:`table_move`; else a last card, a follow in suit and a discard from a last suit
    decide without the view when the endgame cannot overrule them, and the rest takes
    :func:`general_move`."""
    if lam == 0.0 and bias == 0:
        return table_move(own, lead, played, voids, kin, kout, capot, endgame)
    card = _without_view(own, lead, capot and popcount(own) <= endgame)
    if card >= 0:
        return card
    return general_move(own, lead, played, voids, kin, kout, lam, capot, bias, endgame)


@njit
def heuristic_card(own, lead, played, voids, know, lam, capot, bias, endgame=0):
    """The heuristic card of a player holding ``own``: a lead when ``lead`` < 0, else a reply
    to it. ``played``: cards of the finished tricks; ``voids``: card mask of the suits the
    opponent has shown void in; ``know``: the player's knowledge state (zeros: none); ``lam``:
    the weight of a suit's cards beyond its best (:func:`suit_value`); ``capot``: true when he
    has won no trick yet (his discards then minimise the chance of winning none); ``bias``:
    how strongly the cards he does not hold are taken to be low ones (:func:`opponent_view`);
    ``endgame``: with ``capot`` and at most this many cards left, the capot endgame
    (``endgame.py``) may overrule the choice (0: never)."""
    return heuristic_move(
        own, lead, played, voids, know[L.KNOW_IN], know[L.KNOW_OUT], lam, capot, bias, endgame
    )


@njit_inline
def seat_setup(know, params):
    """One seat's heuristic arguments, read once per deal: (cards known in, cards known out,
    depth, capot defence on, bias, endgame cards) from its knowledge state (or the (in, out)
    pair of ``knowledge.known_cards``) and its params row."""
    return (
        know[L.KNOW_IN],
        know[L.KNOW_OUT],
        params[0],
        params[1] != 0,
        np.int64(params[2]),
        np.int64(params[3]),
    )


@njit_inline
def heuristic_turn(own, lead, played, voids, seat, won):
    """The heuristic card of a seat set up by :func:`seat_setup` that has won ``won`` tricks
    (scalars only: the play loop pays no reference counts for it)."""
    kin, kout, lam, defend, bias, endgame = seat
    capot = defend and won == 0
    return heuristic_move(own, lead, played, voids, kin, kout, lam, capot, bias, endgame)


@njit_inline
def table_turn(own, lead, played, voids, seat, won):
    """:func:`heuristic_turn` for a seat at depth 0 without tilt (its params row's depth 0 and
    bias below 1 in magnitude; the caller checks): :func:`table_move`, never the arithmetic."""
    kin, kout, _, defend, _, endgame = seat
    capot = defend and won == 0
    return table_move(own, lead, played, voids, kin, kout, capot, endgame)
