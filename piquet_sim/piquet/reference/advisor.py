"""Reference pieces of the discard advisor in plain Python (slow, obvious, for tests only).

* the counter-based stream of ``kernels.rng`` (SplitMix64 over a counter, Lemire's bounded draw),
  written again from its description with Python integers;
* the legal discards of a hand;
* the worlds of a request: the 20 unseen cards shuffled inside-out (position i draws
  ``bounded(i + 1)``), the first 12 to the opponent, the next 8 the talon in draw order; for
  younger, attempts repeat on the same stream until an acceptance test passes;
* one candidate on one world without play: both exchanges given, declarations scored by
  ``reference.declarations.score_deal``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from ..rules import Rules
from .declarations import score_deal

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
SEED_SALT = 0x2545F4914F6CDD1D
INDEX_MULT = 0xD1B54A32D192ED03


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * M1) & M64
    z = ((z ^ (z >> 27)) * M2) & M64
    return z ^ (z >> 31)


def stream_key(seed: int, index: int) -> int:
    return mix64(mix64(seed ^ SEED_SALT) ^ ((index * INDEX_MULT) & M64))


def chunk(key: int, c: int) -> int:
    word = mix64((key + ((c >> 2) + 1) * GAMMA) & M64)
    return (word >> (16 * (c & 3))) & 0xFFFF


class Stream:
    """A stream position: ``bounded(n)`` is uniform in [0, n) and uses two 16-bit chunks a try."""

    def __init__(self, key: int, position: int = 0):
        self.key = key
        self.position = position

    def bounded(self, n: int) -> int:
        while True:
            c = self.position
            self.position += 2
            r = chunk(self.key, c) | (chunk(self.key, c + 1) << 16)
            m = r * n
            low = m & 0xFFFFFFFF
            if low >= n or low >= ((1 << 32) - n) % n:
                return m >> 32


def legal_discards(hand: int, role: str, elder_took: int | None, rules: Rules) -> set[int]:
    """Every legal discard mask: elder 1..5 cards; younger 1..8-K (0..8-K if he may pass)."""
    cards = [c for c in range(32) if hand >> c & 1]
    if role == "elder":
        sizes = range(1, 6)
    else:
        sizes = range(0 if not rules.younger_must_exchange else 1, 8 - elder_took + 1)
    return {sum(1 << c for c in combo) for n in sizes for combo in combinations(cards, n)}


def world(
    hand: int,
    seed: int,
    w: int,
    accept: Callable[[int, list[int], Stream], bool] | None = None,
    max_attempts: int = 50_000,
) -> tuple[int, list[int], int, int] | None:
    """World ``w`` of ``seed``: (opponent mask, talon in draw order, stream position after,
    attempts), or None when no attempt is accepted. ``accept(opponent, talon, stream)`` (younger's
    condition on elder's hand; it may draw from the stream) is tried after every shuffle."""
    unseen = [c for c in range(32) if not hand >> c & 1]
    stream = Stream(stream_key(seed, w))
    for attempt in range(1, max_attempts + 1):
        perm = [0] * 20
        perm[0] = unseen[0]
        for i in range(1, 20):
            j = stream.bounded(i + 1)
            perm[i] = perm[j]
            perm[j] = unseen[i]
        opp = sum(1 << c for c in perm[:12])
        talon = perm[12:]
        if accept is None or accept(opp, talon, stream):
            return opp, talon, stream.position, attempt
    return None


def exchange(hand: int, discard: int, talon: list[int], start: int) -> int:
    """The hand after discarding ``discard`` and drawing as many cards from ``talon[start:]``."""
    n = bin(discard).count("1")
    new = hand & ~discard
    for c in talon[start : start + n]:
        new |= 1 << c
    return new


def declarations_net(
    elder: int, younger: int, talon: list[int], e_discard: int, y_discard: int, rules: Rules
) -> int:
    """Declaration points (carte blanche of the dealt hands, point, sequences, sets, carte rouge,
    repique), elder minus younger, after the two given exchanges."""
    took = bin(e_discard).count("1")
    e_new = exchange(elder, e_discard, talon, 0)
    y_new = exchange(younger, y_discard, talon, took)
    cb = lambda h: not any(h >> (8 * s + r) & 1 for s in range(4) for r in (4, 5, 6))  # noqa: E731
    result = score_deal(
        e_new, y_new, rules, elder_carte_blanche=cb(elder), younger_carte_blanche=cb(younger)
    )
    return result["elder"]["total"] - result["younger"]["total"]
