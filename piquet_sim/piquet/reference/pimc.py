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
