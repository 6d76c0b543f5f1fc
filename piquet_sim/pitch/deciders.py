"""Deciders: every registered Pitch policy (``policies.REGISTRY``) answering one decision of a
:class:`~piquet_sim.pitch.position.PitchState` (the :class:`~piquet_sim.core.game.position.Decider`
contract).

Each decider calls the kernel the round kernels call for that policy, with the same parameter
row and the state's stream, so a round played through a state and these deciders is the round
the kernels play:

* bid ``random``, ``pass``, ``threshold``, ``parametric``: ``kernels.policies.choose_call`` on
  the dealt hand (``kernels.round.auction``); ``montecarlo``: ``kernels.mcbid.montecarlo_call``
  (its own streams, keyed by the round's stream and the seat, as ``mcbid`` documents), which
  also chooses the suit he pitches when he wins the auction (kept in ``state.memory``; his play
  policy then pitches a card of it, as ``kernels/table.py`` and ``duel.py`` do);
* play ``random``, ``heuristic``: ``kernels.policies.choose_card`` with the kernels' View row;
  ``pimc`` and ``dd``: ``kernels.pimc.search_card`` step for step (``kernels.decide
  .search_card_values``; dd's one world valued by ``world_values``), on the position the search
  play's kernel holds, the calls of the others checked against their bid policy (``others``:
  the round's bid policy in the kernels), drawing from the state's stream only at a decision
  with more than one legal card.

A decider that draws remembers its answer in ``state.memory``: asking ``values`` then
``choose`` at one decision draws once.

``values(state)``: :class:`SearchPlay` gives each legal card's mean over its worlds (pimc: the
decision's own sampled worlds; dd: the true deal, exact) in :data:`UNIT`. ``card_values.py``
values the cards over many worlds consistent with what the seat saw (``kernels.decide``: every
world when few enough, else a sample) for ``piquet pitch play`` and ``review``.
"""

from __future__ import annotations

import functools
import math
import time

import numpy as np

from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.stats import Estimate
from ..core.game.position import (
    ActionValues,
    Decider,
    KernelPlay,
    PlayDecider,
    PlayDeciders,
    deciding_seat,
    seat_decider_type,
    world_mean,
)
from . import policies as P
from .layouts import SEATS, Pos
from .position import (
    BID_BASE,
    PASS,
    PitchState,
    _suit_mask,
)
from .rules import Rules

#: What the search values measure (``ActionValues.unit``), for the side to act.
UNIT = (
    "points for the side to act: the bidder's points in the round for the bidder; for a "
    "defender, the round's points the bidder does not take (High, Low, Last, Game, and Jack "
    "and Six when dealt, less the bidder's: the defenders as one side), each world solved by "
    "the paranoid search"
)
#: Worlds :func:`card_values` enumerates rather than samples (when every world is this few).
EXACT_LIMIT = 20_000
#: Worlds :func:`card_values` draws first with every try: when none fits the calls, the calls
#: are taken as out of reach and the other worlds try them only :data:`FEW_TRIES` times.
PILOT_WORLDS = 4
FEW_TRIES = 64
#: Sampled worlds solved per batch (between batches :func:`card_values` checks its time).
BATCH = 64
MAX_WORLDS = P.PIMC_MAX_WORLDS  # the search play's worlds a decision at most


@functools.cache
def rules_array(rules: Rules) -> np.ndarray:
    return rules.to_array()


def params_row(bid: tuple = (), play: tuple = ()) -> np.ndarray:
    """The kernels' parameter row (``policies.PolicyArrays.params``): the bid policy's values
    from slot 0, the play policy's from ``PLAY_PARAMS_AT``."""
    row = np.zeros(P.PARAMS_LEN, dtype=np.float64)
    row[: len(bid)] = bid
    row[P.PLAY_PARAMS_AT : P.PLAY_PARAMS_AT + len(play)] = play
    return row


# ---------------------------------------------------------------------- bidding
class BidDecider(Decider):
    """A bid policy of the table (``random``, ``pass``, ``threshold``, ``parametric``):
    ``kernels.policies.choose_call`` on the seat's dealt hand."""

    def __init__(self, name: str = "threshold", params=None):
        pol, values = P.check("bid", name, params, allow_seat=True)
        self.name = pol.name
        self.id = np.int64(pol.id)
        self.values_ = tuple(values)
        self.params = params_row(values)

    def choose(self, state: PitchState) -> int:
        from .kernels.policies import choose_call

        seat = deciding_seat(state, "auction", f"bid policy {self.name!r}")
        call = int(
            choose_call(
                self.id,
                self.params,
                np.int64(state.legal_mask()),
                np.int64(state.dealt[seat]),
                state.key,
                state.stream,
            )
        )
        return PASS if call == 0 else BID_BASE + call


class MontecarloBid(BidDecider):
    """The ``montecarlo`` bidder (``kernels.mcbid.montecarlo_call``): its call, and the suit it
    pitches if it wins the auction (``state.memory[("pitch", seat)]``)."""

    def __init__(self, params=None):
        super().__init__("montecarlo", params)
        self._mc = None

    def choose(self, state: PitchState) -> int:
        from .kernels.mcbid import montecarlo_call, new_mc_work

        seat = deciding_seat(state, "auction", "bid policy 'montecarlo'")
        key = ("montecarlo", len(state._history))
        if key not in state.memory:
            if self._mc is None:
                self._mc = new_mc_work()
            call, suit = montecarlo_call(
                rules_array(state.rules),
                np.int64(state.dealt[seat]),
                np.int64(seat),
                np.int64(state.legal_mask()),
                self.params,
                state.key,
                self._mc,
            )
            state.memory[key] = (int(call), int(suit))
            state.memory[("pitch", seat)] = int(suit)
        call = state.memory[key][0]
        return PASS if call == 0 else BID_BASE + call


def bid_decider(name: str = "threshold", params=None) -> BidDecider:
    """The decider of a registered bid policy."""
    if P.get("bid", name).name == "montecarlo":
        return MontecarloBid(params)
    return BidDecider(name, params)


# ---------------------------------------------------------------------- play
def _play_policy(name: str, params=None) -> tuple[str, np.int64, np.ndarray, tuple]:
    """A play policy's name, registry id, kernels' row (its values from ``PLAY_PARAMS_AT``)
    and values, checked."""
    pol, values = P.check("play", name, params, allow_solver=True)
    return pol.name, np.int64(pol.id), params_row((), values), tuple(values)


def pitch_suit(state: PitchState, seat: int) -> int:
    """The suit ``seat`` must pitch now: the one his ``montecarlo`` bid chose, when he is the
    bidder about to pitch and no trump is given; else -1."""
    if seat != state.bidder or state.finished or state.trick or state.given_trump >= 0:
        return -1
    return state.memory.get(("pitch", seat), -1)


def legal_now(state: PitchState, pitch: int = -1) -> int:
    """The legal cards of the seat to play, the pitch kept to ``pitch`` when it is >= 0."""
    legal = state.legal_mask()
    if pitch >= 0 and not state.finished and not state.trick:
        legal &= _suit_mask(pitch)
    return legal


def _choose_card(decider: KernelPlay, state: PitchState, seat: int) -> int:
    """``random`` or ``heuristic``: ``kernels.policies.choose_card`` on the kernels' View, the
    pitch kept to the suit the seat's bidder chose (:func:`pitch_suit`)."""
    from .kernels.policies import choose_card

    pitch = pitch_suit(state, seat)
    return choose_card(
        decider.id,
        decider.params[P.PLAY_PARAMS_AT :],
        np.int64(legal_now(state, pitch)),
        np.int64(state.hands[seat]),
        state.trick_view(seat, pitch),
        state.key,
        state.stream,
    )


class SearchPlay(PlayDecider):
    """``pimc`` or ``dd``: ``kernels.pimc.search_card`` step for step. ``others``: the bid
    policy the others' calls are checked against (the round's bid policy in the kernels)."""

    def __init__(
        self, name: str = "pimc", params=None, others: str = "threshold", others_params=None
    ):
        name, pid, row, self.values_ = _play_policy(name, params)
        super().__init__(name, pid, row)
        bid, bid_values = P.check("bid", others, others_params, allow_seat=True)
        self.others = bid.name
        self.policy = P.PolicyArrays(
            np.array([bid.id, int(self.id)], dtype=np.int64),
            params_row(bid_values, self.values_),
        )
        self._spw = None

    def decide(self, state: PitchState, seat: int, pitch: int = -1) -> dict:
        """The decision (card, each world's values and hands), drawn once per state and point."""
        key = ("search", self.name, self.values_, self.others, len(state._history))
        if key in state.memory:
            return state.memory[key]
        legal = legal_now(state, pitch)
        if mask_count(legal) == 1:
            out = {"card": mask_bits(legal)[0], "vals": None, "hands": None, "legal": legal}
            state.memory[key] = out
            return out
        if self.name == "dd":
            out = self._dd(state, seat, pitch, legal)
        else:
            out = self._pimc(state, pitch, legal)
        out["legal"] = legal
        state.memory[key] = out
        return out

    def _pimc(self, state: PitchState, pitch: int, legal: int) -> dict:
        from .kernels.decide import search_card_values
        from .kernels.pimc import new_search_play_work

        if self._spw is None:
            self._spw = new_search_play_work()
        spw = self._spw
        spw.truth[:] = state.pos_row(pitch)
        for s in range(SEATS):
            spw.played[s] = state.played[s] if s < state.n else 0
            spw.voids[s] = state.voids[s] if s < state.n else 0
        spw.won[:] = state.won()
        spw.bid[0] = state.bid
        vals = np.zeros((MAX_WORLDS, 16), dtype=np.int64)
        hands = np.zeros((MAX_WORLDS, SEATS), dtype=np.int64)
        card, worlds = search_card_values(
            rules_array(state.rules),
            self.policy,
            spw,
            state.calls_array(),
            np.int64(legal),
            state.key,
            state.stream,
            vals,
            hands,
        )
        return {
            "card": int(card),
            "vals": vals[: int(worlds)].copy(),
            "hands": hands[: int(worlds)].copy(),
            "truth": spw.truth.copy(),
        }

    def _dd(self, state: PitchState, seat: int, pitch: int, legal: int) -> dict:
        """dd's one world, the true deal, valued by the play advice's kernel
        (``kernels.decide.world_values``, with the decider's workspace; a kernel of its own
        would link the search once more, about 2.4 CPU-s of a cold review), its card chosen
        by ``kernels.pimc.best_card``: the bidder's most points, a defender's fewest, ties to
        the cheapest card."""
        from .kernels.decide import world_values
        from .kernels.pimc import best_card, new_search_play_work

        truth = state.pos_row(pitch)
        hands = np.zeros((1, SEATS), dtype=np.int64)
        hands[0] = truth[Pos.HANDS : Pos.HANDS + SEATS]
        sight, _ = state.sight(seat, self.others)
        won = np.int64(state.won()[state.bidder])
        if self._spw is None:
            self._spw = new_search_play_work()
        vals, _, _ = world_values(
            rules_array(state.rules), truth, hands, sight, won, self.policy, 1, [self._spw]
        )
        k = mask_count(legal)
        spw = self._spw  # the world's cards and truth, as values_span left them
        spw.totals[:k] = vals[0, :k]
        card = best_card(spw, self.policy, np.int64(seat), np.int64(k))
        return {"card": int(card), "vals": vals, "hands": hands, "truth": truth}

    def card(self, state: PitchState, seat: int) -> int:
        return self.decide(state, seat, pitch_suit(state, seat))["card"]

    def values(self, state: PitchState) -> ActionValues:
        """Each legal card's mean over the decision's worlds (:data:`UNIT`); a forced card is
        its one value-less entry (``notes`` say so)."""
        seat = deciding_seat(state, "play", f"play policy {self.name!r}")
        t0 = time.perf_counter()
        d = self.decide(state, seat, pitch_suit(state, seat))
        cards = mask_bits(d["legal"])
        if d["vals"] is None:
            nan = math.nan
            return ActionValues(
                {cards[0]: Estimate(nan, nan, nan, nan, 0)}, UNIT, notes=["the only legal card"]
            )
        own = self.name == "pimc" and self.policy.params[P.PIMC_OWN_AT] > 0
        if own and seat != state.bidder:  # the worlds valued his own points still to come
            side = d["vals"][:, : len(cards)]
            note = "pimc own=1: his own points still to be decided, in the decision's worlds"
        else:
            side = side_values(state, seat, d["truth"], d["hands"], d["vals"][:, : len(cards)])
            note = "pimc: the decision's worlds"
            if self.name == "pimc" and self.policy.params[P.PIMC_SCORE_AT] > 0:
                note += " (the card chosen by the round's score over them, score=1)"
        exact = self.name == "dd"
        out = {}
        for i, c in enumerate(cards):
            x = side[:, i].astype(np.float64)
            out[c] = world_mean(x, exact)
        return ActionValues(
            out,
            UNIT,
            exact=exact,
            worlds=len(side),
            seconds=time.perf_counter() - t0,
            notes=["dd: the true deal (an oracle)" if exact else note],
        )


def side_values(
    state: PitchState, seat: int, truth: np.ndarray, hands: np.ndarray, vals: np.ndarray
) -> np.ndarray:
    """Each world's value of each card for the side of ``seat`` (:data:`UNIT`), from the search
    values (the bidder's points still to be decided) and the world's hands (every seat's
    cards now)."""
    from .kernels.decide import world_base

    played = np.zeros(SEATS, dtype=np.int64)
    played[: state.n] = state.played
    won = state.won()[state.bidder]
    low_capt = np.int64(1 if state._low_capt else 0)
    base = np.zeros((len(hands), 2), dtype=np.int64)
    pos = truth.copy()
    for w in range(len(hands)):
        pos[Pos.HANDS : Pos.HANDS + SEATS] = hands[w]
        got, stake = world_base(pos, played, won, low_capt)
        base[w] = (got, stake)
    return to_side(base, vals, seat == state.bidder)


def to_side(base: np.ndarray, vals: np.ndarray, bidder: bool) -> np.ndarray:
    """The side's points from the bidder's points decided (``base[:, 0]``), the points at stake
    (``base[:, 1]``) and the bidder's points still to come after each card (``vals``)."""
    pts = base[:, :1] + vals
    return pts if bidder else base[:, 1:2] - pts


def _search_play(name: str):
    return lambda params=None, **others: SearchPlay(name, params, **others)


#: The decider of a registered play policy, ``play_decider(name, params, others=,
#: others_params=)`` (``others``: the bid policy the search plays check the others' calls
#: against): :class:`SearchPlay` for a policy that needs the solver, else a play policy the
#: kernels answer in one call (:func:`_choose_card`; ``others`` unused, the searches' own).
play_decider = PlayDeciders(
    P.REGISTRY,
    {p.name: _search_play(p.name) for p in P.REGISTRY.stage("play").values() if p.needs_solver},
    KernelPlay.maker(_choose_card, lambda name, params, **others: _play_policy(name, params)[1:3]),
)


#: One seat's bid and play policies: ``choose`` asks the one of the phase.
SeatDecider = seat_decider_type({"bid": "auction", "play": "play"}, __name__, joiner="+")


def others_model(bid: str, bid_params=None) -> dict:
    """The bidding model a seat's search play reads the others' calls with, as
    :data:`play_decider`'s keywords: the seat's own bidder, as the kernels do (``montecarlo``'s
    calls taken as ``random``)."""
    if bid == "montecarlo":
        return {"others": "random", "others_params": None}
    return {"others": bid, "others_params": bid_params}


def seat_deciders(
    bid: str = "threshold",
    play: str = "heuristic",
    players: int = 4,
    bid_params=None,
    play_params=None,
) -> list[SeatDecider]:
    """Every seat with the same bid and play policy (the search plays check the others' calls
    against ``bid``, as the kernels do)."""
    b = bid_decider(bid, bid_params)
    p = play_decider(play, play_params, **others_model(bid, bid_params))
    return [SeatDecider(b, p) for _ in range(players)]
