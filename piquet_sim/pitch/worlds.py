"""The worlds a Pitch seat cannot tell apart: the world sampler, and the worlds counted and
listed.

What a seat saw: its own cards, every call, every card played and by whom, and so each seat's
cards left and the voids shown (``Table.voids``). A world deals the unseen cards to the
other seats keeping all of it and, when ``others`` names the bid policy the others are taken to
follow, their calls (a world in which that policy would have called otherwise is drawn again):
:func:`draw_world` draws one (``kernels.decide.sample_world``: uniform over those deals;
``Table.resample`` deals it); :func:`count_worlds` and :func:`enumerate_worlds` count and
list them (voids kept, calls not read); :func:`check_worlds` says whether there is any.

These read a position only through what it shows (:class:`Table`: a ``Table``).
"""

from __future__ import annotations

import functools
import math
from itertools import combinations
from typing import Protocol

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from . import cards as C
from .layouts import SEATS

#: Tries per world of the world sampler (``kernels/decide.py``) before it drops the calls.
WORLD_TRIES = 1 << 14


class Table(Protocol):
    """What the worlds read of a position (a ``Table``): the seats at the table, each
    seat's cards now, its cards played and the suits it showed void in (bits), the calls made
    (0 pass, 3..6; int64[6] with -1 for seats yet to call from ``calls_array``)."""

    n: int
    hands: list[int]
    played: list[int]
    voids: list[int]
    calls: list[int]

    def calls_array(self) -> np.ndarray: ...


def unseen(state: Table, seat: int) -> int:
    """The cards ``seat`` has not seen: neither his nor played."""
    used = state.hands[seat]
    for s in range(state.n):
        used |= state.played[s]
    return C.FULL_PACK & ~used


def allowed(state: Table, seat: int) -> dict[int, int]:
    """Each other seat's cards it may hold, as ``seat`` sees it: the unseen cards outside the
    suits it showed void in."""
    left = unseen(state, seat)
    out = {}
    for s in range(state.n):
        if s != seat:
            ban = 0
            for x in range(4):
                if state.voids[s] >> x & 1:
                    ban |= C.suit_cards(x)
            out[s] = left & ~ban
    return out


def count_worlds(state: Table, seat: int) -> int:
    """How many deals of the unseen cards to the other seats there are (voids ignored: an upper
    bound on the worlds consistent with what ``seat`` saw)."""
    left = mask_count(unseen(state, seat))
    total = 1
    for s in range(state.n):
        if s != seat:
            r = mask_count(state.hands[s])
            total *= math.comb(left, r)
            left -= r
    return total


def enumerate_worlds(state: Table, seat: int) -> np.ndarray:
    """Every deal of the unseen cards to the other seats keeping the voids shown (int64[W, 6],
    every seat's cards now)."""
    may = allowed(state, seat)
    others = list(may)
    out: list[list[int]] = []
    row = [0] * SEATS
    row[seat] = state.hands[seat]

    def deal(i: int, rem: int) -> None:
        if i == len(others):
            out.append(list(row))
            return
        s = others[i]
        for combo in combinations(mask_bits(rem & may[s]), mask_count(state.hands[s])):
            m = C.cards_to_mask(combo)
            row[s] = m
            deal(i + 1, rem & ~m)

    deal(0, unseen(state, seat))
    return np.array(out, dtype=np.int64).reshape(-1, SEATS)


def check_worlds(state: Table, seat: int) -> None:
    """The hidden cards can be dealt with every void shown (Hall's condition: every set of
    other seats can get their cards from the unseen cards they may hold); InputError else."""
    may = allowed(state, seat)
    others = list(may)
    for size in range(1, len(others) + 1):
        for group in combinations(others, size):
            need = sum(mask_count(state.hands[s]) for s in group)
            pool = 0
            for s in group:
                pool |= may[s]
            if mask_count(pool) < need:
                names = ", ".join(f"seat {s}" for s in group)
                raise InputError(
                    f"impossible history: {names} hold {need} cards but the voids shown leave "
                    f"{mask_count(pool)} unseen cards they could hold"
                )


def draw_order(state: Table, seat: int) -> list[int]:
    """The seats in the world sampler's drawing order: those showing the most voids first, then
    those who bid, then the rest (any order samples the same worlds; this one fails sooner)."""

    def key(s: int) -> tuple:
        called = s < len(state.calls) and state.calls[s] > 0
        return (-mask_count(state.voids[s]), not called, s)

    others = sorted((s for s in range(state.n) if s != seat), key=key)
    return [*others, seat] + list(range(state.n, SEATS))


@functools.lru_cache(maxsize=16)
def _others_policy(others: str):
    from .policies import make_policy

    return make_policy(others, "heuristic")


def sight_of(state: Table, seat: int, others: str = "threshold"):
    """What ``seat`` saw, as the world sampler takes it (``kernels.decide.Sight``), and the
    others' bid policy (``policies.PolicyArrays``) whose calls condition the worlds."""
    from .kernels.decide import Sight

    n = state.n
    counts = np.zeros(SEATS, dtype=np.int64)
    played = np.zeros(SEATS, dtype=np.int64)
    voids = np.zeros(SEATS, dtype=np.int64)
    for s in range(n):
        counts[s] = mask_count(state.hands[s])
        played[s] = state.played[s]
        voids[s] = state.voids[s]
    order = np.array(draw_order(state, seat), dtype=np.int64)
    sight = Sight(
        np.int64(n),
        np.int64(seat),
        np.int64(state.hands[seat]),
        counts,
        played,
        voids,
        state.calls_array(),
        np.int64(len(state.calls)),
        order,
    )
    return sight, _others_policy(others)


def draw_world(
    state: Table,
    seat: int,
    rng: np.random.Generator,
    others: str = "threshold",
    tries: int = WORLD_TRIES,
) -> tuple[list[int], int]:
    """One world as ``seat`` sees ``state``: every seat's cards now (his as they are, the others'
    drawn by ``kernels.decide.sample_world`` from a key drawn from ``rng``) and how it was
    drawn (0 every constraint kept, 1 the calls dropped, 2 the voids dropped too)."""
    from .kernels.decide import sample_world

    sight, policy = sight_of(state, seat, others)
    out = np.zeros(SEATS, dtype=np.int64)
    key = np.uint64(int(rng.integers(0, 2**63 - 1)))
    stream = np.zeros(1, dtype=np.int64)
    tries = np.int64(tries)
    status = int(sample_world(key, stream, sight, policy, tries, tries, out))
    return [int(out[s]) for s in range(state.n)], status


__all__ = [
    "WORLD_TRIES",
    "Table",
    "allowed",
    "check_worlds",
    "count_worlds",
    "draw_order",
    "draw_world",
    "enumerate_worlds",
    "sight_of",
    "unseen",
]
