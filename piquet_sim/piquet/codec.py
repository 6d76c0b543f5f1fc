"""Piquet's record codec (the game definition's ``codec``): the one grammar of ``review``
files and ``play --history`` read by :mod:`.record`, written back here (text and JSON, and
the record of a deal played through a state, every hand or only what a player saw)."""

from __future__ import annotations

from ..core.game import record as R
from . import cards as C
from .actions import CLASSES, DECLARE, END, KINDS, ROLES
from .dialogue import EQUAL, NONE
from .record import (
    _KEYS,
    GAME,
    RECORD_FORM,
    Outcome,
    PiquetRecord,
    _names,
    _raw_from_json,
    record_from_clauses,
)


def record_from_state(state, player: int, every_hand: bool = True) -> PiquetRecord:
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
    if len(tricks) % 2:  # a trick in progress: the card led to the player
        rec.lead = tricks[-1]
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
    for c, name in enumerate(CLASSES):
        if c in rec.calls:
            lines.append(f"{name} calls: {rec.calls[c].text()}")
    if rec.tricks:
        lines.append(
            "tricks: " + " ".join(f"{C.card_name(a)}-{C.card_name(b)}" for a, b in rec.tricks)
        )
    if rec.lead is not None:
        lines.append(f"lead: {C.card_name(rec.lead)}")
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
    if rec.calls:  # only when spoken: records without a dialogue keep their form
        out["calls"] = {
            CLASSES[c]: [u.text for u in d.utterances] for c, d in sorted(rec.calls.items())
        }
    out["tricks"] = [[C.card_name(a), C.card_name(b)] for a, b in rec.tricks]
    if rec.lead is not None:
        out["lead"] = C.card_name(rec.lead)
    return out


def _history_place(key: str) -> str:
    """How a one-line ``--history`` names a canonical key in an error: the key as typed."""
    kind, _, name = key.partition(":")
    if kind == "outcome":
        return name
    return f"{name} calls" if kind == "calls" else key


class PiquetCodec(R.RecordCodec):
    """Piquet's record grammar (module docstring; :data:`RECORD_FORM`)."""

    game = GAME
    form = RECORD_FORM
    noun = "a Piquet deal"

    key_of = staticmethod(_KEYS.get)
    keys_help = f"the keys: {RECORD_FORM}"
    history_place = staticmethod(_history_place)

    def json_clauses(self, data) -> tuple[dict, dict]:
        return _raw_from_json(data)

    def build(
        self, raw: dict, places: dict, rules, player: int | None, hand: int | None
    ) -> PiquetRecord:
        """The record of the clauses (the core's ``RecordCodec.build``; a Piquet record does
        not depend on the rules)."""
        return record_from_clauses(raw, places, player, hand)

    def text(self, rec: PiquetRecord) -> str:
        return record_text(rec)

    def json(self, rec: PiquetRecord) -> dict:
        return record_json(rec)

    def from_state(self, state, player: int, every_hand: bool = True) -> PiquetRecord:
        return record_from_state(state, player, every_hand)


#: The grammar, one instance (the definition's ``codec``).
CODEC = PiquetCodec()
