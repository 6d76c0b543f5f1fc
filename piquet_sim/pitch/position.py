"""Pitch positions: the :mod:`piquet_sim.core.game.position` contract (``State``) for one round.

A :class:`PitchState` is one position of a fully dealt round (every seat's six cards), plain
Python over the kernels' rules: the auction, then six tricks, scored as the round kernels score
a round (``kernels/scoring.py``). It is made

* from a seed and round index (:meth:`PitchState.from_deal`): the deal ``kernels.round.play_round``
  deals for (seed, index), with that round's random stream, so deciders that draw (the random
  bidder and player, pimc's worlds) draw what the round kernels draw;
* from explicit hands (:meth:`PitchState.from_hands`), optionally with the trump given (the
  bidder must pitch that suit, as ``solve --trump`` and the bid advisor's suit studies);
* from what one player describes (:func:`from_description`): his cards, seat, the auction, the
  trump and the tricks so far; the hidden cards are one world consistent with it.

Actions (ints, :data:`NUM_ACTIONS` of them):

* ``0..63`` a card (index ``suit * 16 + rank``, as ``cards.py``; 52 of them exist): the card
  played. The bidder's first card is the pitch: its suit is trump (no separate trump action);
* :data:`PASS` (64, ``"pass"``) and ``BID_BASE + k`` for a bid of k = 3..6 (67..70, ``"3"`` ..
  ``"6"``). The dealer's steal is his bid equal to the highest bid (``"steal"`` names it); a
  dealer after every other seat passed must bid.

Order of play: seat 0 calls first, the dealer (seat ``players - 1``) last; the bidder leads the
first trick; each trick's winner leads the next. There are no chance nodes: the deal is made
when the state is. ``returns()``: once the round is over each seat's round score (the bidder +bid
when he made it, -bid when set; every other seat the points it took), as ``RoundRec.SCORE``;
before that the points each seat has already taken (High and Low once trump is known, Jack, Six
and Low-to-capturer from finished tricks; Last and Game at the end), without the bid.

What a seat sees (:meth:`PitchState.observation`): its own six cards, every call, every card
played and by whom, and so each seat's cards left and the voids shown (``kernels/pimc.py``'s
rule: a player who did not follow a plain suit led without trumping, or did not follow a trump
lead, holds none of it; under "may trump" a trump on a plain lead shows nothing).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.rng import deal_hands, stream_key
from ..core.game import position as core_position
from . import cards as C
from .layouts import BID_MAX, BID_MIN, SEATS, TRICKS, Pos
from .rules import DEFAULT_RULES, Rules

CHANCE = core_position.CHANCE
TERMINAL = core_position.TERMINAL

N_CARDS = 64
PASS = 64
BID_BASE = 64
NUM_ACTIONS = BID_BASE + BID_MAX + 1
PHASES = ("auction", "play", "over")
PH_AUCTION, PH_PLAY, PH_OVER = range(3)
POINTS = ("high", "low", "jack", "six", "last", "game")

FULL = 0x1FFF_1FFF_1FFF_1FFF
SUIT_BITS = 0x1FFF
JACK_RANK = 9
SIX_RANK = 4
#: Game points of each rank (ten 10, jack 1, queen 2, king 3, ace 4), by rank.
GAME_VALUE = C.GAME_POINTS
#: Tries per world of the world sampler (``kernels/decide.py``) before it drops the calls.
WORLD_TRIES = 1 << 14


def _suit_mask(suit: int) -> int:
    return SUIT_BITS << (16 * suit)


def _game_points(mask: int) -> int:
    return sum(GAME_VALUE[c & 15] for c in mask_bits(mask))


def legal_call_mask(highest: int, dealer: bool) -> int:
    """Bit ``b`` set when call ``b`` (0 pass, 3..6) is legal (``kernels.auction.legal_calls``)."""
    bids = 0
    for b in range(BID_MIN, BID_MAX + 1):
        if (dealer and b >= highest) or b > highest:
            bids |= 1 << b
    if dealer and highest == 0:
        return bids
    return 1 | bids


def legal_card_mask(hand: int, first: int, trump: int, must_follow: bool, pitch: bool) -> int:
    """``kernels.tricks.legal_plays`` in Python: the cards of ``hand`` that may be played to a
    trick led with ``first`` (-1: he leads)."""
    if first < 0:
        if pitch and trump >= 0:
            return hand & _suit_mask(trump)
        return hand
    follow = hand & _suit_mask(first >> 4)
    if follow == 0:
        return hand
    if must_follow or trump < 0:
        return follow
    return follow | (hand & _suit_mask(trump))


def beats(card: int, best: int, trump: int) -> bool:
    """``kernels.tricks.beats``: True when ``card`` played after ``best`` wins the trick."""
    if (card >> 4) == (best >> 4):
        return card > best
    return (card >> 4) == trump


def call_name(call: int) -> str:
    return "pass" if call == 0 else str(call)


def action_name(action: int) -> str:
    """The text of an action: a card (``"AS"``), ``"pass"`` or a bid (``"4"``)."""
    if 0 <= action < N_CARDS and (action & 15) < 13:
        return C.card_name(action)
    if action == PASS:
        return "pass"
    if BID_BASE + BID_MIN <= action <= BID_BASE + BID_MAX:
        return str(action - BID_BASE)
    raise InputError(f"no action {action} (cards 0..63, pass {PASS}, bids {BID_BASE + 3}..)")


def parse_call(text: str) -> int:
    """A call (0 pass, 3..6) from ``"pass"``/``"p"``/``"3"`` .. ``"6"`` (``"bid 4"``)."""
    t = text.strip().lower()
    if t in ("pass", "p", "0", "-"):
        return 0
    m = re.fullmatch(r"(?:bid\s*)?([3-6])", t)
    if not m:
        raise InputError(f"{text!r} is not a call (pass, or a bid 3 to 6)")
    return int(m.group(1))


class PitchState(core_position.State):
    """One position of a Pitch round (see the module docstring)."""

    def __init__(
        self,
        dealt: list[int],
        rules: Rules = DEFAULT_RULES,
        key: np.uint64 | None = None,
        stream: np.ndarray | None = None,
        trump: int | None = None,
    ):
        n = rules.players
        if len(dealt) != n:
            raise InputError(f"{len(dealt)} hands for {n} players")
        self.rules = rules
        self.n = n
        self._must_follow = bool(rules.must_follow)
        self._low_capt = rules.low_to == "capturer"
        self._tie_bidder = rules.game_tie == "bidder"
        self.dealt = [int(h) for h in dealt]
        self.hands = list(self.dealt)
        self.given_trump = -1 if trump is None else int(trump)
        self.calls: list[int] = []
        self.highest = 0
        self.bidder = -1
        self.bid = 0
        self.stole = False
        self.phase_id = PH_AUCTION
        self.trump = -1
        self.leader = -1
        self.trick: list[int] = []  # cards of the trick on the table, from its leader
        self.first = -1
        self.best = -1
        self.wseat = -1
        self.tmask = 0
        self.finished: list[list[int]] = []  # cards of each finished trick, from its leader
        self.leaders: list[int] = []
        self.winners: list[int] = []
        self.done = 0  # cards of the finished tricks
        self.played = [0] * n  # each seat's cards played (the trick on the table included)
        self.voids = [0] * n  # suit bits each seat showed void
        self.game = [0] * n
        self.scores: list[int] | None = None
        self.takers: list[int] | None = None
        self.points: list[int] | None = None
        self._history: list[int] = []
        self._legal = -1
        self.key = np.uint64(0) if key is None else np.uint64(key)
        self.stream = np.zeros(1, dtype=np.int64) if stream is None else stream
        self.memory: dict = {}
        #: For a world drawn by :meth:`resample`: 0 every constraint kept, 1 the calls dropped,
        #: 2 the voids dropped too (``kernels.decide.sample_world``).
        self.world_status = 0

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_deal(cls, seed: int, index: int, rules: Rules = DEFAULT_RULES) -> PitchState:
        """Round ``index`` of ``seed`` as the round kernels deal it (stream (seed, index): the
        deal first, the state's stream left where the auction's draws begin)."""
        key = np.uint64(stream_key(np.int64(seed), np.int64(index)))
        stream = np.zeros(1, dtype=np.int64)
        hands = np.zeros(SEATS, dtype=np.int64)
        deal_hands(key, np.empty(52, dtype=np.int8), stream, rules.players, TRICKS, 13, 16, hands)
        return cls([int(h) for h in hands[: rules.players]], rules, key, stream)

    @classmethod
    def from_hands(
        cls,
        hands: list[int] | list[str],
        rules: Rules | None = None,
        seed: int = 1,
        index: int = 0,
        trump: int | str | None = None,
    ) -> PitchState:
        """A round dealt ``hands`` (six cards a seat, masks or card strings, seat 0 first); its
        stream is (seed, index) from its start (random deciders draw from it). ``trump``: a
        suit the bidder must pitch (None: his pitch names it)."""
        masks = [C.parse_cards(h) if isinstance(h, str) else int(h) for h in hands]
        rules = rules or Rules(players=len(masks))
        seen = 0
        for s, h in enumerate(masks):
            if mask_count(h) != C.HAND_SIZE or h & ~FULL:
                raise InputError(f"seat {s}: a hand is six cards, got {C.format_cards(h)}")
            if seen & h:
                raise InputError(f"{C.format_cards(seen & h)} dealt twice")
            seen |= h
        if isinstance(trump, str):
            trump = C.parse_suit(trump)
        key = np.uint64(stream_key(np.int64(seed), np.int64(index)))
        return cls(masks, rules, key, None, trump)

    def clone(self) -> PitchState:
        other = PitchState.__new__(PitchState)
        other.__dict__.update(self.__dict__)
        other.dealt = list(self.dealt)
        other.hands = list(self.hands)
        other.calls = list(self.calls)
        other.trick = list(self.trick)
        other.finished = [list(t) for t in self.finished]
        other.leaders = list(self.leaders)
        other.winners = list(self.winners)
        other.played = list(self.played)
        other.voids = list(self.voids)
        other.game = list(self.game)
        other.scores = None if self.scores is None else list(self.scores)
        other.takers = None if self.takers is None else list(self.takers)
        other.points = None if self.points is None else list(self.points)
        other._history = list(self._history)
        other.stream = self.stream.copy()
        other.memory = dict(self.memory)
        return other

    # ------------------------------------------------------------------ the contract
    @property
    def num_players(self) -> int:
        return self.n

    @property
    def phase(self) -> str:
        return PHASES[self.phase_id]

    @property
    def trick_index(self) -> int:
        """The trick being played (0..5; 6 once over)."""
        return len(self.finished)

    def current_player(self) -> int:
        if self.phase_id == PH_AUCTION:
            return len(self.calls)
        if self.phase_id == PH_PLAY:
            return (self.leader + len(self.trick)) % self.n
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.phase_id == PH_OVER

    def legal_mask(self) -> int:
        """The legal actions as a mask: call bits (0 pass, 3..6) in the auction, card bits in
        the play, 0 once over."""
        if self._legal >= 0:
            return self._legal
        if self.phase_id == PH_AUCTION:
            m = legal_call_mask(self.highest, len(self.calls) == self.n - 1)
        elif self.phase_id == PH_PLAY:
            seat = (self.leader + len(self.trick)) % self.n
            trump = self.trump if self.trump >= 0 else self.given_trump
            m = legal_card_mask(
                self.hands[seat], self.first, trump, self._must_follow, not self.finished
            )
        else:
            m = 0
        self._legal = m
        return m

    def legal_actions(self) -> list[int]:
        m = self.legal_mask()
        if self.phase_id == PH_AUCTION:
            return [PASS if b == 0 else BID_BASE + b for b in mask_bits(m)]
        return mask_bits(m)

    def apply(self, action: int) -> None:
        action = int(action)
        m = self.legal_mask()
        if self.phase_id == PH_AUCTION:
            call = 0 if action == PASS else action - BID_BASE
            if not (PASS <= action < NUM_ACTIONS and (m >> call) & 1):
                raise self._illegal(action)
            self._call(call)
        elif self.phase_id == PH_PLAY:
            if not (0 <= action < N_CARDS and (m >> action) & 1):
                raise self._illegal(action)
            self._play(action)
        else:
            raise InputError("the round is over: no action is legal")
        self._history.append(action)
        self._legal = -1

    def _illegal(self, action: int) -> InputError:
        try:
            name = action_name(action)
        except InputError:
            name = str(action)
        legal = ", ".join(self.action_to_string(a) for a in self.legal_actions())
        return InputError(
            f"{name} is not legal for seat {self.current_player()} now (legal: {legal})"
        )

    def _call(self, call: int) -> None:
        seat = len(self.calls)
        self.calls.append(call)
        if call and call >= self.highest:
            self.stole = seat == self.n - 1 and call == self.highest
            self.highest = call
            self.bidder = seat
            self.bid = call
        if len(self.calls) == self.n:
            self.phase_id = PH_PLAY
            self.leader = self.bidder

    def _play(self, card: int) -> None:
        n = self.n
        seat = (self.leader + len(self.trick)) % n
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.played[seat] |= bit
        if self.first < 0:
            self.first = card
            if self.trump < 0:
                self.trump = card >> 4
        else:
            led = self.first >> 4
            suit = card >> 4
            if suit != led and (self._must_follow or led == self.trump or suit != self.trump):
                self.voids[seat] |= 1 << led
        if self.best < 0 or beats(card, self.best, self.trump):
            self.best = card
            self.wseat = seat
        self.trick.append(card)
        self.tmask |= bit
        if len(self.trick) < n:
            return
        w = self.wseat
        self.finished.append(self.trick)
        self.leaders.append(self.leader)
        self.winners.append(w)
        self.game[w] += _game_points(self.tmask)
        self.done |= self.tmask
        self.leader = w
        self.trick = []
        self.first = self.best = self.wseat = -1
        self.tmask = 0
        if len(self.finished) == TRICKS:
            self.phase_id = PH_OVER
            self._score()

    # ------------------------------------------------------------------ scoring
    def _capturer(self, card: int) -> int:
        """Winner of the finished trick holding ``card``, -1 when none does."""
        for cards, w in zip(self.finished, self.winners, strict=False):
            if card in cards:
                return w
        return -1

    def _holder(self, card: int) -> int:
        for s in range(self.n):
            if self.dealt[s] >> card & 1:
                return s
        return -1

    def _high_low(self) -> tuple[int, int, int]:
        """(High's holder, Low's holder, the Low card) once trump is known."""
        in_play = 0
        for h in self.dealt:
            in_play |= h
        trumps = in_play & _suit_mask(self.trump)
        high = trumps.bit_length() - 1
        low = (trumps & -trumps).bit_length() - 1
        return self._holder(high), self._holder(low), low

    def taken(self) -> list[int]:
        """The seat scoring each point (``POINTS`` order) so far, -1 for none yet (or nobody)."""
        out = [-1] * 6
        if self.trump < 0:
            return out
        high, low_holder, low = self._high_low()
        out[0] = high
        out[1] = self._capturer(low) if self._low_capt else low_holder
        base = 16 * self.trump
        out[2] = self._capturer(base + JACK_RANK)
        out[3] = self._capturer(base + SIX_RANK)
        if self.phase_id == PH_OVER:
            out[4] = self.winners[-1]
            out[5] = self._game_taker()
        return out

    def _game_taker(self) -> int:
        best = max(self.game)
        if best == 0:
            return -1
        tied = [s for s, g in enumerate(self.game) if g == best]
        if len(tied) == 1:
            return tied[0]
        if self._tie_bidder and self.bidder in tied:
            return self.bidder
        return -1

    def _score(self) -> None:
        takers = self.taken()
        points = [0] * self.n
        for s in takers:
            if s >= 0:
                points[s] += 1
        scores = list(points)
        made = points[self.bidder] >= self.bid
        scores[self.bidder] = self.bid if made else -self.bid
        self.takers, self.points, self.scores = takers, points, scores

    def points_so_far(self) -> list[int]:
        """Points each seat has taken so far (no bid applied; final points once over)."""
        if self.points is not None:
            return list(self.points)
        out = [0] * self.n
        for s in self.taken():
            if s >= 0:
                out[s] += 1
        return out

    def returns(self) -> list[float]:
        if self.scores is not None:
            return [float(x) for x in self.scores]
        return [float(x) for x in self.points_so_far()]

    @property
    def made(self) -> bool | None:
        """Once over, whether the bidder made his bid."""
        if self.points is None:
            return None
        return self.points[self.bidder] >= self.bid

    # ------------------------------------------------------------------ strings
    def action_to_string(self, action: int) -> str:
        return action_name(action)

    def string_to_action(self, text: str) -> int:
        t = text.strip().lower()
        if t == "steal":
            if self.phase_id != PH_AUCTION or len(self.calls) != self.n - 1 or not self.highest:
                raise InputError("only the dealer steals, at the highest bid made before him")
            return BID_BASE + self.highest
        t = re.sub(r"\s*\(steal\)$", "", t)
        if t in ("pass", "p") or re.fullmatch(r"(bid\s*)?[3-6]", t):
            c = parse_call(t)
            return PASS if c == 0 else BID_BASE + c
        try:
            return C.parse_card(text)
        except C.CardError as err:
            raise InputError(f"{text!r} is neither a card nor a call ({err})") from None

    def __repr__(self) -> str:
        hands = " | ".join(C.format_cards(h) for h in self.hands)
        return (
            f"PitchState({self.n} players, {self.phase}, calls "
            f"{' '.join(call_name(c) for c in self.calls) or '-'}, trump "
            f"{C.SUITS[self.trump] if self.trump >= 0 else '-'}, hands {hands})"
        )

    # ------------------------------------------------------------------ what a seat saw
    def trick_view(self, seat: int, pitch_suit: int = -1) -> np.ndarray:
        """The kernels' View row (``layouts.View``) of ``seat`` to play now; ``pitch_suit``: the
        suit a bidder who chose it with his bid must pitch (``mcbid``), else -1."""
        from .layouts import View

        v = np.zeros(View.LEN, dtype=np.int64)
        v[View.PLAYERS] = self.n
        v[View.SEAT] = seat
        v[View.BIDDER] = self.bidder
        trump = self.trump if self.trump >= 0 else self.given_trump
        if trump < 0:
            trump = pitch_suit
        v[View.TRUMP] = trump
        v[View.TRICK] = len(self.finished)
        v[View.FIRST] = self.first
        v[View.BEST] = self.best
        v[View.WSEAT] = self.wseat
        v[View.TMASK] = self.tmask
        v[View.IN_TRICK] = len(self.trick)
        v[View.PLAYED] = self.done
        return v

    def pos_row(self, pitch_suit: int = -1, hidden: bool = False) -> np.ndarray:
        """The position as the search takes it (a ``layouts.Pos`` row), as ``kernels.pimc``'s
        true position stands at this point of the round. ``pitch_suit``: a trump the bidder
        must pitch (when none is given); ``hidden``: every hand but the seat to move's replaced
        by a placeholder of its size (what the world sampler may read)."""
        n = self.n
        pos = np.zeros(Pos.LEN, dtype=np.int64)
        pos[Pos.PLAYERS] = n
        pos[Pos.LEADER] = self.leader
        pos[Pos.BIDDER] = self.bidder
        trump = self.trump
        if trump < 0:
            trump = self.given_trump if self.given_trump >= 0 else pitch_suit
        pos[Pos.TRUMP] = trump
        started = bool(self.finished) or bool(self.trick)
        pos[Pos.PITCH] = 0 if self.finished else 1
        pos[Pos.SCORE_HIGH_LOW] = 0 if started else 1
        pos[Pos.LOW_CARD] = -1
        if started and self._low_capt:
            pos[Pos.LOW_CARD] = self._high_low()[2]
        pos[Pos.TRICK_COUNT] = len(self.trick)
        pos[Pos.TRICK : Pos.TRICK + 6] = -1
        for j, c in enumerate(self.trick):
            pos[Pos.TRICK + j] = c
        me = self.current_player()
        for s in range(n):
            h = self.hands[s]
            if hidden and s != me:
                h = (1 << mask_count(h)) - 1
            pos[Pos.HANDS + s] = h
            pos[Pos.GAME + s] = self.game[s]
        return pos

    def calls_array(self) -> np.ndarray:
        """The calls made (int64[6], -1 for seats yet to call)."""
        out = np.full(SEATS, -1, dtype=np.int64)
        out[: len(self.calls)] = self.calls
        return out

    def captured(self) -> np.ndarray:
        """int64[64]: the winner of the finished trick holding each card, -1 for the others."""
        out = np.full(64, -1, dtype=np.int64)
        for cards, w in zip(self.finished, self.winners, strict=False):
            for c in cards:
                out[c] = w
        return out

    def observation(self, seat: int) -> dict:
        return {
            "players": self.n,
            "seat": seat,
            "phase": self.phase,
            "hand": C.card_names(self.hands[seat]),
            "dealt": C.card_names(self.dealt[seat]),
            "auction": [call_name(c) for c in self.calls],
            "bidder": self.bidder if self.phase_id != PH_AUCTION else None,
            "bid": self.bid if self.phase_id != PH_AUCTION else None,
            "trump": C.SUITS[self.trump] if self.trump >= 0 else None,
            "tricks": [
                {"leader": ld, "cards": [C.card_name(c) for c in cards], "winner": w}
                for cards, ld, w in zip(self.finished, self.leaders, self.winners, strict=True)
            ],
            "trick": {
                "leader": self.leader,
                "cards": [C.card_name(c) for c in self.trick],
            }
            if self.phase_id == PH_PLAY
            else None,
            "cards_left": [mask_count(h) for h in self.hands],
            "voids": ["".join(C.SUITS[x] for x in range(4) if v >> x & 1) for v in self.voids],
            "game_points": list(self.game),
            "history": history_text(describe(self, seat)) if self.phase_id != PH_OVER else None,
            "to_move": self.current_player(),
        }

    def sight(self, seat: int, others: str = "threshold"):
        """What ``seat`` saw, as the world sampler takes it (``kernels.decide.Sight``), and the
        others' bid policy (``policies.PolicyArrays``) whose calls condition the worlds."""
        return sight_of(self, seat, others)

    def resample(
        self,
        seat: int,
        rng: np.random.Generator,
        others: str = "threshold",
        tries: int = WORLD_TRIES,
    ) -> PitchState:
        """A full state with the same history in which ``seat``'s cards and everything it saw
        are as here, the others' hidden cards drawn by ``kernels.decide.sample_world`` (uniform
        over the deals keeping the voids shown and the calls, when ``others``, the bid policy
        they are taken to follow, would have made them)."""
        from .kernels.decide import sample_world

        sight, policy = self.sight(seat, others)
        out = np.zeros(SEATS, dtype=np.int64)
        key = np.uint64(int(rng.integers(0, 2**63 - 1)))
        state = np.zeros(1, dtype=np.int64)
        tries = np.int64(tries)
        status = int(sample_world(key, state, sight, policy, tries, tries, out))
        world = self.clone()
        world.hands = [int(out[s]) for s in range(self.n)]
        world.dealt = [world.hands[s] | self.played[s] for s in range(self.n)]
        world.memory = {}
        world._legal = -1
        world.world_status = status
        if world.scores is not None:
            world._score()
        return world


def sight_of(state: PitchState, seat: int, others: str = "threshold"):
    """:meth:`PitchState.sight`."""
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


@functools.lru_cache(maxsize=16)
def _others_policy(others: str):
    from .policies import make_policy

    return make_policy(others, "heuristic")


def draw_order(state: PitchState, seat: int) -> list[int]:
    """The seats in the world sampler's drawing order: those showing the most voids first, then
    those who bid, then the rest (any order samples the same worlds; this one fails sooner)."""

    def key(s: int) -> tuple:
        called = s < len(state.calls) and state.calls[s] > 0
        return (-mask_count(state.voids[s]), not called, s)

    others = sorted((s for s in range(state.n) if s != seat), key=key)
    return [*others, seat] + list(range(state.n, SEATS))


# ---------------------------------------------------------------------- described positions

#: The ``--history`` text form, documented once (the CLI's help and errors quote it).
HISTORY_FORM = (
    "clauses 'key: value' separated by ';': auction: the calls from seat 0 (pass or 3..6, "
    "'SEAT:CALL' allowed; the dealer's steal is his bid equal to the highest); trump: SUIT "
    "(optional: checked against the pitch); tricks: the cards of each trick from its leader "
    "(the bidder leads the first; the first card is the pitch), tricks separated by '/', the "
    "last one may be unfinished"
)


@dataclass
class Description:
    """A position as one player tells it (see :data:`HISTORY_FORM`; JSON twin in
    :func:`parse_history_json`). ``hand``: the cards he holds now."""

    players: int
    seat: int
    hand: int
    calls: list[int] = field(default_factory=list)
    tricks: list[list[int]] = field(default_factory=list)
    trump: int | None = None


def describe(state: PitchState, seat: int) -> Description:
    """What ``seat`` would tell of ``state``: his cards now, the calls, the tricks (the one on
    the table last) and the trump once pitched."""
    tricks = [list(t) for t in state.finished]
    if state.trick:
        tricks.append(list(state.trick))
    return Description(
        players=state.n,
        seat=seat,
        hand=state.hands[seat],
        calls=list(state.calls),
        tricks=tricks,
        trump=state.trump if state.trump >= 0 else None,
    )


def history_text(d: Description) -> str:
    """The ``--history`` text of a description (:func:`parse_history` reads it back)."""
    parts = ["auction: " + (" ".join(f"{s}:{call_name(c)}" for s, c in enumerate(d.calls)) or "-")]
    if d.trump is not None:
        parts.append(f"trump: {C.SUITS[d.trump]}")
    if d.tricks:
        parts.append("tricks: " + " / ".join(" ".join(C.card_name(c) for c in t) for t in d.tricks))
    return "; ".join(parts)


def history_json(d: Description) -> dict:
    """The JSON form of a description (:func:`parse_history_json` reads it back)."""
    out: dict = {"auction": [call_name(c) for c in d.calls]}
    if d.trump is not None:
        out["trump"] = C.SUITS[d.trump]
    out["tricks"] = [[C.card_name(c) for c in t] for t in d.tricks]
    return out


def _calls_value(value, players: int) -> list[int]:
    if value is None:
        return []
    items = value if isinstance(value, list) else re.split(r"[\s,]+", str(value).strip())
    calls = []
    for i, item in enumerate(x for x in items if str(x).strip() not in ("",)):
        text = str(item).strip()
        m = re.fullmatch(r"(\d+)\s*:\s*(.+)", text)
        if m:
            if int(m.group(1)) != i:
                raise InputError(f"auction item {text!r}: calls go in seat order from seat 0")
            text = m.group(2)
        if text.lower() in ("-", "none") and not calls and len(items) == 1:
            return []
        calls.append(parse_call(text))
    if len(calls) > players:
        raise InputError(f"auction: {len(calls)} calls at a table of {players}")
    return calls


def _tricks_value(value) -> list[list[int]]:
    if value is None:
        return []
    if isinstance(value, list):
        groups = [t if isinstance(t, list) else str(t).split() for t in value]
    else:
        text = str(value).strip()
        if text in ("", "-"):
            return []
        groups = [g.split() for g in re.split(r"\s*[/|]\s*", text)]
    out = []
    for i, g in enumerate(groups):
        try:
            out.append([C.parse_card(str(c)) for c in g])
        except C.CardError as err:
            raise InputError(f"tricks: trick {i + 1}: {err}") from None
    if out and not out[-1]:
        out.pop()
    if any(not t for t in out):
        raise InputError("tricks: an empty trick (two '/' in a row)")
    return out


def _fields(raw: dict, hand: int, seat: int, players: int) -> Description:
    d = Description(players=players, seat=seat, hand=hand)
    for key, value in raw.items():
        if key in ("auction", "calls"):
            d.calls = _calls_value(value, players)
        elif key == "tricks":
            d.tricks = _tricks_value(value)
        elif key == "trump":
            text = str(value).strip()
            if text not in ("", "-", "none", "None"):
                try:
                    d.trump = C.parse_suit(text)
                except C.CardError as err:
                    raise InputError(f"trump: {err}") from None
        else:
            raise InputError(f"unknown history key {key!r} ({HISTORY_FORM})")
    return d


def parse_history(text: str, hand: int, seat: int, players: int) -> Description:
    """A :class:`Description` from the ``--history`` text (:data:`HISTORY_FORM`), e.g.
    ``"auction: pass 3 4 pass; tricks: KS 2S 5S 9S / 7C"``."""
    raw = core_position.history_clauses(text, HISTORY_FORM)
    return _fields(raw, hand, seat, players)


def parse_history_json(data, hand: int, seat: int, players: int) -> Description:
    """A :class:`Description` from the JSON form: an object with ``auction`` (a list of calls
    from seat 0, ``"pass"`` or 3..6, or the text form), optional ``trump`` and ``tricks`` (a
    list of tricks, each a list of cards from its leader, or the text form)."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as err:
            raise InputError(f"history JSON: {err.msg} (line {err.lineno})") from None
    if not isinstance(data, dict):
        raise InputError("the history JSON must be an object")
    return _fields({str(k).lower(): v for k, v in data.items()}, hand, seat, players)


def _where(t: int, j: int) -> str:
    return f"trick {t + 1}, card {j + 1}"


def check_description(d: Description, rules: Rules) -> PitchState:
    """The position a description tells, checked (one line, InputError, for: a bad seat or
    auction, a card twice, a trick too long, a hand that does not fit the cards played, a card
    played against the rules by him or after a void shown by another, a position where he is
    not to act, hidden cards the voids shown cannot place). Returns a state whose hidden cards
    are placeholders: its public facts only (use :func:`from_description` for a world)."""
    n = rules.players
    if d.players != n:
        raise InputError(f"{d.players} players but the rules are for {n}")
    if not 0 <= d.seat < n:
        raise InputError(f"seat must be 0..{n - 1} at {n} players")
    highest = 0
    for s, c in enumerate(d.calls):
        if not (legal_call_mask(highest, s == n - 1) >> c) & 1:
            why = (
                "the dealer must bid when everyone passed"
                if s == n - 1 and highest == 0
                else f"a call must pass or beat {highest}"
                + (" (the dealer may steal at it)" if s == n - 1 else "")
            )
            raise InputError(f"auction: seat {s} cannot call {call_name(c)}: {why}")
        highest = max(highest, c)
    if len(d.calls) < n and d.tricks:
        raise InputError(f"cards were played but the auction has {len(d.calls)} of {n} calls")
    seen: dict[int, str] = {}
    for c in mask_bits(d.hand):
        seen[c] = "your hand"
    for t, cards in enumerate(d.tricks):
        if t >= TRICKS:
            raise InputError(f"tricks: {len(d.tricks)} tricks (a round has {TRICKS})")
        if len(cards) > n:
            raise InputError(f"tricks: trick {t + 1} has {len(cards)} cards at {n} players")
        if len(cards) < n and t < len(d.tricks) - 1:
            raise InputError(
                f"tricks: trick {t + 1} has {len(cards)} cards; only the last may be unfinished"
            )
        for j, c in enumerate(cards):
            if c in seen:
                raise InputError(f"{C.card_name(c)} is twice: in {seen[c]} and {_where(t, j)}")
            seen[c] = _where(t, j)
    if d.hand & ~FULL:
        raise InputError("not a card mask")
    if len(d.tricks) == TRICKS and len(d.tricks[-1]) == n:
        raise InputError("the round is over: every trick has been played")
    # replay the public history on a state whose hidden hands are placeholders
    bidder = -1
    if len(d.calls) == n:
        h = 0
        for s, c in enumerate(d.calls):
            if c and c >= h:
                h, bidder = c, s
    # who played what: follow the tricks
    plays: list[tuple[int, int, int, int]] = []  # (seat, card, trick, index)
    leader = bidder
    trump = -1
    for t, cards in enumerate(d.tricks):
        best, wseat = -1, -1
        for j, c in enumerate(cards):
            seat = (leader + j) % n
            if trump < 0:
                trump = c >> 4
            if best < 0 or beats(c, best, trump):
                best, wseat = c, seat
            plays.append((seat, c, t, j))
        if len(cards) == n:
            leader = wseat
    if d.trump is not None and trump >= 0 and d.trump != trump:
        raise InputError(
            f"trump: {C.SUITS[d.trump]} given but the pitch {C.card_name(d.tricks[0][0])} "
            f"makes {C.SUITS[trump]} trump"
        )
    mine = [c for s, c, _, _ in plays if s == d.seat]
    dealt_mine = d.hand | C.cards_to_mask(mine)
    if mask_count(dealt_mine) != C.HAND_SIZE:
        raise InputError(
            f"you hold {mask_count(d.hand)} cards and played {len(mine)}: a hand is {C.HAND_SIZE} "
            f"({C.format_cards(d.hand)}; played {' '.join(C.card_name(c) for c in mine) or '-'})"
        )
    # placeholders for the other hands: any unseen cards of the right size (no void checked)
    unseen = FULL & ~dealt_mine & ~C.cards_to_mask(c for _, c, _, _ in plays)
    counts = [C.HAND_SIZE - sum(1 for s, *_ in plays if s == x) for x in range(n)]
    dealt = []
    pool = mask_bits(unseen)
    for s in range(n):
        if s == d.seat:
            dealt.append(dealt_mine)
            continue
        take = pool[: counts[s]]
        pool = pool[counts[s] :]
        dealt.append(C.cards_to_mask(take) | C.cards_to_mask(c for x, c, _, _ in plays if x == s))
    st = PitchState(dealt, rules, trump=d.trump if not d.tricks else None)
    for c in d.calls:
        st.apply(PASS if c == 0 else BID_BASE + c)
    for seat, c, t, j in plays:
        if seat == d.seat:
            legal = st.legal_mask()
            if not legal >> c & 1:
                raise InputError(
                    f"{_where(t, j)}: you may not play {C.card_name(c)} (legal then: "
                    f"{C.format_cards(legal)}): a revoke"
                )
        elif st.voids[seat] >> (c >> 4) & 1:
            raise InputError(
                f"{_where(t, j)}: seat {seat} plays {C.card_name(c)} but showed no "
                f"{C.SUIT_NAMES[c >> 4].lower()} before: a revoke"
            )
        # a placeholder hand holds any card: put the card there if the other hand lacks it
        _force_play(st, seat, c)
    to_move = st.current_player()
    if to_move != d.seat:
        raise InputError(f"it is seat {to_move}'s turn, not yours (seat {d.seat})")
    _check_worlds(st, d.seat)
    return st


def _force_play(st: PitchState, seat: int, card: int) -> None:
    """Apply another seat's ``card`` on the public state. His placeholder hand holds the card
    but may also hold cards of the suit led that his real hand did not (he did not follow: a
    void, which the caller has checked against his later plays); those are swapped for unseen
    cards of other suits first, so the card is legal."""
    legal = st.legal_mask()
    if not legal >> card & 1:
        # the placeholder holds cards of the suit led that the real hand did not: drop them
        led = st.first >> 4
        keep = st.hands[seat] & ~_suit_mask(led) | (1 << card)
        st.hands[seat] = keep | _spare(st, seat, mask_count(st.hands[seat]) - mask_count(keep), led)
        st._legal = -1
    st.apply(card)


def _spare(st: PitchState, seat: int, k: int, avoid: int) -> int:
    """``k`` placeholder cards for ``seat`` outside suit ``avoid`` and every hand and play."""
    used = 0
    for s in range(st.n):
        used |= st.hands[s] | st.played[s]
    pool = [c for c in mask_bits(FULL & ~used) if c >> 4 != avoid]
    if len(pool) < k:
        raise InputError("impossible history: the cards left cannot fill the hands")
    return C.cards_to_mask(pool[:k])


def _check_worlds(st: PitchState, seat: int) -> None:
    """The hidden cards can be dealt with every void shown (Hall's condition: every set of
    other seats can get their cards from the unseen cards they may hold); InputError else."""
    used = st.hands[seat]
    for s in range(st.n):
        used |= st.played[s]
    unseen = FULL & ~used
    others = [s for s in range(st.n) if s != seat]
    allowed = {}
    for s in others:
        ban = 0
        for x in range(4):
            if st.voids[s] >> x & 1:
                ban |= _suit_mask(x)
        allowed[s] = unseen & ~ban
    for size in range(1, len(others) + 1):
        for group in combinations(others, size):
            need = sum(mask_count(st.hands[s]) for s in group)
            pool = 0
            for s in group:
                pool |= allowed[s]
            if mask_count(pool) < need:
                names = ", ".join(f"seat {s}" for s in group)
                raise InputError(
                    f"impossible history: {names} hold {need} cards but the voids shown leave "
                    f"{mask_count(pool)} unseen cards they could hold"
                )


def from_description(
    d: Description,
    rules: Rules = DEFAULT_RULES,
    seed: int = 1,
    others: str = "threshold",
) -> PitchState:
    """A full state at the described position (his seat to act): his cards and the history as
    told, the hidden cards one world consistent with them (:meth:`PitchState.resample`'s
    sampler, seeded by ``seed``). InputError when the description is impossible."""
    public = check_description(d, rules)
    return public.resample(d.seat, np.random.default_rng(seed), others)


__all__ = [
    "BID_BASE",
    "CHANCE",
    "HISTORY_FORM",
    "NUM_ACTIONS",
    "PASS",
    "POINTS",
    "TERMINAL",
    "Description",
    "PitchState",
    "action_name",
    "check_description",
    "describe",
    "from_description",
    "history_json",
    "history_text",
    "parse_call",
    "parse_history",
    "parse_history_json",
]
