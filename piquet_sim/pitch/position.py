"""Pitch positions: the :mod:`piquet_sim.core.game.position` contract (``State``) for one round.

A :class:`PitchState` is one position of a fully dealt round (every seat's six cards), plain
Python over the kernels' rules: the auction, then six tricks, scored as the round kernels score
a round (``kernels/scoring.py``). It is made

* from a seed and round index (:meth:`PitchState.from_deal`): the deal ``kernels.round.play_round``
  deals for (seed, index), with that round's random stream, so deciders that draw (the random
  bidder and player, pimc's worlds) draw what the round kernels draw;
* from explicit hands (:meth:`PitchState.from_hands`), optionally with the trump given (the
  bidder must pitch that suit, as ``solve --trump`` and the bid advisor's suit studies);
* from what one player tells of a round (a record, ``record.py``; :func:`.seen.position_of`):
  his cards, seat, the auction, the trump and the tricks so far; the hidden cards are one world
  consistent with it (``worlds.py``).

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

import re

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.rng import deal_hands, stream_key
from ..core.game import position as core_position
from ..core.game.actions import ActionNames
from . import cards as C
from .layouts import BID_MAX, BID_MIN, SEATS, TRICKS, Pos
from .record import CODEC, call_name, history_text, parse_call
from .rules import DEFAULT_RULES, Rules
from .worlds import WORLD_TRIES, sight_of

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


#: The text of every action that is not a card: ``"pass"``, a bid (``"4"``).
OTHER_ACTIONS = {PASS: "pass"} | {BID_BASE + b: str(b) for b in range(BID_MIN, BID_MAX + 1)}

#: The text of an action: a card (``"AS"``), ``"pass"`` or a bid (``"4"``).
action_name = ActionNames(
    C.PACK, OTHER_ACTIONS.get, f"cards 0..63, pass {PASS}, bids {BID_BASE + 3}.."
)


class PitchState(core_position.State):
    """One position of a Pitch round (see the module docstring)."""

    clone_lists = "dealt hands calls trick leaders winners played voids game scores takers points"
    clone_nested = "finished"
    clone_arrays = "stream"

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

    def won(self) -> np.ndarray:
        """int64[6]: the cards of each seat's finished tricks (masks)."""
        out = np.zeros(SEATS, dtype=np.int64)
        for cards, w in zip(self.finished, self.winners, strict=False):
            for c in cards:
                out[w] |= np.int64(1) << c
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
            "history": self._history_text(seat) if self.phase_id != PH_OVER else None,
            "to_move": self.current_player(),
        }

    def _history_text(self, seat: int) -> str:
        """What ``seat`` would give ``play --history`` now (the record grammar, one line)."""
        return history_text(CODEC.from_state(self, seat, every_hand=False))

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
        are as here, the others' hidden cards drawn by the world sampler
        (:func:`.worlds.draw_world`: uniform over the deals keeping the voids shown and the
        calls, when ``others``, the bid policy they are taken to follow, would have made them).
        ``world_status``: 0 every constraint kept, 1 the calls dropped, 2 the voids too."""
        from .worlds import draw_world

        hands, status = draw_world(self, seat, rng, others, tries)
        world = self.clone()
        world.hands = hands
        world.dealt = [hands[s] | self.played[s] for s in range(self.n)]
        world.memory = {}
        world._legal = -1
        world.world_status = status
        if world.scores is not None:
            world._score()
        return world


__all__ = [
    "BID_BASE",
    "CHANCE",
    "NUM_ACTIONS",
    "PASS",
    "POINTS",
    "TERMINAL",
    "PitchState",
    "action_name",
]
