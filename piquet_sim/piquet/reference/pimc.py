"""Plain-Python reference for pimc's racing rule (tests only), written from the rule's statement
in ``kernels/pimc.py``: after ``w`` worlds the best candidate still raced is the one of best total
(elder maximises, younger minimises; ties to the lowest index); every other one is dropped when
its mean deficit to the best, paired over the same worlds, is positive and exceeds ``z`` standard
errors (sample standard deviation over sqrt(w))."""

from __future__ import annotations

import statistics


def race_step(vals: list[list[int]], alive: list[bool], seat: int, z: float) -> list[bool]:
    """The candidates still raced after the worlds ``vals[world][candidate]`` (elder minus
    younger) for the player ``seat`` (0 elder, 1 younger)."""
    sign = 1 if seat == 0 else -1
    raced = [i for i, a in enumerate(alive) if a]
    best = max(raced, key=lambda i: (sign * sum(row[i] for row in vals), -i))
    out = list(alive)
    for i in raced:
        if i == best:
            continue
        d = [sign * (row[best] - row[i]) for row in vals]
        mean = sum(d) / len(d)
        var = statistics.variance(d) if len(d) > 1 else 0.0
        # mean > z * sd / sqrt(w), squared (both sides are non-negative when mean > 0)
        if mean > 0 and mean * mean * len(d) > z * z * var:
            out[i] = False
    return out


def kept_world(
    full: int,
    drawn_flags: int,
    opp_played: int,
    gone: int,
    own: int,
    void_suits: list[int],
    n_opp: int,
    flags: int,
) -> int:
    """The opponent's current hand in a kept world (his hand as dealt, ``full``, drawn under the
    sampler flags ``drawn_flags``), or 0 when the play has ruled the world out: he must have held
    every card he played; what is left must avoid every card gone and the player's own, hold no
    card of a suit he showed void in, count ``n_opp`` cards, and the world must have been drawn
    under the flags the sampler has now (same bounds believed, no fallback)."""
    if full == 0 or drawn_flags != flags or full & opp_played != opp_played:
        return 0
    rest = full & ~opp_played
    if rest & (gone | own) or bin(rest).count("1") != n_opp:
        return 0
    if any(rest >> (8 * s) & 0xFF for s in void_suits):
        return 0
    return rest
