"""Pilotta card values: every legal card of the seat to play valued over the worlds he cannot tell
apart, each solved exactly (moved out of ``deciders``)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from itertools import combinations

import numpy as np

from ..core.engine.backend import stop_requested
from ..core.engine.blocks import MIN_WORLDS, cut_notes, solve_card_worlds
from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits
from ..core.engine.rng import stream_key
from ..core.engine.workspaces import KeptWorkspaces
from ..core.game.advice import CardValues, forced_values
from ..core.game.position import deciding_seat, world_mean
from . import cards as C
from .actions import FULL, strength
from .kernels import solver as K
from .kernels.pimc import Ctx, _distinct, _soft_ok, deal_world
from .kernels.solver_tt import card_to_internal, to_internal
from .layouts import ASTATE_LEN, POS_LEN, SolverPos
from .position import PilottaState
from .worlds import world_ok

UNIT = (
    "the acting team's card points for the round (tricks won so far and the last trick's 10 "
    "included; the contracting team's capot counts its capot points for it, 0 for the "
    "defenders)"
)


#: Worlds :func:`card_values` enumerates rather than samples (when every world is this few).
EXACT_LIMIT = 3000


#: Draws per sampled world before :func:`card_values` gives up on it.
WORLD_TRIES = 200


#: Bits of the solver tables :func:`card_values` keeps (one per thread; 8 MB at 18).
TT_BITS = 18


#: Worlds drawn between two looks at the clock and at Ctrl-C while sampling.
SAMPLE_LOOK = 256


def _card_values_workspace(slot: int = 0) -> K.Workspace:
    return K.make_workspace(TT_BITS)


#: A solver workspace, ``workspace(slot)`` (one per thread's slot, kept: its table holds exact
#: facts about positions, the rules that change values in its keys, so it serves every later
#: search).
workspace: KeptWorkspaces[K.Workspace] = KeptWorkspaces(_card_values_workspace)


def _sizes(state: PilottaState) -> list[int]:
    """Cards each seat holds now."""
    return [bin(h).count("1") for h in state.hands]


def _multinomial(n: int, parts: list[int]) -> int:
    out = 1
    for k in parts:
        out *= math.comb(n, k)
        n -= k
    return out


def _enumerate(state: PilottaState, seat: int, limit: int) -> tuple[list, int] | None:
    """Every world the hard facts allow (each other seat's known cards placed, the rest of the
    unseen cards spread so that no seat holds a card its plays forbid), when at most ``limit``
    (counted as if nothing were forbidden); None when more."""
    others = [p for p in range(4) if p != seat]
    sizes = _sizes(state)
    unseen = FULL & ~state.played & ~state.hands[seat]
    known = [(state.shown[p] & unseen) if p != seat else 0 for p in range(4)]
    free = unseen & ~C.cards_to_mask(c for p in others for c in mask_bits(known[p]))
    rooms = [sizes[p] - bin(known[p]).count("1") for p in others]
    if min(rooms) < 0 or sum(rooms) != bin(free).count("1"):
        return [], 0
    bound = _multinomial(sum(rooms), rooms)
    if bound > limit:
        return None
    forbidden = state.forbidden()
    allowed = [free & ~forbidden[p] for p in others]
    worlds = []
    a, b, c = others
    for ca in combinations(mask_bits(allowed[0]), rooms[0]):
        ma = C.cards_to_mask(ca)
        rest = free & ~ma
        for cb in combinations(mask_bits(rest & allowed[1]), rooms[1]):
            mb = C.cards_to_mask(cb)
            mc = rest & ~mb
            if mc & ~allowed[2]:
                continue
            w = np.zeros(4, dtype=np.int64)
            w[seat] = state.hands[seat]
            w[a], w[b], w[c] = ma | known[a], mb | known[b], mc | known[c]
            worlds.append(w)
    return worlds, bound


def _soft_filter(state: PilottaState, seat: int, worlds: list) -> tuple[list, bool]:
    """The worlds that also meet pimc's soft facts (announced points and calls fit the Setup's
    policies); all of them when none does (then False)."""
    if not worlds:
        return worlds, True
    ctx = Ctx(workspace(), state.calls_array(), state.setup, state._rules)
    pub = state.pub_array()
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    kept = [w for w in worlds if _soft_ok(np.int64(seat), w, pub, ctx, ast)]
    return (kept, True) if kept else (worlds, False)


def worlds_for(
    state: PilottaState,
    seat: int,
    n: int,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
    from_stream: bool = False,
    enough: Callable[[int], bool] | None = None,
) -> dict:
    """The worlds ``seat`` weighs at his play decision (current hands, int64[4] each).
    ``enough(drawn)``: asked every few hundred draws, True stops the sampling there (a time
    budget spent, Ctrl-C).

    ``from_stream``: the ``n`` worlds pimc's ``pimc_card`` would draw now (``deal_world`` on the
    state's stream, copied). Else every world the facts allow when they are at most
    ``exact_limit`` (uniform: those meeting the soft facts, all when none does), or ``n`` worlds
    drawn by ``deal_world`` (world w on stream (seed, w)) and kept when they respect every duty
    of the cards played and every announcement (:func:`position.world_ok`). Returns {"hands",
    "exact", "possible", "unfit": worlds that miss the soft facts, "dropped": sampled worlds
    given up}."""
    view = state.view_array(seat)
    pub = state.pub_array()
    hand = np.int64(state.hands[seat])
    ctx = Ctx(workspace(), state.calls_array(), state.setup, state._rules)
    if from_stream:
        stream = state.stream.copy()
        hands = []
        world = np.zeros(4, dtype=np.int64)
        no_bars = np.zeros(4, dtype=np.int64)  # pimc reads the voids only
        for _ in range(n):
            deal_world(np.int64(seat), hand, view, pub, ctx, world, state.key, stream, no_bars)
            hands.append(world.copy())
        return {"hands": hands, "exact": False, "possible": 0, "unfit": 0, "dropped": 0}
    found = _enumerate(state, seat, exact_limit)
    if found is not None:
        hard, bound = found
        hard = [w for w in hard if world_ok(state, seat, w, [0, 0, 0, 0])]
        hands, soft = _soft_filter(state, seat, hard)
        if not hands:
            raise InputError("no deal of the unseen cards fits what was seen")
        unfit = 0 if soft else len(hands)
        return {"hands": hands, "exact": True, "possible": len(hard), "unfit": unfit, "dropped": 0}
    forbidden = state.forbidden()
    bars = np.array(forbidden, dtype=np.int64)
    hands, dropped = [], 0
    world = np.zeros(4, dtype=np.int64)
    stream = np.zeros(1, dtype=np.int64)
    unfit = 0
    for w in range(n):
        if enough is not None and w % SAMPLE_LOOK == 0 and w and enough(len(hands)):
            break
        key = np.uint64(stream_key(np.int64(seed), np.int64(w)))
        stream[0] = 0
        for _ in range(WORLD_TRIES):
            got = deal_world(np.int64(seat), hand, view, pub, ctx, world, key, stream, bars)
            if got and world_ok(state, seat, world, forbidden):
                unfit += got != 2
                hands.append(world.copy())
                break
        else:
            dropped += 1
    if not hands:
        raise InputError("no deal of the unseen cards fits what was seen")
    sizes = _sizes(state)
    others = [sizes[p] for p in range(4) if p != seat]
    possible = _multinomial(sum(others), others)
    return {
        "hands": hands,
        "exact": False,
        "possible": possible,
        "unfit": unfit,
        "dropped": dropped,
    }


def _solver_position(state: PilottaState) -> tuple[np.ndarray, np.ndarray]:
    """(pos, internal trick) of the state's play position for the solver."""
    pos = np.zeros(POS_LEN, dtype=np.int64)
    pos[SolverPos.LEADER] = state.leader
    pos[SolverPos.PLAYED] = len(state.trick)
    pos[SolverPos.TEAM] = state.c_team
    pos[SolverPos.CAPOT] = state.capot_alive
    if hasattr(K, "rules_position"):
        K.rules_position(pos, state._rules)
    else:  # the solver before the play options: the K/Q points and the exemption
        template = K.position(0, 0, kq=state._kq, exempt=state._code)
        pos[SolverPos.KQ :] = template[SolverPos.KQ :]
    itrick = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(state.trick):
        itrick[i] = card_to_internal(np.int64(c), np.int64(state.trump))
    return pos, itrick


def _evaluate(state: PilottaState, worlds: list, cards: list[int], ws) -> np.ndarray:
    """vals[w, i]: the contracting team's card points from the position on (the trick in
    progress included, its capot's rest when it takes every trick) when card ``cards[i]`` is
    played in world ``worlds[w]`` and both sides play perfectly after it (pimc_card's search:
    the card played, then MTD(f) from the previous card's value)."""
    pos, itrick = _solver_position(state)
    trump = np.int64(state.trump)
    icards = [int(card_to_internal(np.int64(c), trump)) for c in cards]
    vals = np.zeros((len(worlds), len(cards)), dtype=np.int64)
    ih = np.zeros(4, dtype=np.int64)
    guess = -1
    for w, world in enumerate(worlds):
        for p in range(4):
            ih[p] = to_internal(np.int64(world[p]), trump)
        for i, ic in enumerate(icards):
            K.set_position(ws, ih, itrick, pos)
            v = int(K.play_card(ws, np.int64(ic)))
            if ws.hands.any():
                r = int(K.value(ws, np.int64(guess), K.F_ALL))
                guess = r
                v += r
            vals[w, i] = v
    return vals


def _team_points(state: PilottaState, seat: int, rest: np.ndarray) -> np.ndarray:
    """The acting team's card points for the round from the contracting team's rest values."""
    c_total = state.pts[state.c_team] + rest
    if (seat & 1) == state.c_team:
        return c_total
    capot = int(state.rules.capot_points) if hasattr(state.rules, "capot_points") else 250
    return np.where(c_total >= capot, 0, state.total - c_total)


def _representatives(state: PilottaState, legal: list[int]) -> tuple[list[int], dict[int, int]]:
    """(the legal cards worth solving, each legal card -> its representative): pimc's
    ``_distinct`` keeps one card of adjacent cards worth the same points (they take the same
    tricks in every world); a card left out is worth its next weaker kept card of its suit."""
    seat = state.current_player()
    keep = int(
        _distinct(
            np.int64(state.hands[seat]),
            np.int64(C.cards_to_mask(legal)),
            state.view_array(seat),
            state.pub_array(),
        )
    )
    kept = mask_bits(keep)
    rep = {}
    for c in legal:
        if keep >> c & 1:
            rep[c] = c
            continue
        below = [
            k
            for k in kept
            if k >> 3 == c >> 3 and strength(k, state.trump) < strength(c, state.trump)
        ]
        rep[c] = max(below, key=lambda k: strength(k, state.trump))
    return kept, rep


def card_values(
    state: PilottaState,
    worlds: int = 200,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
    threads: int | None = None,
    from_stream: bool = False,
    max_seconds: float | None = None,
) -> CardValues:
    """Every legal card of the seat to play, valued over the worlds he thinks possible
    (:func:`worlds_for`), each solved double-dummy: his team's mean card points for the round
    (:data:`UNIT`) with SE, 95% interval and world count (exact when every world was
    enumerated). ``threads`` (default: the cores, at most 2, one per 40 worlds) split the
    worlds; values do not depend on it. ``max_seconds``: stop solving further sampled worlds
    once this long has passed (at least :data:`MIN_WORLDS` are solved; the worlds solved then
    depend on the machine's speed; an enumeration is always solved whole)."""
    seat = deciding_seat(state, "play", "card values")
    t0 = time.perf_counter()
    legal = state.legal_actions()
    if len(legal) == 1:
        return forced_values(legal[0], UNIT, time.perf_counter() - t0)
    kept, rep = _representatives(state, legal)

    def enough(drawn: int) -> bool:  # sampling stops like the solving: Ctrl-C, or time
        late = max_seconds is not None and time.perf_counter() > t0 + max_seconds
        return stop_requested() or (late and drawn >= MIN_WORLDS)

    found = worlds_for(state, seat, worlds, seed, exact_limit, from_stream, enough)
    hands = found["hands"]

    def solve(some, slot):
        return _evaluate(state, some, kept, workspace(slot))

    rest, cut = solve_card_worlds(solve, hands, t0, max_seconds, found["exact"], threads, 40)
    rest = rest.reshape(len(rest), len(kept))
    hands = hands[: len(rest)]
    exact = found["exact"] and cut != "interrupted"  # a cut enumeration is no mean
    x = _team_points(state, seat, rest)
    c_total = state.pts[state.c_team] + rest
    out = {}
    samples = {}
    contracting = {}
    for c in legal:
        col = x[:, kept.index(rep[c])]
        samples[c] = col
        contracting[c] = c_total[:, kept.index(rep[c])]
        out[c] = world_mean(col, exact)
    if exact:
        notes = [f"every world enumerated ({len(hands)}), each solved double-dummy"]
    elif from_stream:
        notes = [f"the {len(hands)} worlds pimc draws now (its stream), each solved double-dummy"]
    else:
        notes = [
            f"{len(hands)} worlds drawn from what the player saw (pimc's sampler, every duty of "
            f"the cards played kept; of at most {found['possible']:,}), each solved double-dummy"
        ]
    if found["unfit"]:
        why = "none fits them" if exact else "64 draws in a row missed them"
        notes.append(
            f"{found['unfit']} world(s) ignore the calls or the announced points under the "
            f"assumed policies ({why})"
        )
    notes += cut_notes(cut, len(hands), max_seconds)
    if found["dropped"]:
        notes.append(f"{found['dropped']} world(s) could not be drawn and were left out")
    return CardValues(
        out,
        UNIT,
        exact=exact,
        worlds=len(hands),
        seconds=time.perf_counter() - t0,
        notes=notes,
        samples=samples,
        possible=found["possible"],
        hands=hands,
        per_card={"contracting": contracting},
        facts={"partial": True} if cut == "interrupted" else {},
    )
