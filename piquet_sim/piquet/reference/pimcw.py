"""Plain-Python twin of ``kernels/pimcw.py``'s weights: the likelihood of the opponent's play
under the heuristic model, the exchange mismatch of one completion, and systematic resampling.
Slow and obvious; the tests compare the kernels with it."""

from __future__ import annotations

import math

from ..heuristic_exchange import HEURISTIC_EXCHANGE_WEIGHTS
from .heuristic import heuristic_card
from .play import legal


def _bit(c: int) -> int:
    return 1 << c


def equivalent(a: int, b: int, own: int, gone: int, ten: bool) -> bool:
    """Cards a and b of ``own`` are one to the play: same suit, nothing strictly between them
    but own cards and cards gone (not across nine/ten under ten_or_higher)."""
    if a == b:
        return True
    if a // 8 != b // 8:
        return False
    lo, hi = sorted((a, b))
    if ten and lo % 8 < 3 <= hi % 8:
        return False
    return all((own | gone) >> c & 1 for c in range(lo + 1, hi))


def classes(cards: list[int], gone: int, ten: bool, own: int) -> int:
    """Number of equivalence classes among the legal ``cards`` (as ``pimc.candidates``)."""
    reps: list[int] = []
    for c in sorted(cards):
        if not any(equivalent(r, c, own, gone, ten) for r in reps):
            reps.append(c)
    return len(reps)


def play_loglik(
    opp_now: int,
    opp_seat: int,
    tricks: list[tuple[int, int]],
    lead: int,
    kin: int,
    ten: bool,
    eps: float,
) -> float:
    """Log-likelihood of the opponent's cards so far (``kernels.pimcw.play_loglik``): ``tricks``
    the finished tricks (lead, reply) from elder's first lead, ``lead`` the card he led to the
    current trick or -1."""
    his_all = 0
    leader = 0
    for c, d in tricks:
        his_all |= _bit(c if leader == opp_seat else d)
        if d // 8 == c // 8 and d > c:
            leader = 1 - leader
    if lead >= 0:
        his_all |= _bit(lead)
    decl = opp_now | his_all
    steps = list(tricks) + ([(lead, None)] if lead >= 0 else [])
    leader, played, before, my_voids, won, ll = 0, 0, 0, 0, 0, 0.0
    for c, d in steps:
        his = c if leader == opp_seat else d
        hand = decl & ~before
        lead_t = None if leader == opp_seat else c
        options = legal(hand, lead_t)
        k = classes(options, played, ten, hand)
        if k > 1:
            know = [kin, decl, 0, 0, 0, 1 << 20, 1 << 20, 1 << 20, 12]
            h = heuristic_card(
                hand, -1 if lead_t is None else lead_t, played, my_voids, know, 0.0, won == 0, 0, 5
            )
            p = eps / k + ((1.0 - eps) if equivalent(h, his, hand, played, ten) else 0.0)
            ll += math.log(p)
        if d is None:
            break
        if leader == opp_seat and d // 8 != c // 8:
            my_voids |= 0xFF << (8 * (c // 8))
        winner = 1 - leader if (d // 8 == c // 8 and d > c) else leader
        won += winner == opp_seat
        before |= _bit(his)
        played |= _bit(c) | _bit(d)
        leader = winner
    return ll


def resample(logw: list[float], n: int, u: float) -> list[int]:
    """Systematic resampling (``kernels.pimcw.resample``): ``n`` indices, offset ``u``."""
    top = max(logw)
    w = [math.exp(x - top) for x in logw]
    step = sum(w) / n
    out, acc, i = [], w[0], 0
    for j in range(n):
        point = (u + j) * step
        while acc <= point and i < len(w) - 1:
            i += 1
            acc += w[i]
        out.append(i)
    return out


def exchange_mismatch(
    decl: int, x: int, drawn: int, younger: bool, lo: int, hi: int, discard_fn
) -> int:
    """Cards by which the model's discard from the dealt hand ``decl - drawn + x`` misses ``x``;
    ``discard_fn(dealt, lo, hi, younger, weights)`` is the model's greedy discard."""
    dealt = (decl & ~drawn) | x
    model = discard_fn(dealt, lo, hi, younger, HEURISTIC_EXCHANGE_WEIGHTS)
    return bin(model ^ x).count("1")
