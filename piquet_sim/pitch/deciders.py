"""Deciders: every registered Pitch policy (``policies.REGISTRY``) answering one decision of a
:class:`~piquet_sim.pitch.position.PitchState` (the :class:`~piquet_sim.core.game.position.Decider`
contract), and the play advice of ``piquet pitch play``.

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
  .search_card_values``), on the position the search play's kernel holds, the calls of the
  others checked against their bid policy (``others``: the round's bid policy in the kernels),
  drawing from the state's stream only at a decision with more than one legal card.

A decider that draws remembers its answer in ``state.memory``: asking ``values`` then
``choose`` at one decision draws once.

``values(state)``: :class:`SearchPlay` gives each legal card's mean over its worlds (pimc: the
decision's own sampled worlds; dd: the true deal, exact) in :data:`UNIT`. :func:`card_values`
and :func:`advise_play` (``piquet pitch play``) rank the cards over many worlds consistent with
what the seat saw (``kernels.decide``: every world when few enough, else a sample).
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.stats import Estimate
from ..core.game import position as core_position
from ..core.game.position import ActionValues, Decider, play_out, world_mean
from . import cards as C
from . import policies as P
from .layouts import SEATS
from .position import (
    BID_BASE,
    FULL,
    PASS,
    PH_AUCTION,
    PH_PLAY,
    WORLD_TRIES,
    PitchState,
    _suit_mask,
    beats,
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
MAX_WORLDS = 64


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


def _check_phase(state: PitchState, phase: int, who: str) -> int:
    if state.phase_id != phase:
        want = "auction" if phase == PH_AUCTION else "play"
        raise InputError(f"{who} decides in the {want}, not in the {state.phase}")
    return state.current_player()


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

        seat = _check_phase(state, PH_AUCTION, f"bid policy {self.name!r}")
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

        seat = _check_phase(state, PH_AUCTION, "bid policy 'montecarlo'")
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
class PlayDecider(Decider):
    """A play policy (base): ``choose`` asks :meth:`card`, with the suit the bidder must pitch
    when his bidder chose one (``montecarlo``)."""

    def __init__(self, name: str, params=None):
        pol, values = P.check("play", name, params, allow_solver=True)
        self.name = pol.name
        self.id = np.int64(pol.id)
        self.values_ = tuple(values)
        self.params = params_row((), values)

    def choose(self, state: PitchState) -> int:
        seat = _check_phase(state, PH_PLAY, f"play policy {self.name!r}")
        return self.card(state, seat, pitch_suit(state, seat))

    def card(self, state: PitchState, seat: int, pitch: int = -1) -> int:
        raise NotImplementedError


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


class KernelPlay(PlayDecider):
    """``random`` or ``heuristic``: ``kernels.policies.choose_card`` on the kernels' View."""

    def card(self, state: PitchState, seat: int, pitch: int = -1) -> int:
        from .kernels.policies import choose_card

        return int(
            choose_card(
                self.id,
                self.params[P.PLAY_PARAMS_AT :],
                np.int64(legal_now(state, pitch)),
                np.int64(state.hands[seat]),
                state.trick_view(seat, pitch),
                state.key,
                state.stream,
            )
        )


class SearchPlay(PlayDecider):
    """``pimc`` or ``dd``: ``kernels.pimc.search_card`` step for step. ``others``: the bid
    policy the others' calls are checked against (the round's bid policy in the kernels)."""

    def __init__(
        self, name: str = "pimc", params=None, others: str = "threshold", others_params=None
    ):
        super().__init__(name, params)
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
        from .kernels.decide import search_card_values
        from .kernels.pimc import new_search_play_work

        if self._spw is None:
            self._spw = new_search_play_work()
        spw = self._spw
        spw.truth[:] = state.pos_row(pitch)
        for s in range(SEATS):
            spw.played[s] = state.played[s] if s < state.n else 0
            spw.voids[s] = state.voids[s] if s < state.n else 0
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
        out = {
            "card": int(card),
            "vals": vals[: int(worlds)].copy(),
            "hands": hands[: int(worlds)].copy(),
            "legal": legal,
            "truth": spw.truth.copy(),
        }
        state.memory[key] = out
        return out

    def card(self, state: PitchState, seat: int, pitch: int = -1) -> int:
        return self.decide(state, seat, pitch)["card"]

    def values(self, state: PitchState) -> ActionValues:
        """Each legal card's mean over the decision's worlds (:data:`UNIT`); a forced card is
        its one value-less entry (``notes`` say so)."""
        seat = _check_phase(state, PH_PLAY, f"play policy {self.name!r}")
        t0 = time.perf_counter()
        d = self.decide(state, seat, pitch_suit(state, seat))
        cards = mask_bits(d["legal"])
        if d["vals"] is None:
            nan = math.nan
            return ActionValues(
                {cards[0]: Estimate(nan, nan, nan, nan, 0)}, UNIT, notes=["the only legal card"]
            )
        side = side_values(state, seat, d["truth"], d["hands"], d["vals"][:, : len(cards)])
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
            notes=["dd: the true deal (an oracle)" if exact else "pimc: the decision's worlds"],
        )


def side_values(
    state: PitchState, seat: int, truth: np.ndarray, hands: np.ndarray, vals: np.ndarray
) -> np.ndarray:
    """Each world's value of each card for the side of ``seat`` (:data:`UNIT`), from the search
    values (the bidder's points still to be decided) and the world's hands (every seat's
    cards now)."""
    from .kernels.decide import world_base
    from .layouts import Pos

    played = np.zeros(SEATS, dtype=np.int64)
    played[: state.n] = state.played
    capt = state.captured()
    low_capt = np.int64(1 if state._low_capt else 0)
    base = np.zeros((len(hands), 2), dtype=np.int64)
    pos = truth.copy()
    for w in range(len(hands)):
        pos[Pos.HANDS : Pos.HANDS + SEATS] = hands[w]
        got, stake = world_base(pos, played, capt, low_capt)
        base[w] = (got, stake)
    return to_side(base, vals, seat == state.bidder)


def to_side(base: np.ndarray, vals: np.ndarray, bidder: bool) -> np.ndarray:
    """The side's points from the bidder's points decided (``base[:, 0]``), the points at stake
    (``base[:, 1]``) and the bidder's points still to come after each card (``vals``)."""
    pts = base[:, :1] + vals
    return pts if bidder else base[:, 1:2] - pts


def play_decider(name: str, params=None, others: str = "threshold", others_params=None):
    """The decider of a registered play policy (``others``: the bid policy the search plays
    check the others' calls against)."""
    pol = P.get("play", name)
    if pol.needs_solver:
        return SearchPlay(pol.name, params, others, others_params)
    return KernelPlay(pol.name, params)


class SeatDecider(core_position.SeatDecider):
    """One seat's bid and play policies: ``choose`` asks the one of the phase."""

    def __init__(self, bid: BidDecider, play: PlayDecider):
        super().__init__({"auction": bid, "play": play}, joiner="+")
        self.bid = bid


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
    p = play_decider(
        play,
        play_params,
        others=bid if bid != "montecarlo" else "random",
        others_params=bid_params if bid != "montecarlo" else None,
    )
    return [SeatDecider(b, p) for _ in range(players)]


# ---------------------------------------------------------------------- play advice
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


def cost(card: int, trump: int) -> int:
    """``kernels.heuristic.cost``: what throwing ``card`` gives away (ties go to the lowest)."""
    rank = card & 15
    c = 8 * C.GAME_POINTS[rank] + rank
    if (card >> 4) == trump:
        c += 200
        if rank in (9, 4):
            c += 200
    return c


class PlayAdvice(core_position.PlayAdvice):
    """What :func:`advise_play` answers: every legal card ranked best first by expected points
    for the player's side (``values``, :class:`CardValues`; None for a forced card), the best,
    why in one line, its margin over the runner-up (paired over the same worlds)."""

    def to_dict(self) -> dict:
        st = self.state
        name = C.card_name
        rows = []
        for rank, c in enumerate(self.ranking, 1):
            row: dict = {"card": name(c), "rank": rank}
            if self.values is not None:
                e = self.values.values[c]
                b = self.values.bidder_points[c]
                m = self.values.p_made[c]
                row |= {
                    "mean": e.mean,
                    "se": e.se,
                    "ci95": e.ci95,
                    "worlds": e.n,
                    "bidder_points": b.mean,
                    "p_bid_made": m.mean,
                    "p_bid_made_ci95": m.ci95,
                }
            rows.append(row)
        v = self.values
        out = {
            "players": st.n,
            "seat": self.seat,
            "role": "bidder" if self.seat == st.bidder else "defender",
            "bidder": st.bidder,
            "bid": st.bid,
            "trump": C.SUITS[st.trump] if st.trump >= 0 else None,
            "hand": C.card_names(st.hands[self.seat]),
            "trick": st.trick_index + 1,
            "leader": st.leader,
            "on_table": [name(c) for c in st.trick],
            "best": name(self.best),
            "why": self.why,
            "forced": self.forced,
            "exact": None if v is None else v.exact,
            "worlds": 0 if v is None else v.worlds,
            "worlds_drawn": 0 if v is None else v.drawn,
            "worlds_fitting_calls": None if v is None else v.fitting,
            "worlds_left_out": 0 if v is None else v.dropped,
            "possible_worlds": None if v is None else v.possible,
            "method": "" if v is None else "; ".join(v.notes),
            "unit": UNIT,
            "seconds": 0.0 if v is None else round(v.seconds, 3),
            "points_so_far": self.points_so_far(),
            "cards": rows,
        }
        return out | self.margin_dict()

    def points_so_far(self) -> dict:
        """Points taken so far that the player can see: his own and each seat's from finished
        tricks (Jack, Six; High and Low only when their cards are known)."""
        st = self.state
        return {"game_points": list(st.game)}


def _explain_lead(state: PitchState, seat: int, best: int, unseen: int) -> str:
    trump = state.trump
    cn = C.card_name(best)
    if trump < 0:
        return f"pitches {cn}: {C.SUIT_NAMES[best >> 4].lower()} as trump"
    above = unseen & _suit_mask(best >> 4) & ~((2 << best) - 1)
    if best >> 4 == trump:
        if not above:
            return f"cashes the master trump {cn}, drawing trumps"
        return f"leads a trump ({cn}) to draw the others'"
    if not above and not unseen & _suit_mask(trump):
        return f"cashes {cn}, the master (no trump out)"
    if not above:
        return f"leads {cn}, the top of its suit"
    return f"leads {cn}, giving little away"


def explain(state: PitchState, best: int, runner: int | None) -> str:
    """Why ``best`` rather than ``runner``, in a few words, from simple rules on the trick:
    taking it (and what it holds), ducking, giving points to a fellow defender, a pitch, a
    master cashed."""
    if runner is None:
        return "the only legal card"
    seat = state.current_player()
    hand = state.hands[seat]
    seen = hand | state.done | state.tmask
    unseen = FULL & ~seen
    if not state.trick:
        return _explain_lead(state, seat, best, unseen)
    trump = state.trump
    stake = sum(C.GAME_POINTS[c & 15] for c in state.trick)
    jack_six = [c for c in state.trick if c >> 4 == trump and (c & 15) in (9, 4)]
    wins = beats(best, state.best, trump)
    runner_wins = beats(runner, state.best, trump)
    last = len(state.trick) == state.n - 1
    what = ""
    if jack_six:
        what = " with the " + " and ".join(C.card_name(c) for c in jack_six) + " in it"
    elif stake >= 10:
        what = f" ({stake} game points in it)"
    take = "takes the trick" if last else "goes ahead in the trick"
    if wins and not runner_wins:
        return take + what
    if runner_wins and not wins:
        friend = state.wseat != state.bidder and seat != state.bidder
        if friend:
            gp = C.GAME_POINTS[best & 15]
            if gp or (best >> 4 == trump and (best & 15) in (9, 4)):
                return f"gives {C.card_name(best)} to the fellow defender winning the trick"
        return f"lets the trick go, keeping {C.card_name(runner)}"
    if wins and runner_wins:
        gb, gr = C.GAME_POINTS[best & 15], C.GAME_POINTS[runner & 15]
        if gb > gr:
            return f"{take} with {C.card_name(best)} and its {gb} game points{what}"
        return f"{take} with {C.card_name(best)}, the cheaper winner{what}"
    return f"throws {C.card_name(best)}, keeping {C.card_name(runner)}"


def entry_kernels() -> tuple:
    """The kernels a play advice calls from Python (for a compile notice on a cold cache)."""
    from .kernels.decide import sample_world, sampled_hands, world_values

    return (sampled_hands, world_values, sample_world)


def advise_play(
    state: PitchState,
    worlds: int = 200,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
    others: str = "threshold",
    tries: int = WORLD_TRIES,
    max_seconds: float | None = None,
) -> PlayAdvice:
    """What the seat to play should play: :func:`card_values` for every legal card, ranked
    (ties to the cheapest card, ``kernels.heuristic.cost``), the best explained
    (:func:`explain`) with its paired margin over the runner-up. A forced card is answered at
    once (no world drawn)."""
    seat = _check_phase(state, PH_PLAY, "the play advice")
    legal = state.legal_actions()
    if len(legal) == 1:
        return PlayAdvice(state, seat, legal, None, "the only legal card")
    vals = card_values(state, worlds, seed, exact_limit, others, tries, max_seconds)
    trump = state.trump
    ranking = sorted(legal, key=lambda c: (-vals.values[c].mean, cost(c, trump), c))
    best, runner = ranking[0], ranking[1]
    if vals.exact:
        margin = world_mean(vals.samples[best].astype(np.float64) - vals.samples[runner], True)
    else:
        margin = Estimate.paired(vals.samples[best], vals.samples[runner])
    why = explain(state, best, runner)
    rn = C.card_name(runner)
    if margin.mean == 0:
        why += f" (worth the same as {rn}; the cheaper card)"
    elif not vals.exact and margin.lo <= 0:
        why += f" (+{margin.mean:.2f} points over {rn}, within the noise)"
    else:
        why += f" (+{margin.mean:.2f} points over {rn})"
    return PlayAdvice(state, seat, ranking, vals, why, margin)


__all__ = [
    "EXACT_LIMIT",
    "UNIT",
    "BidDecider",
    "CardValues",
    "KernelPlay",
    "MontecarloBid",
    "PlayAdvice",
    "PlayDecider",
    "SearchPlay",
    "SeatDecider",
    "advise_play",
    "bid_decider",
    "card_values",
    "count_worlds",
    "entry_kernels",
    "enumerate_worlds",
    "explain",
    "play_decider",
    "play_out",
    "seat_deciders",
]
