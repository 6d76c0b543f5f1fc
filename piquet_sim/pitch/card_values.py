"""Pitch card values: every legal card of the seat to play valued over the worlds he cannot tell
apart, each solved exactly (moved out of ``deciders``)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.stats import Estimate
from ..core.game.position import ActionValues, world_mean
from .deciders import (
    BATCH,
    EXACT_LIMIT,
    FEW_TRIES,
    PILOT_WORLDS,
    UNIT,
    _check_phase,
    rules_array,
    to_side,
)
from .layouts import SEATS
from .position import (
    FULL,
    PH_PLAY,
    WORLD_TRIES,
    PitchState,
    _suit_mask,
)


@dataclass
class CardValues(ActionValues):
    """:func:`card_values`: each legal card's value for the side to act (``values``, in
    :data:`UNIT`), with the bidder's points (``bidder_points``) and P(the bidder makes his bid)
    per card, the samples per world (``samples``, for paired margins) and how the worlds came."""

    bidder_points: dict[int, Estimate] = field(default_factory=dict)
    p_made: dict[int, Estimate] = field(default_factory=dict)
    samples: dict[int, np.ndarray] = field(default_factory=dict)
    method: str = ""
    drawn: int = 0
    fitting: int = 0
    dropped: int = 0
    possible: int | None = None


def count_worlds(state: PitchState, seat: int) -> int:
    """How many deals of the unseen cards to the other seats there are (voids ignored: an upper
    bound on the worlds consistent with what ``seat`` saw)."""
    used = state.hands[seat]
    for s in range(state.n):
        used |= state.played[s]
    left = mask_count(FULL & ~used)
    total = 1
    for s in range(state.n):
        if s != seat:
            r = mask_count(state.hands[s])
            total *= math.comb(left, r)
            left -= r
    return total


def enumerate_worlds(state: PitchState, seat: int) -> np.ndarray:
    """Every deal of the unseen cards to the other seats keeping the voids shown (int64[W, 6],
    every seat's cards now)."""
    from itertools import combinations

    used = state.hands[seat]
    for s in range(state.n):
        used |= state.played[s]
    unseen = FULL & ~used
    others = [s for s in range(state.n) if s != seat]
    allowed = {}
    for s in others:
        ban = 0
        for x in range(4):
            if state.voids[s] >> x & 1:
                ban |= _suit_mask(x)
        allowed[s] = ban
    out: list[list[int]] = []
    row = [0] * SEATS
    row[seat] = state.hands[seat]

    def deal(i: int, rem: int) -> None:
        if i == len(others):
            out.append(list(row))
            return
        s = others[i]
        pool = mask_bits(rem & ~allowed[s])
        for combo in combinations(pool, mask_count(state.hands[s])):
            m = 0
            for c in combo:
                m |= 1 << c
            row[s] = m
            deal(i + 1, rem & ~m)

    deal(0, unseen)
    return np.array(out, dtype=np.int64).reshape(-1, SEATS)


def spans() -> np.int64:
    """Parts :func:`~.kernels.decide.world_values` splits its worlds into: two per thread."""
    import numba

    return np.int64(2 * numba.get_num_threads())


def _sampled(state, seat, sight, policy, worlds, seed, tries) -> tuple:
    """(hands, status, note) of ``worlds`` sampled worlds; a pilot of :data:`PILOT_WORLDS`
    first, after which worlds whose calls never fit get few tries (see :data:`FEW_TRIES`)."""
    from .kernels.decide import sampled_hands

    pilot = min(PILOT_WORLDS, worlds)
    t = np.int64(tries)
    h0, s0 = sampled_hands(np.int64(seed), np.int64(0), np.int64(pilot), sight, policy, t, t)
    call_tries, note = t, ""
    if state.calls and (s0 != 0).all():
        call_tries = np.int64(min(FEW_TRIES, tries))
        note = f"the calls fit none of the first {pilot} worlds: taken as out of reach"
    if worlds == pilot:
        return h0, s0, note
    h1, s1 = sampled_hands(
        np.int64(seed), np.int64(pilot), np.int64(worlds - pilot), sight, policy, t, call_tries
    )
    return np.concatenate([h0, h1]), np.concatenate([s0, s1]), note


def card_values(
    state: PitchState,
    worlds: int = 200,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
    others: str = "threshold",
    tries: int = WORLD_TRIES,
    max_seconds: float | None = None,
) -> CardValues:
    """Each legal card of the seat to play valued over the worlds consistent with what he saw
    (his cards, the calls under the others' bid policy ``others``, the cards played and the
    voids shown): every world when there are at most ``exact_limit`` (exact), else ``worlds``
    drawn by ``kernels.decide.sample_world`` (world w with the stream (seed, w)); each world
    solved by the paranoid search (``kernels.decide.world_values``). Worlds whose hands the
    others' bid policy would not have called as they did are left out when any world fits.
    ``max_seconds``: sampled worlds are solved in batches of :data:`BATCH`, in order, and no
    new batch starts once this is spent (at least one batch; an enumeration is solved whole).
    The values of a world do not depend on the batches, nor on the thread count."""
    from .kernels.decide import world_values

    seat = _check_phase(state, PH_PLAY, "the play advice")
    t0 = time.perf_counter()
    cards = mask_bits(state.legal_mask())
    k = len(cards)
    sight, policy = state.sight(seat, others)
    possible = count_worlds(state, seat)
    notes = []
    truth = state.pos_row(hidden=True)
    capt = state.captured()
    rules = rules_array(state.rules)
    if possible <= exact_limit:
        hands = enumerate_worlds(state, seat)
        status = np.zeros(len(hands), dtype=np.int64)
        exact = True
        vals, base, fits = world_values(rules, truth, hands, sight, capt, policy, spans())
    else:
        hands, status, note = _sampled(state, seat, sight, policy, worlds, seed, tries)
        if note:
            notes.append(note)
        exact = False
        parts = []
        for lo in range(0, len(hands), BATCH):
            batch = hands[lo : lo + BATCH]
            parts.append(world_values(rules, truth, batch, sight, capt, policy, spans()))
            spent = time.perf_counter() - t0
            if max_seconds is not None and spent > max_seconds and lo + BATCH < len(hands):
                done = lo + BATCH
                notes.append(f"stopped after {done:,} of {len(hands):,} worlds ({spent:.1f} s)")
                hands, status = hands[:done], status[:done]
                break
        vals, base, fits = (np.concatenate(x) for x in zip(*parts, strict=True))
    drawn = len(hands)
    fit = (fits == 1) & (status == 0)
    if fit.any():
        use = fit
    else:
        use = status <= 1 if (status <= 1).any() else np.ones(drawn, dtype=bool)
        if state.calls and drawn:
            notes.append(f"no world fits the calls under the others' policy ({others}): all used")
    dropped = int(drawn - use.sum())
    bidder = seat == state.bidder
    pts = base[use, :1] + vals[use, :k]
    side = to_side(base[use], vals[use, :k], bidder)
    values, bpts, made, samples = {}, {}, {}, {}
    for i, c in enumerate(cards):
        values[c] = world_mean(side[:, i], exact)
        bpts[c] = world_mean(pts[:, i], exact)
        m = pts[:, i] >= state.bid
        made[c] = (
            world_mean(m.astype(np.float64), True)
            if exact
            else Estimate.proportion(int(m.sum()), len(m))
        )
        samples[c] = side[:, i]
    if exact:
        method = f"exact: every one of the {drawn:,} deals of the unseen cards keeping the voids"
    else:
        method = f"{drawn:,} worlds sampled (seed {seed})"
    if state.calls:
        method += f"; {int(fit.sum()):,} fit the calls (others bid {others})"
        if dropped and fit.any():
            method += f", {dropped:,} that do not are left out"
    notes.insert(0, method)
    return CardValues(
        values,
        UNIT,
        exact=exact,
        worlds=int(use.sum()),
        seconds=time.perf_counter() - t0,
        notes=notes,
        bidder_points=bpts,
        p_made=made,
        samples=samples,
        method=method,
        drawn=drawn,
        fitting=int(fit.sum()),
        dropped=dropped,
        possible=possible,
    )
