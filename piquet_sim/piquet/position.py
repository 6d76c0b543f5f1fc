"""Piquet positions: the :mod:`piquet_sim.core.game.position` contract (``State``) for one deal.

A :class:`PiquetState` is one position of a fully dealt deal (elder's and younger's 12 cards,
the talon's 8 in draw order), plain Python over the kernels' rules: the exchanges, the
declarations and the twelve tricks, scored as the round kernels score a deal. It is made

* from a seed and deal index (:meth:`PiquetState.from_deal`): the deal ``kernels.deal.deal_full``
  deals for (seed, index), with that deal's random stream, so deciders that draw (random
  exchange and play, pimc) draw what the round kernels draw;
* from explicit hands and talon (:meth:`PiquetState.from_hands`);
* from what one player describes (``description.from_description``): his hand, role, exchange,
  declarations heard and the tricks so far; the hidden cards are one world consistent with it.

Actions (ints, :data:`NUM_ACTIONS` of them):

* ``0..31`` a card (index ``suit * 8 + rank``, as ``cards.py``): in the exchange the card
  discarded, in the play the card played. A player discards one card at a time, in ascending
  card index (each subset of discards is reached once), then ends with :data:`END`;
* :data:`END` (32, ``"end"``): the discard is complete; the player draws as many cards, in
  talon order. Elder discards 1 to 5; younger 1 (0 when ``Rules.younger_must_exchange`` is off)
  to 8 minus what elder took;
* ``33 + 3 * class + kind`` (class 0 point, 1 sequence, 2 sets; kind 0 declare, 1 sink,
  2 lesser): ``"declare point"``, ``"sink sequence"``, ``"lesser sets"`` … (the declaration
  model of ``kernels/declaring.py`` and the sinking study: declare everything of the class,
  declare nothing, or the lesser combination of ``kernels.sinking.choice_masks``). The classes
  come in order, elder then younger in each; a class's outcome is seen by both once both have
  chosen (the kernels score the classes from both choices at once). A player holding nothing in
  a class has only "declare"; "lesser" is legal when it declares something smaller.

Card strings are the CLI's (``"AS"``, ``"10H"`` or ``"TH"``; printed ``"TH"``).

Order of play: elder's exchange, younger's, the declarations (point, sequence, sets; elder
first), then the tricks (elder leads the first). There are no chance nodes: the deal is made
when the state is. ``returns()`` gives elder's and younger's deal points so far (carte blanche,
the classes resolved, repique, play points, pique; the cards and capot once the deal is over),
as ``kernels.simple_deal`` records them.

What each seat sees (:meth:`PiquetState.observation`) follows ``docs/rules/piquet.md``: his own
cards, both carte blanche flags, the counts the other took, the talon cards he saw (elder the
cards he left, if any; younger the cards nobody took once elder has led), each class's outcome
and the opponent's shown cards, the public scores and the cards played. :meth:`resample` draws
a full deal he cannot tell from this one (``kernels.knowledge.sample_opponent``, pimc's exact
sampler, for the opponent's hand; the talon and his discards filled uniformly, carte blanche
kept; the history replayed, so the observation is the same).

The actions and their names are in :mod:`.actions`, what a seat knows and the world sampler
in :mod:`.worlds`, a position as its player tells it in :mod:`.description` (and the record
grammar that tells it, for ``play --history`` and ``review``, in :mod:`.record`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.rng import stream_key
from ..core.game import position as core_position
from . import cards as C
from .actions import (
    CLASSES,
    COURT,
    DECL_BASE,
    DECLARE,
    ELDER_MAX,
    END,
    FULL,
    KINDS,
    LESSER,
    N_CARDS,
    N_TRICKS,
    PH_DECLARE,
    PH_ELDER_EXCHANGE,
    PH_OVER,
    PH_PLAY,
    PH_YOUNGER_EXCHANGE,
    PHASES,
    ROLES,
    SCORE_FIELDS,
    SINK,
    TALON,
    TERMINAL,
    WINNERS,
    _class_keys,
    action_name,
    decl_action,
    env_of,
    kind_mask,
    parse_action,
    shown_cards,
    winner_code,
)
from .kernels import layouts as L
from .kernels.deal import deal_full
from .kernels.declarations import (
    declaration_points,
)
from .kernels.knowledge import (
    class_key,
)
from .kernels.tables import SUIT_TABLES
from .kernels.tricks import cards_bonus, pique_normalize, pique_start, trick_points
from .rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:
    from .worlds import SeatView


class PiquetState(core_position.State):
    """One position of a Piquet deal (see the module docstring)."""

    clone_lists = "hands disc _last took decl_hands gone voids play_pts pique line"
    clone_nested = "kinds masks"
    clone_arrays = "stream"
    clone_dicts = "_know"
    phases = PHASES  # exchange (the elder's, the younger's), declare, play, over

    def __init__(
        self,
        elder: int,
        younger: int,
        talon,
        rules: Rules = DEFAULT_RULES,
        key: int = 0,
        stream: int = 0,
    ):
        elder, younger = int(elder), int(younger)
        talon = tuple(int(c) for c in talon)
        if (
            mask_count(elder) != 12
            or mask_count(younger) != 12
            or len(talon) != TALON
            or (elder | younger | C.cards_to_mask(talon)) != FULL
            or elder & younger
        ):
            raise InputError("a deal is 12 cards each and the 8 other cards in the talon")
        self.rules = rules
        self._env = env_of(rules)
        self._ten = int(rules.lead_points == "ten_or_higher")
        self._must = bool(rules.younger_must_exchange)
        self.dealt = (elder, younger)
        self.talon = talon
        self.cb = ((elder & COURT) == 0, (younger & COURT) == 0)
        self.key = np.uint64(key)
        self.stream = np.array([stream], dtype=np.int64)
        #: elder looked at the talon cards he left; younger was shown those nobody took
        self.saw_left = True
        self.saw_talon = True
        self._phase = PH_ELDER_EXCHANGE
        self.hands = [elder, younger]
        self.disc = [0, 0]
        self._last = [-1, -1]
        self.took = [-1, -1]
        self.decl_hands = [0, 0]
        self.kinds = [[-1, -1, -1], [-1, -1, -1]]
        self.masks = [[0, 0, 0], [0, 0, 0]]
        self._step = 0
        self._points = None  # declaration points cache (elder's DP block, younger's, winners)
        self.trick = 0
        self.leader = 0
        self.lead = -1
        self.played = 0
        self.gone = [0, 0]
        self.voids = [0, 0]
        self.et = 0
        self.ps = 0
        self.play_pts = [0, 0]
        self.pique = [0, 0]
        self.line: list[tuple[int, int]] = []
        self._history: list[int] = []
        self._actors: list[int] = []
        self._play_from = 1 << 30  # the history step of the first card played
        #: deciders' memory for this deal (plans, pimc's kept worlds, cached draws)
        self.memory: dict = {}
        self._legal: list[int] | None = None
        self._know: dict = {}
        #: seat -> what the declaration dialogue told him of the other's declared keys: per
        #: class None, or (the key interval, the cards he was shown) (``worlds.ClassView``);
        #: empty: no dialogue told
        self.told: dict[int, tuple] = {}

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_deal(cls, seed: int, index: int, rules: Rules = DEFAULT_RULES) -> PiquetState:
        """Deal ``index`` of ``seed``: the round kernels' deal and random stream."""
        pack = np.empty(32, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        elder, younger = deal_full(np.int64(seed), np.int64(index), pack, state)
        key = stream_key(np.int64(seed), np.int64(index))
        return cls(
            int(elder) & FULL,
            int(younger) & FULL,
            [int(c) for c in pack[24:32]],
            rules,
            int(key),
            int(state[0]),
        )

    @classmethod
    def from_hands(
        cls,
        elder,
        younger,
        talon,
        rules: Rules = DEFAULT_RULES,
        seed: int = 1,
        index: int = 0,
    ) -> PiquetState:
        """Explicit dealt hands (masks or card text) and the talon in draw order (a list of
        card indices or text, elder's five first); random draws from stream (seed, index)."""
        if isinstance(elder, str):
            elder = C.parse_cards(elder, 12)
        if isinstance(younger, str):
            younger = C.parse_cards(younger, 12)
        if isinstance(talon, str):
            talon = C.parse_card_list(talon)
        key = stream_key(np.int64(seed), np.int64(index))
        return cls(elder, younger, talon, rules, int(key), 0)

    # ------------------------------------------------------------------ the contract
    @property
    def num_players(self) -> int:
        return 2

    @property
    def declaring_class(self) -> int | None:
        """The class being declared (0 point, 1 sequence, 2 sets), None outside."""
        return self._step // 2 if self._phase == PH_DECLARE else None

    def current_player(self) -> int:
        ph = self._phase
        if ph == PH_PLAY:
            return self.leader if self.lead < 0 else 1 - self.leader
        if ph == PH_ELDER_EXCHANGE:
            return 0
        if ph == PH_YOUNGER_EXCHANGE:
            return 1
        if ph == PH_DECLARE:
            return self._step & 1
        return TERMINAL

    def is_terminal(self) -> bool:
        return self._phase == PH_OVER

    def exchange_bounds(self, seat: int) -> tuple[int, int]:
        """(fewest, most) cards ``seat`` may exchange (younger's after elder's count)."""
        if seat == 0:
            return 1, ELDER_MAX
        return (1 if self._must else 0), TALON - max(self.took[0], 0)

    def legal_actions(self) -> list[int]:
        if self._legal is not None:
            return list(self._legal)
        ph = self._phase
        if ph == PH_PLAY:
            if self.lead < 0:
                acts = mask_bits(self.hands[self.leader])
            else:
                hand = self.hands[1 - self.leader]
                same = hand & (0xFF << (self.lead & 0x18))
                acts = mask_bits(same or hand)
        elif ph <= PH_YOUNGER_EXCHANGE:
            s = ph
            lo, hi = self.exchange_bounds(s)
            n = mask_count(self.disc[s])
            acts = []
            if n < hi:
                acts = mask_bits(self.hands[s] & ~((1 << (self._last[s] + 1)) - 1))
            if n >= lo:
                acts.append(END)
        elif ph == PH_DECLARE:
            s = self._step & 1
            c = self._step >> 1
            full, lesser = _class_keys(self.decl_hands[s])
            acts = [decl_action(c, DECLARE)]
            if full[c]:
                acts.append(decl_action(c, SINK))
                if lesser[c]:
                    acts.append(decl_action(c, LESSER))
        else:
            acts = []
        self._legal = acts
        return list(acts)

    def apply(self, action: int) -> None:
        action = int(action)
        ph = self._phase
        if ph == PH_PLAY:
            self._play(action)
        elif ph <= PH_YOUNGER_EXCHANGE:
            self._exchange(ph, action)
        elif ph == PH_DECLARE:
            self._declare(action)
        else:
            raise InputError("the deal is over: no more actions")
        self._history.append(action)
        self._legal = None

    def _illegal(self, action: int, why: str) -> InputError:
        try:
            name = self.action_to_string(action)
        except InputError:
            name = str(action)
        return InputError(f"{name} is not legal now: {why}")

    def _exchange(self, s: int, action: int) -> None:
        lo, hi = self.exchange_bounds(s)
        n = mask_count(self.disc[s])
        if action == END:
            if n < lo:
                raise self._illegal(action, f"{ROLES[s]} must exchange at least {lo} card(s)")
            first = 0 if s == 0 else self.took[0]
            hand = self.hands[s]
            for c in self.talon[first : first + n]:
                hand |= 1 << c
            self.hands[s] = hand
            self.took[s] = n
            self._actors.append(s)
            if s == 0:
                self._phase = PH_YOUNGER_EXCHANGE
            else:
                self.decl_hands = list(self.hands)
                self._phase = PH_DECLARE
                self._step = 0
            return
        if not 0 <= action < N_CARDS or not (self.hands[s] >> action) & 1:
            raise self._illegal(action, f"{ROLES[s]} does not hold it")
        if n >= hi:
            raise self._illegal(action, f"{ROLES[s]} may exchange at most {hi} cards")
        if action <= self._last[s]:
            raise self._illegal(action, "discards are made in ascending card order")
        self.hands[s] &= ~(1 << action)
        self.disc[s] |= 1 << action
        self._last[s] = action
        self._actors.append(s)

    def _declare(self, action: int) -> None:
        s = self._step & 1
        c = self._step >> 1
        if action not in self.legal_actions():
            raise self._illegal(action, f"{ROLES[s]} declares the {CLASSES[c]} now")
        kind = (action - DECL_BASE) % 3
        self.kinds[s][c] = kind
        self.masks[s][c] = kind_mask(self.decl_hands[s], c, kind)
        self._actors.append(s)
        self._step += 1
        self._points = None
        if self._step == 6:
            self._play_from = len(self._history) + 1
            e, y, _ = self.declaration_points()
            e_pre = sum(e[:5])
            y_pre = sum(y[:5])
            repique = int(e[5] > 0 or y[5] > 0)
            self.ps = int(pique_start(e_pre, y_pre, 1 - repique, N_TRICKS))
            self._phase = PH_PLAY

    def _play(self, card: int) -> None:
        if not 0 <= card < N_CARDS:
            raise self._illegal(card, "a card is played")
        if self.lead < 0:
            s = self.leader
            if not (self.hands[s] >> card) & 1:
                raise self._illegal(card, f"{ROLES[s]} does not hold it")
            self.hands[s] &= ~(1 << card)
            self.lead = card
            self._actors.append(s)
            return
        leader = self.leader
        s = 1 - leader
        hand = self.hands[s]
        if not (hand >> card) & 1:
            raise self._illegal(card, f"{ROLES[s]} does not hold it")
        lead = self.lead
        suit = 0xFF << (lead & 0x18)
        if (card >> 3) != (lead >> 3) and hand & suit:
            raise self._illegal(
                card, f"a revoke: {ROLES[s]} must follow suit to {C.card_name(lead)}"
            )
        self.hands[s] = hand & ~(1 << card)
        last = self.trick == N_TRICKS - 1
        winner, ps, ge, gy, pe, py = trick_points(
            lead, card, leader, np.int32(self._ten), self.ps, last
        )
        self.ps = int(ps)
        self.play_pts[0] += ge
        self.play_pts[1] += gy
        self.pique[0] += pe
        self.pique[1] += py
        if (card >> 3) != (lead >> 3):
            self.voids[s] |= suit
        self.gone[leader] |= 1 << lead
        self.gone[s] |= 1 << card
        self.played |= (1 << lead) | (1 << card)
        self.line.append((lead, card))
        if winner == 0:
            self.et += 1
        self.leader = int(winner)
        self.lead = -1
        self.trick += 1
        self._actors.append(s)
        if self.trick == N_TRICKS:
            self._phase = PH_OVER

    # ------------------------------------------------------------------ scores
    def declaration_points(self) -> tuple[tuple, tuple, tuple]:
        """(elder's, younger's) points in ``DP_*`` order (carte blanche, point, sequence, sets,
        carte rouge, repique) and the class winners (``WIN_*``) of the classes resolved so far
        (a class not yet resolved counts as declared by neither)."""
        if self._points is None:
            ph = self._phase
            resolved = 3 if ph > PH_DECLARE else (self._step // 2 if ph == PH_DECLARE else 0)
            e_masks = tuple(np.int64(self.masks[0][c] if c < resolved else 0) for c in range(3))
            y_masks = tuple(np.int64(self.masks[1][c] if c < resolved else 0) for c in range(3))
            e_hand, y_hand = self.decl_hands if self._phase >= PH_DECLARE else self.dealt
            e, y, w = declaration_points(
                np.int64(e_hand), np.int64(y_hand), self.cb, e_masks, y_masks, self._env
            )
            self._points = (
                tuple(int(x) for x in e),
                tuple(int(x) for x in y),
                tuple(int(x) if c < resolved else -1 for c, x in enumerate(w)),
            )
        return self._points

    def score(self) -> dict:
        """Each seat's points so far by kind (the record fields of ``simulation.FIELD_NAMES``
        that score: carte_blanche … pique, total; tricks and cards taken too)."""
        e, y, _ = self.declaration_points()
        cards = cards_bonus(self.et) if self._phase == PH_OVER else 0
        out = {}
        for s, (d, role) in enumerate(((e, "elder"), (y, "younger"))):
            row = dict(zip(SCORE_FIELDS[:6], d, strict=True))
            row["play"] = self.play_pts[s]
            row["cards"] = max(cards, 0) if s == 0 else max(-cards, 0)
            row["pique"] = self.pique[s]
            row["total"] = sum(d) + row["play"] + row["cards"] + row["pique"]
            row["tricks"] = self.et if s == 0 else self.trick - self.et
            row["taken"] = max(self.took[s], 0)
            out[role] = row
        return out

    def returns(self) -> list[float]:
        sc = self.score()
        return [float(sc["elder"]["total"]), float(sc["younger"]["total"])]

    def net(self, seat: int = 0) -> int:
        """Deal points so far of ``seat`` minus the other's."""
        r = self.returns()
        return int(r[seat] - r[1 - seat])

    # ------------------------------------------------------------------ strings
    def action_to_string(self, action: int) -> str:
        return action_name(int(action))

    def string_to_action(self, text: str) -> int:
        return parse_action(text, self.declaring_class)

    def __repr__(self) -> str:
        return (
            f"PiquetState({self.phase}, to act {self.current_player()}, "
            f"elder {C.format_cards(self.hands[0])} / younger {C.format_cards(self.hands[1])})"
        )

    # ------------------------------------------------------------------ what a seat knows
    def play_view(self, seat: int) -> tuple:
        """What ``seat`` sees at his play decision, as the kernels' play policies take it: (own
        hand, leader, card led or -1, elder's tricks, pique state normalized for the tricks
        left, cards of the finished tricks, the opponent's share of them, the suits the
        opponent has shown void in)."""
        psn = int(pique_normalize(self.ps, N_TRICKS - self.trick))
        o = 1 - seat
        return (
            self.hands[seat],
            self.leader,
            self.lead,
            self.et,
            psn,
            self.played,
            self.gone[o],
            self.voids[o],
        )

    def talon_seen(self, seat: int) -> dict[int, int]:
        """Talon slot -> card, for the slots ``seat`` has seen."""
        k, y = self.took
        out = {}
        if seat == 0 and k >= 0:
            for i in range(k):
                out[i] = self.talon[i]
            if self.saw_left:
                for i in range(k, ELDER_MAX):
                    out[i] = self.talon[i]
        if seat == 1 and y >= 0:
            for i in range(k, k + y):
                out[i] = self.talon[i]
            if self.saw_talon and (self.trick > 0 or self.lead >= 0):
                for i in range(k + y, TALON):
                    out[i] = self.talon[i]
        return out

    def view(self, seat: int) -> SeatView:
        """What ``seat`` knows, as the world sampler takes it (:class:`SeatView`)."""
        from .worlds import ClassView, SeatView

        o = 1 - seat
        classes = []
        for c in range(3):
            own_kind = self.kinds[seat][c]
            resolved = self.kinds[0][c] >= 0 and self.kinds[1][c] >= 0
            winner, shown = -1, 0
            if resolved:
                e_key = self._declared_key(0, c)
                y_key = self._declared_key(1, c)
                winner = winner_code(e_key, y_key)
                if winner == L.WIN_ELDER + o:
                    shown = shown_cards(self.decl_hands[o], self.masks[o][c], c)
            told = self.told[seat][c] if seat in self.told and resolved else None
            if told is not None:  # told by the dialogue: he saw only the cards shown to him
                told, shown = told
            classes.append(ClassView(own_kind, resolved, winner, shown, told))
        rouge = None
        if self._phase >= PH_PLAY and self.rules.carte_rouge:
            e, y, _ = self.declaration_points()
            rouge = (e[L.DP_CARTE_ROUGE], y[L.DP_CARTE_ROUGE])
        opp_partial = mask_count(self.disc[o]) if self._phase == o else 0
        return SeatView(
            seat=seat,
            rules=self.rules,
            dealt=self.dealt[seat],
            discards=self.disc[seat],
            took=tuple(self.took),
            slots=self.talon_seen(seat),
            cb=self.cb,
            opp_partial=opp_partial,
            classes=classes,
            carte_rouge=rouge,
            actions=list(zip(self._actors, self._history, strict=True)),
            saw_left=self.saw_left,
            saw_talon=self.saw_talon,
            make=PiquetState,
        )

    def _declared_key(self, seat: int, c: int) -> int:
        return int(class_key(np.int64(self.decl_hands[seat] & self.masks[seat][c]), c, SUIT_TABLES))

    def actors(self) -> list[int]:
        """The seat that took each action of :meth:`history`."""
        return list(self._actors)

    def is_visible(self, seat: int, step: int) -> bool:
        """Whether ``seat`` saw action ``step`` of the history: his own, every "end" (the count
        taken is public) and every card played; not the other's discards nor his declaration
        choices (their outcome he sees in :meth:`observation`)."""
        if self._actors[step] == seat:
            return True
        return self._history[step] == END or step >= self._play_from

    def knowledge(self, seat: int) -> np.ndarray:
        """``seat``'s knowledge state of the opponent (``kernels/knowledge.py`` layout, what
        ``simulate.knowledge_stage`` gives the play policies once the declarations are done)."""
        shown = self.trick > 0 or self.lead >= 0
        key = (
            seat,
            self._phase,
            self._step,
            shown,
            *self.took,
            mask_count(self.disc[0] | self.disc[1]),
        )
        if key not in self._know:
            self._know[key] = self.view(seat).knowledge()
        return self._know[key]

    def observation(self, seat: int) -> dict:
        o = 1 - seat
        seen = self.talon_seen(seat)
        obs: dict = {
            "seat": ROLES[seat],
            "phase": self.phase,
            "to_act": ROLES[self.current_player()] if not self.is_terminal() else None,
            "hand": C.card_names(self.hands[seat]),
            "dealt": C.card_names(self.dealt[seat]),
            "carte_blanche": {"elder": self.cb[0], "younger": self.cb[1]},
            "discard": C.card_names(self.disc[seat]),
            "elder_took": self.took[0] if self.took[0] >= 0 else None,
            "younger_took": self.took[1] if self.took[1] >= 0 else None,
            "talon_seen": {str(i): C.card_name(c) for i, c in sorted(seen.items())},
        }
        decls = []
        v = self.view(seat)
        for c, cv in enumerate(v.classes):
            if not cv.resolved and cv.own_kind < 0:
                continue
            row = {
                "class": CLASSES[c],
                "own": KINDS[cv.own_kind] if cv.own_kind >= 0 else None,
                "own_key": self._declared_key(seat, c) if cv.own_kind >= 0 else None,
            }
            if cv.resolved:
                row["winner"] = WINNERS[cv.winner]
                row["shown"] = C.card_names(cv.shown)
            decls.append(row)
        obs["declarations"] = decls
        sc = self.score()
        obs["points"] = {r: sc[r]["total"] for r in ROLES}
        if v.carte_rouge is not None:
            obs["carte_rouge"] = {"elder": v.carte_rouge[0], "younger": v.carte_rouge[1]}
        obs["tricks"] = [[C.card_name(a), C.card_name(b)] for a, b in self.line]
        obs["leader"] = ROLES[self.leader] if self._phase >= PH_PLAY else None
        obs["lead"] = C.card_name(self.lead) if self.lead >= 0 else None
        obs["opponent_cards"] = mask_count(self.hands[o])
        return obs

    def resample(self, seat: int, rng: np.random.Generator) -> PiquetState:
        """A full deal consistent with what ``seat`` has seen (the same history): the
        opponent's hand drawn by ``kernels.knowledge.sample_opponent`` (pimc's exact sampler:
        cards seen, voids, declared and shown combinations), the talon and his discards filled
        uniformly from what is left (carte blanche kept), replayed to this position."""
        from .worlds import resample_view

        return resample_view(self.view(seat), rng, self)


__all__ = ["PiquetState"]
