"""Piquet card values: every legal card of the seat to play valued over the worlds he cannot tell
apart, each solved exactly (moved out of ``deciders``)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from ..core.engine.blocks import cut_notes, solve_card_worlds
from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits
from ..core.engine.stats import Estimate
from ..core.engine.workspaces import KeptWorkspaces
from ..core.game.advice import CardValues, forced_values, weighted_mean
from ..core.game.position import deciding_seat, world_mean
from .actions import FULL, MAX_ATTEMPTS
from .kernels import layouts as L
from .kernels.knowledge import active_bounds, meets_bounds, sample_worlds
from .kernels.lines import line_points
from .kernels.pimc import candidates, reply_value, world_twin
from .kernels.solver import make_workspace, mtdf
from .kernels.tables import SUIT_TABLES
from .position import PiquetState
from .rules import Rules
from .simulation import DD_TT_BITS
from .sunk import relaxed_knowledge, world_weights

UNIT = "net deal points for the side to act (his deal points minus the opponent's)"


#: Worlds :func:`card_values` enumerates rather than samples (when every world is this few).
EXACT_LIMIT = 5000


def _card_values_workspace(rules: Rules, slot: int = 0):
    return make_workspace(rules.to_array(), DD_TT_BITS)


#: A solver workspace of these rules, ``workspace(rules, slot)`` (one per rules and thread's
#: slot, kept: its table holds exact facts about positions, so it serves every later search).
workspace = KeptWorkspaces(_card_values_workspace)


def _position(state: PiquetState) -> tuple:
    """The solver's trick-start position: (elder's hand, younger's, leader, elder's tricks,
    pique state normalized), the card led back in the leader's hand."""
    hands = list(state.hands)
    if state.lead >= 0:
        hands[state.leader] |= 1 << state.lead
    _, leader, _, et, psn, *_ = state.play_view(0)
    return (np.int64(hands[0]), np.int64(hands[1]), np.int64(leader), np.int64(et), np.int64(psn))


def _exact_value(pos: tuple, lead: int, card: int, ws, guess: int = 0) -> int:
    """Exact value (elder minus younger, rest of the deal) of ``card`` led (``lead`` < 0) or
    played to ``lead`` from the trick-start position ``pos``."""
    n = np.int64(bin(int(pos[0])).count("1"))
    if lead < 0:
        return int(mtdf(pos, np.int64(card), n, np.int64(guess), ws))
    return int(reply_value(pos, np.int64(lead), np.int64(card), ws, np.int64(guess)))


def _representatives(state: PiquetState, legal: int) -> tuple[np.ndarray, dict[int, int]]:
    """(the candidate cards after pimc's equivalence reduction, each legal card -> the index of
    its representative)."""
    cand = np.empty(12, dtype=np.int64)
    k = int(candidates(np.int64(legal), np.int64(state.played), np.int32(state._ten), cand))
    cand = cand[:k].copy()
    rep = {}
    for c in mask_bits(legal):
        rep[c] = max(i for i, r in enumerate(cand) if r >> 3 == c >> 3 and r <= c)
    return cand, rep


def worlds_for(
    state: PiquetState, seat: int, n: int, seed: int, exact_limit: int, relaxed: bool = False
) -> dict:
    """The opponent hands ``seat`` weighs at his play decision: every hand consistent with his
    knowledge when there are at most ``exact_limit`` (uniform; the declaration bounds kept
    unless no hand meets them), else ``n`` drawn by ``knowledge.sample_worlds`` (pimc's
    sampler, world w on stream (seed, w)). ``relaxed``: the declarations' lower bounds only
    (he may hold more than he declared: ``sunk.py`` weighs those worlds). Returns {"hands",
    "exact", "fallbacks", "possible"}: ``possible`` counts the hands consistent with the cards
    alone."""
    own, _, lead, _, _, played, opp_played, voids = state.play_view(seat)
    know = state.knowledge(seat)
    if relaxed:
        know = relaxed_knowledge(know)
    if lead >= 0:
        played |= 1 << lead
        opp_played |= 1 << lead
    n_opp = bin(own).count("1") - (1 if lead >= 0 else 0)
    known_now = int(know[L.KNOW_IN]) & ~played
    excluded = int(know[L.KNOW_IN]) | int(know[L.KNOW_OUT]) | played | voids
    pool = [c for c in range(32) if not (excluded >> c) & 1]
    m = n_opp - bin(known_now).count("1")
    if m < 0 or m > len(pool):
        raise InputError("no opponent hand fits what was seen (the cards do not add up)")
    possible = math.comb(len(pool), m)
    if possible <= exact_limit:
        hi = np.empty(3, dtype=np.int64)
        active_bounds(know, np.int64(opp_played), SUIT_TABLES, hi)
        hands = []
        for combo in combinations(pool, m):
            h = known_now
            for c in combo:
                h |= 1 << c
            hands.append(h)
        kept = [h for h in hands if meets_bounds(np.int64(h | opp_played), know, hi, SUIT_TABLES)]
        fallback = not kept
        return {
            "hands": kept or hands,
            "exact": True,
            "fallbacks": len(hands) if fallback else 0,
            "possible": possible,
        }
    hands, attempts, _ = sample_worlds(
        know,
        (np.int64(played), np.int64(opp_played), np.int64(voids)),
        (np.int64(n_opp), np.int64(MAX_ATTEMPTS)),
        SUIT_TABLES,
        np.int64(seed),
        np.int64(n),
    )
    return {
        "hands": [int(h) & FULL for h in hands],
        "exact": False,
        "fallbacks": int((attempts < 0).sum()),
        "possible": possible,
    }


#: Most worlds :func:`declared_worlds` draws, as a multiple of those it needs.
DRAW_FACTOR = 20


def declared_worlds(
    state: PiquetState, seat: int, n: int, seed: int, exact_limit: int, sinking: bool = False
) -> dict:
    """The worlds of :func:`worlds_for` that fit the declarations as the player saw them, the
    cards shown included (a winner shows every combination of the class he declares: he holds
    no other): those where every class was declared all (as before sinking was modelled), or
    with ``sinking`` every world some declaration fits, weighted by the sinking prior
    (``sunk.world_weights``). Sampled worlds are drawn on until ``n`` fit (at most
    :data:`DRAW_FACTOR` times as many). Adds "weights" and "sunk" (with sinking: each kept
    world's weight, and the classes declaring all does not fit, bit ``c`` for class ``c``;
    None without) to :func:`worlds_for`'s dict."""
    drawn = n
    while True:
        found = worlds_for(state, seat, drawn, seed, exact_limit, relaxed=sinking)
        hands = found["hands"]
        if found["fallbacks"]:  # no hand meets the bounds: as before, the cards alone
            weights, sunk = np.ones(len(hands)), np.zeros(len(hands), dtype=np.int64)
        else:
            weights, sunk = world_weights(state, seat, hands, sinking)
        keep = weights > 0 if sinking else sunk == 0
        if found["exact"] or keep.sum() >= n or drawn >= DRAW_FACTOR * n:
            break
        drawn = min(DRAW_FACTOR * n, 2 * drawn * n // max(int(keep.sum()), 1))
    picked = np.flatnonzero(keep)
    if not found["exact"]:
        picked = picked[:n]
    if not len(picked):
        raise InputError(
            "no opponent hand fits what was seen (the declarations, the cards shown and played)"
        )
    found["hands"] = [hands[i] for i in picked]
    found["weights"] = weights[picked] if sinking else None
    found["sunk"] = sunk[picked] if sinking else None
    found["drawn"] = len(hands)
    return found


def _evaluate(state, seat, hands, cand, ws) -> np.ndarray:
    """vals[w, i]: exact value (elder minus younger, rest of the deal) of candidate i in the
    world where the opponent holds ``hands[w]``."""
    pos0 = _position(state)
    lead = state.lead
    ten = np.int32(state._ten)  # the kernels read it from the int32 rules array
    k = len(cand)
    alive = np.ones(k, dtype=np.uint8)
    vals = np.zeros((len(hands), k), dtype=np.int64)
    guess = 0
    for w, h in enumerate(hands):
        opp = h | ((1 << lead) if lead >= 0 else 0)
        if seat == 0:
            pos = (pos0[0], np.int64(opp), pos0[2], pos0[3], pos0[4])
        else:
            pos = (np.int64(opp), pos0[1], pos0[2], pos0[3], pos0[4])
        for i in range(k):
            j = int(world_twin(cand, np.int64(i), alive, np.int64(opp), ten))
            if j >= 0:
                vals[w, i] = vals[w, j]
                continue
            guess = _exact_value(pos, lead, int(cand[i]), ws, guess)
            vals[w, i] = guess
    return vals


@dataclass
class PiquetCardValues(CardValues):
    """Card values with what Piquet's ties, partie objective and sinking check read again:
    each card's exact values world by world (``raw``: card -> int64[worlds], elder minus
    younger, the rest of the deal), the lines' outcomes once followed (``lines``: card ->
    int64[worlds, 3], :func:`line_outcomes`) and the worlds in which every declaration was
    all the opponent held, or where he sank (``sunk``: bit ``c`` for class ``c``, 0 where he
    declared all; with sinking worlds)."""

    raw: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    sunk: np.ndarray | None = None


def card_values(
    state: PiquetState,
    worlds: int = 400,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
    threads: int | None = None,
    goal=None,
    sinking: bool = False,
    max_seconds: float | None = None,
) -> PiquetCardValues:
    """Every legal card of the seat to act, valued over the worlds he thinks possible
    (:func:`worlds_for`), each world solved double-dummy: the mean net deal points for his
    side, with SE, 95% interval and world count (exact when every world was enumerated).
    ``threads`` (default: the cores, at most 2 per 100 worlds) split the worlds; the values
    do not depend on it. ``goal`` (``partie_goal.PartieObjective``): the values are the
    partie's (P(win) or settlement, each world's deal ended on its double-dummy line), the
    net points beside them (``per_card["net points"]``). ``sinking``: the worlds where he
    declared less than he held too, weighted by the sinking prior (``sunk.py``).
    ``max_seconds``: stop solving further sampled worlds once this long has passed (at least
    :data:`MIN_WORLDS` are solved; the worlds solved then depend on the machine's speed; an
    enumeration is always solved whole)."""
    seat = deciding_seat(state, "play", "card values")
    t0 = time.perf_counter()
    legal = state.legal_actions()
    if len(legal) == 1:
        forced = forced_values(legal[0], UNIT, time.perf_counter() - t0)
        return PiquetCardValues(**vars(forced))
    legal_mask = sum(1 << c for c in legal)
    cand, rep = _representatives(state, legal_mask)
    found = declared_worlds(state, seat, worlds, seed, exact_limit, sinking)
    hands = found["hands"]
    weights, sunk = found["weights"], found["sunk"]

    def solve(some, slot):
        return _evaluate(state, seat, some, cand, workspace(state.rules, slot))

    vals, cut = solve_card_worlds(solve, hands, t0, max_seconds, found["exact"], threads, 50)
    vals = vals.reshape(len(vals), len(cand)).astype(np.int64)
    hands = hands[: len(vals)]
    exact = found["exact"] and cut != "interrupted"  # a cut enumeration is no mean
    sign = 1 if seat == 0 else -1
    x = state.net(seat) + sign * vals
    raw = {c: vals[:, rep[c]] for c in legal}
    net = {c: x[:, rep[c]].astype(np.float64) for c in legal}
    if weights is not None:  # the worlds solved (all of them, unless cut by Ctrl-C)
        weights, sunk = weights[: len(vals)], sunk[: len(vals)]
    if exact:
        note = f"every world enumerated ({len(hands)}), each solved double-dummy"
    else:
        note = (
            f"{len(hands)} worlds drawn from what the player saw (pimc's sampler, of "
            f"{found['possible']:,} possible), each solved double-dummy"
        )
    notes = [note]
    notes += cut_notes(cut, len(hands), max_seconds)
    if found["fallbacks"]:
        notes.append(f"{found['fallbacks']} world(s) ignore the declaration bounds (none met them)")
    if sinking:
        notes.append(sinking_note(weights, sunk))
    values = PiquetCardValues(
        {c: _mean(net[c], weights, exact) for c in legal},
        UNIT,
        exact=exact,
        worlds=len(hands),
        notes=notes,
        samples=net,
        possible=found["possible"],
        facts={"partial": True} if cut == "interrupted" else {},
        hands=list(hands),
        weights=weights,
        raw=raw,
        sunk=sunk,
    )
    if goal is not None:
        lines = {c: line_outcomes(state, seat, hands, c, raw[c]) for c in legal}
        values.lines = lines
        values.per_card["net points"] = values.values
        values.samples = {c: goal.world_values(state, seat, lines[c]) for c in legal}
        values.values = {c: _mean(values.samples[c], weights, exact) for c in legal}
        values.unit = goal.unit
        values.notes.append(goal.note)
    values.seconds = time.perf_counter() - t0
    return values


def _mean(x: np.ndarray, weights: np.ndarray | None, exact: bool) -> Estimate:
    """The mean over the worlds, weighted when the worlds carry weights."""
    if weights is None:
        return world_mean(x, exact)
    return weighted_mean(x, weights, exact)


def sinking_note(weights: np.ndarray, sunk: np.ndarray) -> str:
    """How much of the worlds' weight lies where the opponent sank (for the advice's notes)."""
    share = float(weights[sunk != 0].sum() / weights.sum())
    ess = float(weights.sum() ** 2 / (weights**2).sum())
    return (
        f"{int((sunk != 0).sum())} of them with a combination he did not declare, weighted by "
        f"the sinking prior: {share:.0%} of the weight (effective worlds {ess:.0f})"
    )


def line_outcomes(state: PiquetState, seat: int, hands, card: int, raw: np.ndarray) -> np.ndarray:
    """Where ``card``'s double-dummy line ends in each world (the opponent holding
    ``hands[w]`` now; ``raw[w]``: the card's exact value there, elder minus younger): int64
    [worlds, 3] of (the seat's points gained in the rest of the deal, the opponent's, the
    seat's tricks at the end), ``kernels.lines.line_points``."""
    pos0 = _position(state)
    lead = state.lead
    ws = workspace(state.rules)
    out = np.zeros(3, dtype=np.int64)
    res = np.zeros((len(hands), 3), dtype=np.int64)
    for w, h in enumerate(hands):
        opp = np.int64(h | ((1 << lead) if lead >= 0 else 0))
        pos = (pos0[0], opp, *pos0[2:]) if seat == 0 else (opp, *pos0[1:])
        line_points(pos, np.int64(lead), np.int64(card), np.int64(raw[w]), ws, out)
        e, y, et = (int(v) for v in out)
        res[w] = (e, y, et) if seat == 0 else (y, e, 12 - et)
    return res


def cards_won(values: PiquetCardValues, state: PiquetState, card: int) -> float:
    """P(the seat to act wins the cards: 7 tricks or more) after ``card`` over the values'
    worlds (weighted where they are), each deal ended on its double-dummy line."""
    seat = state.current_player()
    if card not in values.lines:
        values.lines[card] = line_outcomes(state, seat, values.hands, card, values.raw[card])
    won = (values.lines[card][:, 2] >= 7).astype(np.float64)
    if values.weights is None:
        return float(won.mean())
    return float(values.weights @ won / values.weights.sum())
