"""Deal records, for every game: the text form (lines ``key: value``, ``#`` comments, ``;``
between clauses on a line) and the JSON form, read into canonical keys with the place each was
written, and the errors that name that place.

Each game documents its keys (``docs/review.md``) and builds its record class (a
:class:`Record`) from the clauses; the same grammar serves ``review`` files and ``play
--history`` (the position at the end of a record).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..engine.cards import Pack, cards_to_mask
from ..engine.errors import InputError


class RecordError(InputError):
    """A deal record that does not parse or breaks the rules: the message names the place (a
    line of the text form or a key of the JSON form) and what is wrong, in one line."""


@dataclass(frozen=True)
class Clause:
    """One ``key: value`` clause of a text record: the key (lower case, single spaces), the
    value (stripped) and the line it is on (1-based)."""

    key: str
    value: str
    line: int

    @property
    def place(self) -> str:
        return f"line {self.line} ({self.key})"


def record_lines(text: str) -> list[Clause]:
    """The clauses of a text record: one ``key: value`` per line or several separated by ``;``;
    ``#`` starts a comment; blank lines are skipped. A clause without a colon is a
    :class:`RecordError` naming its line."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        for part in line.split(";"):
            part = part.strip()
            if not part:
                continue
            if ":" not in part:
                raise RecordError(f"line {n}: {part!r} is not 'key: value'")
            key, value = part.split(":", 1)
            key = re.sub(r"\s+", " ", key.strip().lower())
            out.append(Clause(key, value.strip(), n))
    return out


def read_record(path: Path | str) -> tuple[str, object]:
    """A record file's contents: ``("json", object)`` when it holds JSON (a ``.json`` name or
    text starting with ``{``), else ``("text", str)``. Unreadable files and bad JSON are
    :class:`RecordError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"cannot read {path}: {err}") from None
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            return "json", json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(
                f"{path} is not JSON: {err.msg} (line {err.lineno}, column {err.colno})"
            ) from None
    return "text", text


def record_error(place: str, message: str) -> RecordError:
    """A :class:`RecordError` at ``place`` (a line or a key): ``"place: message"``."""
    return RecordError(f"{place}: {message}")


def raw_clauses(
    text: str, key_of: Callable[[str], str | None], keys_help: str
) -> tuple[dict, dict]:
    """A text record's clauses by canonical key: (key -> value, key -> place).
    ``key_of(typed key)`` is the canonical key, None for an unknown one (a RecordError quoting
    ``keys_help``); a key given twice is a RecordError naming both places."""
    raw: dict = {}
    places: dict = {}
    for clause in record_lines(text):
        key = key_of(clause.key)
        if key is None:
            raise RecordError(f"{clause.place}: unknown key {clause.key!r} ({keys_help})")
        if key in raw:
            raise RecordError(f"{clause.place}: given twice (first at {places[key]})")
        raw[key] = clause.value
        places[key] = clause.place
    return raw, places


class Record:
    """What every game's record class (a dataclass) shares: ``dealt`` (the dealt hands by seat,
    None where the record does not give one) and ``places`` (canonical key -> where it was
    written: errors name it)."""

    dealt: list
    places: dict

    @property
    def full(self) -> bool:
        """Every hand known: the deal can be replayed card by card."""
        return all(h is not None for h in self.dealt)

    def place(self, key: str) -> str:
        """Where ``key`` was written (the key itself when it was not)."""
        return self.places.get(key, key)


class Replay:
    """A record being replayed from ``state``: :meth:`act` keeps the position before each
    action (``steps``: (state, action, place)) and turns an illegal action into a RecordError
    at its place."""

    def __init__(self, state: object):
        self.state = state
        self.steps: list[tuple] = []

    def act(self, action: int, place: str) -> None:
        self.steps.append((self.state.clone(), action, place))
        try:
            self.state.apply(action)
        except InputError as err:
            raise record_error(place, str(err)) from None


def dealt_hand(value: object, place: str, pack: Pack, size: int) -> int:
    """The mask of a dealt hand given as text or a JSON list of card strings: exactly ``size``
    distinct cards of ``pack``, else a RecordError at ``place``."""
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    try:
        cards = pack.parse_list(str(value))
    except InputError as err:
        raise record_error(place, str(err)) from None
    if len(cards) != size:
        raise record_error(place, f"a dealt hand is {size} cards, got {len(cards)}")
    return cards_to_mask(cards)
