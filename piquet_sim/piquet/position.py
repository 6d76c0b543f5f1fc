"""Piquet positions: the :mod:`piquet_sim.core.game.position` contract (``State``) for one deal.

A :class:`PiquetState` is one position of a fully dealt deal (elder's and younger's 12 cards,
the talon's 8 in draw order), plain Python over the kernels' rules: the exchanges, the
declarations and the twelve tricks, scored as the round kernels score a deal. It is made

* from a seed and deal index (:meth:`PiquetState.from_deal`): the deal ``kernels.deal.deal_full``
  deals for (seed, index), with that deal's random stream, so deciders that draw (random
  exchange and play, pimc) draw what the round kernels draw;
* from explicit hands and talon (:meth:`PiquetState.from_hands`);
* from what one player describes (:func:`from_description`): his hand, role, exchange,
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

A described position (:func:`parse_history`, :data:`HISTORY_FORM`; :func:`parse_history_json`)
is a play position as its player tells it: the cards he holds now, his role, and clauses
``key: value`` separated by ``;``::

    discard: 7S 8S 7D 8C; took: TD QS 7H AS; talon: -; elder took: 4;
    point: his KC QC JC TC 9C; sequence: his KC QC JC TC 9C; sets: mine;
    tricks: 9C-AC AS-TS KS-JS AH-TH; lead: 8D

``discard`` / ``took``: his exchange (drawn cards in talon order); ``left`` (elder): the talon
cards he left, top first (known to him; the first ones younger took are then known in
younger's hand); ``talon`` (younger): the cards nobody took; ``elder took`` / ``younger took``:
the other's count; ``blanche: his`` / ``rouge: his``: the other's carte blanche or carte rouge;
``point`` / ``sequence`` / ``sets``: optionally ``sunk,`` or ``lesser,`` (what he did; declare
by default), then ``mine`` (his scored), ``his CARDS`` (the other's scored; the cards he
showed), ``equal`` or ``none``; ``tricks``: each ``LEAD-REPLY``, the leader's card first;
``lead``: the card the other led to the trick now. :func:`describe` and :func:`history_text`
write a state's position in this form.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.rng import stream_key
from ..core.game import position as core_position
from . import cards as C
from .kernels import layouts as L
from .kernels.bundles import make_env
from .kernels.deal import deal_full
from .kernels.declarations import (
    declaration_points,
    sequence_cards,
    set_cards,
)
from .kernels.knowledge import (
    FLAG_INFEASIBLE,
    NO_HI,
    class_key,
    learn_declarations,
    sample_opponent,
    shown_point_cards,
)
from .kernels.sinking import CH_LESSER_POINT, choice_masks
from .kernels.tables import SUIT_TABLES
from .kernels.tricks import cards_bonus, pique_normalize, pique_start, trick_points
from .rules import DEFAULT_RULES, Rules

CHANCE = core_position.CHANCE
TERMINAL = core_position.TERMINAL

N_CARDS = 32
END = 32
DECL_BASE = 33
DECLARE, SINK, LESSER = 0, 1, 2
KINDS = ("declare", "sink", "lesser")
CLASSES = ("point", "sequence", "sets")
NUM_ACTIONS = DECL_BASE + 3 * len(CLASSES)
ROLES = ("elder", "younger")
WINNERS = {L.WIN_NONE: "none", L.WIN_ELDER: "elder", L.WIN_YOUNGER: "younger", L.WIN_EQUAL: "equal"}
PHASES = ("exchange", "exchange", "declare", "play", "over")
PH_ELDER_EXCHANGE, PH_YOUNGER_EXCHANGE, PH_DECLARE, PH_PLAY, PH_OVER = range(5)

FULL = 0xFFFFFFFF
COURT = 0x70707070  # J Q K of every suit: a dealt hand without them is carte blanche
ELDER_MAX = 5
TALON = 8
N_TRICKS = 12
#: Draws per world before the sampler drops the declaration bounds (pimc's default).
MAX_ATTEMPTS = 2000
#: Worlds tried by :func:`resample_view` before it gives up.
MAX_WORLD_TRIES = 400
SCORE_FIELDS = (
    "carte_blanche",
    "point",
    "sequence",
    "sets",
    "carte_rouge",
    "repique",
    "play",
    "cards",
    "pique",
    "total",
    "tricks",
    "taken",
)


@functools.cache
def env_of(rules: Rules):
    """The kernels' ``Env`` of these rules (one per rules, shared)."""
    return make_env(rules.to_array())


def action_name(action: int) -> str:
    """The text of an action: a card, ``"end"``, or ``"<kind> <class>"``."""
    if 0 <= action < N_CARDS:
        return C.card_name(action)
    if action == END:
        return "end"
    if DECL_BASE <= action < NUM_ACTIONS:
        k = action - DECL_BASE
        return f"{KINDS[k % 3]} {CLASSES[k // 3]}"
    raise InputError(f"no action {action} (actions are 0..{NUM_ACTIONS - 1})")


def decl_action(cls: int, kind: int) -> int:
    """The action of declaring (``kind``) class ``cls``."""
    return DECL_BASE + 3 * cls + kind


def _class_of(text: str) -> int | None:
    t = text.strip().lower()
    for i, name in enumerate(CLASSES):
        if t in (name, name + "s", name.rstrip("s")):
            return i
    return None


def parse_action(text: str, current_class: int | None = None) -> int:
    """The action named by ``text`` (see the module docstring): a card (``"AS"``, ``"10H"``),
    ``"end"``, ``"declare point"``, ``"sink sequence"``, ``"lesser sets"``; ``"declare"``,
    ``"sink"`` or ``"lesser"`` alone name the class in ``current_class``."""
    t = text.strip().lower()
    if t in ("end", "done", "stop"):
        return END
    words = t.split()
    if words and words[0] in ("declare", "sink", "sunk", "lesser"):
        kind = {"declare": DECLARE, "sink": SINK, "sunk": SINK, "lesser": LESSER}[words[0]]
        if len(words) == 1:
            if current_class is None:
                raise InputError(f"'{text}' names no class (point, sequence, sets)")
            return decl_action(current_class, kind)
        cls = _class_of(" ".join(words[1:]))
        if cls is None:
            raise InputError(f"'{text}': the classes are point, sequence, sets")
        return decl_action(cls, kind)
    return C.parse_card(text)


@functools.lru_cache(maxsize=4096)
def _class_keys(hand: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """((point, sequence, sets) keys of the whole hand, (those of its lesser declarations, 0
    where the lesser declares nothing or the same)); masks from :func:`_lesser_masks`."""
    full = tuple(int(class_key(np.int64(hand), c, SUIT_TABLES)) for c in range(3))
    lesser = []
    for c in range(3):
        m = _lesser_masks(hand)[c]
        k = int(class_key(np.int64(hand & m), c, SUIT_TABLES))
        lesser.append(k if 0 < k < full[c] else 0)
    return full, tuple(lesser)


@functools.lru_cache(maxsize=4096)
def _lesser_masks(hand: int) -> tuple[int, int, int]:
    """The (point, sequence, sets) masks of the lesser declarations of ``hand``
    (``kernels.sinking.choice_masks``)."""
    out = []
    for c in range(3):
        m = choice_masks(np.int64(CH_LESSER_POINT + c), np.int64(hand), SUIT_TABLES)
        out.append(int(m[c]) & FULL)
    return tuple(out)


def kind_mask(hand: int, cls: int, kind: int) -> int:
    """The mask a player declares class ``cls`` from: everything, nothing, or the lesser."""
    if kind == DECLARE:
        return FULL
    if kind == SINK:
        return 0
    return _lesser_masks(hand)[cls]


def shown_cards(hand: int, mask: int, cls: int) -> int:
    """The cards a player shows when his declaration of class ``cls`` (from ``hand & mask``)
    wins (``kernels.knowledge``: the declared point suit, every declared sequence, every
    declared set)."""
    h = np.int64(hand)
    if cls == 0:
        return int(shown_point_cards(h, np.int64(mask), SUIT_TABLES)) & FULL
    if cls == 1:
        return int(sequence_cards(np.int64(hand & mask), SUIT_TABLES)) & FULL
    return int(set_cards(np.int64(hand & mask))) & FULL


def winner_code(e_key: int, y_key: int) -> int:
    """``WIN_*`` of a class from both declared keys."""
    if e_key > y_key:
        return L.WIN_ELDER
    if y_key > e_key:
        return L.WIN_YOUNGER
    return L.WIN_EQUAL if e_key > 0 else L.WIN_NONE


def trick_winner(leader: int, lead: int, reply: int) -> int:
    """The seat winning a trick: the follower when he follows suit higher."""
    if (reply >> 3) == (lead >> 3) and reply > lead:
        return 1 - leader
    return leader


class PiquetState(core_position.State):
    """One position of a Piquet deal (see the module docstring)."""

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

    def clone(self) -> PiquetState:
        new = object.__new__(PiquetState)
        new.__dict__.update(self.__dict__)
        new.stream = self.stream.copy()
        new.hands = list(self.hands)
        new.disc = list(self.disc)
        new._last = list(self._last)
        new.took = list(self.took)
        new.decl_hands = list(self.decl_hands)
        new.kinds = [list(k) for k in self.kinds]
        new.masks = [list(m) for m in self.masks]
        new.gone = list(self.gone)
        new.voids = list(self.voids)
        new.play_pts = list(self.play_pts)
        new.pique = list(self.pique)
        new.line = list(self.line)
        new._history = list(self._history)
        new._actors = list(self._actors)
        new.memory = {k: core_position.copied(v) for k, v in self.memory.items()}
        new._know = dict(self._know)
        return new

    # ------------------------------------------------------------------ the contract
    @property
    def num_players(self) -> int:
        return 2

    @property
    def phase(self) -> str:
        """``"exchange"``, ``"declare"``, ``"play"`` or ``"over"``."""
        return PHASES[self._phase]

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
        winner, ps, ge, gy, pe, py = trick_points(lead, card, leader, self._ten, self.ps, last)
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
            classes.append(ClassView(own_kind, resolved, winner, shown))
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
        return resample_view(self.view(seat), rng, self)


# ---------------------------------------------------------------------- what a seat knows


@dataclass
class ClassView:
    """One declaration class as a seat saw it: his own choice (``KINDS`` index, -1 not yet),
    whether both have chosen, the winner (``WIN_*``) and the opponent's shown cards."""

    own_kind: int
    resolved: bool
    winner: int = -1
    shown: int = 0


@dataclass
class SeatView:
    """Everything one seat knows of a deal (what the world sampler conditions on).

    ``took``: (elder's count, younger's), -1 not yet; ``slots``: talon slot -> card for the
    slots he saw; ``actions``: (actor, action) in order, the opponent's discards among them
    being his own business (replaced by the world's); ``opp_partial``: discards the opponent
    has made of an exchange in progress; ``carte_rouge``: the announced carte rouge points
    (elder's, younger's) once the declarations are done under that rule."""

    seat: int
    rules: Rules
    dealt: int
    discards: int
    took: tuple[int, int]
    slots: dict[int, int]
    cb: tuple[bool, bool]
    opp_partial: int
    classes: list[ClassView]
    carte_rouge: tuple[int | None, int | None] | None
    actions: list[tuple[int, int | None]]
    saw_left: bool = True
    saw_talon: bool = True
    key: int = 0
    stream: int = 0
    plays: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.plays = [a for who, a in self._play_actions()]

    def _play_actions(self) -> list[tuple[int, int]]:
        """The play actions (cards after the declarations) in order."""
        out = []
        decl_seen = 0
        ended = 0
        for who, a in self.actions:
            if ended < 2:
                if a == END:
                    ended += 1
                continue
            if decl_seen < 6:
                decl_seen += 1
                continue
            out.append((who, a))
        return out

    @property
    def opp(self) -> int:
        return 1 - self.seat

    def drawn_slots(self, seat: int) -> range:
        """The talon slots ``seat`` drew (empty before his exchange ends)."""
        k, y = self.took
        if seat == 0:
            return range(k) if k >= 0 else range(0)
        return range(k, k + y) if y >= 0 else range(0)

    def own_hand_after_exchange(self) -> int:
        hand = self.dealt & ~self.discards
        for i in self.drawn_slots(self.seat):
            hand |= 1 << self.slots[i]
        return hand

    def play_facts(self) -> tuple[int, int, int, int]:
        """(cards gone, the card led included; the opponent's share of them; the suits he has
        shown void in; cards he has played) from the public plays."""
        gone = opp_gone = voids = 0
        leader = 0
        plays = self.plays
        for t in range(0, len(plays) - 1, 2):
            lead, reply = plays[t], plays[t + 1]
            follower = 1 - leader
            gone |= (1 << lead) | (1 << reply)
            opp_gone |= 1 << (lead if leader == self.opp else reply)
            if follower == self.opp and (reply >> 3) != (lead >> 3):
                voids |= 0xFF << (lead & 0x18)
            leader = trick_winner(leader, lead, reply)
        if len(plays) % 2:
            lead = plays[-1]
            gone |= 1 << lead
            if leader == self.opp:
                opp_gone |= 1 << lead
        return gone, opp_gone, voids, leader

    def knowledge(self) -> np.ndarray:
        """The seat's knowledge state of the opponent's hand after his exchange (before it:
        his dealt hand), ``kernels/knowledge.py`` layout: cards known in and out, and the
        bounds the resolved classes set (``learn_declarations``, as ``both_knowledge``)."""
        know = np.zeros(L.KNOW_LEN, dtype=np.int64)
        for c in range(L.CLASS_COUNT):
            know[L.KNOW_HI + c] = NO_HI
        know[L.KNOW_SIZE] = 12
        opp_drawn = set(self.drawn_slots(self.opp))
        k_in = k_out = 0
        for i, card in self.slots.items():
            if i in opp_drawn:
                k_in |= 1 << card
            else:
                k_out |= 1 << card
        own = self.own_hand_after_exchange()
        know[L.KNOW_IN] = k_in
        know[L.KNOW_OUT] = self.dealt | own | k_out
        for c, cv in enumerate(self.classes):
            if not cv.resolved:
                continue
            own_key = int(class_key(np.int64(own & kind_mask(own, c, cv.own_kind)), c, SUIT_TABLES))
            if cv.winner == L.WIN_ELDER + self.opp:
                opp_key = int(class_key(np.int64(cv.shown), c, SUIT_TABLES))
            elif cv.winner == L.WIN_EQUAL:
                opp_key = own_key
            else:
                opp_key = 0
            learn_declarations(know, np.int64(own_key), np.int64(opp_key), c, np.int64(cv.shown))
            know[L.KNOW_IN] |= cv.shown
        return know


def _draw(rng: np.random.Generator, cards: list[int], n: int) -> list[int]:
    if n > len(cards):
        raise ValueError
    if n == 0:
        return []
    idx = rng.choice(len(cards), size=n, replace=False)
    return [cards[i] for i in idx]


def sample_world(view: SeatView, rng: np.random.Generator) -> tuple[int, int, list, int] | None:
    """One deal consistent with ``view`` (None when the draw failed a check): (elder's dealt
    hand, younger's, the talon in draw order, the opponent's discards)."""
    s, o = view.seat, view.opp
    know = view.knowledge()
    gone, opp_gone, voids, _ = view.play_facts()
    n_opp = 12 - mask_count(opp_gone)
    key = np.uint64(int(rng.integers(0, 2**63)))
    state = np.zeros(1, dtype=np.int64)
    pool = np.empty(32, dtype=np.int8)
    hi = np.empty(3, dtype=np.int64)
    hand, _, flags = sample_opponent(
        know,
        (np.int64(gone), np.int64(opp_gone), np.int64(voids)),
        (np.int64(n_opp), np.int64(MAX_ATTEMPTS)),
        SUIT_TABLES,
        key,
        state,
        pool,
        hi,
    )
    if flags & FLAG_INFEASIBLE:
        return None
    h = (int(hand) & FULL) | opp_gone
    opp_ended = view.took[o] >= 0
    slots: list[int | None] = [None] * TALON
    for i, card in view.slots.items():
        slots[i] = card
    known = C.cards_to_mask(view.slots.values())
    drawn = [i for i in view.drawn_slots(o) if slots[i] is None] if opp_ended else []
    candidates = mask_bits(h & ~known)
    if view.cb[o] and opp_ended:
        courts = [c for c in candidates if (1 << c) & COURT]
        if len(courts) > len(drawn):
            return None
        others = [c for c in candidates if not (1 << c) & COURT]
        chosen = list(rng.permutation(courts)) + _draw(rng, others, len(drawn) - len(courts))
    else:
        chosen = _draw(rng, candidates, len(drawn))
    chosen = [int(c) for c in rng.permutation(chosen)] if chosen else []
    for i, c in zip(drawn, chosen, strict=True):
        slots[i] = c
    rest = mask_bits(FULL & ~(view.dealt | known | h))
    free = [i for i in range(TALON) if slots[i] is None]
    if opp_ended:
        d = view.took[o]
        pick = [c for c in rest if not (1 << c) & COURT] if view.cb[o] else rest
        if d > len(pick):
            return None
        discards = _draw(rng, pick, d)
        opp_dealt = (h & ~C.cards_to_mask(slots[i] for i in view.drawn_slots(o))) | C.cards_to_mask(
            discards
        )
    else:
        discards = _draw(rng, mask_bits(h), view.opp_partial) if view.opp_partial else []
        opp_dealt = h
    left = [c for c in rest if c not in set(discards)]
    if len(left) != len(free):
        return None
    for i, c in zip(free, rng.permutation(left) if left else [], strict=True):
        slots[i] = int(c)
    if mask_count(opp_dealt) != 12 or ((opp_dealt & COURT) == 0) != view.cb[o]:
        return None
    pair = (view.dealt, opp_dealt) if s == 0 else (opp_dealt, view.dealt)
    return pair[0], pair[1], [int(c) for c in slots], C.cards_to_mask(discards)


def _choose_opp_kind(state: PiquetState, view: SeatView, c: int) -> int | None:
    """The opponent's declaration of class ``c`` that gives the outcome ``view`` saw (declare
    first, then sink, then lesser); DECLARE when the seat has not seen the outcome."""
    cv = view.classes[c]
    o = view.opp
    legal = [(a - DECL_BASE) % 3 for a in state.legal_actions()]
    if not cv.resolved:
        return DECLARE
    own = state.decl_hands[view.seat]
    own_key = int(class_key(np.int64(own & kind_mask(own, c, cv.own_kind)), c, SUIT_TABLES))
    opp_hand = state.decl_hands[o]
    for kind in (DECLARE, SINK, LESSER):
        if kind not in legal:
            continue
        m = kind_mask(opp_hand, c, kind)
        opp_key = int(class_key(np.int64(opp_hand & m), c, SUIT_TABLES))
        keys = (own_key, opp_key) if view.seat == 0 else (opp_key, own_key)
        w = winner_code(*keys)
        shown = shown_cards(opp_hand, m, c) if w == L.WIN_ELDER + o else 0
        if w == cv.winner and shown == cv.shown:
            return kind
    return None


def replay_world(view: SeatView, world, template: PiquetState | None = None) -> PiquetState | None:
    """The deal ``world`` (:func:`sample_world`) replayed through ``view``'s actions: the seat's
    own as he took them, the opponent's discards those of the world, his declarations the ones
    giving what the seat saw, the cards played as played. None when the world does not fit."""
    elder, younger, talon, opp_disc = world
    st = PiquetState(elder, younger, talon, view.rules, view.key, view.stream)
    if template is not None:
        st.key = template.key
        st.stream = template.stream.copy()
    st.saw_left, st.saw_talon = view.saw_left, view.saw_talon
    o = view.opp
    opp_cards = iter(mask_bits(opp_disc))
    try:
        for who, a in view.actions:
            ph = st._phase
            if who == o and ph in (PH_ELDER_EXCHANGE, PH_YOUNGER_EXCHANGE) and a != END:
                st.apply(next(opp_cards))
            elif who == o and ph == PH_DECLARE:
                kind = _choose_opp_kind(st, view, st._step >> 1)
                if kind is None:
                    return None
                st.apply(decl_action(st._step >> 1, kind))
            else:
                st.apply(a)
    except (InputError, StopIteration):
        return None
    if view.carte_rouge is not None:
        e, y, _ = st.declaration_points()
        got = (e[L.DP_CARTE_ROUGE], y[L.DP_CARTE_ROUGE])
        if any(w is not None and w != g for w, g in zip(view.carte_rouge, got, strict=True)):
            return None
    return st


def resample_view(
    view: SeatView, rng: np.random.Generator, template: PiquetState | None = None
) -> PiquetState:
    """A full state consistent with ``view`` (:func:`sample_world` then
    :func:`replay_world`, retried); InputError when no world fits."""
    for _ in range(MAX_WORLD_TRIES):
        world = sample_world(view, rng)
        if world is None:
            continue
        st = replay_world(view, world, template)
        if st is not None:
            return st
    raise InputError(
        "no deal fits everything described (check the declarations, the tricks and the cards seen)"
    )


# ---------------------------------------------------------------------- described positions


@dataclass
class ClassOutcome:
    """A class as a player tells it: what he did (``KINDS`` index) and who scored it:
    ``"mine"``, ``"his"`` (with the cards he showed), ``"equal"`` or ``"none"``."""

    own: int = DECLARE
    result: str = "mine"
    cards: int = 0


@dataclass
class Description:
    """A play position as one player tells it (see :data:`HISTORY_FORM`; JSON twin in
    :func:`parse_history_json`). ``hand``: the cards he holds now."""

    role: str
    hand: int
    discard: list[int] = field(default_factory=list)
    took: list[int] = field(default_factory=list)
    left: list[int] | None = None
    talon: list[int] | None = None
    opponent_took: int | None = None
    opponent_carte_blanche: bool = False
    opponent_carte_rouge: bool = False
    declarations: dict[str, ClassOutcome] = field(default_factory=dict)
    tricks: list[tuple[int, int]] = field(default_factory=list)
    lead: int | None = None

    @property
    def seat(self) -> int:
        return ROLES.index(self.role)


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise InputError(message)


def _names(mask: int) -> str:
    return C.format_cards(mask)


def description_view(d: Description, rules: Rules = DEFAULT_RULES, before_kernels=None) -> SeatView:
    """The :class:`SeatView` of a described play position, checked: every card once, counts
    that fit the exchange rules, declarations a hand can make, tricks without a revoke, and a
    decision for the player now. InputError (one line) otherwise. ``before_kernels`` (no
    arguments) is called once the checks that need no kernel have passed (a compile notice)."""
    s = d.seat
    o = 1 - s
    opp_role = ROLES[o]
    seen_at: dict[int, str] = {}

    def place(cards, where):
        for c in cards:
            if c in seen_at:
                raise InputError(f"{C.card_name(c)} appears twice (in {seen_at[c]} and in {where})")
            seen_at[c] = where

    place(mask_bits(d.hand), "your hand")
    for i, (a, b) in enumerate(d.tricks):
        place([a, b], f"trick {i + 1}")
    if d.lead is not None:
        place([d.lead], "lead")
    place(d.discard, "discard")
    place(d.talon or [], "talon")
    _check(len(set(d.took)) == len(d.took), "took: a card twice")
    # the tricks: who led and played what; revokes (his: a suit played after he showed void)
    leader = 0
    mine_played = 0
    his_void = 0
    for i, (a, b) in enumerate(d.tricks):
        mine, his = (a, b) if leader == s else (b, a)
        if (1 << his) & his_void:
            raise InputError(
                f"trick {i + 1}: a revoke: {opp_role} played {C.card_name(his)} after showing "
                "void in that suit"
            )
        if leader == s and (b >> 3) != (a >> 3):
            his_void |= 0xFF << (a & 0x18)
        mine_played |= 1 << mine
        leader = trick_winner(leader, a, b)
    # your revokes: a card off suit while you held the suit led
    hand_now = d.hand | mine_played
    leader = 0
    for i, (a, b) in enumerate(d.tricks):
        suit = hand_now & (0xFF << (a & 0x18))
        if leader != s and (b >> 3) != (a >> 3) and suit:
            raise InputError(
                f"trick {i + 1}: a revoke: you played {C.card_name(b)} to {C.card_name(a)} "
                f"holding {_names(suit)}"
            )
        hand_now &= ~(1 << (a if leader == s else b))
        leader = trick_winner(leader, a, b)
    n_done = len(d.tricks)
    _check(n_done < N_TRICKS, "twelve tricks are played: the deal is over")
    if d.lead is not None:
        _check(
            leader == o,
            f"you lead trick {n_done + 1}: drop 'lead:'"
            if n_done
            else "elder leads the first trick: as elder, drop 'lead:'",
        )
        _check(
            not (1 << d.lead) & his_void,
            f"a revoke: {opp_role} led {C.card_name(d.lead)} after showing void in that suit",
        )
    else:
        _check(leader == s, f"{opp_role} leads trick {n_done + 1}: say 'lead: CARD' (his card)")
    _check(
        mask_count(d.hand) == N_TRICKS - n_done,
        f"after {n_done} trick(s) you hold {N_TRICKS - n_done} cards, not {mask_count(d.hand)}",
    )
    decl_hand = d.hand | mine_played
    # the exchange
    took = C.cards_to_mask(d.took)
    _check(
        len(d.took) == len(d.discard),
        f"you discarded {len(d.discard)} card(s) but took {len(d.took)}",
    )
    _check(
        took & decl_hand == took,
        f"took {_names(took & ~decl_hand)}: neither in your hand nor played by you",
    )
    dealt = (decl_hand & ~took) | C.cards_to_mask(d.discard)
    _check(
        d.opponent_took is not None, f"say how many cards {opp_role} took ('{opp_role} took: N')"
    )
    k, y = (len(d.took), d.opponent_took) if s == 0 else (d.opponent_took, len(d.took))
    _check(1 <= k <= ELDER_MAX, f"elder exchanges 1 to 5 cards, not {k}")
    lo = 1 if rules.younger_must_exchange else 0
    _check(
        lo <= y <= TALON - k,
        f"younger exchanges {lo} to {TALON - k} cards after elder's {k}, not {y}",
    )
    slots: dict[int, int] = {}
    first = 0 if s == 0 else k
    for i, c in enumerate(d.took):
        slots[first + i] = c
    saw_left = saw_talon = True
    if s == 0:
        _check(
            d.talon is None, "'talon:' is younger's; as elder, give 'left:' (the cards you left)"
        )
        saw_left = d.left is not None
        if saw_left:
            _check(
                len(d.left) == ELDER_MAX - k,
                f"you left {ELDER_MAX - k} card(s), not {len(d.left)}",
            )
            _check(len(set(d.left)) == len(d.left), "left: a card twice")
            # the first he took (they may come back in his plays), the rest nobody holds
            for i, c in enumerate(d.left):
                where = seen_at.get(c)
                taken = i < y
                his_play = where is not None and where.startswith(("trick", "lead"))
                if where is not None and not (taken and his_play and not (decl_hand >> c) & 1):
                    raise InputError(f"{C.card_name(c)} appears twice (in {where} and in left)")
            for i, c in enumerate(d.left):
                slots[k + i] = c
    else:
        _check(d.left is None, "'left:' is elder's; as younger, give 'talon:' (nobody's cards)")
        saw_talon = d.talon is not None
        if saw_talon:
            _check(
                len(d.talon) == TALON - k - y,
                f"{TALON - k - y} talon card(s) were left untaken, not {len(d.talon)}",
            )
            for i, c in enumerate(d.talon):
                slots[k + y + i] = c
    his_drawn = range(k) if o == 0 else range(k, k + y)
    not_his = dealt | decl_hand | C.cards_to_mask(c for i, c in slots.items() if i not in his_drawn)
    # carte blanche: yours from your dealt hand, his as you say
    cb = [False, False]
    cb[s] = (dealt & COURT) == 0
    cb[o] = d.opponent_carte_blanche
    # declarations: what needs no kernel is checked before the compile notice
    for c, name in enumerate(CLASSES):
        _check(
            name in d.declarations,
            f"say who scored the {name}: '{name}: mine | his CARDS | equal | none'",
        )
        _check(c != 2 or d.declarations[name].result != "equal", "sets: two sets are never equal")
    if before_kernels is not None:
        before_kernels()
    classes = []
    full, lesser = _class_keys(decl_hand)
    for c, name in enumerate(CLASSES):
        _check(
            name in d.declarations,
            f"say who scored the {name}: '{name}: mine | his CARDS | equal | none'",
        )
        out = d.declarations[name]
        own = out.own
        if own == SINK and not full[c]:
            own = DECLARE  # nothing to sink: the same as declaring
        if own == LESSER:
            _check(lesser[c] > 0, f"{name}: you hold no lesser {name} to declare")
        mask = kind_mask(decl_hand, c, own)
        own_key = int(class_key(np.int64(decl_hand & mask), c, SUIT_TABLES))
        shown = 0
        if out.result == "mine":
            _check(own_key > 0, f"{name}: you declared none, so it cannot be yours")
            winner = L.WIN_ELDER + s
        elif out.result == "equal":
            _check(c != 2, "sets: two sets are never equal")
            _check(own_key > 0, f"{name}: you declared none, so it cannot be equal")
            winner = L.WIN_EQUAL
        elif out.result == "none":
            _check(own_key == 0, f"{name}: you declared one ('sunk, none' if you sank it)")
            winner = L.WIN_NONE
        else:
            shown = out.cards
            _check(not shown & not_his, f"{name}: he cannot have shown {_names(shown & not_his)}")
            ok = shown_cards(shown, FULL, c) == shown
            if c == 0:
                ok = ok and len({x >> 3 for x in mask_bits(shown)}) == 1
            _check(ok, f"{name}: {_names(shown)} is not a {name} he could show")
            opp_key = int(class_key(np.int64(shown), c, SUIT_TABLES))
            _check(opp_key > own_key, f"{name}: his {_names(shown)} does not beat yours")
            winner = L.WIN_ELDER + o
        classes.append(ClassView(own, True, winner, shown))
    rouge = None
    if rules.carte_rouge:
        rouge = [None, None]
        rouge[o] = 20 if d.opponent_carte_rouge else 0
        rouge = tuple(rouge)
    else:
        _check(not d.opponent_carte_rouge, "carte rouge is off (--carte-rouge turns it on)")
    # the actions in order (his exchange and declarations: None, the world's)
    actions: list[tuple[int, int | None]] = []
    for who, n in ((0, k), (1, y)):
        if who == s:
            actions += [(s, c) for c in sorted(d.discard)] + [(s, END)]
        else:
            actions += [(o, None)] * n + [(o, END)]
    for c in range(3):
        for who in (0, 1):
            actions.append((who, decl_action(c, classes[c].own_kind) if who == s else None))
    leader = 0
    for a, b in d.tricks:
        actions += [(leader, a), (1 - leader, b)]
        leader = trick_winner(leader, a, b)
    if d.lead is not None:
        actions.append((leader, d.lead))
    return SeatView(
        seat=s,
        rules=rules,
        dealt=dealt,
        discards=C.cards_to_mask(d.discard),
        took=(k, y),
        slots=slots,
        cb=(cb[0], cb[1]),
        opp_partial=0,
        classes=classes,
        carte_rouge=rouge,
        actions=actions,
        saw_left=saw_left,
        saw_talon=saw_talon,
    )


def from_description(
    d: Description, rules: Rules = DEFAULT_RULES, seed: int = 1, before_kernels=None
) -> PiquetState:
    """A full state at the described play position (its seat to act): the player's cards and
    history as told, the hidden cards one world consistent with them (drawn as
    :meth:`PiquetState.resample` draws). InputError when the description is impossible
    (``before_kernels``: see :func:`description_view`)."""
    view = description_view(d, rules, before_kernels)
    return resample_view(view, np.random.default_rng(seed))


__all__ = [
    "CHANCE",
    "CLASSES",
    "DECL_BASE",
    "END",
    "KINDS",
    "NUM_ACTIONS",
    "TERMINAL",
    "Description",
    "PiquetState",
    "SeatView",
    "action_name",
    "decl_action",
    "from_description",
    "parse_action",
    "resample_view",
]
