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
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.cards import Pack, cards_to_mask
from ..engine.errors import InputError

if TYPE_CHECKING:
    from .position import State


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
    for n, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
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
        text = path.read_text(encoding="utf-8-sig")  # Notepad's "UTF-8" starts with a BOM
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


def check_game(raw: Mapping[str, object], places: Mapping[str, str], game: str, noun: str) -> None:
    """Refuse a record whose ``game`` key names another game (absent: this one), at its place:
    "this is a <game> record, not <noun>"."""
    named = str(raw.get("game", game)).strip().lower()
    if named != game:
        raise record_error(places.get("game", "game"), f"this is a {named} record, not {noun}")


def place_of(places: Mapping[str, str]) -> Callable[[str], str]:
    """Where a key was written, ``where(key)``: its place in ``places``, else the key itself."""
    return lambda key: places.get(key, key)


def reviewed_player(
    raw: Mapping[str, str], places: Mapping[str, str], seat_of: Callable[[str, str], int], say: str
) -> int:
    """The seat whose decisions a review record names (its ``player`` key), read by the game's
    ``seat_of(text, place)``; without the key, one line saying what to write (``say``)."""
    if "player" not in raw:
        raise RecordError(f"say whose decisions to review: {say}")
    return seat_of(raw["player"], places.get("player", "player"))


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
            raise unknown_key(clause.place, clause.key, keys_help)
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

    @classmethod
    def of(cls, deal: Callable[[], object]) -> Replay:
        """A replay from the state ``deal()`` returns: the record's dealt cards, which a
        RecordError refuses where the state refuses them (an InputError)."""
        try:
            state = deal()
        except InputError as err:
            raise RecordError(str(err)) from None
        return cls(state)

    def act(self, action: int, place: str) -> None:
        self.steps.append((self.state.clone(), action, place))
        try:
            self.state.apply(action)
        except InputError as err:
            raise record_error(place, str(err)) from None

    def play_tricks(self, tricks: Sequence[Sequence[int]], place: str) -> None:
        """Every card of ``tricks`` acted in order, at ``"{place}, trick {i}"``."""
        for i, cards in enumerate(tricks, 1):
            for card in cards:
                self.act(card, f"{place}, trick {i}")


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


def unknown_key(place: str, key: str, known: str) -> RecordError:
    """An unknown key, named with the keys the record knows (quoted in full only when short:
    a long key list is pointed to, not printed on one line)."""
    if len(known) > 160:
        known = "see --help or docs/review.md for the keys"
    return RecordError(f"{place}: unknown key {key!r} ({known})")


def json_clauses(
    data: object, key_of: Callable[[str], str | None], keys_help: str, spread: Mapping[str, str]
) -> tuple[dict, dict]:
    """A JSON record's keys as canonical keys: (key -> value, key -> place ``key K``). A key
    of ``spread`` holds an object whose members are keys of their own (``{"hands": {"N":
    [...]}}`` with ``spread = {"hands": "hand:{}"}``: ``hand:N``); ``key_of(name)`` names the
    others (None: unknown, a RecordError quoting ``keys_help``)."""
    if not isinstance(data, dict):
        raise RecordError("the record JSON must be an object")
    raw: dict = {}
    places: dict = {}
    for k, v in data.items():
        name = str(k)
        if name in spread:
            if not isinstance(v, dict):
                raise RecordError(f"key {name}: an object of {spread[name].format('…')} values")
            for inner, value in v.items():
                key = spread[name].format(inner)
                raw[key], places[key] = value, f"key {name}.{inner}"
            continue
        key = key_of(name.lower().replace("_", " ")) or key_of(name.lower())
        if key is None:
            raise unknown_key(f"key {name}", name, keys_help)
        if key in raw:
            raise RecordError(f"key {name}: given twice (first at {places[key]})")
        raw[key], places[key] = v, f"key {name}"
    return raw, places


class RecordCodec(ABC):
    """A game's one record grammar (its hook ``codec``): the text form and the JSON form of a
    deal as one player tells it, for ``review`` files and ``play --history`` alike.

    A record read for ``play`` names its player (``player``) and the cards he holds now
    (``hand``) from the command line; the record ends where the position is. Every fault is a
    :class:`RecordError` naming its place, in one line, before any long work."""

    #: The game's name, as the record's ``game:`` key writes it.
    game: str = ""
    #: The text form in words (help texts and errors quote it).
    form: str = ""
    #: One record in words ("a Pilotta round"): a record whose ``game`` names another game is
    #: refused as not one, before :meth:`build` reads it.
    noun: str = "a record of this game"
    #: The rules :meth:`build` is given when the caller gives none (None: the game's record
    #: does not depend on its rules).
    default_rules: Any = None

    def parse(
        self, text: str, rules: Any = None, *, player: int | None = None, hand: int | None = None
    ) -> Record:
        """A record from its text form; ``player`` and ``hand``: a ``play`` position's seat
        and the cards he holds now (a review file names its player and dealt hands)."""
        raw, places = self.text_clauses(text, history=player is not None)
        return self._checked_build(raw, places, rules, player, hand)

    def parse_json(
        self, data: object, rules: Any = None, *, player: int | None = None, hand: int | None = None
    ) -> Record:
        """A record from its JSON form (an object; see :meth:`parse`)."""
        raw, places = self.json_clauses(data)
        return self._checked_build(raw, places, rules, player, hand)

    def _checked_build(
        self, raw: dict, places: dict, rules: Any, player: int | None, hand: int | None
    ) -> Record:
        # The steps every game's record starts with, written once: its game, its rules.
        check_game(raw, places, self.game, self.noun)
        return self.build(raw, places, rules or self.default_rules, player, hand)

    #: The canonical key of a key as typed, None for an unknown one (:meth:`text_clauses`).
    key_of: Callable[[str], str | None]
    #: What the error of an unknown key quotes (empty: :attr:`form`).
    keys_help: str = ""

    def history_place(self, key: str) -> str:
        """How an error in a one-line ``play --history`` names a canonical key: as typed
        (default: the key itself)."""
        return key

    def text_clauses(self, text: str, history: bool) -> tuple[dict, dict]:
        """The text form's clauses: (value by canonical key, place by key) (:func:`raw_clauses`
        by :attr:`key_of`); ``history``: a one-line ``play --history``, whose places are its
        keys as typed (:meth:`history_place`)."""
        raw, places = raw_clauses(text, self.key_of, self.keys_help or self.form)
        if history:
            places = {k: self.history_place(k) for k in places}
        return raw, places

    @abstractmethod
    def json_clauses(self, data: object) -> tuple[dict, dict]:
        """The JSON form's clauses, as :meth:`text_clauses` (:func:`json_clauses`)."""

    @abstractmethod
    def build(
        self, raw: dict, places: dict, rules: Any, player: int | None, hand: int | None
    ) -> Record:
        """The record of the clauses (its ``game`` already checked), checked as far as needs
        no play (``rules``: the game's rules, :attr:`default_rules` when the caller gave none;
        ``player``, ``hand``: as :meth:`parse`)."""

    def read(self, path: Path | str, rules: Any = None) -> Record:
        """A record file, text or JSON (:func:`read_record`)."""
        kind, data = read_record(path)
        if kind == "json":
            return self.parse_json(data, rules)
        return self.parse(data, rules)

    @abstractmethod
    def text(self, record: Record) -> str:
        """The record's text form (:meth:`parse` reads it back)."""

    @abstractmethod
    def json(self, record: Record) -> dict:
        """The record's JSON form (:meth:`parse_json` reads it back)."""

    @abstractmethod
    def from_state(self, state: State, player: int, every_hand: bool = True) -> Record:
        """The record of a deal played through ``state`` so far, for ``player``: every hand,
        or only his and what he saw."""
