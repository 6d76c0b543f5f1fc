"""Piquet's one record grammar: a deal as a player tells it, for ``review`` files and ``play
--history`` alike, read into a :class:`PiquetRecord` (written back, and served as the game
definition's ``codec``, by :mod:`.codec`).

A record gives the dealt hands (both, with the talon: a review replays the deal card by card;
or only the player's), each player's discard and draw (or only his count), what the player saw
of the talon, carte blanche and carte rouge, each player's declarations (declare, sink or the
lesser, class by class) and who scored each class with the cards shown, and the tricks
(``LEAD-REPLY``). Keys name whose they are (``elder discard:``) or, for the player, need not
(``discard:``, ``took:``, ``point: mine`` or ``point: sunk, his KC QC JC``). For ``play`` the
player and the cards he holds now come from the command line, the record ends where the
position is, and ``lead: CARD`` gives the card led to him in the trick in progress. Every fault
is a :class:`~piquet_sim.core.game.record.RecordError` naming its place, in one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.engine.errors import InputError
from ..core.game import record as R
from . import cards as C
from .actions import CLASSES, DECLARE, KINDS, LESSER, ROLES, SINK, parse_action
from .dialogue import EQUAL, NONE, Dialogue, DialogueError, parse_dialogue, seat_winner

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
    "other showed); point calls: / sequence calls: / sets calls: ROLE WORDS, ... (the dialogue "
    "in order: 'elder five, younger equal, elder 44, younger not good'); tricks: LEAD-REPLY "
    "... (in order, leader's card first)"
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
    "point calls": "calls:point",
    "sequence calls": "calls:sequence",
    "sequences calls": "calls:sequence",
    "sets calls": "calls:sets",
    "set calls": "calls:sets",
    "lead": "lead",
    "led": "lead",
    "opponent took": "took:opponent",
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
    hand_now: int | None = None
    lead: int | None = None
    #: each class's declaration dialogue as spoken (class -> Dialogue)
    calls: dict[int, Dialogue] = field(default_factory=dict)
    #: the classes whose kind (declare, sink, lesser) the player said; the others follow his
    #: calls when he called (``description.description_view``), else he declared
    said: set[int] = field(default_factory=set)


_err = R.record_error


def _names(mask: int) -> str:
    return C.format_cards(mask)


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
        if str(w).lower() in ("-", "none", "no", "nobody", "false"):
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
    head = {"good": "mine", "not": "his", "theirs": "his"}.get(words[0].lower(), words[0].lower())
    rest = words[1:]
    if words[0].lower() == "not" and rest and rest[0].lower() == "good":  # "not good CARDS"
        rest = rest[1:]
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
        elif (
            k == "declarations"
            and isinstance(v, dict)
            and v
            and all(str(c).lower().rstrip("s") in ("point", "sequence", "set") for c in v)
        ):  # the play form: each class as the player tells it {own, result, cards, calls}
            for cls, out in v.items():
                name = CLASSES[_class_index(cls, f"key declarations.{cls}")]
                if isinstance(out, dict) and "calls" in out:
                    out = dict(out)
                    put(f"calls:{name}", out.pop("calls"), f"declarations.{cls}.calls")
                    if not any(k in out for k in ("result", "winner")):
                        if "own" in out:
                            put(f"own:{name}", out["own"], f"declarations.{cls}.own")
                        continue
                put(f"outcome:{name}", out, f"declarations.{cls}")
        elif k == "calls":
            if not isinstance(v, dict):
                raise R.RecordError("key calls: an object {point: [...], sequence: [...], ...}")
            for cls, said in v.items():
                name = CLASSES[_class_index(cls, f"key calls.{cls}")]
                put(f"calls:{name}", said, f"calls.{cls}")
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
                    "carte_blanche, carte_rouge, declarations, outcomes, calls, tricks)"
                )
            put(key, v, k)
    return raw, places


def record_from_clauses(
    raw: dict, places: dict, player: int | None = None, hand: int | None = None
) -> PiquetRecord:
    """The record of the clauses (its ``game`` checked by the core's codec), checked as far as
    needs no play; ``player`` and ``hand``: a ``play`` position's seat and the cards he holds
    now (no dealt hand is given then)."""
    where = R.place_of(places)
    playing = player is not None
    if not playing:
        player = R.reviewed_player(raw, places, _role, "'player: elder' or 'player: younger'")
    me, him = ROLES[player], ROLES[1 - player]

    def alias(key):  # 'hand:player' -> 'hand:elder', 'took:opponent' -> 'took:younger'
        kind, _, who = key.partition(":")
        return {"player": f"{kind}:{me}", "opponent": f"{kind}:{him}"}.get(who, key)

    if playing and f"took:{me}" in raw and "took:player" in raw:
        raise _err(
            where(f"took:{me}"),
            f"'{me} took' is your own count: say 'took: CARDS'; give '{him} took: N'",
        )
    fixed: dict = {}
    for key, value in raw.items():
        k = alias(key)
        if k in fixed:
            raise _err(where(key), f"given twice (also at {where(k)})")
        fixed[k] = value
        places[k] = where(key)
    raw = fixed
    rec = PiquetRecord(player=player, dealt=[None, None], places=places, hand_now=hand)
    for s, role in enumerate(ROLES):
        key = f"hand:{role}"
        if key in raw and playing:
            raise _err(where(key), "a play history tells what you saw: your cards now are HAND")
        if key in raw:
            cards = _cards(raw[key], where(key))
            if len(cards) != 12:
                raise _err(where(key), f"a dealt hand is 12 cards, got {len(cards)}")
            rec.dealt[s] = C.cards_to_mask(cards)
    if rec.dealt[player] is None and not playing:
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
            if s == player:
                rec.said = {0, 1, 2}
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
            rec.said.add(c)
    for c, name in enumerate(CLASSES):
        if f"own:{name}" in raw:  # a play-form class given by its calls and the player's kind
            if rec.kinds[player] is None:
                rec.kinds[player] = [DECLARE] * 3
            rec.kinds[player][c] = _kind(raw[f"own:{name}"], where(f"own:{name}"))
            rec.said.add(c)
    _read_calls(rec, raw, where, player)
    if rec.kinds[player] is None:
        rec.kinds[player] = [DECLARE] * 3
    if rec.full and rec.kinds[1 - player] is None:
        rec.kinds[1 - player] = [DECLARE] * 3
    rec.tricks = _tricks(raw.get("tricks"), where("tricks"))
    if raw.get("lead") is not None:
        led = _cards(raw["lead"], where("lead"))
        if len(led) > 1:
            raise _err(where("lead"), "one card: the card led to you in this trick")
        rec.lead = led[0] if led else None
    return rec


def _read_calls(rec: PiquetRecord, raw: dict, where, player: int) -> None:
    """Each class's dialogue (``point calls:`` ...), checked in itself and against the class's
    outcome clause; a class with calls and no outcome clause takes the winner the calls settle
    (else it must be said)."""
    for c, name in enumerate(CLASSES):
        key = f"calls:{name}"
        if key not in raw:
            continue
        place = where(key)
        try:
            dialogue = parse_dialogue(c, raw[key], lambda w, p=place: _role(w, p, player))
        except DialogueError as err:
            raise _err(place, str(err)) from None
        rec.calls[c] = dialogue
        elder, younger = dialogue.bounds()
        settled = seat_winner(elder, younger)
        out = rec.outcomes.get(c)
        if out is None:
            if settled is not None:
                rec.outcomes[c] = Outcome(settled)
            continue
        if settled is not None and settled != out.winner:
            said = {EQUAL: "equal", NONE: "none"}.get(out.winner) or ROLES[out.winner]
            real = {EQUAL: "equal", NONE: "none"}.get(settled) or ROLES[settled]
            raise _err(where(f"outcome:{name}"), f"the calls give it to {real}, not {said}")
