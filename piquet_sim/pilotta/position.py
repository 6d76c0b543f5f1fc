"""Pilotta positions: the :mod:`piquet_sim.core.game.position` contract (``State``) for one round.

A :class:`PilottaState` is one position of a dealt round (four hands of 8, the dealer), plain
Python over the round kernels' own functions: the auction (``kernels.auction``: ``apply_call``,
``may_bid``), the declarations (``kernels.declarations``: ``declare_policy_hand``,
``compare_declarations``, ``combination_cards``), the play (``kernels.tricks.legal_cards`` with
the rules' play code, so every play option of ``Rules`` carries over, and
``kernels.play.card_played`` for the trick's bookkeeping and the voids shown) and the score
(``kernels.scoring.score_round``). It is made

* from a seed and round index (:meth:`PilottaState.from_deal`): the deal ``kernels.simulate``
  deals for (seed, index), dealer ``index % 4``, with that round's random stream left after the
  shuffle, so deciders that draw (random bids and play, the Monte Carlo bidder, pimc) draw what
  the round kernels draw;
* from explicit hands (:meth:`PilottaState.from_hands`);
* from what one player describes (:func:`from_description`): his hand and seat, the dealer, the
  auction (or only the contract), the combinations announced and the cards played trick by
  trick; the hidden cards are one world consistent with it (:func:`parse_history`,
  :data:`HISTORY_FORM`).

Actions (ints, :data:`NUM_ACTIONS` of them):

* ``0..31`` a card (index ``suit * 8 + rank``, ``cards.py``), printed ``"AS"``, ``"TH"``;
* :data:`PASS` (32, ``"pass"``); a bid ``BID_BASE + 4 * level + suit`` (33..72): level 0..9 is
  80, 90 … 160 and the capot (``calls.LEVELS``), suit 0..3 S H D C, printed ``"90H"``,
  ``"capotS"`` (the bid advisor's strings). The project's auction has no double;
* :data:`DECLARE` (73, ``"declare"``): announce every combination; :data:`KEEP_TIERCE` (74,
  ``"keep tierce"``): keep sequences of exactly three unannounced (legal only with one): the
  ``all`` and ``no-tierce`` declaration policies.

Order: the auction from the player after the dealer (``kernels.auction``; all four passing
throws the cards in: the round is over and scores nothing); then each seat's declaration, in
playing order from the first leader (what each seat announced is public once all four have
chosen: the kernels compare them at once); then the eight tricks. There are no chance nodes.

``returns()``: each seat's team's game points of the round (``Score.TOTAL_*``: card points,
last trick, combinations, pilotta, capot, failed contract, the bid), 0 until the round is over
(Pilotta scores a round at its end); :meth:`PilottaState.score` has the breakdown and the card
points so far at any time, :meth:`PilottaState.record` the round kernels' record row.

What a seat sees (:meth:`PilottaState.observation`): its own cards, every call, its own
declaration choice, the announcements (cards shown, points) once made, every card played by
whom, the voids shown. :meth:`PilottaState.resample` redeals the hidden cards with pimc's
sampler (``kernels.pimc.deal_world``: own hand, cards played, hand sizes, voids, shown cards;
the announced points and the calls fit the state's Setup policies, as pimc assumes) and keeps
only worlds in which every card played was legal (:meth:`PilottaState.forbidden`: a seat that
under-trumped holds no higher trump, …) and every announcement is one the hand makes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.rng import stream_key
from ..core.game import position as core_position
from . import cards as C
from .calls import CAPOT_LEVEL, LEVELS
from .kernels import auction as KA
from .kernels import tricks as KT
from .kernels.deal import N_PACK, deal_round
from .kernels.declarations import (
    combination_cards,
    combination_points,
    compare_declarations,
    declare_policy_hand,
)
from .kernels.play import card_played
from .kernels.scoring import score_round
from .kernels.tables import POINTS, SEQ_RUNS, STRENGTH
from .layouts import (
    ASTATE_LEN,
    BID_CAPOT,
    COMB_LEN,
    DECL_LEN,
    N_AUCTION_PARAMS,
    PUB_LEN,
    ROUND_LEN,
    SCORE_LEN,
    SETUP_LEN,
    VIEW_LEN,
    AState,
    Comb,
    Decl,
    Pub,
    RoundRec,
    Score,
    Setup,
    View,
)
from .policies import DECL_ALL, DECL_NO_TIERCE, auction_params, defaults, play_worlds
from .policies import get as get_policy
from .rules import DEFAULT_RULES, Rules, RuleSlot

CHANCE = core_position.CHANCE
TERMINAL = core_position.TERMINAL

N_CARDS = 32
PASS = 32
BID_BASE = 33
N_LEVELS = len(LEVELS)
DECLARE = BID_BASE + 4 * N_LEVELS
KEEP_TIERCE = DECLARE + 1
NUM_ACTIONS = KEEP_TIERCE + 1
#: Declaration actions by policy id (``policies``: all, no-tierce) and back.
DECL_ACTIONS = {DECL_ALL: DECLARE, DECL_NO_TIERCE: KEEP_TIERCE}
DECL_POLICY = {DECLARE: DECL_ALL, KEEP_TIERCE: DECL_NO_TIERCE}
PHASES = ("auction", "declare", "play", "over")
PH_AUCTION, PH_DECLARE, PH_PLAY, PH_OVER = range(4)
FULL = 0xFFFFFFFF
#: Worlds drawn by :func:`sample_world` (each one pimc's ``deal_world``) before it gives up.
MAX_WORLD_TRIES = 400
#: Shuffles tried per world before the play (the bid advisor's number), then the last is kept.
AUCTION_TRIES = 400


def bid_action(level: int, suit: int) -> int:
    """The action of a bid (level 0..9, suit 0..3)."""
    return BID_BASE + 4 * level + suit


def call_of(action: int) -> tuple[int, int]:
    """(level, suit) of a call action; (-1, -1) for a pass."""
    if action == PASS:
        return -1, -1
    k = action - BID_BASE
    return k // 4, k % 4


def call_name(level: int, suit: int) -> str:
    """'pass', '90H', 'capotS' (the bid advisor's strings)."""
    if level < 0:
        return "pass"
    return ("capot" if level == CAPOT_LEVEL else str(LEVELS[level])) + C.SUITS[suit]


def parse_call(text: str) -> tuple[int, int]:
    """(level, suit) of 'pass', 'p', '90H', '160 S', 'capotC'; InputError otherwise."""
    t = str(text).strip().replace(" ", "")
    if t.lower() in ("pass", "p", "-"):
        return -1, -1
    if t.lower().startswith("capot"):
        number, suit = BID_CAPOT, t[5:]
    else:
        digits = len(t) - len(t.lstrip("0123456789"))
        if digits == 0:
            raise InputError(f"'{text}' is not a call (pass, 80H … 160S, capotC)")
        number, suit = int(t[:digits]), t[digits:]
    levels = (*LEVELS[:-1], BID_CAPOT)
    if number not in levels:
        raise InputError(f"'{text}': bids are 80, 90, …, 160 or capot")
    try:
        s = C.parse_suit(suit)
    except InputError:
        raise InputError(f"'{text}': a bid names a trump suit (S, H, D or C)") from None
    return levels.index(number), s


def action_name(action: int) -> str:
    """The text of an action: a card, a call, ``"declare"`` or ``"keep tierce"``."""
    action = int(action)
    if 0 <= action < N_CARDS:
        return C.card_name(action)
    if action == PASS or BID_BASE <= action < DECLARE:
        return call_name(*call_of(action))
    if action == DECLARE:
        return "declare"
    if action == KEEP_TIERCE:
        return "keep tierce"
    raise InputError(f"no action {action} (actions are 0..{NUM_ACTIONS - 1})")


def parse_action(text: str) -> int:
    """The action named by ``text``: a card (``"AS"``, ``"10H"``), a call (``"pass"``,
    ``"120S"``, ``"capotH"``), ``"declare"`` (or ``"all"``), ``"keep tierce"`` (or
    ``"no-tierce"``)."""
    t = re.sub(r"[\s_-]+", " ", str(text).strip().lower())
    if t in ("declare", "declare all", "all"):
        return DECLARE
    if t in ("keep tierce", "keep tierces", "keep", "no tierce"):
        return KEEP_TIERCE
    try:
        return C.PACK.parse_card(str(text).strip())
    except C.CardError:
        pass
    try:
        level, suit = parse_call(text)
    except InputError:
        raise InputError(
            f"'{text}' is no action (a card AS, a call pass / 90H / capotS, declare, keep tierce)"
        ) from None
    return PASS if level < 0 else bid_action(level, suit)


@functools.cache
def _rules_arrays(rules: Rules) -> tuple[np.ndarray, int]:
    """(the kernels' rules array, the play code of the legal-card function) of these rules."""
    arr = rules.to_array()
    if hasattr(KT, "play_code"):
        return arr, int(KT.play_code(arr))
    return arr, int(arr[RuleSlot.PARTNER_EXEMPTION])


def has_tierce(hand: int) -> bool:
    """True when ``hand`` holds a sequence of exactly three cards (what ``keep tierce``
    keeps)."""
    for s in range(4):
        h = (hand >> (8 * s)) & 0xFF
        if SEQ_RUNS[h, 0] == 3 or SEQ_RUNS[h, 2] == 3:
            return True
    return False


def shown_cards(hand: int, action: int) -> int:
    """The cards ``hand`` shows under a declaration action."""
    return int(combination_cards(np.int64(hand), np.int64(DECL_POLICY[action])))


def make_setup(auction: str = "random", declare: str = "all", play: str = "random") -> np.ndarray:
    """A Setup (``layouts.Setup``) with one auction, declaration and play policy for both teams,
    their default parameters (``api.make_setup``'s array, without importing the API's
    pandas): what a state assumes of the table (pimc's soft facts read it)."""
    setup = np.zeros(SETUP_LEN, dtype=np.int64)
    row = auction_params(auction)
    worlds = play_worlds(defaults("play", "pimc")["worlds"])
    for t in (0, 1):
        setup[Setup.AUCTION_NS + t] = get_policy("auction", auction).id
        lo = Setup.PARAMS_EW if t else Setup.PARAMS_NS
        setup[lo : lo + N_AUCTION_PARAMS] = row
        setup[Setup.PLAY_NS + t] = get_policy("play", play).id
        setup[Setup.WORLDS_NS + t] = worlds
        setup[Setup.DECLARE_NS + t] = get_policy("declare", declare).id
    return setup


def default_setup() -> np.ndarray:
    """The Setup a state assumes when given none: the random bidder (every call fits every
    hand, so the auction shapes no world), everyone declaring all, random play."""
    return make_setup()


class PilottaState(core_position.State):
    """One position of a Pilotta round (see the module docstring)."""

    def __init__(
        self,
        hands,
        dealer: int,
        rules: Rules = DEFAULT_RULES,
        setup: np.ndarray | None = None,
        key: int = 0,
        stream: int = 0,
    ):
        hands = [int(h) & FULL for h in hands]
        union = 0
        for h in hands:
            if mask_count(h) != 8 or union & h:
                raise InputError("a round is four hands of 8 cards, every card once")
            union |= h
        if len(hands) != 4 or not 0 <= int(dealer) < 4:
            raise InputError("a round is four hands (N E S W) and a dealer 0..3")
        self.rules = rules
        self._rules, self._code = _rules_arrays(rules)
        self._kq = int(self._rules[RuleSlot.TRUMP_KQ_POINTS])
        self.total = 160 if self._kq else 162
        self.setup = default_setup() if setup is None else np.asarray(setup, dtype=np.int64)
        self.dealt = tuple(hands)
        self.dealer = int(dealer)
        self.key = np.uint64(key)
        self.stream = np.array([stream], dtype=np.int64)
        self._phase = PH_AUCTION
        self.ast = np.zeros(ASTATE_LEN, dtype=np.int64)
        KA.auction_reset(self.ast, np.int64(self.dealer))
        self.calls: list[tuple[int, int, int]] = []
        #: False when only the contract was described (the calls before it are invented and
        #: tell the sampler nothing)
        self.calls_known = True
        # the contract, once the auction is over
        self.bidder = -1
        self.level = -1
        self.bid = 0
        self.trump = -1
        self.c_team = -1
        self.first_leader = -1
        # declarations
        self.decl_actions = [-1, -1, -1, -1]
        self.shown = [0, 0, 0, 0]
        self.announced = [0, 0, 0, 0]
        self.comb = np.zeros(COMB_LEN, dtype=np.int32)
        # play
        self.hands = list(hands)
        self.played = 0
        self.gone = [0, 0, 0, 0]
        self.trick: list[int] = []
        self.leader = -1
        self.led = -1
        self.top_trump = -1
        self.win_power = -1
        self.win_seat = -1
        self.tpts = 0
        self.voids = 0
        self.pts = [0, 0]
        self.tricks_won = [0, 0]
        self.capot_alive = 1
        self.line: list[tuple[int, list[int], int]] = []  # (leader, cards, winner)
        self.plays: list[int] = []
        self.legal_n: list[int] = []
        #: each play's trick context: (seat, card, cards before it, led, top trump, partner
        #: winning), what :meth:`forbidden` reads
        self.contexts: list[tuple[int, int, int, int, int, bool]] = []
        self.score_row: np.ndarray | None = None
        self._history: list[int] = []
        self._actors: list[int] = []
        self._legal: list[int] | None = None
        self._legal_mask = -1
        self._forbidden: tuple[int, list[int]] | None = None
        #: deciders' memory for this round (answers already drawn)
        self.memory: dict = {}

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_deal(
        cls,
        seed: int,
        index: int,
        rules: Rules = DEFAULT_RULES,
        setup: np.ndarray | None = None,
    ) -> PilottaState:
        """Round ``index`` of ``seed``: the round kernels' deal, dealer (``index % 4``) and
        random stream (left after the shuffle, as ``simulate.open_round`` leaves it)."""
        key = np.uint64(stream_key(np.int64(seed), np.int64(index)))
        pack = np.empty(N_PACK, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        hands = np.zeros(4, dtype=np.int64)
        deal_round(key, pack, state, hands)
        return cls(hands, int(index) % 4, rules, setup, int(key), int(state[0]))

    @classmethod
    def from_hands(
        cls,
        hands,
        dealer: int = 3,
        rules: Rules = DEFAULT_RULES,
        setup: np.ndarray | None = None,
        seed: int = 1,
        index: int = 0,
    ) -> PilottaState:
        """Explicit hands (masks or card text, N E S W) and dealer; random draws from stream
        (seed, index)."""
        hands = [C.parse_cards(h, 8) if isinstance(h, str) else int(h) for h in hands]
        key = stream_key(np.int64(seed), np.int64(index))
        return cls(hands, dealer, rules, setup, int(key), 0)

    def clone(self) -> PilottaState:
        new = object.__new__(PilottaState)
        new.__dict__.update(self.__dict__)
        new.stream = self.stream.copy()
        new.ast = self.ast.copy()
        new.calls = list(self.calls)
        new.decl_actions = list(self.decl_actions)
        new.shown = list(self.shown)
        new.announced = list(self.announced)
        new.comb = self.comb.copy()
        new.hands = list(self.hands)
        new.gone = list(self.gone)
        new.trick = list(self.trick)
        new.pts = list(self.pts)
        new.tricks_won = list(self.tricks_won)
        new.line = list(self.line)
        new.plays = list(self.plays)
        new.legal_n = list(self.legal_n)
        new.contexts = list(self.contexts)
        new.score_row = None if self.score_row is None else self.score_row.copy()
        new._history = list(self._history)
        new._actors = list(self._actors)
        new.memory = {k: core_position.copied(v) for k, v in self.memory.items()}
        return new

    # ------------------------------------------------------------------ the contract
    @property
    def num_players(self) -> int:
        return 4

    @property
    def phase(self) -> str:
        """``"auction"``, ``"declare"``, ``"play"`` or ``"over"``."""
        return PHASES[self._phase]

    def current_player(self) -> int:
        ph = self._phase
        if ph == PH_PLAY:
            return (self.leader + len(self.trick)) % 4
        if ph == PH_AUCTION:
            return (self.dealer + 1 + len(self.calls)) % 4
        if ph == PH_DECLARE:
            return (self.first_leader + sum(a >= 0 for a in self.decl_actions)) % 4
        return TERMINAL

    def is_terminal(self) -> bool:
        return self._phase == PH_OVER

    def legal_mask(self) -> int:
        """The legal cards of the seat to play (a mask; 0 outside the play)."""
        if self._legal_mask < 0:
            if self._phase != PH_PLAY:
                self._legal_mask = 0
            else:
                n = len(self.trick)
                p = (self.leader + n) % 4
                pw = n >= 2 and self.win_seat == (p + 2) % 4
                self._legal_mask = int(
                    KT.legal_cards(
                        self.hands[p], n, self.led, self.trump, self.top_trump, pw, self._code
                    )
                )
        return self._legal_mask

    def legal_actions(self) -> list[int]:
        if self._legal is not None:
            return list(self._legal)
        ph = self._phase
        if ph == PH_PLAY:
            acts = mask_bits(self.legal_mask())
        elif ph == PH_AUCTION:
            acts = [PASS]
            p = (self.dealer + 1 + len(self.calls)) % 4
            if KA.may_bid(self.ast, p, self._rules):
                lv = int(self.ast[AState.LEVEL])
                acts += list(range(BID_BASE + 4 * (lv + 1), DECLARE))
        elif ph == PH_DECLARE:
            p = self.current_player()
            acts = [DECLARE, KEEP_TIERCE] if has_tierce(self.dealt[p]) else [DECLARE]
        else:
            acts = []
        self._legal = acts
        return list(acts)

    def apply(self, action: int) -> None:
        action = int(action)
        ph = self._phase
        actor = self.current_player()
        if ph == PH_PLAY:
            self._play(action)
        elif ph == PH_AUCTION:
            self._call(action)
        elif ph == PH_DECLARE:
            self._declare(action)
        else:
            raise InputError("the round is over: no more actions")
        self._history.append(action)
        self._actors.append(actor)
        self._legal = None
        self._legal_mask = -1

    def _illegal(self, action: int, why: str) -> InputError:
        try:
            name = action_name(action)
        except InputError:
            name = str(action)
        who = C.SEATS[self.current_player()]
        return InputError(f"{who} cannot {why} {name} now ({self.phase})")

    def _call(self, action: int) -> None:
        if action not in self.legal_actions():
            raise self._illegal(action, "call")
        p = self.current_player()
        level, suit = call_of(action)
        KA.apply_call(self.ast, np.int64(level), np.int64(suit))
        self.calls.append((p, level, suit))
        if not self.ast[AState.DONE]:
            return
        bidder = int(self.ast[AState.BIDDER])
        if bidder < 0:
            self._phase = PH_OVER  # thrown in
            self.score_row = np.zeros(SCORE_LEN, dtype=np.int32)
            return
        self.bidder = bidder
        self.level = int(self.ast[AState.LEVEL])
        self.bid = int(KA.level_points(np.int64(self.level)))
        self.trump = int(self.ast[AState.TRUMP])
        self.c_team = bidder & 1
        after = (self.dealer + 1) % 4
        self.first_leader = after if self._rules[RuleSlot.FIRST_LEAD] else bidder
        self._phase = PH_DECLARE

    def _declare(self, action: int) -> None:
        if action not in self.legal_actions():
            raise self._illegal(action, "declare with")
        p = self.current_player()
        self.decl_actions[p] = action
        if min(self.decl_actions) < 0:
            return
        decl = np.zeros((4, DECL_LEN), dtype=np.int32)
        for q in range(4):
            policy = np.int64(DECL_POLICY[self.decl_actions[q]])
            declare_policy_hand(np.int64(self.dealt[q]), np.int64(self.trump), policy, decl[q])
            self.shown[q] = int(combination_cards(np.int64(self.dealt[q]), policy))
            self.announced[q] = int(decl[q, Decl.POINTS])
        compare_declarations(decl, np.int64(self.first_leader), self._rules, self.comb)
        self._phase = PH_PLAY
        self.leader = self.first_leader
        self.win_seat = self.leader

    def _play(self, c: int) -> None:
        legal = self.legal_mask()
        if not (0 <= c < N_CARDS and legal >> c & 1):
            raise self._illegal(c, "play")
        n = len(self.trick)
        p = (self.leader + n) % 4
        pw = n >= 2 and self.win_seat == (p + 2) % 4
        self.contexts.append((p, c, n, self.led, self.top_trump, pw))
        self.plays.append(c)
        self.legal_n.append(mask_count(legal))
        bit = 1 << c
        self.hands[p] &= ~bit
        self.played |= bit
        self.gone[p] |= bit
        self.trick.append(c)
        led, voids, wp, ws, top, tpts = card_played(
            c,
            p,
            self.led,
            self.trump,
            self._rules,
            self.voids,
            self.win_power,
            self.win_seat,
            self.top_trump,
            self.tpts,
        )
        self.led, self.voids, self.win_power = int(led), int(voids), int(wp)
        self.win_seat, self.top_trump, self.tpts = int(ws), int(top), int(tpts)
        if n < 3:
            return
        last = len(self.line) == 7
        team = self.win_seat & 1
        self.pts[team] += self.tpts + (10 if last else 0)
        self.tricks_won[team] += 1
        if team != self.c_team:
            self.capot_alive = 0
        self.line.append((self.leader, self.trick, self.win_seat))
        self.leader = self.win_seat
        self.trick = []
        self.led = -1
        self.top_trump = -1
        self.win_power = -1
        self.tpts = 0
        if last:
            self._close()

    def _close(self) -> None:
        self._phase = PH_OVER
        out = np.zeros(SCORE_LEN, dtype=np.int32)
        pil = int(self.comb[Comb.PILOTTA_SEAT])
        score_round(
            np.int64(self.pts[0]),
            np.int64(self.tricks_won[0]),
            np.int64(self.c_team),
            np.int64(self.bid),
            np.int64(self.comb[Comb.POINTS_NS]),
            np.int64(self.comb[Comb.POINTS_EW]),
            np.int64(pil & 1 if pil >= 0 else -1),
            self._rules,
            out,
        )
        self.score_row = out

    # ------------------------------------------------------------------ scores
    def returns(self) -> list[float]:
        if self.score_row is None:
            return [0.0] * 4
        ns = float(self.score_row[Score.TOTAL_NS])
        ew = float(self.score_row[Score.TOTAL_EW])
        return [ns, ew, ns, ew]

    def score(self) -> dict:
        """The round so far: card points and tricks each team has won (last trick included),
        the contract, the combinations each team scores and the pilotta's seat (once
        declared), and once the round is over its Score (game points by step)."""
        out: dict = {
            "card_points": {"NS": self.pts[0], "EW": self.pts[1]},
            "tricks": {"NS": self.tricks_won[0], "EW": self.tricks_won[1]},
            "contract": self.contract(),
        }
        if self._phase >= PH_PLAY:
            pil = int(self.comb[Comb.PILOTTA_SEAT])
            out["combinations"] = {
                "NS": int(self.comb[Comb.POINTS_NS]),
                "EW": int(self.comb[Comb.POINTS_EW]),
            }
            out["pilotta"] = C.SEATS[pil] if pil >= 0 else None
        if self.score_row is not None:
            out["score"] = {
                f.name.lower(): int(self.score_row[f]) for f in Score if f.name != "LEN"
            }
        return out

    def contract(self) -> dict | None:
        """The contract once the auction is over: seat, bid text, points, trump, team."""
        if self.bidder < 0:
            return None
        return {
            "seat": C.SEATS[self.bidder],
            "bid": call_name(self.level, self.trump),
            "points": self.bid,
            "trump": C.SUITS[self.trump],
            "team": C.TEAMS[self.c_team],
        }

    def record(self) -> np.ndarray:
        """The round as the round kernels record it (int64[RoundRec.LEN]; ``simulate``'s row),
        filled as far as the round has gone."""
        rec = np.zeros(ROUND_LEN, dtype=np.int64)
        for j in (RoundRec.TRUMP, RoundRec.FIRST_LEADER, RoundRec.DECL_TEAM):
            rec[j] = -1
        rec[RoundRec.PILOTTA_SEAT] = -1
        rec[RoundRec.DEALER] = self.dealer
        for p in range(4):
            rec[RoundRec.HAND_N + p] = self.dealt[p]
        rec[RoundRec.BIDDER] = self.bidder
        if self.bidder < 0:
            return rec
        rec[RoundRec.BID] = self.bid
        rec[RoundRec.TRUMP] = self.trump
        rec[RoundRec.FIRST_LEADER] = self.first_leader
        if self._phase >= PH_PLAY:
            rec[RoundRec.DECL_TEAM] = self.comb[Comb.TEAM]
            rec[RoundRec.DECL_NS] = self.comb[Comb.POINTS_NS]
            rec[RoundRec.DECL_EW] = self.comb[Comb.POINTS_EW]
            rec[RoundRec.PILOTTA_SEAT] = self.comb[Comb.PILOTTA_SEAT]
        if self.score_row is not None:
            rec[RoundRec.TRICKS_NS] = self.tricks_won[0]
            rec[RoundRec.RAW_NS] = self.pts[0]
            rec[RoundRec.RAW_EW] = self.total - self.pts[0]
            rec[RoundRec.LEGAL_SUM] = sum(self.legal_n)
            rec[RoundRec.SCORE :] = self.score_row
        return rec

    # ------------------------------------------------------------------ strings
    def action_to_string(self, action: int) -> str:
        return action_name(action)

    def string_to_action(self, text: str) -> int:
        return parse_action(text)

    def __repr__(self) -> str:
        hands = " | ".join(C.format_cards(h) for h in self.hands)
        return f"PilottaState({self.phase}, to act {self.current_player()}, hands {hands})"

    # ------------------------------------------------------------------ what seats see
    def actors(self) -> list[int]:
        """The seat that took each action of :meth:`history`."""
        return list(self._actors)

    def is_visible(self, seat: int, step: int) -> bool:
        """Whether ``seat`` saw action ``step`` of the history: his own, every call and every
        card played; not another seat's declaration choice (what it announced he sees in
        :meth:`observation` once all four have declared)."""
        a = self._history[step]
        return self._actors[step] == seat or a < DECLARE

    def calls_array(self) -> np.ndarray:
        """The auction so far as pimc's ``Ctx.calls`` (int64[k, 3]: seat, level or -1, suit);
        empty when only the contract is known."""
        if not self.calls or not self.calls_known:
            return np.zeros((0, 3), dtype=np.int64)
        return np.array(self.calls, dtype=np.int64)

    def view_array(self, seat: int | None = None) -> np.ndarray:
        """The play policies' :class:`layouts.View` of ``seat`` (default: the seat to play),
        as ``play.play_round`` fills it."""
        seat = self.current_player() if seat is None else seat
        view = np.zeros(VIEW_LEN, dtype=np.int64)
        view[View.SEAT] = seat
        view[View.POS] = len(self.trick)
        view[View.LED] = self.led
        view[View.TOP_TRUMP] = self.top_trump
        view[View.WIN_POWER] = self.win_power
        view[View.WIN_SEAT] = self.win_seat
        view[View.PLAYED] = self.played
        view[View.VOIDS] = self.voids
        view[View.C_TEAM] = self.c_team
        view[View.TRUMP] = self.trump
        view[View.KQ] = self._kq
        return view

    def pub_array(self) -> np.ndarray:
        """What the table knows in the play (:class:`layouts.Pub`, as ``pimc.pimc_round``
        fills it)."""
        pub = np.zeros(PUB_LEN, dtype=np.int64)
        for p in range(4):
            pub[Pub.SHOWN + p] = self.shown[p]
            pub[Pub.GONE + p] = self.gone[p]
            pub[Pub.ANNOUNCED + p] = self.announced[p]
        for i, c in enumerate(self.trick[:3]):
            pub[Pub.TRICK + i] = c
        pub[Pub.LEADER] = self.leader
        pub[Pub.CAPOT] = self.capot_alive
        return pub

    def partner_winning(self) -> bool:
        """True when the partner of the seat to play holds the trick (third or fourth hand)."""
        n = len(self.trick)
        return n >= 2 and self.win_seat == (self.leader + n + 2) % 4

    def forbidden(self) -> list[int]:
        """Per seat, the cards it cannot hold now given its plays: a card whose holding would
        have made one of its plays illegal (a suit it failed to follow, trumps it did not play,
        trumps higher than one it under-trumped with …), by :func:`forbidden_by`."""
        n = len(self.contexts)
        if self._forbidden is not None and self._forbidden[0] == n:
            return list(self._forbidden[1])
        start, out = (0, [0, 0, 0, 0]) if self._forbidden is None else self._forbidden
        out = list(out)
        for p, c, k, led, top, pw in self.contexts[start:]:
            out[p] |= forbidden_by(c, k, led, self.trump, top, pw, self._code)
        self._forbidden = (n, out)
        return list(out)

    def observation(self, seat: int) -> dict:
        seat = int(seat)
        out: dict = {
            "seat": C.SEATS[seat],
            "phase": self.phase,
            "to_act": None if self.is_terminal() else C.SEATS[self.current_player()],
            "dealer": C.SEATS[self.dealer],
            "hand": C.PACK.card_names(self.hands[seat]),
            "auction": [f"{C.SEATS[p]}:{call_name(lv, s)}" for p, lv, s in self.calls],
            "contract": self.contract(),
        }
        if self.decl_actions[seat] >= 0:
            out["own_declaration"] = action_name(self.decl_actions[seat])
        if self._phase >= PH_PLAY:
            out["declarations"] = {
                C.SEATS[p]: {"cards": C.PACK.card_names(self.shown[p]), "points": self.announced[p]}
                for p in range(4)
            }
            out["tricks"] = [
                {
                    "leader": C.SEATS[lead],
                    "cards": [C.card_name(c) for c in cards],
                    "winner": C.SEATS[w],
                }
                for lead, cards, w in self.line
            ]
            out["trick"] = {
                "leader": None if self.is_terminal() else C.SEATS[self.leader],
                "cards": [C.card_name(c) for c in self.trick],
            }
            out["voids"] = {
                C.SEATS[p]: [C.SUITS[s] for s in range(4) if self.voids >> (4 * p + s) & 1]
                for p in range(4)
            }
            out["card_points"] = {"NS": self.pts[0], "EW": self.pts[1]}
            out["tricks_won"] = {"NS": self.tricks_won[0], "EW": self.tricks_won[1]}
        if self.is_terminal():
            out["returns"] = self.returns()
        return out

    def resample(self, seat: int, rng: np.random.Generator) -> PilottaState:
        """A full position consistent with what ``seat`` has seen, the same history and
        stream (module docstring). InputError when no world is found."""
        world = sample_world(self, int(seat), int(rng.integers(0, 1 << 62)))
        if world is None:
            raise InputError("no deal of the unseen cards fits what was seen")
        return replay_world(self, world)

    def dealt_of(self, world) -> list[int]:
        """The dealt hands of a world (``world``: current hands, N E S W): each seat's hand
        plus what it has played."""
        return [int(world[p]) | self.gone[p] for p in range(4)]


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
    ``deal_world`` on stream (key, t) for t = 0, 1, … until :func:`world_ok` holds (at most
    ``tries``); None when none does. Before the play (or in a thrown-in round):
    :func:`_auction_world`."""
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
    world = np.zeros(4, dtype=np.int64)
    stream = np.zeros(1, dtype=np.int64)
    for t in range(tries):
        k = np.uint64(stream_key(np.int64(key & (2**62 - 1)), np.int64(t)))
        stream[0] = 0
        ok = deal_world(np.int64(seat), np.int64(hand), view, pub, ctx, world, k, stream)
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
    new = PilottaState(dealt, state.dealer, state.rules, state.setup, int(state.key))
    new.stream[0] = state.stream[0]
    new.calls_known = state.calls_known
    for a in state._history:
        if new._phase == PH_DECLARE:
            p = new.current_player()
            a = _declaration_for(state, p, dealt[p])
        new.apply(a)
    return new


# ---------------------------------------------------------------------- a player's description


@dataclass
class Description:
    """A position as one player tells it (:data:`HISTORY_FORM`; JSON twin in
    :func:`parse_history_json`). ``hand``: the cards he holds now; ``calls`` the whole auction
    (seat, level or -1, suit), or ``contract`` (seat, level, suit) alone; ``declarations``:
    the cards each seat showed (seats not named showed none; his own, when absent, what his
    hand declares); ``tricks``: cards in playing order, trick by trick, the last possibly
    unfinished."""

    seat: int
    hand: int
    dealer: int | None = None
    calls: list[tuple[int, int, int]] | None = None
    contract: tuple[int, int, int] | None = None
    declarations: dict[int, int] = field(default_factory=dict)
    tricks: list[list[int]] = field(default_factory=list)


def _names(mask: int) -> str:
    return C.format_cards(mask)


def _synth_calls(dealer: int, contract: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """An auction ending in ``contract`` (passes up to its bidder, the bid, three passes)."""
    bidder, level, suit = contract
    calls = []
    p = (dealer + 1) % 4
    while p != bidder:
        calls.append((p, -1, -1))
        p = (p + 1) % 4
    calls.append((bidder, level, suit))
    calls += [((bidder + k) % 4, -1, -1) for k in range(1, 4)]
    return calls


def _check_plays(d, plays, decl, trump, leader, code, rules_arr):
    """Replay the described tricks publicly: the player's own plays must be legal from his
    hand then; another seat may not play a card one of his earlier plays showed he did not
    hold, nor fail a duty while holding a card he showed (or plays later). Returns (each
    play's trick context, the cards each seat played, the voids shown, the leader of the
    current trick)."""
    seat, hand = d.seat, d.hand
    later = [0, 0, 0, 0]
    for p, c, _ in plays:
        later[p] |= 1 << c
    forbidden = [0, 0, 0, 0]
    gone = [0, 0, 0, 0]
    contexts = []
    voids = 0
    lead, led, top, wp, wseat, tpts, n = leader, -1, -1, -1, leader, 0, 0
    for p, c, i in plays:
        pw = n >= 2 and wseat == (p + 2) % 4
        later[p] &= ~(1 << c)
        if p == seat:
            then = hand | later[p] | (1 << c)
            legal = int(KT.legal_cards(then, n, led, trump, top, pw, code))
            if not legal >> c & 1:
                raise InputError(
                    f"you could not play {C.card_name(c)} in trick {i + 1} (revoke): you had to "
                    f"play one of {_names(legal)}"
                )
        else:
            if forbidden[p] >> c & 1:
                raise InputError(
                    f"{C.SEATS[p]} played {C.card_name(c)} in trick {i + 1}, a card an earlier "
                    "play of his showed he did not hold (revoke)"
                )
            f = forbidden_by(c, n, led, trump, top, pw, code)
            known = (decl.get(p, 0) & ~gone[p] & ~(1 << c)) | later[p]
            if f & known:
                raise InputError(
                    f"{C.SEATS[p]} played {C.card_name(c)} in trick {i + 1} while holding "
                    f"{_names(f & known)} (revoke)"
                )
            forbidden[p] |= f
        contexts.append((p, c, n, led, top, pw))
        gone[p] |= 1 << c
        led, voids, wp, wseat, top, tpts = (
            int(x) for x in card_played(c, p, led, trump, rules_arr, voids, wp, wseat, top, tpts)
        )
        n += 1
        if n == 4:
            lead = wseat
            led, top, wp, tpts, n = -1, -1, -1, 0, 0
    return contexts, gone, voids, lead


def description_state(
    d: Description,
    rules: Rules = DEFAULT_RULES,
    setup: np.ndarray | None = None,
    seed: int = 1,
    before_kernels=None,
) -> PilottaState:
    """The position of a description, checked (a card twice, a revoke, an impossible
    history: one line, InputError), the hidden cards one world consistent with it (pimc's
    sampler and :func:`world_ok`, stream ``seed``). ``before_kernels`` (no arguments) is called
    once the checks that need no kernel have passed (a compile notice)."""
    seat, hand, dealer = d.seat, d.hand, d.dealer
    calls = list(d.calls) if d.calls is not None else _synth_calls(dealer, d.contract)
    bidder, _, trump = next((p, lv, s) for p, lv, s in reversed(calls) if lv >= 0)
    leader = (dealer + 1) % 4 if rules.first_lead == "after_dealer" else bidder
    seen: dict[int, str] = {c: "in your hand" for c in mask_bits(hand)}
    for i, cards in enumerate(d.tricks):
        for c in cards:
            if c in seen:
                raise InputError(f"{C.card_name(c)} is {seen[c]} and in trick {i + 1}")
            seen[c] = f"in trick {i + 1}"
    if sum(len(t) for t in d.tricks) == 32:
        raise InputError("all eight tricks are played: nothing left to play")
    if before_kernels is not None:
        before_kernels()
    rules_arr, code = _rules_arrays(rules)
    # who played each card (the trick winners lead the next)
    played_by: dict[int, int] = {}
    plays: list[tuple[int, int, int]] = []
    lead = leader
    for i, cards in enumerate(d.tricks):
        for j, c in enumerate(cards):
            p = (lead + j) % 4
            seen[c] = f"played by {C.SEATS[p]} in trick {i + 1}"
            played_by[c] = p
            plays.append((p, c, i))
        if len(cards) == 4:
            lead = (lead + int(KT.trick_winner_pos(np.array(cards, dtype=np.int64), trump))) % 4
    # the declarations
    decl = dict(d.declarations)
    mine_whole = hand | sum(1 << c for c, p in played_by.items() if p == seat)
    for p, m in decl.items():
        if m and shown_cards(m, DECLARE) != m:
            raise InputError(
                f"{C.SEATS[p]} declared {_names(m)}: not combinations (sequences of three or "
                "more in one suit, fours of nines to aces)"
            )
        for c in mask_bits(m):
            owner = played_by.get(c)
            if p != seat and hand >> c & 1:
                raise InputError(f"{C.card_name(c)} is in your hand and declared by {C.SEATS[p]}")
            if owner is not None and owner != p:
                raise InputError(f"{C.card_name(c)} was declared by {C.SEATS[p]} and {seen[c]}")
        for q, m2 in decl.items():
            if q < p and m & m2:
                raise InputError(f"{_names(m & m2)} declared by {C.SEATS[q]} and {C.SEATS[p]}")
    if mask_count(mine_whole) != 8:
        done = sum(1 for p, _, _ in plays if p == seat)
        raise InputError(
            f"you hold {mask_count(hand)} cards and played {done}: a round deals 8 each "
            f"(you should hold {8 - done})"
        )
    own_actions = [DECLARE, KEEP_TIERCE] if has_tierce(mine_whole) else [DECLARE]
    if seat in decl:
        own = next((a for a in own_actions if shown_cards(mine_whole, a) == decl[seat]), None)
        if own is None:
            full = shown_cards(mine_whole, DECLARE)
            raise InputError(
                f"you declared {_names(decl[seat]) or 'nothing'}, but your hand declares "
                f"{_names(full) or 'nothing'}"
                + (" (or the same without its tierces)" if KEEP_TIERCE in own_actions else "")
            )
    else:
        own = DECLARE
        decl[seat] = shown_cards(mine_whole, DECLARE)
    contexts, gone, voids, lead = _check_plays(d, plays, decl, trump, leader, code, rules_arr)
    to_play = (lead + (len(d.tricks[-1]) % 4 if d.tricks else 0)) % 4
    if to_play != seat:
        raise InputError(f"it is {C.SEATS[to_play]}'s turn to play, not yours ({C.SEATS[seat]})")
    # a template with these public facts (placeholder hidden hands), then a world for them
    unseen = FULL & ~mine_whole & ~sum(gone)
    placed = [decl.get(p, 0) & unseen for p in range(4)]
    template = PilottaState(
        _placeholder_hands(seat, mine_whole, gone, placed, unseen), dealer, rules, setup
    )
    actions = [PASS if lv < 0 else bid_action(lv, s) for _, lv, s in calls]
    for a in actions:
        template.apply(a)
    template.calls_known = d.calls is not None
    for _ in range(4):
        template.apply(DECLARE)
    for p in range(4):
        m = decl.get(p, 0)
        template.shown[p] = m
        template.announced[p] = int(combination_points(np.int64(m))) if m else 0
        template.decl_actions[p] = own if p == seat else DECLARE
    template.hands = [template.dealt[p] & ~gone[p] for p in range(4)]
    template.gone = list(gone)
    template.played = sum(gone)
    template.contexts = contexts
    template.voids = voids
    _set_tricks(template, d.tricks, leader, rules_arr)
    world = sample_world(template, seat, int(stream_key(np.int64(seed), np.int64(1))))
    if world is None:
        others = ", ".join(C.SEATS[p] for p in range(4) if p != seat)
        raise InputError(
            f"impossible history: no deal of the {mask_count(unseen)} unseen cards to {others} "
            "fits the voids, the declarations and the cards played"
        )
    dealt = template.dealt_of(world)
    key = int(stream_key(np.int64(seed), np.int64(0)))
    state = PilottaState(dealt, dealer, rules, setup, key)
    for a in actions:
        state.apply(a)
    state.calls_known = d.calls is not None
    for _ in range(4):
        p = state.current_player()
        state.apply(own if p == seat else _declaration_for(template, p, dealt[p]))
    for cards in d.tricks:
        for c in cards:
            state.apply(c)
    return state


def _placeholder_hands(seat, mine_whole, gone, placed, unseen) -> list[int]:
    """Four disjoint hands of 8 holding each seat's known cards (played, shown), the rest of
    the unseen cards anywhere: a template for the public facts."""
    hands = [gone[p] | placed[p] for p in range(4)]
    hands[seat] = mine_whole
    free = mask_bits(unseen & ~sum(placed))
    for p in range(4):
        while mask_count(hands[p]) < 8 and free:
            hands[p] |= 1 << free.pop()
    if any(mask_count(h) != 8 for h in hands):
        raise InputError(
            "impossible history: the cards played and declared do not fit four hands of 8"
        )
    return hands


def _set_tricks(template: PilottaState, tricks: list[list[int]], leader: int, rules_arr) -> None:
    """Set a template's trick state (tricks won, points, the current trick) from the tricks."""
    trump, kq = template.trump, template._kq
    template.line, template.pts, template.tricks_won, template.capot_alive = [], [0, 0], [0, 0], 1
    lead = leader
    for cards in tricks:
        if len(cards) < 4:
            break
        w = (lead + int(KT.trick_winner_pos(np.array(cards, dtype=np.int64), trump))) % 4
        pts = sum(card_points_of(c, trump, kq) for c in cards)
        template.pts[w & 1] += pts + (10 if len(template.line) == 7 else 0)
        template.tricks_won[w & 1] += 1
        if (w & 1) != template.c_team:
            template.capot_alive = 0
        template.line.append((lead, list(cards), w))
        lead = w
    template.leader = lead
    template.trick = list(tricks[-1]) if tricks and len(tricks[-1]) < 4 else []
    led, top, wp, ws, tp = -1, -1, -1, lead, 0
    for j, c in enumerate(template.trick):
        p = (lead + j) % 4
        led, _, wp, ws, top, tp = (
            int(x) for x in card_played(c, p, led, trump, rules_arr, 0, wp, ws, top, tp)
        )
    template.led, template.top_trump, template.win_power = led, top, wp
    template.win_seat, template.tpts = ws, tp
    template._legal = None
    template._legal_mask = -1
    template._forbidden = None


def strength(card: int, trump: int) -> int:
    """A card's place in its suit's play order (0 lowest)."""
    return int(STRENGTH[1 if card >> 3 == trump else 0, card & 7])


def card_points_of(card: int, trump: int, kq: int = 0) -> int:
    """A card's points with ``trump`` trumps (``kq`` 1: trump K 3, Q 2)."""
    return int(POINTS[kq, 1 if card >> 3 == trump else 0, card & 7])


__all__ = [
    "CHANCE",
    "DECLARE",
    "KEEP_TIERCE",
    "NUM_ACTIONS",
    "PASS",
    "TERMINAL",
    "Description",
    "PilottaState",
    "action_name",
    "bid_action",
    "call_name",
    "call_of",
    "card_points_of",
    "description_state",
    "forbidden_by",
    "parse_action",
    "parse_call",
    "replay_world",
    "sample_world",
    "strength",
    "world_ok",
]
