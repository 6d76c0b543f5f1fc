"""Piquet deal records and their review (``piquet review FILE``).

A deal record (:data:`RECORD_FORM`; ``docs/review.md``) is the whole deal as the reviewed player
tells it: the ``play`` command's history form (``position.HISTORY_FORM``) extended to the whole
deal, with every key naming whose it is. Either every hand is known (both dealt hands, the talon
and both discards: the deal is replayed card by card through a :class:`PiquetState`) or only the
player's (his hand, his exchange, the other's count, what he saw of the talon, who scored each
class and the tricks: each of his play decisions is rebuilt as ``piquet play`` rebuilds one,
:func:`position.from_description`). Every record is checked against the rules before any work
(:class:`core.review.RecordError`, one line naming the place).

The review (:func:`review_record`) measures each of the player's decisions with what he could
know:

* the exchange: the discard advisor (``advisor.advise``) ranks every discard; the cost of his is
  the paired difference from the advised one on the advisor's worlds (``advisor.world_values``:
  the heuristic's difference on many worlds plus pimc's correction on the first of them, the
  advisor's own control-variate estimator);
* the declarations (point, sequence and sets together, as the sinking study compares them):
  ``sinking.evaluate`` plays every choice (declare all, sink a class, declare the lesser, sink
  everything) on the same worlds from the hand he held; with every hand known, each choice is
  also valued on the true deal (the declarations as recorded for the opponent, the play solved
  double-dummy);
* each card: ``deciders.card_values`` (every legal card over the worlds he could not tell
  apart, each solved double-dummy: pimc's values) and the paired cost; with every hand known,
  ``deciders.DdPlay.values``: the exact double-dummy value of every card on the true deal.

Points are net deal points for the reviewed player (his minus the other's).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..core import review as R
from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits
from ..core.engine.stats import Estimate
from . import cards as C
from .position import (
    CLASSES,
    DECLARE,
    END,
    KINDS,
    LESSER,
    ROLES,
    SINK,
    ClassOutcome,
    Description,
    PiquetState,
    _class_keys,
    decl_action,
    description_view,
    from_description,
    parse_action,
    trick_winner,
)
from .rules import DEFAULT_RULES, Rules

GAME = "piquet"
UNIT = "net deal points for the reviewed player (his minus the other's)"
PHASES = ("exchange", "declare", "play")
COURT = 0x70707070
FULL = 0xFFFFFFFF

#: The record's text form, documented once (``piquet review --help`` and errors quote it).
RECORD_FORM = (
    "lines 'key: value' ('#' comments; ';' separates clauses on a line): player: elder|younger "
    "(whose decisions are reviewed); elder: CARDS / younger: CARDS (dealt hands, the player's "
    "at least); talon: CARDS (all 8, top first: with both hands); elder discard: / younger "
    "discard: CARDS ('-' for none); elder took: / younger took: CARDS (drawn, in order) or N "
    "(a count you did not see); left: CARDS (the talon cards you saw that nobody took); "
    "blanche: / rouge: ROLE (who showed carte blanche, scored carte rouge); elder declares: / "
    "younger declares: all | KIND CLASS, ... (sink point, lesser sequence ...); point: / "
    "sequence: / sets: WINNER [CARDS] (elder, younger, mine, his, equal, none; the cards the "
    "other showed); tricks: LEAD-REPLY ... (in order, leader's card first)"
)

#: Text keys -> canonical keys (``{role}`` is elder or younger; ``player`` the reviewed one's).
_KEYS = {
    "game": "game",
    "player": "player",
    "role": "player",
    "hand": "hand:player",
    "talon": "talon",
    "left": "left",
    "blanche": "carte_blanche",
    "carte blanche": "carte_blanche",
    "carte_blanche": "carte_blanche",
    "rouge": "carte_rouge",
    "carte rouge": "carte_rouge",
    "carte_rouge": "carte_rouge",
    "discard": "discard:player",
    "discards": "discard:player",
    "took": "took:player",
    "drew": "took:player",
    "declares": "declares:player",
    "declared": "declares:player",
    "point": "outcome:point",
    "sequence": "outcome:sequence",
    "sequences": "outcome:sequence",
    "sets": "outcome:sets",
    "set": "outcome:sets",
    "tricks": "tricks",
}
for _r in ROLES:
    _KEYS |= {
        _r: f"hand:{_r}",
        f"{_r} hand": f"hand:{_r}",
        f"{_r} discard": f"discard:{_r}",
        f"{_r} discards": f"discard:{_r}",
        f"{_r} took": f"took:{_r}",
        f"{_r} drew": f"took:{_r}",
        f"{_r} declares": f"declares:{_r}",
        f"{_r} declared": f"declares:{_r}",
    }

#: The sinking study's choices as each class's kind (point, sequence, sets).
CHOICE_KINDS = {
    "declare all": (DECLARE, DECLARE, DECLARE),
    "sink point": (SINK, DECLARE, DECLARE),
    "sink sequences": (DECLARE, SINK, DECLARE),
    "sink sets": (DECLARE, DECLARE, SINK),
    "lesser point": (LESSER, DECLARE, DECLARE),
    "lesser sequence": (DECLARE, LESSER, DECLARE),
    "lesser set": (DECLARE, DECLARE, LESSER),
    "sink everything": (SINK, SINK, SINK),
}
EQUAL, NONE = -2, -1  # an outcome's winner besides a seat


# ---------------------------------------------------------------------- the record


@dataclass
class Outcome:
    """A class as recorded: the seat that scored it (or :data:`EQUAL`, :data:`NONE`) and the
    cards the other showed when he scored it (0 when not given)."""

    winner: int
    cards: int = 0


@dataclass
class PiquetRecord(R.Record):
    """A parsed deal record (see :data:`RECORD_FORM`): seats 0 elder, 1 younger; masks for
    hands and discards, card lists in order for the talon, draws and tricks; ``None`` where the
    record does not say. ``places``: canonical key -> where it was written (errors name it)."""

    player: int
    dealt: list[int | None]
    talon: list[int] | None = None
    discard: list[int | None] = field(default_factory=lambda: [None, None])
    took: list[list[int] | None] = field(default_factory=lambda: [None, None])
    took_n: list[int | None] = field(default_factory=lambda: [None, None])
    left: list[int] | None = None
    blanche: set[int] = field(default_factory=set)
    rouge: set[int] = field(default_factory=set)
    kinds: list[list[int] | None] = field(default_factory=lambda: [None, None])
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    tricks: list[tuple[int, int]] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)


_err = R.record_error


def _cards(value, place: str) -> list[int]:
    if value is None:
        return []
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    text = str(value).strip()
    if text.lower() in ("", "-", "none"):
        return []
    try:
        return C.parse_card_list(text)
    except C.CardError as err:
        raise _err(place, str(err)) from None


def _role(value, place: str, player: int | None = None) -> int:
    v = str(value).strip().lower()
    if v in ROLES:
        return ROLES.index(v)
    if player is not None and v in ("mine", "me", "i", "you"):
        return player
    if player is not None and v in ("his", "he", "opponent", "him"):
        return 1 - player
    raise _err(place, f"{value!r} is not elder or younger")


def _roles(value, place: str, player: int) -> set[int]:
    if isinstance(value, list):
        items = value
    else:
        items = [w for w in str(value).replace(",", " ").split() if w]
    out = set()
    for w in items:
        if str(w).lower() in ("-", "none", "no", "nobody"):
            continue
        out.add(_role(w, place, player))
    return out


def _kinds(value, place: str) -> list[int]:
    """The three classes' kinds of a ``declares`` value: "all" or "KIND CLASS, ..." (classes
    not named are declared)."""
    if isinstance(value, dict):
        kinds = [DECLARE] * 3
        for k, v in value.items():
            cls = _class_index(k, place)
            kinds[cls] = _kind(v, place)
        return kinds
    items = value if isinstance(value, list) else str(value).replace(";", ",").split(",")
    kinds = [DECLARE] * 3
    for item in items:
        t = str(item).strip().lower()
        if t in ("", "all", "declare all", "everything", "-"):
            continue
        if t in ("sink all", "sink everything", "nothing"):
            kinds = [SINK] * 3
            continue
        try:
            action = parse_action(t)
        except InputError:
            raise _err(
                place,
                f"{item!r} is not 'KIND CLASS' (declare, sink or lesser; point, "
                "sequence or sets) nor 'all'",
            ) from None
        if not 33 <= action < 42:
            raise _err(place, f"{item!r} is not a declaration (e.g. 'sink point')")
        k = action - 33
        kinds[k // 3] = k % 3
    return kinds


def _kind(value, place: str) -> int:
    t = str(value).strip().lower()
    table = {
        "declare": DECLARE,
        "declared": DECLARE,
        "all": DECLARE,
        "sink": SINK,
        "sunk": SINK,
        "sank": SINK,
        "lesser": LESSER,
    }
    if t not in table:
        raise _err(place, f"{value!r}: say declare, sink or lesser")
    return table[t]


def _class_index(name, place: str) -> int:
    t = str(name).strip().lower().rstrip("s")
    for i, c in enumerate(CLASSES):
        if c.rstrip("s") == t:
            return i
    raise _err(place, f"{name!r} is not point, sequence or sets")


def _outcome(value, place: str, player: int) -> tuple[Outcome, int | None]:
    """An outcome clause: (the outcome, the player's own kind when it starts with one, as in
    the history form's 'sunk, mine')."""
    if isinstance(value, dict):
        kind = _kind(value["own"], place) if "own" in value else None
        text = f"{value.get('winner', value.get('result', ''))} " + " ".join(
            str(c) for c in (value.get("cards") or [])
        )
    else:
        text, kind = str(value), None
    words = [w for w in text.replace(",", " ").split() if w]
    if words and words[0].lower() in ("declare", "declared", "sink", "sunk", "sank", "lesser"):
        kind = _kind(words[0], place)
        words = words[1:]
    if not words:
        raise _err(place, "say who scored it: elder, younger (or mine, his), equal or none")
    head = words[0].lower()
    rest = words[1:]
    if head in ("equal", "none", "nobody"):
        if rest:
            raise _err(place, f"nothing may follow '{head}'")
        return Outcome(EQUAL if head == "equal" else NONE), kind
    winner = _role(head, place, player)
    return Outcome(winner, C.cards_to_mask(_cards(rest, place))), kind


def _tricks(value, place: str) -> list[tuple[int, int]]:
    if value is None:
        return []
    if isinstance(value, list):
        pairs = [
            v if isinstance(v, list | tuple) else str(v).replace("/", "-").split("-") for v in value
        ]
    else:
        text = str(value).strip()
        if text in ("", "-"):
            return []
        pairs = [p.split("-") for p in text.replace("/", "-").replace(",", " ").split()]
    out = []
    for i, p in enumerate(pairs, 1):
        p = [str(x).strip() for x in p if str(x).strip()]
        if len(p) != 2:
            raise _err(place, f"trick {i}: each trick is LEAD-REPLY, got {'-'.join(p)!r}")
        try:
            out.append((C.parse_card(p[0]), C.parse_card(p[1])))
        except C.CardError as err:
            raise _err(place, f"trick {i}: {err}") from None
    if len(out) > 12:
        raise _err(place, f"{len(out)} tricks: a deal has twelve")
    return out


def _raw_from_json(data) -> tuple[dict, dict]:
    """Canonical key -> value and key -> place, from the JSON form (see ``docs/review.md``)."""
    if not isinstance(data, dict):
        raise R.RecordError("the record JSON must be an object")
    raw: dict = {}
    places: dict = {}

    def put(key, value, place):
        raw[key] = value
        places[key] = f"key {place}"

    for k, v in data.items():
        k = str(k)
        if k == "hands":
            if not isinstance(v, dict):
                raise R.RecordError("key hands: an object {elder: [...], younger: [...]}")
            for role, cards in v.items():
                _role(role, f"key hands.{role}")
                put(f"hand:{role.lower()}", cards, f"hands.{role}")
        elif k == "exchange":
            if not isinstance(v, dict):
                raise R.RecordError("key exchange: an object {elder: {discard, took}, ...}")
            for role, ex in v.items():
                _role(role, f"key exchange.{role}")
                if not isinstance(ex, dict):
                    raise R.RecordError(f"key exchange.{role}: an object {{discard, took}}")
                for f_, val in ex.items():
                    if f_ not in ("discard", "took"):
                        raise R.RecordError(f"key exchange.{role}.{f_}: unknown (discard, took)")
                    put(f"{f_}:{role.lower()}", val, f"exchange.{role}.{f_}")
        elif k == "declarations":
            if not isinstance(v, dict):
                raise R.RecordError("key declarations: an object {elder: ..., younger: ...}")
            for role, kinds in v.items():
                _role(role, f"key declarations.{role}")
                put(f"declares:{role.lower()}", kinds, f"declarations.{role}")
        elif k == "outcomes":
            if not isinstance(v, dict):
                raise R.RecordError(
                    "key outcomes: an object {point: ..., sequence: ..., sets: ...}"
                )
            for cls, out in v.items():
                name = CLASSES[_class_index(cls, f"key outcomes.{cls}")]
                put(f"outcome:{name}", out, f"outcomes.{cls}")
        else:
            key = _KEYS.get(k.lower().replace("_", " "), _KEYS.get(k.lower()))
            if key is None:
                raise R.RecordError(
                    f"key {k}: unknown (game, player, hands, talon, exchange, left, "
                    "carte_blanche, carte_rouge, declarations, outcomes, tricks)"
                )
            put(key, v, k)
    return raw, places


def parse_record(text: str) -> PiquetRecord:
    """A record from its text form (:data:`RECORD_FORM`), checked (:func:`check_record`)."""
    raw, places = R.raw_clauses(text, _KEYS.get, f"the keys: {RECORD_FORM}")
    return _build(raw, places)


def parse_record_json(data) -> PiquetRecord:
    """A record from its JSON form (``record_json``), checked (:func:`check_record`)."""
    raw, places = _raw_from_json(data)
    return _build(raw, places)


def read_record(path) -> PiquetRecord:
    """A record file, text or JSON (``core.review.read_record``)."""
    kind, data = R.read_record(path)
    return parse_record_json(data) if kind == "json" else parse_record(data)


def _build(raw: dict, places: dict) -> PiquetRecord:
    def where(key):
        return places.get(key, key)

    game = str(raw.get("game", GAME)).strip().lower()
    if game != GAME:
        raise _err(where("game"), f"this is a {game} record; piquet review reads Piquet deals")
    if "player" not in raw:
        raise R.RecordError("say whose decisions to review: 'player: elder' or 'player: younger'")
    player = _role(raw["player"], where("player"))
    me, him = ROLES[player], ROLES[1 - player]

    def alias(key):  # 'hand:player' -> 'hand:elder'
        kind, _, who = key.partition(":")
        return f"{kind}:{me}" if who == "player" else key

    fixed: dict = {}
    for key, value in raw.items():
        k = alias(key)
        if k in fixed:
            raise _err(where(key), f"given twice (also at {where(k)})")
        fixed[k] = value
        places[k] = where(key)
    raw = fixed
    rec = PiquetRecord(player=player, dealt=[None, None], places=places)
    for s, role in enumerate(ROLES):
        key = f"hand:{role}"
        if key in raw:
            cards = _cards(raw[key], where(key))
            if len(cards) != 12:
                raise _err(where(key), f"a dealt hand is 12 cards, got {len(cards)}")
            rec.dealt[s] = C.cards_to_mask(cards)
    if rec.dealt[player] is None:
        raise R.RecordError(f"give your dealt hand: '{me}: CARDS' (12 cards)")
    if "talon" in raw:
        talon = _cards(raw["talon"], where("talon"))
        if len(talon) != 8 and player == 1 and not rec.full and "left" not in raw:
            raw["left"], places["left"] = raw.pop("talon"), where("talon")  # the history form
        elif len(talon) != 8:
            raise _err(where("talon"), f"the talon is 8 cards, top first, got {len(talon)}")
        else:
            rec.talon = talon
    for s, role in enumerate(ROLES):
        key = f"discard:{role}"
        if key in raw:
            rec.discard[s] = C.cards_to_mask(_cards(raw[key], where(key)))
        key = f"took:{role}"
        if key in raw:
            v = raw[key]
            text = str(v).strip() if not isinstance(v, list) else None
            if isinstance(v, int) or (text is not None and text.isdigit()):
                rec.took_n[s] = int(v)
            else:
                rec.took[s] = _cards(v, where(key))
                rec.took_n[s] = len(rec.took[s])
    if "left" in raw:
        rec.left = _cards(raw["left"], where("left"))
    if "carte_blanche" in raw:
        rec.blanche = _roles(raw["carte_blanche"], where("carte_blanche"), player)
    if "carte_rouge" in raw:
        rec.rouge = _roles(raw["carte_rouge"], where("carte_rouge"), player)
    for s, role in enumerate(ROLES):
        key = f"declares:{role}"
        if key in raw:
            rec.kinds[s] = _kinds(raw[key], where(key))
    for c, name in enumerate(CLASSES):
        key = f"outcome:{name}"
        if key not in raw:
            continue
        out, kind = _outcome(raw[key], where(key), player)
        rec.outcomes[c] = out
        if kind is not None:
            if rec.kinds[player] is None:
                rec.kinds[player] = [DECLARE] * 3
                places[f"declares:{me}"] = where(key)
            elif f"declares:{me}" in raw and rec.kinds[player][c] != kind:
                raise _err(
                    where(key),
                    f"says {KINDS[kind]} but '{me} declares' says {KINDS[rec.kinds[player][c]]}",
                )
            rec.kinds[player][c] = kind
    if rec.kinds[player] is None:
        rec.kinds[player] = [DECLARE] * 3
    if rec.full and rec.kinds[1 - player] is None:
        rec.kinds[1 - player] = [DECLARE] * 3
    rec.tricks = _tricks(raw.get("tricks"), where("tricks"))
    del him
    return rec


# ---------------------------------------------------------------------- checking


def _names(mask: int) -> str:
    return C.format_cards(mask)


def _check_cards_once(rec: PiquetRecord) -> None:
    """Every card in at most one place (both hands, the talon, your draws and left cards)."""
    seen: dict[int, str] = {}

    def place(cards, where):
        for c in cards:
            if c in seen and seen[c] != where:
                raise R.RecordError(f"{C.card_name(c)} appears twice: in {seen[c]} and in {where}")
            seen[c] = where

    for s, role in enumerate(ROLES):
        if rec.dealt[s] is not None:
            place(mask_bits(rec.dealt[s]), f"{role}'s hand ({rec.place(f'hand:{role}')})")
    if rec.talon is not None:
        place(rec.talon, f"the talon ({rec.place('talon')})")
    elif rec.full:
        return
    else:
        s = rec.player
        role = ROLES[s]
        place(rec.took[s] or [], f"{role}'s draws ({rec.place(f'took:{role}')})")
        place(rec.left or [], f"the cards left ({rec.place('left')})")


def _talon_of(rec: PiquetRecord) -> list[int]:
    """The talon of a record with both hands: given, or both draws and the rest (the cards
    nobody took in ascending order: their order changes nothing but what was seen)."""
    if rec.talon is not None:
        return rec.talon
    if rec.took[0] is None or rec.took[1] is None:
        raise R.RecordError(
            "both hands are given: give the talon too ('talon: CARDS', 8 cards top first) or "
            "both players' drawn cards"
        )
    rest = mask_bits(
        FULL & ~(rec.dealt[0] | rec.dealt[1] | C.cards_to_mask(rec.took[0] + rec.took[1]))
    )
    talon = rec.took[0] + rec.took[1] + rest
    if len(talon) != 8:
        raise R.RecordError("the drawn cards and the hands do not leave an 8-card talon")
    return talon


def replay(rec: PiquetRecord, rules: Rules = DEFAULT_RULES, seed: int = 1):
    """A record with every hand known, replayed: (the states before each action, with the
    action and its place; the final state). RecordError names the first illegal step."""
    if not rec.full:
        raise ValueError("replay needs every hand")
    _check_cards_once(rec)
    talon = _talon_of(rec)
    used = rec.dealt[0] | rec.dealt[1] | C.cards_to_mask(talon)
    if used != FULL:
        raise R.RecordError(f"{_names(FULL & ~used)} is in no hand and not in the talon")
    try:
        state = PiquetState.from_hands(rec.dealt[0], rec.dealt[1], talon, rules, seed=seed)
    except InputError as err:
        raise R.RecordError(str(err)) from None
    replayed = R.Replay(state)
    act = replayed.act

    for s, role in enumerate(ROLES):
        key = f"discard:{role}"
        if rec.discard[s] is None:
            raise R.RecordError(
                f"every hand is known: give {role}'s discard ('{role} discard: CARDS')"
            )
        place = rec.place(key)
        bad = rec.discard[s] & ~state.hands[s]
        if bad:
            raise _err(place, f"{role} does not hold {_names(bad)}")
        for c in sorted(mask_bits(rec.discard[s])):
            act(c, place)
        act(END, place)
        first = 0 if s == 0 else state.took[0]
        drawn = list(state.talon[first : first + state.took[s]])
        if rec.took[s] is not None and rec.took[s] != drawn:
            raise _err(
                rec.place(f"took:{role}"),
                f"{role} drew {' '.join(map(C.card_name, drawn))} from the talon, not "
                f"{' '.join(map(C.card_name, rec.took[s]))}",
            )
        if rec.took_n[s] is not None and rec.took_n[s] != state.took[s]:
            raise _err(
                rec.place(f"took:{role}"),
                f"{role} discarded {state.took[s]} card(s), so took as many, not {rec.took_n[s]}",
            )
        rec.took[s], rec.took_n[s] = drawn, state.took[s]
    for s in (0, 1):
        if (s in rec.blanche) != bool(state.cb[s]):
            raise _err(
                rec.place("carte_blanche"),
                f"{ROLES[s]}'s dealt hand is {'' if state.cb[s] else 'not '}carte blanche",
            )
    for s, role in enumerate(ROLES):
        full, lesser = _class_keys(state.hands[s])
        for c, name in enumerate(CLASSES):
            if rec.kinds[s][c] == SINK and not full[c]:
                rec.kinds[s][c] = DECLARE  # nothing to sink: the same as declaring
            if rec.kinds[s][c] == LESSER and not lesser[c]:
                raise _err(
                    rec.place(f"declares:{role}"), f"{role} holds no lesser {name} to declare"
                )
    for c in range(len(CLASSES)):
        for s, role in enumerate(ROLES):
            act(decl_action(c, rec.kinds[s][c]), rec.place(f"declares:{role}"))
    _check_outcomes(rec, state)
    if state.rules.carte_rouge:
        e, y, _ = state.declaration_points()
        for s, pts in enumerate((e, y)):
            if (s in rec.rouge) != (pts[4] > 0):
                raise _err(
                    rec.place("carte_rouge"),
                    f"{ROLES[s]} {'scores' if pts[4] else 'does not score'} carte rouge",
                )
    elif rec.rouge:
        raise _err(rec.place("carte_rouge"), "carte rouge is off (--carte-rouge turns it on)")
    for i, (a, b) in enumerate(rec.tricks, 1):
        place = f"{rec.place('tricks')}, trick {i}"
        if state.is_terminal():
            raise _err(place, "twelve tricks are played: the deal is over")
        act(a, place)
        act(b, place)
    return replayed.steps, state


def _check_outcomes(rec: PiquetRecord, state: PiquetState) -> None:
    v = state.view(rec.player)
    for c, name in enumerate(CLASSES):
        out = rec.outcomes.get(c)
        if out is None:
            continue
        cv = v.classes[c]
        winner = {0: NONE, 1: 0, 2: 1, 3: EQUAL}[cv.winner]
        if out.winner != winner:
            said = {EQUAL: "equal", NONE: "none"}.get(out.winner) or ROLES[out.winner]
            real = {EQUAL: "the two were equal", NONE: "nobody scored it"}.get(winner)
            raise _err(
                rec.place(f"outcome:{name}"),
                f"{real or ROLES[winner] + ' scored it'}, not {said}",
            )
        if out.cards and winner == 1 - rec.player and out.cards != cv.shown:
            raise _err(
                rec.place(f"outcome:{name}"),
                f"{ROLES[winner]} showed {_names(cv.shown)}, not {_names(out.cards)}",
            )


def _check_one_hand(rec: PiquetRecord, rules: Rules) -> list[tuple[int, int | None, int, int]]:
    """Check a record with only the player's hand: the exchange, the declarations, the tricks,
    and each of his play positions as ``piquet play`` checks one
    (``position.description_view``). Returns his play decisions: (trick, the card led to him
    or None, his card, his hand before it)."""
    s, o = rec.player, 1 - rec.player
    me, him = ROLES[s], ROLES[o]
    if rec.talon is not None:
        raise _err(
            rec.place("talon"),
            f"the whole talon goes with both hands; give '{him}: CARDS' "
            "too, or only what you saw ('took', 'left')",
        )
    _check_cards_once(rec)
    dealt = rec.dealt[s]
    if rec.discard[s] is None:
        raise R.RecordError(f"give your discard: '{me} discard: CARDS' ('-' for none)")
    disc = rec.discard[s]
    if disc & ~dealt:
        raise _err(rec.place(f"discard:{me}"), f"you were not dealt {_names(disc & ~dealt)}")
    n = C.popcount(disc)
    if rec.took[s] is None:
        raise R.RecordError(f"give the cards you drew: '{me} took: CARDS' (in talon order)")
    if len(rec.took[s]) != n:
        raise _err(
            rec.place(f"took:{me}"), f"you discarded {n} card(s) but took {len(rec.took[s])}"
        )
    if rec.took_n[o] is None:
        if rec.discard[o] is not None:
            rec.took_n[o] = C.popcount(rec.discard[o])
        else:
            raise R.RecordError(f"say how many cards {him} took: '{him} took: N'")
    k, y = (n, rec.took_n[o]) if s == 0 else (rec.took_n[o], n)
    if not 1 <= k <= 5:
        raise _err(
            rec.place(f"took:{ROLES[0]}" if s == 1 else f"discard:{me}"),
            f"elder exchanges 1 to 5 cards, not {k}",
        )
    lo = 1 if rules.younger_must_exchange else 0
    if not lo <= y <= 8 - k:
        raise _err(
            rec.place(f"took:{ROLES[1]}" if s == 0 else f"discard:{me}"),
            f"younger exchanges {lo} to {8 - k} cards after elder's {k}, not {y}",
        )
    if rec.left is not None:
        want = 5 - k if s == 0 else 8 - k - y
        if len(rec.left) != want:
            raise _err(rec.place("left"), f"{want} talon card(s) were left, not {len(rec.left)}")
    if (s in rec.blanche) != ((dealt & COURT) == 0):
        raise _err(
            rec.place("carte_blanche"),
            f"your dealt hand is {'' if (dealt & COURT) == 0 else 'not '}carte blanche",
        )
    held = (dealt & ~disc) | C.cards_to_mask(rec.took[s])
    full, lesser = _class_keys(held)
    for c, name in enumerate(CLASSES):
        kind = rec.kinds[s][c]
        if kind == SINK and not full[c]:
            rec.kinds[s][c] = DECLARE  # nothing to sink: the same as declaring
        if kind == LESSER and not lesser[c]:
            raise _err(rec.place(f"declares:{me}"), f"you hold no lesser {name} to declare")
    if rec.tricks:
        for c, name in enumerate(CLASSES):
            if c not in rec.outcomes:
                raise R.RecordError(
                    f"say who scored the {name}: '{name}: elder | younger CARDS | equal | none'"
                )
            if rec.outcomes[c].winner == o and not rec.outcomes[c].cards:
                raise _err(
                    rec.place(f"outcome:{name}"),
                    f"{him} scored it: give the cards he showed ('{name}: {him} CARDS')",
                )
    known = dealt | C.cards_to_mask(rec.took[s]) | C.cards_to_mask(rec.left or [])
    hand = held
    leader = 0
    gone = 0
    points = []
    place = rec.place("tricks")
    for i, (a, b) in enumerate(rec.tricks, 1):
        mine, his = (a, b) if leader == s else (b, a)
        for card in (a, b):
            if (gone >> card) & 1:
                raise _err(place, f"trick {i}: {C.card_name(card)} was played before")
        if not (hand >> mine) & 1:
            raise _err(place, f"trick {i}: you ({me}) do not hold {C.card_name(mine)}")
        if (known >> his) & 1 and not (his in (rec.left or []) and s == 0):
            raise _err(place, f"trick {i}: {him} cannot hold {C.card_name(his)} (you saw it)")
        if leader != s:
            suit = hand & (0xFF << (a & 0x18))
            if (b >> 3) != (a >> 3) and suit:
                raise _err(
                    place,
                    f"trick {i}: a revoke: you played {C.card_name(b)} to "
                    f"{C.card_name(a)} holding {_names(suit)}",
                )
        points.append((i, None if leader == s else a, mine, hand))
        hand &= ~(1 << mine)
        gone |= (1 << a) | (1 << b)
        leader = trick_winner(leader, a, b)
    for i, lead, _, hand_now in points:
        try:
            description_view(_description(rec, i - 1, lead, hand_now), rules)
        except InputError as err:
            head = str(err).split(":", 1)[0]
            if head in CLASSES:  # a fault of the class's line, found here
                raise _err(
                    rec.place(f"outcome:{head}"), str(err).split(":", 1)[1].strip()
                ) from None
            raise _err(place, f"trick {i}: {err}") from None
    return points


def check_record(rec: PiquetRecord, rules: Rules = DEFAULT_RULES) -> None:
    """Check a record against the rules (RecordError naming the place): a card twice, an
    impossible exchange, declarations the hand cannot make, outcomes that do not follow, a
    revoke, a card nobody could hold. With every hand known the deal is replayed."""
    if rec.full:
        replay(rec, rules)
    else:
        _check_one_hand(rec, rules)


# ---------------------------------------------------------------------- writing records


def record_from_state(state: PiquetState, player: int, every_hand: bool = True) -> PiquetRecord:
    """The record of a deal played through ``state`` (from its history), for ``player``:
    every hand (``every_hand``) or only what he saw."""
    hist = state.history()
    actors = state.actors()
    s, o = player, 1 - player
    rec = PiquetRecord(player=player, dealt=[None, None])
    disc = [0, 0]
    kinds = [[DECLARE] * 3, [DECLARE] * 3]
    tricks: list[int] = []
    ends = 0
    for who, a in zip(actors, hist, strict=True):
        if ends < 2:
            if a == END:
                ends += 1
            else:
                disc[who] |= 1 << a
        elif 33 <= a < 42:
            k = a - 33
            kinds[who][k // 3] = k % 3
        else:
            tricks.append(a)
    rec.tricks = [(tricks[i], tricks[i + 1]) for i in range(0, len(tricks) - 1, 2)]
    k, y = state.took
    draws = [list(state.talon[:k]), list(state.talon[k : k + y])]
    rec.kinds = (
        [kinds[0], kinds[1]]
        if every_hand
        else [kinds[0] if s == 0 else None, kinds[1] if s == 1 else None]
    )
    rec.blanche = {x for x in (0, 1) if state.cb[x]}
    if state.rules.carte_rouge:
        e, yy, _ = state.declaration_points()
        rec.rouge = {x for x, pts in enumerate((e, yy)) if pts[4] > 0}
    v = state.view(s)
    for c, cv in enumerate(v.classes):
        if cv.resolved:
            winner = {0: NONE, 1: 0, 2: 1, 3: EQUAL}[cv.winner]
            rec.outcomes[c] = Outcome(winner, cv.shown if winner == o else 0)
    if every_hand:
        rec.dealt = list(state.dealt)
        rec.talon = list(state.talon)
        rec.discard = list(disc)
        rec.took = [draws[0], draws[1]]
        rec.took_n = [k, y]
    else:
        rec.dealt[s] = state.dealt[s]
        rec.discard[s] = disc[s]
        rec.took[s] = draws[s]
        rec.took_n = [k, y]
        if s == 0 and state.saw_left:
            rec.left = list(state.talon[k:5])
        if s == 1 and state.saw_talon:
            rec.left = list(state.talon[k + y :])
    return rec


def _list(cards) -> str:
    return " ".join(C.card_name(c) for c in cards) or "-"


def _outcome_text(rec: PiquetRecord, out: Outcome) -> str:
    if out.winner == EQUAL:
        return "equal"
    if out.winner == NONE:
        return "none"
    tail = f" {_names(out.cards)}" if out.cards else ""
    return f"{ROLES[out.winner]}{tail}"


def _kinds_text(kinds: list[int]) -> str:
    named = [f"{KINDS[k]} {CLASSES[c]}" for c, k in enumerate(kinds) if k != DECLARE]
    return ", ".join(named) or "all"


def record_text(rec: PiquetRecord) -> str:
    """The record's text form (:func:`parse_record` reads it back)."""
    me = ROLES[rec.player]
    lines = ["game: piquet", f"player: {me}"]
    for s, role in enumerate(ROLES):
        if rec.dealt[s] is not None:
            lines.append(f"{role}: {_names(rec.dealt[s])}")
    if rec.talon is not None:
        lines.append(f"talon: {_list(rec.talon)}")
    for s, role in enumerate(ROLES):
        if rec.discard[s] is not None:
            lines.append(f"{role} discard: {_names(rec.discard[s]) or '-'}")
        if rec.took[s] is not None:
            lines.append(f"{role} took: {_list(rec.took[s])}")
        elif rec.took_n[s] is not None:
            lines.append(f"{role} took: {rec.took_n[s]}")
    if rec.left is not None:
        lines.append(f"left: {_list(rec.left)}")
    if rec.blanche:
        lines.append("blanche: " + " ".join(ROLES[x] for x in sorted(rec.blanche)))
    if rec.rouge:
        lines.append("rouge: " + " ".join(ROLES[x] for x in sorted(rec.rouge)))
    for s, role in enumerate(ROLES):
        if rec.kinds[s] is not None:
            lines.append(f"{role} declares: {_kinds_text(rec.kinds[s])}")
    for c, name in enumerate(CLASSES):
        if c in rec.outcomes:
            lines.append(f"{name}: {_outcome_text(rec, rec.outcomes[c])}")
    if rec.tricks:
        lines.append(
            "tricks: " + " ".join(f"{C.card_name(a)}-{C.card_name(b)}" for a, b in rec.tricks)
        )
    return "\n".join(lines) + "\n"


def record_json(rec: PiquetRecord) -> dict:
    """The record's JSON form (:func:`parse_record_json` reads it back)."""
    out: dict = {"game": GAME, "player": ROLES[rec.player]}
    out["hands"] = {
        role: C.card_names(rec.dealt[s]) for s, role in enumerate(ROLES) if rec.dealt[s] is not None
    }
    if rec.talon is not None:
        out["talon"] = [C.card_name(c) for c in rec.talon]
    ex = {}
    for s, role in enumerate(ROLES):
        row: dict = {}
        if rec.discard[s] is not None:
            row["discard"] = C.card_names(rec.discard[s])
        if rec.took[s] is not None:
            row["took"] = [C.card_name(c) for c in rec.took[s]]
        elif rec.took_n[s] is not None:
            row["took"] = rec.took_n[s]
        if row:
            ex[role] = row
    out["exchange"] = ex
    if rec.left is not None:
        out["left"] = [C.card_name(c) for c in rec.left]
    out["carte_blanche"] = [ROLES[x] for x in sorted(rec.blanche)]
    if rec.rouge:
        out["carte_rouge"] = [ROLES[x] for x in sorted(rec.rouge)]
    out["declarations"] = {
        role: {CLASSES[c]: KINDS[k] for c, k in enumerate(rec.kinds[s])}
        for s, role in enumerate(ROLES)
        if rec.kinds[s] is not None
    }
    out["outcomes"] = {}
    for c, o in rec.outcomes.items():
        winner = {EQUAL: "equal", NONE: "none"}.get(o.winner) or ROLES[o.winner]
        row = {"winner": winner}
        if o.cards:
            row["cards"] = C.card_names(o.cards)
        out["outcomes"][CLASSES[c]] = row
    out["tricks"] = [[C.card_name(a), C.card_name(b)] for a, b in rec.tricks]
    return out


# ---------------------------------------------------------------------- the review


@dataclass(frozen=True)
class ReviewSettings:
    """How each decision is measured (defaults: the advisors' own, about 20 s a deal).

    ``worlds``/``exact_limit``: a card decision's worlds (``card_values``: every world when at
    most ``exact_limit``); ``exchange_play``, ``exchange_precision``, ``exchange_samples``: the
    discard advisor's play, SE target and world cap (``advise``); ``control_worlds`` and
    ``pair_worlds``: the paired cost of the discard (the heuristic's difference on
    ``control_worlds`` worlds, the advisor's play's correction on the first ``pair_worlds``;
    0: the control alone); ``sink_worlds``, ``sink_play``, ``sink_pimc_worlds``: the
    declarations (``sinking.evaluate``); ``exact``: double-dummy values when every hand is
    known; ``seed``: every sample's."""

    worlds: int = 400
    exact_limit: int = 5000
    exchange_play: str = "pimc"
    exchange_precision: float | None = 0.5
    exchange_samples: int | None = None
    control_worlds: int = 4000
    pair_worlds: int = 200
    sink_worlds: int = 48
    sink_play: str = "pimc"
    sink_pimc_worlds: int = 8
    exact: bool = True
    seed: int = 1

    def to_dict(self) -> dict:
        return dict(vars(self))


#: Settings for tests and quick looks: seconds, not tens of them.
QUICK = ReviewSettings(
    worlds=60,
    exact_limit=300,
    exchange_play="heuristic",
    exchange_precision=None,
    exchange_samples=128,
    control_worlds=256,
    pair_worlds=0,
    sink_worlds=8,
    sink_play="heuristic",
)


def _est(mean: float, se: float, n: int) -> Estimate:
    from ..core.engine.stats import Z95

    return Estimate(mean, se, mean - Z95 * se, mean + Z95 * se, n)


def _exchange_task(rec: PiquetRecord, rules: Rules, st: ReviewSettings, index: int) -> R.Task:
    s = rec.player
    role = ROLES[s]
    hand = rec.dealt[s]
    disc = rec.discard[s]
    elder_took = None if s == 0 else rec.took_n[0]
    done = _names(disc) or "-"
    place = f"discard {C.popcount(disc)} of 12" + (f" (elder took {elder_took})" if s else "")

    def run() -> R.DecisionReview:
        from .advisor import advise, world_values
        from .advisor_refine import CONTROL_PLAY, cv_mean_se

        t0 = time.perf_counter()
        res = advise(
            hand,
            role=role,
            elder_took=elder_took,
            play=st.exchange_play,
            samples=st.exchange_samples,
            precision=st.exchange_precision,
            seed=st.seed,
            rules=rules,
            elder_carte_blanche=(s == 1 and 0 in rec.blanche),
        )
        by_disc = {c.discard: c for c in res.candidates}
        best = res.best
        mine = by_disc.get(disc)
        notes = []
        if mine is None:
            raise _err(rec.place(f"discard:{role}"), "not a discard the rules allow here")
        if disc == best.discard:
            cost = R.exact_estimate(0.0, best.samples)
        else:
            pair = [best.discard, disc]
            h, info = world_values(
                hand,
                pair,
                role,
                elder_took,
                play=CONTROL_PLAY if st.pair_worlds else st.exchange_play,
                n_worlds=st.control_worlds,
                seed=st.seed,
                rules=rules,
            )
            ok = info["valid"]
            hd = (h[0].astype(np.float64) - h[1])[ok]
            if st.pair_worlds and st.exchange_play != CONTROL_PLAY:
                n = min(st.pair_worlds, st.control_worlds)
                p, pinfo = world_values(
                    hand,
                    pair,
                    role,
                    elder_took,
                    play=st.exchange_play,
                    n_worlds=n,
                    seed=st.seed,
                    rules=rules,
                )
                okp = pinfo["valid"] & ok[:n]
                dd = (p[0].astype(np.float64) - p[1])[okp] - (h[0].astype(np.float64) - h[1])[:n][
                    okp
                ]
                mean, se = cv_mean_se(hd, dd)
                cost = _est(mean, se, int(okp.sum()))
                how = (
                    f"{CONTROL_PLAY} on {int(ok.sum())} worlds + {st.exchange_play}'s "
                    f"correction on {int(okp.sum())}"
                )
            else:
                cost = Estimate.of_sample(hd)
                play = st.exchange_play if not st.pair_worlds else CONTROL_PLAY
                how = f"{play} on {len(hd)} worlds"
            notes.append(f"cost: paired on the advisor's worlds ({how})")
            if res.stop_reason == "interrupted":
                notes.append("the advisor was stopped by Ctrl-C")
        top = res.candidates[:5]
        if mine not in top:
            top = [*top, mine]
        rank = res.candidates.index(mine) + 1
        alts = [
            R.Alternative(
                _names(c.discard) or "-",
                _est(c.ev, c.se, c.samples) if math.isfinite(c.se) else None,
                note=f"{c.play}, {c.samples:,} worlds"
                + (" (yours)" if c.discard == disc else "")
                + (
                    f", rank {rank} of {len(res.candidates):,}"
                    if c is mine and c not in res.candidates[:5]
                    else ""
                ),
            )
            for c in top
        ]
        return R.DecisionReview(
            index,
            "exchange",
            place,
            done,
            best=_names(best.discard) or "-",
            cost=cost,
            alternatives=alts,
            method=(
                f"discard advisor: {len(res.candidates):,} discards, {res.play} play, "
                f"{res.worlds:,} worlds for the leaders, stopped on {res.stop_reason}; yours "
                f"ranks {rank}"
            ),
            seconds=time.perf_counter() - t0,
            notes=notes,
            partial=res.stop_reason == "interrupted",
            context={"step": "exchange"},
        )

    weight = 10.0 if st.exchange_play == "pimc" else 2.0
    return R.Task("exchange", place, done, run, weight)


def _choice_of(kinds: list[int], hand: int) -> tuple[int, int, int]:
    """A choice's kinds as the State takes them: sinking a class one holds nothing in is
    declaring it."""
    full, _ = _class_keys(hand)
    return tuple(DECLARE if (k == SINK and not full[c]) else k for c, k in enumerate(kinds))


def _applicable(hand: int) -> dict[str, tuple[int, int, int]]:
    """The sinking choices legal for ``hand`` and different from each other (name -> kinds)."""
    full, lesser = _class_keys(hand)
    out: dict[str, tuple[int, int, int]] = {}
    for name, kinds in CHOICE_KINDS.items():
        if any(k == LESSER and not lesser[c] for c, k in enumerate(kinds)):
            continue
        adj = _choice_of(list(kinds), hand)
        if adj in out.values():
            continue
        out[name] = adj
    return out


def _choice_name(kinds) -> str:
    for name, k in CHOICE_KINDS.items():
        if tuple(k) == tuple(kinds):
            return name
    return _kinds_text(list(kinds))


def _declare_task(rec, rules, st, index, decl_state, held) -> R.Task:
    s = rec.player
    kinds = tuple(rec.kinds[s])
    done = _choice_name(_choice_of(list(kinds), held))
    place = "point, sequence, sets"

    def run() -> R.DecisionReview:
        from ..core.engine.backend import StopOnInterrupt, stop_requested
        from .kernels import layouts as L
        from .sinking import CHOICES, CHUNK_WORLDS, evaluate, summarise

        t0 = time.perf_counter()
        choices = _applicable(held)
        mine = _choice_of(list(kinds), held)
        names = list(choices)
        notes = []
        if len(names) == 1:
            return R.DecisionReview(
                index,
                "declare",
                place,
                done,
                best=done,
                cost=R.exact_estimate(0.0),
                forced=True,
                method="nothing to sink or lessen: declaring is the only choice",
                seconds=time.perf_counter() - t0,
                context={"step": "declare"},
            )
        parts = []
        partial = False
        with StopOnInterrupt():
            for first in range(0, st.sink_worlds, CHUNK_WORLDS):
                rows, _ = evaluate(
                    held,
                    s,
                    -1,
                    0,
                    [CHOICES[n] for n in names],
                    min(CHUNK_WORLDS, st.sink_worlds - first),
                    st.sink_play,
                    st.sink_pimc_worlds,
                    st.seed,
                    rules,
                    start=first,
                )
                parts.append(rows)
                if stop_requested():
                    partial = first + CHUNK_WORLDS < st.sink_worlds
                    break
        rows = np.concatenate(parts)
        results = summarise(rows, names)
        total = rows[:, :, L.SINK_TOTAL].astype(np.float64)
        exact = {}
        if decl_state is not None and st.exact:
            exact = _declaration_exact(decl_state, rec, choices)
        order = sorted(range(len(names)), key=lambda j: (-results[j].net, j))
        best_j = order[0]
        my_j = next((j for j in range(len(names)) if choices[names[j]] == mine), None)
        if my_j is not None and results[my_j].net == results[best_j].net:
            best_j = my_j
        cost = None
        if my_j is None:
            notes.append(f"{done} is not among the choices the sinking study compares")
        else:
            if best_j == my_j:
                cost = R.exact_estimate(0.0, len(total))
            else:
                cost = Estimate.paired(total[:, best_j], total[:, my_j])
        alts = []
        for j in order:
            r_ = results[j]
            val = _est(r_.net, (r_.net_ci[1] - r_.net) / 1.959964, len(total))
            alts.append(
                R.Alternative(
                    names[j],
                    val,
                    exact.get(names[j]),
                    note=("yours; " if j == my_j else "") + f"vs declare all {r_.gain:+.2f}",
                )
            )
        if my_j is None and done in exact:
            alts.append(R.Alternative(done, None, exact[done], "yours"))
        exact_cost = exact_best = None
        if exact:
            top = max(exact.values())
            exact_best = done if exact.get(done) == top else max(exact, key=lambda k: exact[k])
            if done in exact:
                exact_cost = top - exact[done]
        return R.DecisionReview(
            index,
            "declare",
            place,
            done,
            best=names[best_j],
            cost=cost,
            exact_cost=exact_cost,
            exact_best=exact_best,
            alternatives=alts,
            method=(
                f"sinking study: {len(names)} choices on {len(total)} worlds from the hand held "
                f"({_names(held)}), {st.sink_play} play both sides; the other declares all"
                + (
                    "; exact: the true deal, his declarations as recorded, play double-dummy"
                    if exact
                    else ""
                )
            ),
            seconds=time.perf_counter() - t0,
            notes=notes,
            partial=partial,
            context={"step": "declare"},
        )

    weight = 3.0 if st.sink_play == "pimc" else 0.5
    return R.Task("declare", place, done, run, weight)


def _declaration_exact(state: PiquetState, rec: PiquetRecord, choices: dict) -> dict:
    """Each choice's value on the true deal: the player's classes as the choice, the other's as
    recorded, then the play double-dummy from the first lead (net for the player)."""
    from .deciders import DdPlay

    s = rec.player
    out = {}
    for name, kinds in choices.items():
        st = state.clone()
        for c in range(3):
            for who in (0, 1):
                k = kinds[c] if who == s else rec.kinds[who][c]
                st.apply(decl_action(c, k))
        vals = DdPlay().values(st).values  # for elder, who leads
        best = max(v.mean for v in vals.values())
        out[name] = best if s == 0 else -best
    mine = _choice_of(list(rec.kinds[s]), state.decl_hands[s])
    if _choice_name(mine) not in out:
        st = state.clone()
        for c in range(3):
            for who in (0, 1):
                st.apply(decl_action(c, mine[c] if who == s else rec.kinds[who][c]))
        vals = DdPlay().values(st).values
        best = max(v.mean for v in vals.values())
        out[_choice_name(mine)] = best if s == 0 else -best
    return out


def _card_task(index, trick, lead, card, make_state, st, exact: bool) -> R.Task:
    def values(state):
        from .card_values import card_values

        return card_values(state, worlds=st.worlds, seed=st.seed, exact_limit=st.exact_limit)

    def exact_values(state):
        from .deciders import DdPlay

        return DdPlay().values(state)

    place = f"trick {trick}, " + ("lead" if lead is None else f"to {C.card_name(lead)}")
    return R.card_task(
        index,
        trick,
        place,
        card,
        C.card_name,
        make_state,
        values,
        exact_values if exact else None,
        weight=0.3,
    )


def _description(rec: PiquetRecord, n_tricks: int, lead: int | None, hand_now: int) -> Description:
    s, o = rec.player, 1 - rec.player
    decls = {}
    for c, name in enumerate(CLASSES):
        out = rec.outcomes[c]
        if out.winner == EQUAL:
            result = "equal"
        elif out.winner == NONE:
            result = "none"
        else:
            result = "mine" if out.winner == s else "his"
        decls[name] = ClassOutcome(rec.kinds[s][c], result, out.cards if result == "his" else 0)
    return Description(
        role=ROLES[s],
        hand=hand_now,
        discard=mask_bits(rec.discard[s]),
        took=list(rec.took[s]),
        left=rec.left if s == 0 else None,
        talon=rec.left if s == 1 else None,
        opponent_took=rec.took_n[o],
        opponent_carte_blanche=o in rec.blanche,
        opponent_carte_rouge=o in rec.rouge,
        declarations=decls,
        tricks=list(rec.tricks[:n_tricks]),
        lead=lead,
    )


def _one_hand_state(rec: PiquetRecord, rules: Rules, seed: int, n: int, lead, hand_now, place):
    def make():
        try:
            return from_description(_description(rec, n, lead, hand_now), rules, seed=seed)
        except InputError as err:
            raise R.RecordError(f"{place}: {err}") from None

    return make


def _deal_view(rec: PiquetRecord, tasks_at: dict, final: PiquetState | None) -> dict:
    """The page's view of the deal: hands, the exchange, the declarations, the tricks."""
    s = rec.player
    hands = []
    for x, role in enumerate(ROLES):
        if rec.dealt[x] is not None:
            hands.append(
                {"seat": role, "label": f"{role}, dealt", "cards": C.card_names(rec.dealt[x])}
            )
    if rec.talon is not None:
        hands.append(
            {
                "seat": "talon",
                "label": "talon, top first",
                "cards": [C.card_name(c) for c in rec.talon],
            }
        )
    ex_items = []
    for x, role in enumerate(ROLES):
        d = rec.discard[x]
        took = rec.took[x]
        if d is not None:
            text = f"{role} discarded {_names(d) or 'nothing'}"
            text += f" and took {_list(took)}" if took else ""
        else:
            text = f"{role} took {rec.took_n[x]} card(s)"
        ex_items.append({"text": text, "decision": tasks_at.get("exchange") if x == s else None})
    if rec.left:
        ex_items.append({"text": f"talon cards {ROLES[s]} saw that nobody took: {_list(rec.left)}"})
    de_items = []
    for x, role in enumerate(ROLES):
        if rec.kinds[x] is not None:
            de_items.append(
                {
                    "text": f"{role} declares {_kinds_text(rec.kinds[x])}",
                    "decision": tasks_at.get("declare") if x == s else None,
                }
            )
    for c, name in enumerate(CLASSES):
        if c in rec.outcomes:
            out = rec.outcomes[c]
            who = {EQUAL: "equal: nobody scores", NONE: "nobody declared one"}.get(out.winner)
            if who is None:
                who = f"{ROLES[out.winner]} scores" + (
                    f" (showed {_names(out.cards)})" if out.cards else ""
                )
            de_items.append({"text": f"{name}: {who}"})
    if final is not None:
        e, y, _ = final.declaration_points()
        de_items.append({"text": f"declaration points: elder {sum(e)}, younger {sum(y)}"})
    tricks = []
    leader = 0
    for i, (a, b) in enumerate(rec.tricks, 1):
        cards = [
            {
                "seat": ROLES[leader],
                "card": C.card_name(a),
                "led": True,
                "decision": tasks_at.get(("card", i)) if leader == s else None,
            },
            {
                "seat": ROLES[1 - leader],
                "card": C.card_name(b),
                "decision": tasks_at.get(("card", i)) if leader != s else None,
            },
        ]
        w = trick_winner(leader, a, b)
        tricks.append({"number": i, "cards": cards, "winner": ROLES[w]})
        leader = w
    result = []
    if final is not None:
        sc = final.score()
        result.append(
            f"Deal points: elder {sc['elder']['total']}, younger {sc['younger']['total']} "
            f"(tricks {sc['elder']['tricks']}-{sc['younger']['tricks']}); net for "
            f"{ROLES[s]} {final.net(s):+d}"
        )
    return {
        "seats": list(ROLES),
        "player": ROLES[s],
        "hands": hands,
        "phases": [
            {"title": "Exchange", "items": ex_items},
            {"title": "Declarations", "items": de_items},
        ],
        "tricks": tricks,
        "result": result,
    }


def review_tasks(
    rec: PiquetRecord, rules: Rules = DEFAULT_RULES, settings: ReviewSettings = ReviewSettings()
):
    """(the tasks of the player's decisions, the page's view of the deal, notes), the record
    checked first (RecordError)."""
    s = rec.player
    st = settings
    tasks = R.Tasks()
    notes = []
    final = None
    if rec.full:
        steps, final = replay(rec, rules, st.seed)
        my_steps = [(state, a, p) for state, a, p in steps if state.current_player() == s]
        tasks.add("exchange", _exchange_task(rec, rules, st, tasks.next))
        decl = next((state for state, _, _ in steps if state.phase == "declare"), None)
        if decl is not None:
            held = decl.decl_hands[s]
            tasks.add("declare", _declare_task(rec, rules, st, tasks.next, decl, held))
        for state, a, _ in my_steps:
            if state.phase != "play":
                continue
            trick = state.trick + 1
            lead = state.lead if state.lead >= 0 else None
            tasks.add(
                ("card", trick), _card_task(tasks.next, trick, lead, a, state.clone, st, st.exact)
            )
        if len(rec.tricks) < 12:
            notes.append(f"the record stops after {len(rec.tricks)} trick(s)")
    else:
        points = _check_one_hand(rec, rules)
        tasks.add("exchange", _exchange_task(rec, rules, st, tasks.next))
        held = (rec.dealt[s] & ~rec.discard[s]) | C.cards_to_mask(rec.took[s])
        tasks.add("declare", _declare_task(rec, rules, st, tasks.next, None, held))
        for i, lead, mine, hand in points:
            place = f"{rec.place('tricks')}, trick {i}"
            make = _one_hand_state(rec, rules, st.seed, i - 1, lead, hand, place)
            tasks.add(("card", i), _card_task(tasks.next, i, lead, mine, make, st, False))
        notes.append("only the player's hand is known: no exact (double-dummy) costs")
        if len(rec.tricks) < 12:
            notes.append(f"the record stops after {len(rec.tricks)} trick(s)")
    return tasks, _deal_view(rec, tasks.at, final), notes


def review_record(
    rec: PiquetRecord,
    rules: Rules = DEFAULT_RULES,
    settings: ReviewSettings = ReviewSettings(),
    progress=None,
) -> R.Review:
    """Review every decision of the record's player (see the module docstring)."""
    tasks, deal, notes = review_tasks(rec, rules, settings)
    return review_from_tasks(rec, rules, settings, tasks, deal, notes, progress)


def review_from_tasks(rec, rules, settings, tasks, deal, notes, progress=None) -> R.Review:
    """Run the tasks of :func:`review_tasks` (a progress bar can be sized from them first)."""
    return R.review(
        GAME,
        f"Review of a Piquet deal ({'every hand known' if rec.full else 'one hand known'})",
        ROLES[rec.player],
        UNIT,
        record_json(rec),
        deal,
        tasks,
        progress=progress,
        settings={"rules": rules.to_dict(), **settings.to_dict()},
        notes=notes,
        phases=PHASES,
    )


def entry_kernels() -> tuple:
    """The kernels a review calls first (for a compile notice on a cold cache)."""
    from .advice import entry_kernels as play_kernels
    from .sinking import entry_kernels as sink_kernels

    return (*play_kernels(), *sink_kernels())


__all__ = [
    "QUICK",
    "RECORD_FORM",
    "PiquetRecord",
    "ReviewSettings",
    "check_record",
    "parse_record",
    "parse_record_json",
    "read_record",
    "record_from_state",
    "record_json",
    "record_text",
    "replay",
    "review_from_tasks",
    "review_record",
    "review_tasks",
]
