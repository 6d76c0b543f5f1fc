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

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.rng import stream_key
from ..core.game import position as core_position
from . import cards as C
from .actions import (
    BID_BASE,
    DECL_POLICY,
    DECLARE,
    FULL,
    KEEP_TIERCE,
    N_CARDS,
    PASS,
    PH_AUCTION,
    PH_DECLARE,
    PH_OVER,
    PH_PLAY,
    PHASES,
    TERMINAL,
    _rules_arrays,
    action_name,
    call_name,
    call_of,
    default_setup,
    has_tierce,
    parse_action,
)
from .kernels import auction as KA
from .kernels import tricks as KT
from .kernels.deal import N_PACK, deal_round
from .kernels.declarations import (
    combination_cards,
    compare_declarations,
    declare_policy_hand,
)
from .kernels.play import card_played
from .kernels.scoring import score_round
from .layouts import (
    ASTATE_LEN,
    COMB_LEN,
    DECL_LEN,
    PUB_LEN,
    ROUND_LEN,
    SCORE_LEN,
    VIEW_LEN,
    AState,
    Comb,
    Decl,
    Pub,
    RoundRec,
    Score,
    View,
)
from .rules import DEFAULT_RULES, Rules, RuleSlot
from .worlds import forbidden_by, replay_world, sample_world


class PilottaState(core_position.State):
    """One position of a Pilotta round (see the module docstring)."""

    clone_lists = (
        "calls decl_actions shown announced hands gone trick pts tricks_won line plays "
        "legal_n contexts"
    )
    clone_arrays = "stream ast comb score_row"
    phases = PHASES  # auction, declare, play, over

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

    # ------------------------------------------------------------------ the contract
    @property
    def num_players(self) -> int:
        return 4

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
        if self._phase == PH_PLAY and 0 <= action < N_CARDS:
            p = self.current_player()
            if not self.hands[p] >> action & 1:
                return InputError(f"{who} cannot play {name}: not in his hand")
            legal = " ".join(action_name(c) for c in self.legal_actions())
            return InputError(f"{who} cannot play {name} now: {self._duty(action)} ({legal})")
        return InputError(f"{who} cannot {why} {name} now ({self.phase})")

    def _duty(self, card: int) -> str:
        """Why ``card`` may not be played now, in words: the rule it breaks (a revoke, a
        failure to trump or to go over the best trump), the duty in general when none says."""
        legal = self.legal_actions()
        if self.trick:
            lead = self.trick[0]
            led = lead // 8
            if card // 8 != led and any(c // 8 == led for c in legal):
                return f"a revoke: he must follow suit to {action_name(lead)}"
            if 0 <= self.trump < 4 and all(c // 8 == self.trump for c in legal):
                trumps = [c for c in self.trick if c // 8 == self.trump]
                if trumps and card // 8 == self.trump:
                    best = action_name(max(trumps, key=lambda c: C.TRUMP_STRENGTH[c % 8]))
                    over = "play a higher trump than" if led == self.trump else "overtrump"
                    return f"he must {over} {best}"
                if led != self.trump:
                    return f"he has no {C.SUIT_NAMES[led]}: he must trump"
        return "he must follow suit, trump or over-trump as the rules say"

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


__all__ = ["PilottaState"]
