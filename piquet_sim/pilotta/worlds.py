"""The worlds a Pilotta seat cannot tell apart: the cards a play forbids (:func:`forbidden_by`),
pimc's sampler kept to every duty of the cards played and every announcement
(:func:`sample_world`), and a world replayed through the same history (:func:`replay_world`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits
from ..core.engine.rng import stream_key
from . import cards as C
from .actions import (
    AUCTION_TRIES,
    DECLARE,
    FULL,
    KEEP_TIERCE,
    MAX_WORLD_TRIES,
    N_CARDS,
    PH_DECLARE,
    PH_PLAY,
    has_tierce,
    shown_cards,
)
from .kernels import tricks as KT
from .layouts import (
    ASTATE_LEN,
    Pub,
    View,
)

if TYPE_CHECKING:
    from .position import PilottaState


def forbidden_by(c: int, n: int, led: int, trump: int, top: int, pw: bool, code: int) -> int:
    """The cards whose holding would have made card ``c`` illegal in its trick context (``n``
    cards before it, the suit led, the highest trump's strength, partner winning, the play
    code): each ``x`` such that ``c`` is not legal from the hand ``{c, x}``, found with the
    kernels' legal-card function (so every play option carries over). Every duty of the play
    rules reads "holding any card of a set" (follow, trump, over-trump), so a hand may have
    played ``c`` exactly when it holds none of these (``tests`` check it on random hands)."""
    if n == 0:
        return 0
    out = 0
    for x in range(N_CARDS):
        hand = (1 << c) | (1 << x)
        if x != c and not KT.legal_cards(hand, n, led, trump, top, pw, code) >> c & 1:
            out |= 1 << x
    return out


def _ctx(state: PilottaState, ws=None):
    """pimc's ``Ctx`` of a state (workspace, calls, setup, rules)."""
    from .kernels.pimc import Ctx

    if ws is None:
        from .solver import workspace

        ws = workspace()
    return Ctx(ws, state.calls_array(), state.setup, state._rules)


def world_ok(state: PilottaState, seat: int, world, forbidden: list[int]) -> bool:
    """The facts a world must meet beyond pimc's sampler: no seat holds a card one of its
    plays forbids, and every other seat's announcement is one its whole hand makes (declaring
    all, or keeping a tierce)."""
    for p in range(4):
        if p == seat:
            continue
        w = int(world[p])
        if w & forbidden[p]:
            return False
        if state._phase >= PH_PLAY:
            whole = w | state.gone[p]
            shown = state.shown[p]
            if shown_cards(whole, DECLARE) != shown and not (
                has_tierce(whole) and shown_cards(whole, KEEP_TIERCE) == shown
            ):
                return False
    return True


def _auction_world(state: PilottaState, seat: int, key: int) -> np.ndarray:
    """A world before the play (nothing announced, no card seen): the unseen cards dealt
    uniformly (numpy, seeded by ``key``) until the calls so far fit the Setup's bidding
    policies (``kernels.advise``'s test; :data:`AUCTION_TRIES` shuffles, then the last)."""
    from .kernels.advise import _consistent

    rng = np.random.default_rng(key)
    rest = np.array(mask_bits(FULL & ~state.dealt[seat]), dtype=np.int64)
    calls = state.calls_array()
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    world = np.zeros(4, dtype=np.int64)
    others = [p for p in range(4) if p != seat]
    world[seat] = state.dealt[seat]
    for _ in range(AUCTION_TRIES):
        perm = rng.permutation(rest)
        for j, p in enumerate(others):
            world[p] = sum(1 << int(c) for c in perm[8 * j : 8 * j + 8])
        if len(calls) == 0 or _consistent(
            world, np.int64(seat), np.int64(state.dealer), calls, state.setup, state._rules, ast
        ):
            break
    return world


def sample_world(state: PilottaState, seat: int, key: int, tries: int = MAX_WORLD_TRIES):
    """One world (current hands, int64[4]) consistent with what ``seat`` saw: pimc's
    ``deal_world`` (barring every card a play forbids) on stream (key, t) for t = 0, 1, …
    until :func:`world_ok` holds (at most ``tries``); None when none does. Before the play
    (or in a thrown-in round): :func:`_auction_world`."""
    if state._phase < PH_PLAY or state.bidder < 0:
        return _auction_world(state, seat, key)
    from .kernels.pimc import deal_world

    view = state.view_array(seat)
    pub = state.pub_array()
    hand = state.hands[seat]
    # pimc's sampler deals for the seat to play (hand sizes from his); a seat that already
    # played to this trick is dealt for as at his play, the later cards pinned to their players
    trick, lead = state.trick, state.leader
    mine = next((i for i, c in enumerate(trick) if (lead + i) % 4 == seat), -1)
    later = 0
    if mine >= 0:
        hand |= 1 << trick[mine]
        view[View.POS] = mine
        for i in range(mine, len(trick)):
            view[View.PLAYED] &= ~(1 << trick[i])
            if i > mine:
                pub[Pub.SHOWN + (lead + i) % 4] |= 1 << trick[i]
                later |= 1 << trick[i]
    ctx = _ctx(state)
    forbidden = state.forbidden()
    bars = np.array(forbidden, dtype=np.int64)
    world = np.zeros(4, dtype=np.int64)
    stream = np.zeros(1, dtype=np.int64)
    for t in range(tries):
        k = np.uint64(stream_key(np.int64(key & (2**62 - 1)), np.int64(t)))
        stream[0] = 0
        ok = deal_world(np.int64(seat), np.int64(hand), view, pub, ctx, world, k, stream, bars)
        world &= ~later
        world[seat] = state.hands[seat]
        if ok and world_ok(state, seat, world, forbidden):
            return world.copy()
    return None


def _declaration_for(state: PilottaState, p: int, dealt: int) -> int:
    """The declaration action that makes seat ``p`` of a world announce what it announced in
    ``state`` (its own action first); before the announcements its own action (declare when a
    kept tierce is not in the new hand)."""
    own = state.decl_actions[p]
    if state._phase < PH_PLAY:
        return own if own != KEEP_TIERCE or has_tierce(dealt) else DECLARE
    for a in (own, DECLARE, KEEP_TIERCE):
        if (a == DECLARE or has_tierce(dealt)) and shown_cards(dealt, a) == state.shown[p]:
            return a
    raise InputError(f"{C.SEATS[p]}'s hand in this world cannot announce what it announced")


def replay_world(state: PilottaState, world) -> PilottaState:
    """``state``'s history replayed on another world (``world``: the current hands), with its
    rules, Setup and stream: the hidden cards changed, everything seen kept."""
    dealt = state.dealt_of(world)
    new = type(state)(dealt, state.dealer, state.rules, state.setup, int(state.key))
    new.stream[0] = state.stream[0]
    new.calls_known = state.calls_known
    for a in state._history:
        if new._phase == PH_DECLARE:
            p = new.current_player()
            a = _declaration_for(state, p, dealt[p])
        new.apply(a)
    return new
