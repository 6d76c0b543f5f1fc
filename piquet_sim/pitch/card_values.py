"""Pitch card values: every legal card of the seat to play valued over the worlds he cannot tell
apart (``worlds.py``), each solved by the paranoid search, as the core's
:class:`~piquet_sim.core.game.advice.CardValues` in his side's points (:data:`deciders.UNIT`),
with the bidder's points and P(the bidder makes his bid) per card (``per_card``) and how the
worlds came (``facts``)."""

from __future__ import annotations

import time

import numpy as np

from ..core.engine.backend import stop_requested
from ..core.engine.blocks import cut_notes
from ..core.engine.interruptible import call_interruptibly
from ..core.engine.masks import mask_bits
from ..core.engine.stats import Estimate
from ..core.game.advice import CardValues, forced_values
from ..core.game.position import deciding_seat, world_mean
from .deciders import (
    BATCH,
    EXACT_LIMIT,
    FEW_TRIES,
    PILOT_WORLDS,
    UNIT,
    rules_array,
    to_side,
)
from .position import PitchState
from .worlds import WORLD_TRIES, count_worlds, enumerate_worlds


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


def _solve(rules, truth, hands, sight, won, policy) -> tuple:
    """``kernels.decide.world_values`` of ``hands``, run so that Ctrl-C is seen at once
    (``core.engine.interruptible``): a batch of early-trick worlds at five or six players takes
    minutes, and the search has no stop flag (its thread ends with the process)."""
    from .kernels.decide import world_values

    def run() -> tuple:
        return world_values(rules, truth, hands, sight, won, policy, spans())

    return call_interruptibly(run, None, stopped=stop_requested)


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
    new batch starts once this is spent or after Ctrl-C inside the command (``facts["partial"]``;
    at least one batch; an enumeration is solved whole).
    The values of a world do not depend on the batches, nor on the thread count. A forced card
    is answered at once (no world drawn). ``per_card``: ``bidder_points`` and ``p_made`` (P(the
    bidder makes his bid)) of each card; ``facts``: ``drawn`` (worlds drawn), ``fitting`` (those
    fitting the calls) and ``dropped`` (left out)."""
    seat = deciding_seat(state, "play", "the play advice")
    t0 = time.perf_counter()
    cards = mask_bits(state.legal_mask())
    k = len(cards)
    if k == 1:
        return forced_values(cards[0], UNIT, time.perf_counter() - t0)
    sight, policy = state.sight(seat, others)
    possible = count_worlds(state, seat)
    notes = []
    partial = False
    truth = state.pos_row(hidden=True)
    won = state.won()[state.bidder]
    rules = rules_array(state.rules)

    def solve(some: np.ndarray) -> tuple:
        return _solve(rules, truth, some, sight, won, policy)

    if possible <= exact_limit:
        hands = enumerate_worlds(state, seat)
        status = np.zeros(len(hands), dtype=np.int64)
        exact = True
        vals, base, fits = solve(hands)
    else:
        hands, status, note = _sampled(state, seat, sight, policy, worlds, seed, tries)
        if note:
            notes.append(note)
        exact = False
        parts = []
        for lo in range(0, len(hands), BATCH):
            try:
                parts.append(solve(hands[lo : lo + BATCH]))
                done = lo + BATCH
            except KeyboardInterrupt:
                if not (parts and stop_requested()):
                    raise
                done = lo  # the first Ctrl-C of a long command: the batches solved so far
            spent = time.perf_counter() - t0
            if done >= len(hands):
                continue
            if stop_requested():
                partial = True
                notes += cut_notes("interrupted", done, max_seconds, len(hands))
            elif max_seconds is not None and spent > max_seconds:
                notes += cut_notes("time", done, max_seconds, len(hands))
            else:
                continue
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
        samples=samples,
        possible=possible,
        per_card={"bidder_points": bpts, "p_made": made},
        facts={"drawn": drawn, "fitting": int(fit.sum()), "dropped": dropped}
        | ({"partial": True} if partial else {}),
    )
