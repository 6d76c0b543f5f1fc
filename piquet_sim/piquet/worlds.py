"""What a Piquet seat knows (:class:`SeatView`) and the worlds consistent with it: the hidden
cards redealt so that every declaration heard, card seen and duty of the play holds
(:func:`sample_world`, :func:`resample_view`), each replayed through a state
(:func:`replay_world`): the sampler the pimc players and ``play`` use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from . import cards as C
from .actions import (
    COURT,
    DECL_BASE,
    DECLARE,
    END,
    FULL,
    LESSER,
    MAX_ATTEMPTS,
    MAX_WORLD_TRIES,
    PH_DECLARE,
    PH_ELDER_EXCHANGE,
    PH_YOUNGER_EXCHANGE,
    SINK,
    TALON,
    decl_action,
    kind_mask,
    shown_cards,
    trick_winner,
    winner_code,
)
from .dialogue import KEY_TOP
from .kernels import layouts as L
from .kernels.knowledge import (
    FLAG_INFEASIBLE,
    NO_HI,
    class_key,
    learn_declarations,
    sample_opponent,
)
from .kernels.tables import SUIT_TABLES
from .rules import Rules

if TYPE_CHECKING:
    from .position import PiquetState


@dataclass
class ClassView:
    """One declaration class as a seat saw it: his own choice (``KINDS`` index, -1 not yet),
    whether both have chosen, the winner (``WIN_*``), the opponent's shown cards and what the
    dialogue told of his declaration (``told``)."""

    own_kind: int
    resolved: bool
    winner: int = -1
    shown: int = 0
    #: the opponent's declared key as the dialogue bounds it (inclusive interval, the outcome
    #: included), None without a dialogue: then only the outcome and the shown cards tell
    told: tuple[int, int] | None = None


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
    #: the state class a world is replayed through (the sampler builds positions of it)
    make: type | None = None

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
            if cv.told is not None:
                told_bounds(know, c, cv.told)
                know[L.KNOW_IN] |= cv.shown
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


def told_bounds(know: np.ndarray, c: int, told: tuple[int, int]) -> None:
    """Bound the opponent's best key of class ``c`` in ``know`` by what the dialogue told of
    his declared key (taken as his best: he declared all he held). "Nothing" in the point says
    he sank it (every hand holds a point): no bound then."""
    lo, hi = told
    if c == L.CLASS_POINT and hi == 0:
        return
    know[L.KNOW_LO + c] = max(int(know[L.KNOW_LO + c]), lo)
    know[L.KNOW_HI + c] = min(int(know[L.KNOW_HI + c]), hi if hi < KEY_TOP else int(NO_HI))


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
        if kind in legal and kind_fits(cv, view.seat, own_key, opp_hand, c, kind):
            return kind
    return None


def kind_fits(cv: ClassView, seat: int, own_key: int, opp_hand: int, c: int, kind: int) -> bool:
    """Whether the opponent holding ``opp_hand`` at the declarations and declaring class ``c``
    as ``kind`` gives what ``seat`` saw of it (``cv``: the winner, the cards shown, what the
    dialogue told), ``seat`` having declared ``own_key``."""
    m = kind_mask(opp_hand, c, kind)
    opp_key = int(class_key(np.int64(opp_hand & m), c, SUIT_TABLES))
    keys = (own_key, opp_key) if seat == 0 else (opp_key, own_key)
    w = winner_code(*keys)
    if w != cv.winner:
        return False
    shown = shown_cards(opp_hand, m, c) if w == L.WIN_ELDER + 1 - seat else 0
    if cv.told is not None:
        return cv.told[0] <= opp_key <= cv.told[1] and (not cv.shown or shown == cv.shown)
    return shown == cv.shown


def replay_world(view: SeatView, world, template: PiquetState | None = None) -> PiquetState | None:
    """The deal ``world`` (:func:`sample_world`) replayed through ``view``'s actions: the seat's
    own as he took them, the opponent's discards those of the world, his declarations the ones
    giving what the seat saw, the cards played as played. None when the world does not fit."""
    elder, younger, talon, opp_disc = world
    st = view.make(elder, younger, talon, view.rules, view.key, view.stream)
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
    if any(cv.told is not None for cv in view.classes):  # what the dialogue told stays known
        st.told = {
            view.seat: tuple(
                None if cv.told is None else (cv.told, cv.shown) for cv in view.classes
            )
        }
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
