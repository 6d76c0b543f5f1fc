"""Pitch's one record grammar: a round as a player tells it, for ``review`` files and ``play
--history`` alike (:class:`PitchCodec`, the game definition's ``codec``).

A record gives the number of players, whose decisions, the dealt hands (every seat's, or only
the player's), the auction from seat 0, the tricks in playing order from their leaders (the
bidder leads the first: its first card is the pitch; the last trick possibly unfinished) and
optionally the trump (checked against the pitch; before the pitch, the suit the bidder must
pitch). For ``play`` the player's seat, the number of players and the cards he holds now come
from the command line and the record ends where the position is: it gives no hand (``players:``
and ``player:`` may still be written; they must agree). Every fault is a
:class:`~piquet_sim.core.game.record.RecordError` naming its place (a line and key of the text,
a key of the JSON; in a one-line ``--history``, the key), in one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.engine.errors import InputError
from ..core.game import record as R
from ..core.game.position import State
from . import cards as C
from .rules import DEFAULT_RULES, Rules

GAME = "pitch"

#: The record's text form, documented once (help texts and errors quote it).
RECORD_FORM = (
    "lines or clauses 'key: value' ('#' comments; ';' between clauses): players: N (3 to 6); "
    "player: SEAT (whose decisions; 0 calls first, players-1 deals); 0: / 1: / ... CARDS (the "
    "dealt hands, 6 each: every hand, or only the player's; hand: is the player's; none in a "
    "play history, whose HAND is the cards held now); auction: the calls from seat 0 (pass or "
    "3..6, 'SEAT:CALL' allowed; the dealer's steal is his bid equal to the highest); trump: SUIT "
    "(optional: checked against the pitch); tricks: the cards of each trick from its leader "
    "(the bidder leads the first; its first card is the pitch), tricks separated by '/', the "
    "last one may be unfinished"
)
_JSON_KEYS = "game, players, player, hands, auction, trump, tricks"

_KEYS = {
    "game": "game",
    "player": "player",
    "seat": "player",
    "players": "players",
    "hand": "hand:player",
    "auction": "auction",
    "calls": "auction",
    "tricks": "tricks",
    "trump": "trump",
}


def call_name(call: int) -> str:
    """A call's text: ``pass`` or the bid (``4``)."""
    return "pass" if call == 0 else str(call)


def parse_call(text: str) -> int:
    """A call (0 pass, 3..6) from ``"pass"``/``"p"``/``"3"`` .. ``"6"`` (``"bid 4"``)."""
    t = text.strip().lower()
    if t in ("pass", "p", "0", "-"):
        return 0
    m = re.fullmatch(r"(?:bid\s*)?([3-6])", t)
    if not m:
        raise InputError(f"{text!r} is not a call (pass, or a bid 3 to 6)")
    return int(m.group(1))


def _key(text: str) -> str | None:
    """The canonical key of a typed key: ``2``, ``seat 2`` and ``2 hand`` are seat 2's hand."""
    t = text.strip().lower()
    m = t.removeprefix("seat ").removesuffix(" hand")
    if m.isdigit():
        return f"hand:{int(m)}"
    return _KEYS.get(t)


@dataclass
class PitchRecord(R.Record):
    """A round as a player tells it: seats 0..players-1; masks for hands, ``None`` where the
    record does not give one; ``calls`` from seat 0 (0 pass, 3..6); ``trump``: the suit given
    (None: not said); ``hand_now``: the cards the player holds at the end of the record
    (``play``: from the command line; None in a review file)."""

    player: int
    players: int
    dealt: list[int | None]
    calls: list[int]
    tricks: list[list[int]] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)
    trump: int | None = None
    hand_now: int | None = None

    @property
    def bidder(self) -> int:
        """The seat that won the auction (the last of the highest bid), -1 before any bid."""
        top = max(self.calls, default=0)
        if top == 0:
            return -1
        return max(s for s, c in enumerate(self.calls) if c == top)

    def table_rules(self, rules: Rules) -> Rules:
        """``rules`` for the record's number of players."""
        return rules if rules.players == self.players else rules.replace(players=self.players)


def _typed(key: str) -> str:
    """A canonical key as typed: ``hand:2`` is ``2``, ``hand:player`` is ``hand``."""
    if key.startswith("hand:"):
        return "hand" if key == "hand:player" else key[5:]
    return key


def _int(value, place: str, lo: int, hi: int, what: str) -> int:
    try:
        n = int(str(value).strip())
    except ValueError:
        raise R.record_error(place, f"{what}: a whole number, got {value!r}") from None
    if not lo <= n <= hi:
        raise R.record_error(place, f"{what} is {lo} to {hi}, not {n}")
    return n


def calls_value(value, players: int, place: str) -> list[int]:
    """The calls from seat 0 of ``pass 3 pass``, ``0:pass 1:3`` or a JSON list (``"pass"``,
    3 …); ``-`` or nothing for none yet."""
    if value is None:
        return []
    items = value if isinstance(value, list) else re.split(r"[\s,]+", str(value).strip())
    items = [str(x).strip() for x in items if str(x).strip()]
    if len(items) == 1 and items[0].lower() in ("-", "none"):
        return []
    calls = []
    for i, text in enumerate(items):
        m = re.fullmatch(r"(\d+)\s*:\s*(.+)", text)
        if m:
            if int(m.group(1)) != i:
                raise R.record_error(place, f"item {text!r}: calls go in seat order from seat 0")
            text = m.group(2)
        try:
            calls.append(parse_call(text))
        except InputError as err:
            raise R.record_error(place, str(err)) from None
    if len(calls) > players:
        raise R.record_error(place, f"{len(calls)} calls at a table of {players}")
    return calls


def tricks_value(value, place: str) -> list[list[int]]:
    """The tricks' cards in playing order from each leader (``AC 7C 4C KC / 3H`` or a JSON list
    of tricks, each a list of cards or their text), the last possibly unfinished."""
    if value is None:
        return []
    if isinstance(value, list):
        groups = [t if isinstance(t, list) else str(t).split() for t in value]
    else:
        text = str(value).strip()
        if text in ("", "-"):
            return []
        groups = [g.split() for g in re.split(r"\s*[/|]\s*", text)]
    out = []
    for i, g in enumerate(groups, 1):
        try:
            out.append([C.parse_card(str(c)) for c in g])
        except C.CardError as err:
            raise R.record_error(place, f"trick {i}: {err}") from None
    if out and not out[-1]:
        out.pop()
    if any(not t for t in out):
        raise R.record_error(place, "an empty trick (two '/' in a row)")
    return out


def _trump_value(value, place: str) -> int | None:
    text = str(value).strip()
    if text.lower() in ("", "-", "none"):
        return None
    try:
        return C.parse_suit(text)
    except C.CardError as err:
        raise R.record_error(place, str(err)) from None


def _dealt(raw: dict, places: dict, players: int, player: int) -> list[int | None]:
    """The dealt hands of a review record by seat: the player's at least (``hand:`` is his),
    every seat's or only his, no card twice."""

    where = R.place_of(places)
    if "hand:player" in raw:
        key = f"hand:{player}"
        if key in raw:
            raise R.record_error(where("hand:player"), f"given twice (also at {where(key)})")
        raw[key], places[key] = raw.pop("hand:player"), where("hand:player")
    dealt: list[int | None] = [None] * players
    seen: dict[int, str] = {}
    for key in sorted((k for k in raw if k.startswith("hand:")), key=lambda k: int(k[5:])):
        s, place = int(key[5:]), where(key)
        if not 0 <= s < players:
            raise R.record_error(place, f"no seat {s} at {players} players")
        dealt[s] = R.dealt_hand(raw[key], place, C.PACK, C.HAND_SIZE)
        for c in C.mask_to_cards(dealt[s]):
            if c in seen:
                raise R.RecordError(
                    f"{C.card_name(c)} appears twice: in {seen[c]} and in seat {s}'s hand ({place})"
                )
            seen[c] = f"seat {s}'s hand ({place})"
    if dealt[player] is None:
        raise R.RecordError(f"give your dealt hand: '{player}: CARDS' (6 cards)")
    given = sum(h is not None for h in dealt)
    if given not in (1, players):
        raise R.RecordError(
            f"give every hand or only yours: {players} players need {players} hands, {given} given"
        )
    return dealt


def _auction_text(rec: PitchRecord) -> str:
    return "auction: " + " ".join(call_name(c) for c in rec.calls)


def _tricks_text(rec: PitchRecord) -> str:
    return "tricks: " + " / ".join(" ".join(C.card_name(c) for c in t) for t in rec.tricks)


def history_text(rec: PitchRecord) -> str:
    """What the record's player gives ``play --history`` at its end: its auction, trump and
    tricks on one line (no hand: his cards now are the command's HAND)."""
    parts = [_auction_text(rec) if rec.calls else "auction: -"]
    if rec.trump is not None:
        parts.append(f"trump: {C.SUITS[rec.trump]}")
    if rec.tricks:
        parts.append(_tricks_text(rec))
    return "; ".join(parts)


class PitchCodec(R.RecordCodec):
    """Pitch's record grammar (module docstring; :data:`RECORD_FORM`)."""

    game = GAME
    form = RECORD_FORM
    noun = "a Pitch round"
    default_rules = DEFAULT_RULES

    key_of = staticmethod(_key)
    history_place = staticmethod(_typed)  # "0" for hand:0

    def json_clauses(self, data) -> tuple[dict, dict]:
        if isinstance(data, dict) and isinstance(data.get("hands"), list):
            # the hands as a list by seat (null: not given) are the object by seat
            hands = {str(s): h for s, h in enumerate(data["hands"]) if h is not None}
            data = {**data, "hands": hands}
        raw, places = R.json_clauses(data, _key, _JSON_KEYS, {"hands": "hand:{}"})
        for key in [k for k in raw if k.startswith("hand:") and k != "hand:player"]:
            seat = _key(key[5:])
            if seat is None or seat == "hand:player":
                raise R.record_error(places[key], "a seat number")
            if raw[key] is None:  # a seat whose hand is not given
                del raw[key], places[key]
                continue
            raw[seat], places[seat] = raw.pop(key), places.pop(key)
        return raw, places

    def build(
        self, raw: dict, places: dict, rules: Rules, player: int | None, hand: int | None
    ) -> PitchRecord:
        """The record of the clauses (the core's ``RecordCodec.build``)."""
        where = R.place_of(places)
        hands = {k: v for k, v in raw.items() if k.startswith("hand:")}
        playing = player is not None
        if playing:
            players = rules.players
            if hands:
                raise R.record_error(
                    where(next(iter(hands))),
                    "a play history tells what you saw: give your cards now as HAND",
                )
            if "players" in raw:
                said = _int(raw["players"], where("players"), 3, 6, "players")
                if said != players:
                    raise R.record_error(
                        where("players"),
                        f"{said} players but the rules are for {players} (--players)",
                    )
            if "player" in raw:
                said = _int(raw["player"], where("player"), 0, players - 1, "the player's seat")
                if said != player:
                    raise R.record_error(where("player"), f"seat {said}, but --seat is {player}")
            dealt: list[int | None] = [None] * players
        else:
            seats = [k for k in hands if k != "hand:player"]
            if "players" in raw:
                players = _int(raw["players"], where("players"), 3, 6, "players")
            elif len(seats) >= 3:
                players = len(seats)
            else:
                raise R.RecordError("say how many played: 'players: N' (3 to 6)")
            player = R.reviewed_player(
                raw,
                places,
                lambda text, place: _int(text, place, 0, players - 1, "the player's seat"),
                f"'player: SEAT' (0 to {players - 1})",
            )
            dealt = _dealt(raw, places, players, player)
        calls = calls_value(raw.get("auction"), players, where("auction"))
        tricks = tricks_value(raw.get("tricks"), where("tricks"))
        trump = _trump_value(raw["trump"], where("trump")) if "trump" in raw else None
        if trump is not None and tricks and tricks[0][0] >> 4 != trump:
            pitch = tricks[0][0]
            raise R.record_error(
                where("trump"),
                f"{C.SUITS[trump]} given but the pitch {C.card_name(pitch)} makes "
                f"{C.SUITS[pitch >> 4]} trump",
            )
        return PitchRecord(player, players, dealt, calls, tricks, places, trump, hand)

    def text(self, rec: PitchRecord) -> str:
        lines = [f"game: {GAME}", f"players: {rec.players}", f"player: {rec.player}"]
        lines += [f"{s}: {C.format_cards(h)}" for s, h in enumerate(rec.dealt) if h is not None]
        lines.append(_auction_text(rec))
        if rec.trump is not None:
            lines.append(f"trump: {C.SUITS[rec.trump]}")
        if rec.tricks:
            lines.append(_tricks_text(rec))
        return "\n".join(lines) + "\n"

    def json(self, rec: PitchRecord) -> dict:
        out: dict = {
            "game": GAME,
            "players": rec.players,
            "player": rec.player,
            "hands": {
                str(s): C.PACK.card_names(h) for s, h in enumerate(rec.dealt) if h is not None
            },
            "auction": [call_name(c) for c in rec.calls],
        }
        if rec.trump is not None:
            out["trump"] = C.SUITS[rec.trump]
        out["tricks"] = [[C.card_name(c) for c in t] for t in rec.tricks]
        return out

    def from_state(self, state: State, player: int, every_hand: bool = True) -> PitchRecord:
        """The record of a round played through ``state`` (a ``PitchState``), for ``player``:
        every hand or only his; the trump when it was given before the pitch
        (``PitchState.from_hands``)."""
        tricks = [list(t) for t in state.finished]
        if state.trick:
            tricks.append(list(state.trick))
        dealt = list(state.dealt) if every_hand else [None] * state.n
        dealt[player] = state.dealt[player]
        trump = state.given_trump if state.given_trump >= 0 else None
        return PitchRecord(player, state.n, dealt, list(state.calls), tricks, trump=trump)


#: The grammar, one instance (the definition's ``codec``).
CODEC = PitchCodec()

__all__ = [
    "CODEC",
    "RECORD_FORM",
    "PitchCodec",
    "PitchRecord",
    "call_name",
    "calls_value",
    "history_text",
    "parse_call",
    "tricks_value",
]
