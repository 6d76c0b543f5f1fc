"""Plain-Python twin of the ``heuristic`` play policy (``kernels/heuristic.py``), for tests only:
the same rule written with lists and sets, sharing nothing with the kernel but the card encoding
(card = 8 * suit + rank, rank 0 the seven .. 7 the ace) and the knowledge layout indices.

Floats are combined in the same order as the kernel's, so choices (ties included) are identical.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

KNOW_IN = 0
KNOW_OUT = 1
MAX_WORLDS = 126  # as kernels/endgame.py


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _ranks(mask: int, suit: int) -> list[int]:
    return [c % 8 for c in _cards(mask) if c // 8 == suit]


def binom_cdf(n: int, f: float, k: int) -> float:
    """P(Binomial(n, f) <= k), summed term by term like the kernel."""
    if k < 0:
        return 0.0
    if k >= n or f <= 0.0:
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


def card_chance(r: int, mine: list[int], sure: list[int], pool: list[int], cap: int, f):
    """Chance that my card of rank ``r`` wins a trick (kernel ``card_chance``); ``f[rank]``: the
    chance he holds a pool card of that rank."""
    poss = sure + pool
    if not poss or cap == 0:
        return 1.0
    masters = [m for m in mine if m > max(poss)]
    if cap <= len([m for m in masters if m > r]):
        return 1.0
    a1 = len([x for x in sure if x > r])
    hi = sorted(x for x in pool if x > r)
    fsum = 0.0
    for x in hi:
        fsum += f[x]
    b = len([m for m in mine if m < r])
    return binom_cdf(len(hi), fsum / len(hi) if hi else 0.0, b - a1)


def suit_value(mine, sure, pool, cap, f, lam) -> float:
    best = 0.0
    total = 0.0
    for r in sorted(mine):
        v = card_chance(r, mine, sure, pool, cap, f)
        total += v
        if v > best:
            best = v
    return best + lam * (total - best)


def opponent_view(own: int, gone: int, voids: int, know, n_opp: int, bias: int):
    """(sure cards, pool cards, caps per suit, chance by rank that he holds a pool card)."""
    out_mask = int(know[KNOW_OUT])
    poss = [c for c in range(32) if not ((own | gone | out_mask | voids) >> c & 1)]
    sure = [c for c in _cards(int(know[KNOW_IN])) if c in poss]
    pool = [c for c in poss if c not in sure]
    unknown = max(0, n_opp - len(sure))
    out = max(0, len(pool) - unknown)
    w = []
    for r in range(8):
        x = 1.0
        for _ in range(bias):
            x *= 8 - r
        w.append(x)
    total = 0.0
    for c in pool:
        total += w[c % 8]
    f = [0.0] * 8
    if total > 0.0:
        f = [min(1.0, max(0.0, 1.0 - out * w[r] / total)) for r in range(8)]
    caps = []
    for s in range(4):
        in_s = len([c for c in poss if c // 8 == s])
        sure_out = len([c for c in sure if c // 8 != s])
        caps.append(max(0, min(in_s, n_opp - sure_out)))
    return sure, pool, caps, f


def _suit_parts(own, sure, pool, s):
    sure_s = [c % 8 for c in sure if c // 8 == s]
    pool_s = [c % 8 for c in pool if c // 8 == s]
    return _ranks(own, s), sure_s, pool_s


def discard(own: int, sure, pool, caps, f, lam, capot: bool) -> int:
    """Lowest card of the suit losing least value; ties: shorter suit, then lower top. With
    ``capot`` the first key is the chance of winning no trick (product of 1 - suit values)."""
    before, after, reach = [0.0] * 4, [0.0] * 4, [1.0] * 4
    for s in range(4):
        mine, so, po = _suit_parts(own, sure, pool, s)
        if mine:
            before[s] = suit_value(mine, so, po, caps[s], f, lam)
            after[s] = suit_value(sorted(mine)[1:], so, po, caps[s], f, lam)
            if not so:
                q = 1.0
                for x in sorted(po):
                    q *= 1.0 - f[x]
                reach[s] = 1.0 - q
    options = []
    for s in range(4):
        mine = _ranks(own, s)
        if not mine:
            continue
        none = 0.0
        if capot:
            none = 1.0
            for t in range(4):
                none *= 1.0 - min(1.0, after[t] if t == s else before[t]) * reach[t]
        drop = before[s] - after[s]
        options.append((none, drop, len(mine), max(mine), s, 8 * s + min(mine)))
    return min(options)[5]


def lead(own: int, sure, pool, caps, f, lam) -> int:
    """A card of a suit he cannot follow; else a master with a master under it, from the
    longest suit holding one; else with one suit its master or its lowest card;
    else the least value lost over each suit's lowest card (his cheapest winner falling on it)
    and its top card when a master (his lowest card following); ties: the master, the longer
    suit, then the higher top."""
    for s in range(4):
        mine = _ranks(own, s)
        if mine and caps[s] == 0:
            return 8 * s + min(mine)
    suits = [s for s in range(4) if _ranks(own, s)]
    free = []  # masters with a master under them: cashing one leaves the suit guarded
    for s in suits:
        mine, so, po = _suit_parts(own, sure, pool, s)
        if len(mine) > 1 and all(x < sorted(mine)[-2] for x in so + po):
            free.append((-len(mine), s, 8 * s + max(mine)))
    if free:
        return min(free)[2]
    if len(suits) == 1:
        s = suits[0]
        mine, so, po = _suit_parts(own, sure, pool, s)
        masters = all(x < max(mine) for x in so + po)
        return 8 * s + (max(mine) if masters else min(mine))
    options = []
    for s in suits:
        mine, so, po = _suit_parts(own, sure, pool, s)
        low, top = min(mine), max(mine)
        before = suit_value(mine, so, po, caps[s], f, lam)
        higher = sorted(x for x in so + po if x > low)
        so2, po2, cap2 = so, po, caps[s]
        if higher:
            w = higher[0]
            so2 = [x for x in so if x != w]
            po2 = [x for x in po if x != w]
            cap2 = max(0, cap2 - 1)
        drop = before - suit_value(sorted(mine)[1:], so2, po2, cap2, f, lam)
        card = low
        below = [x for x in so + po if x < top]
        equals = [m for m in mine if m > max(below)] if below else mine
        if any(x > top for x in so + po) and len(equals) > 1:
            card = min(equals)  # the bottom of the top sequence: it forces his higher card
        options.append((drop, 1, -len(mine), -top, s, 8 * s + card))
        if all(x < top for x in so + po):  # a master: cash it, his lowest card following
            w = min(so + po)
            so3 = [x for x in so if x != w]
            po3 = [x for x in po if x != w]
            rest = sorted(mine)[:-1]
            after = suit_value(rest, so3, po3, max(0, caps[s] - 1), f, lam)
            options.append((before - after, 0, -len(mine), -top, s, 8 * s + top))
    return min(options)[5]


def escapes(d: frozenset, a: frozenset) -> bool:
    """The defender (cards ``d``) forces a trick against the attacker (``a``, to lead)."""
    if not d:
        return False
    for x in a:
        same = [y for y in d if y // 8 == x // 8]
        if any(y > x for y in same):
            continue
        if not any(escapes(d - {y}, a - {x}) for y in (same or d)):
            return False
    return True


def capot_endgame(own: int, lead_card: int, sure, pool, m: int, choice: int, max_worlds: int):
    """The capot endgame (kernel ``endgame.capot_endgame``) by enumeration of every hand."""
    mine = _cards(own)
    if lead_card >= 0:
        same = [c for c in mine if c // 8 == lead_card // 8]
        if any(c > lead_card for c in same):
            return choice
        cand = same or mine
    else:
        cand = mine
    if m < 0 or m > len(pool) or comb(len(pool), m) > max_worlds or len(cand) < 2:
        return choice
    score = dict.fromkeys(cand, 0)
    for extra in combinations(sorted(pool), m):
        opp = frozenset(sure) | frozenset(extra)
        for c in cand:
            rest = frozenset(mine) - {c}
            if lead_card >= 0:
                score[c] += escapes(rest, opp)
            else:
                higher = [w for w in opp if w // 8 == c // 8 and w > c]
                score[c] += all(escapes(rest, opp - {w}) for w in higher)
    best = max(score.values())
    if score[choice] >= best:
        return choice
    return min(c for c in cand if score[c] == best)


def heuristic_card(
    own: int,
    lead_card: int,
    played: int,
    voids: int,
    know,
    lam: float,
    capot: bool,
    bias: int,
    endgame: int = 0,
) -> int:
    """The heuristic card (kernel ``heuristic_card``); ``lead_card`` -1 when leading."""
    n = len(_cards(own))
    if lead_card >= 0:
        gone, n_opp = played | (1 << lead_card), n - 1
    else:
        gone, n_opp = played, n
    choice = _normal(own, lead_card, played, voids, know, lam, capot, bias)
    if not capot or n > endgame:
        return choice
    sure, pool, _, _ = opponent_view(own, gone, voids, know, n_opp, bias)
    return capot_endgame(own, lead_card, sure, pool, n_opp - len(sure), choice, MAX_WORLDS)


def _normal(own, lead_card, played, voids, know, lam, capot, bias) -> int:
    if lead_card >= 0:
        same = [c for c in _cards(own) if c // 8 == lead_card // 8]
        if same:
            winners = [c for c in same if c > lead_card]
            return min(winners) if winners else min(same)
        gone = played | (1 << lead_card)
        view = opponent_view(own, gone, voids, know, len(_cards(own)) - 1, bias)
        return discard(own, *view, lam, capot)
    view = opponent_view(own, played, voids, know, len(_cards(own)), bias)
    return lead(own, *view, lam)


def check_binomial(n: int, f: float, k: int) -> float:
    """The binomial CDF from its definition (to test :func:`binom_cdf`)."""
    return sum(comb(n, i) * f**i * (1 - f) ** (n - i) for i in range(0, min(k, n) + 1))
