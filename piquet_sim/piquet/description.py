"""A Piquet play position as its player tells it (:class:`Description`): his cards now, his
exchange, what he saw of the talon, each class as he tells it, the tricks and the card led to
him. :func:`description_view` checks it against the rules (one line for a fault) and gives
what he knows; :func:`from_description` a full position, the hidden cards one world consistent
with it. A record (``record.description_of``) is told this way for ``play`` and for the card
decisions of a one-hand review."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from . import cards as C
from .actions import (
    CLASSES,
    COURT,
    DECLARE,
    ELDER_MAX,
    END,
    FULL,
    LESSER,
    N_TRICKS,
    ROLES,
    SINK,
    TALON,
    _class_keys,
    decl_action,
    kind_mask,
    shown_cards,
    trick_winner,
)
from .dialogue import EQUAL, NONE, intersect, outcome_bounds, winner_of
from .kernels import layouts as L
from .kernels.knowledge import (
    class_key,
)
from .kernels.tables import SUIT_TABLES
from .position import PiquetState
from .rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:
    from .record import PiquetRecord
from .worlds import (
    ClassView,
    SeatView,
    resample_view,
)


@dataclass
class ClassOutcome:
    """A class as a player tells it: what he did (``KINDS`` index; None: what his calls say,
    declared when they fit) and who scored it: ``"mine"``, ``"his"`` (with the cards he
    showed), ``"equal"`` or ``"none"`` (None: what the calls settle). ``calls``: the dialogue's
    bounds on each seat's declared key, (elder's, younger's) intervals (``dialogue.py``), None
    when no dialogue was told."""

    own: int | None = DECLARE
    result: str | None = "mine"
    cards: int = 0
    calls: tuple[tuple[int, int], tuple[int, int]] | None = None


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
    # declarations: checked before the compile notice (their small kernels compile in a
    # second or two), so a record that contradicts itself is refused in one line, cold or not
    classes = []
    full, lesser = _class_keys(decl_hand)
    for c, name in enumerate(CLASSES):
        _check(
            name in d.declarations,
            f"say who scored the {name}: '{name}: mine | his CARDS | equal | none'",
        )
        out = d.declarations[name]
        own, own_key = own_declaration(decl_hand, c, out, full, lesser, s)
        told = None
        result = out.result
        if out.calls is not None:
            his = out.calls[o]
            if result is None:
                result = winner_of((own_key, own_key), his)
                _check(
                    result is not None,
                    f"{name}: the calls do not say who scored it: add '{name}: mine | his "
                    "CARDS | equal | none'",
                )
            if result == "his" and not out.cards:  # his calls stand for the cards he showed
                _check(his[0] > own_key, f"{name}: his calls do not beat yours")
            told = intersect(his, outcome_bounds(result, own_key))
            _check(told is not None, f"{name}: the calls contradict '{result}'")
        shown = 0
        if result == "mine":
            _check(own_key > 0, f"{name}: you declared none, so it cannot be yours")
            winner = L.WIN_ELDER + s
        elif out.result == "equal":
            _check(c != 2, "sets: two sets are never equal")
            _check(own_key > 0, f"{name}: you declared none, so it cannot be equal")
            winner = L.WIN_EQUAL
        elif out.result == "none":
            _check(own_key == 0, f"{name}: you declared one ('sunk, none' if you sank it)")
            winner = L.WIN_NONE
        elif out.cards or told is None:
            shown = out.cards
            _check(not shown & not_his, f"{name}: he cannot have shown {_names(shown & not_his)}")
            ok = shown_cards(shown, FULL, c) == shown
            if c == 0:
                ok = ok and len({x >> 3 for x in mask_bits(shown)}) == 1
            _check(ok, f"{name}: {_names(shown)} is not a {name} he could show")
            opp_key = int(class_key(np.int64(shown), c, SUIT_TABLES))
            _check(opp_key > own_key, f"{name}: his {_names(shown)} does not beat yours")
            if told is not None:
                _check(
                    told[0] <= opp_key <= told[1],
                    f"{name}: his {_names(shown)} is not what his calls said",
                )
                told = (opp_key, opp_key)
            winner = L.WIN_ELDER + o
        else:
            winner = L.WIN_ELDER + o
        classes.append(ClassView(own, True, winner, shown, told))
    if before_kernels is not None:
        before_kernels()
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
        make=PiquetState,
    )


def own_declaration(
    hand: int, c: int, out: ClassOutcome, full: tuple, lesser: tuple, seat: int
) -> tuple[int, int]:
    """(the player's kind of class ``c``, his declared key): as he said it, checked against his
    calls; not said, the first of declare, lesser, sink his calls fit (declare without calls).
    InputError when his calls fit nothing he could declare."""
    name = CLASSES[c]
    mine = out.calls[seat] if out.calls else None
    kinds = [out.own] if out.own is not None else [DECLARE, LESSER, SINK]
    for kind in kinds:
        if kind == SINK and not full[c]:
            kind = DECLARE  # nothing to sink: the same as declaring
        if kind == LESSER and not lesser[c]:
            if out.own is not None:
                raise InputError(f"{name}: you hold no lesser {name} to declare")
            continue
        key = int(class_key(np.int64(hand & kind_mask(hand, c, kind)), c, SUIT_TABLES))
        if mine is None or mine[0] <= key <= mine[1]:
            return kind, key
    said = "as you say you declared it" if out.own is not None else "whatever you declared"
    raise InputError(f"{name}: your calls do not fit your hand ({said})")


def description_of(
    rec: PiquetRecord,
    n_tricks: int | None = None,
    lead: int | None = None,
    hand_now: int | None = None,
) -> Description:
    """The play position a record ends at (or after its first ``n_tricks`` tricks, ``lead``
    the card led to the player then), as ``position.description_view`` reads it; his cards
    then are ``hand_now`` (default: the record's, from ``play``)."""
    s, o = rec.player, 1 - rec.player
    decls = {}
    for c, name in enumerate(CLASSES):
        out = rec.outcomes.get(c)
        if out is None and c in rec.calls:  # the calls alone: the winner follows from his hand
            bounds = rec.calls[c].bounds()
            own = rec.kinds[s][c] if c in rec.said else None
            decls[name] = ClassOutcome(own, None, 0, bounds)
            continue
        if out is None:
            continue
        if out.winner == EQUAL:
            result = "equal"
        elif out.winner == NONE:
            result = "none"
        else:
            result = "mine" if out.winner == s else "his"
        calls = rec.calls.get(c)
        own = rec.kinds[s][c] if calls is None or c in rec.said else None
        decls[name] = ClassOutcome(
            own,
            result,
            out.cards if result == "his" else 0,
            calls.bounds() if calls is not None else None,
        )
    return Description(
        role=ROLES[s],
        hand=rec.hand_now if hand_now is None else hand_now,
        discard=mask_bits(rec.discard[s] or 0),
        took=list(rec.took[s] or []),
        left=rec.left if s == 0 else None,
        talon=rec.left if s == 1 else None,
        opponent_took=rec.took_n[o],
        opponent_carte_blanche=o in rec.blanche,
        opponent_carte_rouge=o in rec.rouge,
        declarations=decls,
        tricks=list(rec.tricks if n_tricks is None else rec.tricks[:n_tricks]),
        lead=rec.lead if n_tricks is None else lead,
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
