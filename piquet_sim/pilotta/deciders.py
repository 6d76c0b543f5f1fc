"""Deciders: every registered Pilotta policy (``policies.REGISTRY``) answering one decision of a
:class:`~piquet_sim.pilotta.position.PilottaState` (the
:class:`~piquet_sim.core.game.position.Decider` contract).

Each decider calls the function the round kernels call for that policy, with the same policy
id and parameter row, so a round played through a state and these deciders records what
``api.simulate_batch`` records for the same seed, round and Setup:

* auction (``random``, ``fixed``, ``threshold``, ``montecarlo``): ``kernels.auction.policy_call``
  on the state's auction array;
* declare (``all``, ``no-tierce``): the ``declare`` action, or ``keep tierce`` when the hand
  holds one (``kernels.declarations.declare_policy_hand`` scores the same);
* play: ``random``, ``greedy``, ``heuristic`` (``kernels.play.policy_card`` on the state's
  View), ``pimc`` (``kernels.pimc.pimc_card`` with the state's View, Pub and auction, and the
  Setup as the policies the table knows), ``dd`` (the exact solver on all four hands: an
  oracle, not a round policy).

Random draws (random bids and play, the Monte Carlo bidder's worlds, pimc's worlds) come from
the state's own stream (the round's, for :meth:`PilottaState.from_deal`), in the order the round
kernels draw. A decider that draws remembers its answer in ``state.memory``: asking twice at one
decision draws once.

``values(state)``: :class:`PimcPlay` values every legal card over the worlds its ``choose``
would draw (the same stream, not advanced), :func:`card_values` over worlds drawn from a seed
(or every world when few enough to enumerate: the last tricks exactly) that also respect every
duty of the cards played, each solved double-dummy; :class:`DdPlay` gives the exact values of
the true deal. The unit (:data:`UNIT`): the acting team's card points for the round.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits
from ..core.engine.rng import stream_key
from ..core.engine.stats import Estimate
from ..core.game import position as core_position
from ..core.game.position import ActionValues, Decider, play_out, world_mean
from . import cards as C
from . import policies as P
from .kernels import solver as K
from .kernels.auction import policy_call
from .kernels.pimc import Ctx, _distinct, _soft_ok, deal_world, pimc_card
from .kernels.play import policy_card
from .kernels.solver_tt import card_to_internal, to_internal
from .layouts import ASTATE_LEN, N_AUCTION_PARAMS, POS_LEN, Comb, Setup, SolverPos
from .position import (
    DECL_ACTIONS,
    DECLARE,
    FULL,
    PASS,
    PilottaState,
    bid_action,
    card_points_of,
    strength,
    world_ok,
)

UNIT = (
    "the acting team's card points for the round (tricks won so far and the last trick's 10 "
    "included; the contracting team's capot counts its capot points for it, 0 for the "
    "defenders)"
)
#: Worlds :func:`card_values` enumerates rather than samples (when every world is this few).
EXACT_LIMIT = 3000
#: Worlds :func:`card_values` solves at least under a time budget.
MIN_WORLDS = 16
#: Draws per sampled world before :func:`card_values` gives up on it.
WORLD_TRIES = 200
#: Bits of the solver tables :func:`card_values` keeps (one per thread; 8 MB at 18).
TT_BITS = 18
_WORKSPACES: dict[int, K.Workspace] = {}


def workspace(slot: int = 0) -> K.Workspace:
    """A solver workspace (one per slot, kept: its table holds exact facts about positions, the
    rules that change values in its keys, so it serves every later search)."""
    if slot not in _WORKSPACES:
        _WORKSPACES[slot] = K.make_workspace(TT_BITS)
    return _WORKSPACES[slot]


def _check_phase(state: PilottaState, phase: str, who: str) -> int:
    if state.phase != phase:
        raise InputError(f"{who} decides in the {phase}, not in the {state.phase}")
    return state.current_player()


def _remembered(decider: Decider, state: PilottaState, compute) -> int:
    """The decider's answer at this decision, drawn once (``state.memory``)."""
    key = ("choice", decider.name, len(state._history))
    if key not in state.memory:
        state.memory[key] = int(compute())
    return state.memory[key]


# ---------------------------------------------------------------------- auction and declarations


class AuctionDecider(Decider):
    """An auction policy: its call through ``kernels.auction.policy_call``."""

    def __init__(self, name: str = "threshold", params=None, row: np.ndarray | None = None):
        self.name = name
        self.id = P.get("auction", name).id
        self.params = (
            np.asarray(row, dtype=np.int64) if row is not None else P.auction_params(name, params)
        )

    def choose(self, state: PilottaState) -> int:
        seat = _check_phase(state, "auction", f"the {self.name} bidder")

        def call() -> int:
            level, suit = policy_call(
                np.int64(self.id),
                self.params,
                np.int64(state.dealt[seat]),
                np.int64(seat),
                state.ast,
                state._rules,
                state.key,
                state.stream,
            )
            return PASS if level < 0 else bid_action(int(level), int(suit))

        return _remembered(self, state, call)


class DeclareDecider(Decider):
    """A declaration policy: ``all`` declares, ``no-tierce`` keeps a tierce when it has one."""

    def __init__(self, name: str = "all", params=None):
        self.name = name
        self.id = P.get("declare", name).id

    def choose(self, state: PilottaState) -> int:
        _check_phase(state, "declare", f"the {self.name} declaration policy")
        action = DECL_ACTIONS[self.id]
        return action if action in state.legal_actions() else DECLARE


# ---------------------------------------------------------------------- play


class PlayDecider(Decider):
    """A play policy; subclasses give :meth:`card`."""

    def __init__(self, name: str):
        self.name = name
        self.id = P.get("play", name).id

    def choose(self, state: PilottaState) -> int:
        seat = _check_phase(state, "play", f"the {self.name} player")
        return self.card(state, seat)

    def card(self, state: PilottaState, seat: int) -> int:
        raise NotImplementedError


class KernelPlay(PlayDecider):
    """``random``, ``greedy`` and ``heuristic``: ``kernels.play.policy_card`` (the round
    kernels' dispatcher) on the state's View."""

    def __init__(self, name: str = "heuristic", params=None):
        super().__init__(name)
        if P.get("play", name).needs_solver:
            raise InputError(f"{name} is a solver policy: use PimcPlay or DdPlay")

    def card(self, state: PilottaState, seat: int) -> int:
        def pick() -> int:
            return policy_card(
                np.int64(self.id),
                np.int64(state.hands[seat]),
                np.int64(state.legal_mask()),
                state.view_array(seat),
                state.partner_winning(),
                state.key,
                state.stream,
            )

        return _remembered(self, state, pick)


class RandomPlay(KernelPlay):
    def __init__(self, params=None):
        super().__init__("random")


class GreedyPlay(KernelPlay):
    def __init__(self, params=None):
        super().__init__("greedy")


class HeuristicPlay(KernelPlay):
    def __init__(self, params=None):
        super().__init__("heuristic")


class PimcPlay(PlayDecider):
    """pimc: ``kernels.pimc.pimc_card`` (``worlds`` deals of the unseen cards from the state's
    stream, each legal card solved in each). ``values``: every legal card over those same
    worlds (the stream copied, not advanced)."""

    def __init__(self, params=None, worlds: int | None = None):
        super().__init__("pimc")
        if worlds is None:
            values = P.get("play", "pimc").check_params(params) if params else None
            worlds = int(values[0]) if values else P.defaults("play", "pimc")["worlds"]
        self.worlds = P.play_worlds(worlds)

    def card(self, state: PilottaState, seat: int) -> int:
        def pick() -> int:
            ctx = Ctx(workspace(), state.calls_array(), state.setup, state._rules)
            return pimc_card(
                np.int64(state.hands[seat]),
                np.int64(state.legal_mask()),
                state.view_array(seat),
                state.pub_array(),
                ctx,
                np.int64(self.worlds),
                state.key,
                state.stream,
            )

        return _remembered(self, state, pick)

    def values(self, state: PilottaState) -> CardValues:
        _check_phase(state, "play", "pimc")
        return card_values(state, worlds=self.worlds, from_stream=True)


class DdPlay(PlayDecider):
    """The double-dummy oracle: every legal card solved exactly on the true hands; the
    contracting team plays its best value, the defenders the lowest (the solver's objective;
    ties to the lowest card)."""

    def __init__(self, params=None):
        super().__init__("dd")

    def card(self, state: PilottaState, seat: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        vals = _evaluate(state, [np.array(state.hands, dtype=np.int64)], legal, workspace())[0]
        best = int(vals.max() if (seat & 1) == state.c_team else vals.min())
        return legal[int(np.flatnonzero(vals == best)[0])]

    def values(self, state: PilottaState) -> CardValues:
        seat = _check_phase(state, "play", "dd")
        t0 = time.perf_counter()
        legal = state.legal_actions()
        world = np.array(state.hands, dtype=np.int64)
        x = _team_points(state, seat, _evaluate(state, [world], legal, workspace()))
        out = {
            c: Estimate(float(x[0, i]), 0.0, float(x[0, i]), float(x[0, i]), 1)
            for i, c in enumerate(legal)
        }
        return CardValues(
            out,
            UNIT,
            exact=True,
            worlds=1,
            seconds=time.perf_counter() - t0,
            notes=["the true deal, solved double-dummy (an oracle: every hand seen)"],
            samples={c: x[:, i] for i, c in enumerate(legal)},
            possible=1,
        )


PLAY_DECIDERS = {
    "random": RandomPlay,
    "greedy": GreedyPlay,
    "heuristic": HeuristicPlay,
    "pimc": PimcPlay,
    "dd": DdPlay,
}


def play_decider(name: str, params=None) -> PlayDecider:
    """The decider of a registered play policy by name."""
    P.get("play", name)
    return PLAY_DECIDERS[name](params)


class SeatDecider(core_position.SeatDecider):
    """A seat's three policies, each answering in its phase."""

    def __init__(self, auction: Decider, declare: Decider, play: Decider):
        super().__init__({"auction": auction, "declare": declare, "play": play})
        self.auction, self.declare = auction, declare


def seat_deciders(setup: np.ndarray) -> list[SeatDecider]:
    """The four seats' deciders of a Setup (``api.make_setup``): each team's auction policy and
    parameter row, declaration policy, play policy (pimc with the team's worlds)."""
    setup = np.asarray(setup, dtype=np.int64)
    names = {
        stage: {p.id: name for name, p in P.policies(stage).items()}
        for stage in ("auction", "declare", "play")
    }
    teams = []
    for t in (0, 1):
        lo = Setup.PARAMS_EW if t else Setup.PARAMS_NS
        auction = AuctionDecider(
            names["auction"][int(setup[Setup.AUCTION_NS + t])],
            row=setup[lo : lo + N_AUCTION_PARAMS].copy(),
        )
        declare = DeclareDecider(names["declare"][int(setup[Setup.DECLARE_NS + t])])
        play_name = names["play"][int(setup[Setup.PLAY_NS + t])]
        if play_name == "pimc":
            play = PimcPlay(worlds=int(setup[Setup.WORLDS_NS + t]))
        else:
            play = play_decider(play_name)
        teams.append(SeatDecider(auction, declare, play))
    return [teams[p & 1] for p in range(4)]


# ---------------------------------------------------------------------- card values


@dataclass
class CardValues(ActionValues):
    """:class:`ActionValues` of :func:`card_values`, with each card's value in every world
    (``samples``, the same worlds for every card: paired comparisons), the worlds themselves
    (current hands N E S W), and how many worlds the hard facts allow (``possible``; an upper
    bound when sampled)."""

    samples: dict = field(default_factory=dict)
    possible: int = 0
    hands: list = field(default_factory=list)
    #: each card's contracting-team card points in every world (what the contract needs)
    contracting: dict = field(default_factory=dict)


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
) -> dict:
    """The worlds ``seat`` weighs at his play decision (current hands, int64[4] each).

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
        for _ in range(n):
            deal_world(np.int64(seat), hand, view, pub, ctx, world, state.key, stream)
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
    hands, dropped = [], 0
    world = np.zeros(4, dtype=np.int64)
    stream = np.zeros(1, dtype=np.int64)
    unfit = 0
    for w in range(n):
        key = np.uint64(stream_key(np.int64(seed), np.int64(w)))
        stream[0] = 0
        for _ in range(WORLD_TRIES):
            got = deal_world(np.int64(seat), hand, view, pub, ctx, world, key, stream)
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
                r = int(
                    K.value_near(ws, np.int64(guess), K.F_ALL)
                    if guess >= 0
                    else K.value(ws, K.F_ALL)
                )
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


def _solve_worlds(state, hands, kept, n_threads, deadline) -> np.ndarray:
    """:func:`_evaluate` over ``hands`` split among ``n_threads`` threads (each its own
    workspace), in blocks when there is a ``deadline`` (time.perf_counter): worlds after the
    block that passes it are not solved."""
    block = len(hands) if deadline is None else max(MIN_WORLDS, 8 * n_threads)
    parts = []
    done = 0
    pool = ThreadPoolExecutor(n_threads) if n_threads > 1 else None
    try:
        while done < len(hands):
            chunk = hands[done : done + block]
            if pool is None:
                part = _evaluate(state, chunk, kept, workspace())
            else:
                futures = [
                    pool.submit(_evaluate, state, chunk[t::n_threads], kept, workspace(t))
                    for t in range(n_threads)
                ]
                part = np.zeros((len(chunk), len(kept)), dtype=np.int64)
                for t, f in enumerate(futures):
                    part[t::n_threads] = f.result()
            parts.append(part)
            done += len(chunk)
            if deadline is not None and time.perf_counter() > deadline:
                break
    finally:
        if pool is not None:
            pool.shutdown()
    return np.vstack(parts)


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
    seat = _check_phase(state, "play", "card values")
    t0 = time.perf_counter()
    legal = state.legal_actions()
    if len(legal) == 1:
        nan = float("nan")
        return CardValues(
            {legal[0]: Estimate(nan, nan, nan, nan, 0)},
            UNIT,
            exact=True,
            worlds=0,
            seconds=time.perf_counter() - t0,
            notes=["forced: the only legal card"],
        )
    kept, rep = _representatives(state, legal)
    found = worlds_for(state, seat, worlds, seed, exact_limit, from_stream)
    hands = found["hands"]
    n_threads = threads or min(os.cpu_count() or 1, 2, max(1, len(hands) // 40))
    # an enumeration is solved whole (its order is not random: a part of it would be biased)
    deadline = None if max_seconds is None or found["exact"] else t0 + max_seconds
    rest = _solve_worlds(state, hands, kept, n_threads, deadline)
    stopped = len(rest) < len(hands)
    hands = hands[: len(rest)]
    x = _team_points(state, seat, rest)
    c_total = state.pts[state.c_team] + rest
    out = {}
    samples = {}
    contracting = {}
    for c in legal:
        col = x[:, kept.index(rep[c])]
        samples[c] = col
        contracting[c] = c_total[:, kept.index(rep[c])]
        out[c] = world_mean(col, found["exact"])
    if found["exact"]:
        notes = [f"every world enumerated ({len(hands)}), each solved double-dummy"]
    elif from_stream:
        notes = [f"the {len(hands)} worlds pimc draws now (its stream), each solved double-dummy"]
    else:
        notes = [
            f"{len(hands)} worlds drawn from what the player saw (pimc's sampler, every duty of "
            f"the cards played kept; of at most {found['possible']:,}), each solved double-dummy"
        ]
    if found["unfit"]:
        why = "none fits them" if found["exact"] else "64 draws in a row missed them"
        notes.append(
            f"{found['unfit']} world(s) ignore the calls or the announced points under the "
            f"assumed policies ({why})"
        )
    if stopped:
        notes.append(f"stopped after {len(hands)} worlds (--max-seconds {max_seconds:g})")
    if found["dropped"]:
        notes.append(f"{found['dropped']} world(s) could not be drawn and were left out")
    return CardValues(
        out,
        UNIT,
        exact=found["exact"],
        worlds=len(hands),
        seconds=time.perf_counter() - t0,
        notes=notes,
        samples=samples,
        possible=found["possible"],
        hands=hands,
        contracting=contracting,
    )


# ---------------------------------------------------------------------- play advice


@dataclass
class PlayAdvice(core_position.PlayAdvice):
    """What :func:`advise_play` answers: every legal card ranked best first by expected card
    points for the player's team (``values``, :class:`CardValues`), the best, why in one line,
    its margin over the runner-up (paired over the same worlds), and each card's chance that
    the contract is made (``made``: card -> Estimate of a proportion)."""

    made: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        st = self.state
        rows = self.card_rows()
        for row, c in zip(rows, self.ranking, strict=True):
            if not self.forced and c in self.made:
                m = self.made[c]
                row["p_made"] = {"p": m.mean, "ci95": m.ci95}
        team = self.seat & 1
        return {
            "seat": C.SEATS[self.seat],
            "team": C.TEAMS[team],
            "hand": C.PACK.card_names(st.hands[self.seat]),
            "contract": st.contract(),
            "contracting": team == st.c_team,
            "trick": len(st.line) + 1,
            "trick_cards": [st.action_to_string(c) for c in st.trick],
            "points_so_far": {"you": st.pts[team], "them": st.pts[1 - team]},
            **self.advice_dict(),
            "cards": rows,
            **self.margin_dict(),
        }


def _made(state: PilottaState, vals: CardValues, legal: list[int]) -> dict:
    """Each card's share of worlds in which the contract is made (Wilson interval): the
    contracting team's card points (from the card values) plus the combinations it scores and
    its pilotta (the world's K and Q of trumps in one of its hands) against the bid."""
    if state.bidder < 0 or not vals.hands:
        return {}
    c = state.c_team
    rules = state.rules
    capot = int(getattr(rules, "capot_points", 250))
    comb = int(state.comb[Comb.POINTS_NS + c])
    kq = (1 << (8 * state.trump + 6)) | (1 << (8 * state.trump + 5))
    pil = np.array(
        [20 * any((int(w[p]) | state.gone[p]) & kq == kq for p in (c, c + 2)) for w in vals.hands]
    )
    out = {}
    for card in legal:
        c_pts = vals.contracting[card]
        if state.bid == 250:
            made = c_pts >= capot
        elif rules.contract_on_card_points_only:
            made = c_pts >= state.bid
        else:
            made = c_pts + comb + pil >= state.bid
        out[card] = Estimate.proportion(int(made.sum()), len(made))
    return out


def _beats(state: PilottaState, card: int) -> bool:
    """True when ``card`` would win the trick so far."""
    if not state.trick:
        return True
    trump, led = state.trump, state.led
    if card >> 3 == trump:
        power = 16 + strength(card, trump)
    elif card >> 3 == led:
        power = strength(card, trump)
    else:
        power = -1
    return power > state.win_power


def _master(state: PilottaState, card: int, out: int) -> bool:
    """No out card of ``card``'s suit is stronger."""
    suit = card >> 3
    st = strength(card, state.trump)
    return not any(o >> 3 == suit and strength(o, state.trump) > st for o in mask_bits(out))


def explain(state: PilottaState, best: int, runner: int | None) -> str:
    """Why ``best`` rather than ``runner`` (the runner-up), in a few words, from simple rules on
    the two cards: taking or ducking the trick, points onto the partner's trick, a master
    cashed or kept, trumps drawn or the trump guard kept, a suit kept."""
    if runner is None:
        return "the only legal card"
    seat = state.current_player()
    trump = state.trump
    hand = state.hands[seat]
    out = FULL & ~hand & ~state.played
    pts = lambda c: card_points_of(c, trump, state._kq)  # noqa: E731
    name = C.card_name
    is_trump = lambda c: c >> 3 == trump  # noqa: E731
    suit = lambda c: C.SUIT_NAMES[c >> 3].lower()  # noqa: E731
    trumps_held = [c for c in mask_bits(hand) if is_trump(c)]
    contracting = (seat & 1) == state.c_team
    if state.trick:
        if state.partner_winning():
            if pts(best) > pts(runner):
                return f"puts {pts(best)} points on the partner's trick"
            if is_trump(runner) and not is_trump(best):
                return "keeps the trumps: the partner holds the trick"
            if pts(best) < pts(runner):
                return f"keeps {name(runner)}: the partner's trick needs no help"
        wins_b, wins_r = _beats(state, best), _beats(state, runner)
        if wins_b and not wins_r:
            if is_trump(best) and state.led != trump:
                return "trumps the trick" if state.top_trump < 0 else "over-trumps the trick"
            if _master(state, best, out):
                return "takes the trick with the master"
            return "takes the trick"
        if wins_r and not wins_b:
            return f"lets the trick go and keeps {name(runner)}"
        if wins_b and wins_r:
            if pts(best) < pts(runner):
                return f"wins with the cheaper card, keeping {name(runner)}"
            return "wins with the stronger card"
        if is_trump(runner) and not is_trump(best):
            return f"keeps the trump {name(runner)}"
        if pts(best) < pts(runner):
            return f"gives away fewer points than {name(runner)}"
        if best >> 3 != runner >> 3:
            return f"throws from {suit(best)}, keeping {suit(runner)}"
        return f"plays {name(best)} rather than {name(runner)}"
    # leading
    trumps_out = any(is_trump(c) for c in mask_bits(out))
    if is_trump(best) and not is_trump(runner) and trumps_out:
        if _master(state, best, out):
            return "draws trumps with the master"
        return "draws trumps"
    if is_trump(runner) and not is_trump(best) and trumps_out:
        guarded = [c for c in trumps_held if not _master(state, c, out) and strength(c, trump) >= 5]
        if guarded and len(trumps_held) >= 2:
            return "keeps the trump guard"
        return "keeps the trumps"
    if _master(state, best, out) and pts(best) > 0 and not _master(state, runner, out):
        return "cashes the master"
    if _master(state, runner, out) and not _master(state, best, out):
        return f"keeps the master {name(runner)} as an entry"
    if _master(state, best, out) and pts(best) > 0:
        return f"cashes the master {name(best)} first"
    partner = (seat + 2) % 4
    if (
        state.voids >> (4 * partner + (best >> 3)) & 1
        and not state.voids >> (4 * partner + trump) & 1
    ):
        return f"leads to the partner's void in {suit(best)}"
    if contracting and is_trump(best):
        return "leads trumps"
    if best >> 3 == runner >> 3:
        if strength(best, trump) < strength(runner, trump):
            return f"leads low in {suit(best)}, keeping {name(runner)}"
        return f"leads {name(best)} rather than {name(runner)}"
    return f"leads {suit(best)} rather than {suit(runner)}"


def entry_kernels() -> tuple:
    """The kernels a play advice calls first from Python (for a compile notice on a cold
    cache)."""
    from .kernels.play import card_played
    from .kernels.tricks import legal_cards

    return (legal_cards, card_played, deal_world, K.value_near, K.play_card)


def advise_play(
    state: PilottaState,
    worlds: int = 200,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
    max_seconds: float | None = None,
) -> PlayAdvice:
    """What the seat to play should play: :func:`card_values` for every legal card, ranked (ties
    to the lower card), the best explained (:func:`explain`) with its paired margin over the
    runner-up, and each card's P(contract made). A forced card is answered at once."""
    seat = _check_phase(state, "play", "play advice")
    vals = card_values(
        state, worlds=worlds, seed=seed, exact_limit=exact_limit, max_seconds=max_seconds
    )
    legal = state.legal_actions()
    if len(legal) == 1:
        return PlayAdvice(state, seat, legal, vals, "the only legal card")
    ranking = sorted(legal, key=lambda c: (-vals.values[c].mean, c))
    best, runner = ranking[0], ranking[1]
    if vals.exact:
        margin = world_mean(vals.samples[best].astype(np.float64) - vals.samples[runner], True)
    else:
        margin = Estimate.paired(vals.samples[best], vals.samples[runner])
    why = explain(state, best, runner)
    other = C.card_name(runner)
    other = "playing it" if other in why else other  # the reason names the runner-up already
    if margin.mean == 0:
        why += f" (worth the same as {other})"
    elif not vals.exact and margin.lo <= 0:
        why += f" (+{margin.mean:.2f} over {other}, within the noise)"
    else:
        why += f" (+{margin.mean:.2f} over {other})"
    return PlayAdvice(state, seat, ranking, vals, why, margin, _made(state, vals, legal))


__all__ = [
    "EXACT_LIMIT",
    "UNIT",
    "AuctionDecider",
    "CardValues",
    "DdPlay",
    "DeclareDecider",
    "GreedyPlay",
    "HeuristicPlay",
    "KernelPlay",
    "PimcPlay",
    "PlayAdvice",
    "PlayDecider",
    "RandomPlay",
    "SeatDecider",
    "advise_play",
    "card_values",
    "entry_kernels",
    "explain",
    "play_decider",
    "play_out",
    "seat_deciders",
    "workspace",
    "worlds_for",
]
