"""Pilotta's one record grammar: a round as a player tells it, for ``review`` files and ``play
--history`` alike (:class:`PilottaCodec`, the game definition's ``codec``).

A record gives the dealer, the auction (every call, or only the contract), who kept a tierce
unannounced, the cards each seat showed, the tricks in playing order (the last one possibly
unfinished) and the dealt hands: all four (a review replays the round card by card) or only the
player's. For ``play`` the player and the cards he holds now come from the command line and the
record ends where the position is. Every fault is a :class:`~piquet_sim.core.game.record.
RecordError` naming its place (a line and key of the text, a key of the JSON; in a one-line
``--history``, the key), in one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.engine.errors import InputError
from ..core.game import record as R
from . import cards as C
from .actions import KEEP_TIERCE, has_tierce
from .calls import Auction as CallAuction
from .rules import DEFAULT_RULES, Rules

GAME = "pilotta"

#: The record's text form, documented once (help texts and errors quote it).
RECORD_FORM = (
    "lines or clauses 'key: value' ('#' comments; ';' between clauses): player: SEAT (whose "
    "decisions; N, E, S or W); dealer: SEAT; N: / E: / S: / W: CARDS (the dealt hands, 8 each: "
    "every hand, or only the player's; hand: is the player's); auction: SEAT:CALL ... (every "
    "call in turn: N:pass E:90H ...) or contract: SEAT BID (E 90H, when the calls are not "
    "known); keep tierce: SEATS (who kept a tierce unannounced); declared: SEAT CARDS, ... "
    "(the cards each seat showed; yours default to everything your hand declares); tricks: "
    "CARDS, CARDS, ... (each trick in playing order from its leader, the last one possibly "
    "unfinished)"
)

_KEYS = {
    "game": "game",
    "player": "player",
    "seat": "player",
    "dealer": "dealer",
    "hand": "hand:player",
    "auction": "auction",
    "calls": "auction",
    "contract": "contract",
    "keep tierce": "keep_tierce",
    "keep_tierce": "keep_tierce",
    "kept tierce": "keep_tierce",
    "declared": "declared",
    "declarations": "declared",
    "announced": "declared",
    "tricks": "tricks",
    "played": "tricks",
}
for _s in C.SEATS:
    _KEYS[_s.lower()] = f"hand:{_s}"
    _KEYS[f"{_s.lower()} hand"] = f"hand:{_s}"


@dataclass
class PilottaRecord(R.Record):
    """A round as a player tells it: seats 0..3 (N E S W); masks for hands; ``None`` where the
    record does not say. ``calls``: the whole auction (seat, level or -1, suit), or None when
    only the ``contract`` (seat, level, suit) is known; ``declared``: the cards each seat
    showed (None: not given); ``hand_now``: the cards the player holds at the end of the record
    (``play``: from the command line; None in a review file)."""

    player: int
    dealer: int
    dealt: list[int | None]
    calls: list[tuple[int, int, int]] | None
    keep: set[int] = field(default_factory=set)
    declared: dict[int, int] | None = None
    tricks: list[list[int]] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)
    contract_only: tuple[int, int, int] | None = None
    hand_now: int | None = None

    @property
    def contract(self) -> tuple[int, int, int]:
        """(bidder, level, suit) of the contract."""
        if self.calls is None:
            return self.contract_only
        return next((p, lv, s) for p, lv, s in reversed(self.calls) if lv >= 0)


def _seat(value, place: str) -> int:
    try:
        return C.parse_seat(str(value))
    except InputError as err:
        raise R.record_error(place, str(err)) from None


def _cards(value, place: str, what: str = "") -> list[int]:
    """The cards of a value (text or a JSON list; '-' or 'none' for none); a bad card is a
    RecordError at ``place`` (``what``: which part of the value, e.g. "trick 2")."""
    if value is None:
        return []
    if isinstance(value, list | tuple):
        value = " ".join(str(v) for v in value)
    text = str(value).strip()
    if text.lower() in ("", "-", "none", "nothing"):
        return []
    try:
        return C.PACK.parse_list(text.replace("-", " "))
    except C.CardError as err:
        raise R.record_error(place, f"{what}: {err}" if what else str(err)) from None


def auction_value(value, dealer: int | None, rules: Rules, place: str) -> tuple[list, int]:
    """(calls, dealer) of 'E:pass S:90H …' (or a list of such tokens): the dealer is the seat
    before the first caller when not given; the calls are checked in turn."""
    from .actions import call_name, parse_call

    tokens = value if isinstance(value, list) else str(value).split()
    parsed = []
    for token in tokens:
        token = str(token).strip()
        if ":" not in token:
            raise R.record_error(place, f"'{token}': write each call as SEAT:CALL (E:pass, S:90H)")
        seat_text, call_text = token.split(":", 1)
        try:
            call = parse_call(call_text)
        except InputError as err:
            raise R.record_error(place, str(err)) from None
        parsed.append((token, _seat(seat_text, place), call))
    if not parsed:
        raise R.record_error(place, "no calls")
    dealer_given = dealer is not None
    if dealer is None:
        dealer = (parsed[0][1] + 3) % 4
    auction = CallAuction(dealer, rules.pass_is_final)
    calls = []
    for token, seat, (level, suit) in parsed:
        if auction.is_over():
            raise R.record_error(place, f"'{token}': the auction is already over")
        if seat != auction.to_speak():
            raise R.record_error(
                place,
                f"'{token}' is out of turn: it is {C.SEATS[auction.to_speak()]}'s call "
                f"(the dealer is {C.SEATS[dealer]})",
            )
        if level >= 0:
            last = auction.last_bid()
            if last is not None and level <= last[1]:
                raise R.record_error(
                    place, f"'{token}' must be higher than {call_name(last[1], last[2])}"
                )
            if not auction.may_bid(seat):
                raise R.record_error(place, f"'{token}': {C.SEATS[seat]} may not bid again")
        auction.call(level, suit)
        calls.append((seat, level, suit))
    if auction.last_bid() is None and auction.is_over():
        raise R.record_error(place, "all four passed: the cards are thrown in, nothing to play")
    if not auction.is_over():
        last = auction.last_bid()
        bid = f"{C.SEATS[last[0]]} {call_name(last[1], last[2])}" if last else "E 90H"
        told = f"dealer: {C.SEATS[dealer]}; " if not dealer_given else ""
        raise R.record_error(
            place,
            f"not over yet ({C.SEATS[auction.to_speak()]} to call): give every call, or the "
            f"contract in place of the auction ('{told}contract: {bid}')",
        )
    return calls, dealer


def contract_value(value, place: str) -> tuple[int, int, int]:
    """(seat, level, suit) of 'E 90H' or {"seat": "E", "bid": "90H"}."""
    from .actions import parse_call

    if isinstance(value, dict):
        value = f"{value.get('seat', '')} {value.get('bid', '')}"
    words = [w for w in re.split(r"[\s:]+", str(value).strip()) if w]
    if len(words) != 2:
        raise R.record_error(place, f"'{value}': write SEAT BID (E 90H, S capotS)")
    seat = _seat(words[0], place)
    try:
        level, suit = parse_call(words[1])
    except InputError as err:
        raise R.record_error(place, str(err)) from None
    if level < 0:
        raise R.record_error(place, "a contract is a bid (80H … 160S, capotC), not a pass")
    return seat, level, suit


def declarations_value(value, place: str) -> dict[int, int]:
    """Seat -> the cards it showed, from 'E KH QH JH, S -' or {"E": ["KH", …]}."""
    out: dict[int, int] = {}
    if value is None:
        return out
    if isinstance(value, dict):
        items = list(value.items())
    else:
        text = str(value).strip()
        if text.lower() in ("", "-", "none", "nothing"):
            return out
        items = []
        for group in re.split(r"\s*[,/]\s*", text):
            group = group.strip()
            if not group:
                continue
            m = re.match(r"^([A-Za-z]+)\s*[:=]?\s*(.*)$", group)
            if m is None:
                raise R.record_error(place, f"'{group}': write SEAT CARDS (E KH QH JH)")
            items.append((m.group(1), m.group(2)))
    for seat_text, cards in items:
        seat = _seat(seat_text, place)
        if seat in out:
            raise R.record_error(place, f"{C.SEATS[seat]} named twice")
        out[seat] = C.cards_to_mask(_cards(cards, place, f"by {C.SEATS[seat]}"))
    return out


def tricks_value(value, place: str) -> list[list[int]]:
    """The tricks' cards in playing order from each leader, the last possibly unfinished."""
    if value is None:
        return []
    if isinstance(value, list):
        groups = list(value)
    else:
        text = str(value).strip()
        if text in ("", "-"):
            return []
        groups = [g for g in re.split(r"\s*[,/|]\s*", text) if g.strip()]
    out = []
    for i, g in enumerate(groups, 1):
        if isinstance(g, str):
            g = re.sub(r"^\s*[NESWnesw]\s*:\s*", "", g)
        cards = _cards(g, place, f"trick {i}")
        if not 1 <= len(cards) <= 4:
            raise R.record_error(place, f"trick {i} has {len(cards)} cards (1 to 4)")
        out.append(cards)
    for i, t in enumerate(out[:-1], 1):
        if len(t) != 4:
            raise R.record_error(
                place, f"trick {i} has {len(t)} cards; only the last may be unfinished"
            )
    if len(out) > 8:
        raise R.record_error(place, f"a round has 8 tricks, got {len(out)}")
    return out


class PilottaCodec(R.RecordCodec):
    """Pilotta's record grammar (module docstring; :data:`RECORD_FORM`)."""

    game = GAME
    form = RECORD_FORM
    noun = "a Pilotta round"
    default_rules = DEFAULT_RULES

    key_of = staticmethod(_KEYS.get)

    def history_place(self, key: str) -> str:
        return key.split(":")[0] if key.startswith("hand") else key

    def json_clauses(self, data) -> tuple[dict, dict]:
        keys = "game, player, dealer, hands, auction, contract, keep_tierce, declared, tricks"
        raw, places = R.json_clauses(data, _KEYS.get, keys, {"hands": "hand:{}"})
        for key in [k for k in raw if k.startswith("hand:") and k != "hand:player"]:
            seat = _seat(key[5:], places[key])
            raw[f"hand:{C.SEATS[seat]}"] = raw.pop(key)
            places[f"hand:{C.SEATS[seat]}"] = places.pop(key)
        return raw, places

    def build(
        self, raw: dict, places: dict, rules: Rules, player: int | None, hand: int | None
    ) -> PilottaRecord:
        """The record of the clauses (the core's ``RecordCodec.build``)."""
        where = R.place_of(places)
        playing = player is not None
        if not playing:
            player = R.reviewed_player(raw, places, _seat, "'player: S' (N, E, S or W)")
        if "hand:player" in raw:
            key = f"hand:{C.SEATS[player]}"
            if key in raw:
                raise R.record_error(where("hand:player"), f"given twice (also at {where(key)})")
            raw[key], places[key] = raw.pop("hand:player"), where("hand:player")
        dealt: list[int | None] = [None] * 4
        for s, name in enumerate(C.SEATS):
            key = f"hand:{name}"
            if key in raw:
                if playing:
                    raise R.record_error(
                        where(key), "a play history tells what you saw: give your cards now as HAND"
                    )
                dealt[s] = R.dealt_hand(raw[key], where(key), C.PACK, 8)
        if not playing and dealt[player] is None:
            raise R.RecordError(f"give your dealt hand: '{C.SEATS[player]}: CARDS' (8 cards)")
        if sum(h is not None for h in dealt) not in ((0,) if playing else (1, 4)):
            raise R.RecordError("give every hand (N, E, S, W) or only yours")
        _check_hands_once(dealt, where)
        dealer = _seat(raw["dealer"], where("dealer")) if raw.get("dealer") is not None else None
        calls, contract = None, None
        if raw.get("auction") is not None and raw.get("contract") is not None:
            raise R.record_error(where("contract"), "give the auction or the contract, not both")
        if raw.get("auction") is not None:
            calls, dealer = auction_value(raw["auction"], dealer, rules, where("auction"))
        elif raw.get("contract") is not None:
            contract = contract_value(raw["contract"], where("contract"))
            if dealer is None:
                raise R.record_error(
                    where("contract"), "with the contract say who dealt ('dealer: W')"
                )
        else:
            raise R.RecordError(
                "say the auction or the contract: 'auction: N:pass E:90H ...' (every call) or "
                "'contract: E 90H'"
            )
        keep: set[int] = set()
        if raw.get("keep_tierce") is not None:
            v = raw["keep_tierce"]
            items = v if isinstance(v, list) else str(v).replace(",", " ").split()
            for t in items:
                if str(t).lower() not in ("-", "none", "nobody"):
                    keep.add(_seat(t, where("keep_tierce")))
        declared = None
        if raw.get("declared") is not None:
            declared = declarations_value(raw["declared"], where("declared"))
        tricks = tricks_value(raw.get("tricks"), where("tricks"))
        rec = PilottaRecord(
            player, dealer, dealt, calls, keep, declared, tricks, places, contract, hand
        )
        for s in keep:
            if dealt[s] is not None and not has_tierce(dealt[s]):
                raise R.record_error(where("keep_tierce"), f"{C.SEATS[s]} holds no tierce to keep")
        return rec

    def text(self, rec: PilottaRecord) -> str:
        from .actions import call_name

        lines = [f"game: {GAME}", f"player: {C.SEATS[rec.player]}"]
        lines.append(f"dealer: {C.SEATS[rec.dealer]}")
        for s, h in enumerate(rec.dealt):
            if h is not None:
                lines.append(f"{C.SEATS[s]}: {C.format_cards(h)}")
        if rec.calls is not None:
            calls = " ".join(f"{C.SEATS[p]}:{call_name(lv, s)}" for p, lv, s in rec.calls)
            lines.append("auction: " + calls)
        else:
            p, lv, s = rec.contract_only
            lines.append(f"contract: {C.SEATS[p]} {call_name(lv, s)}")
        if rec.keep:
            lines.append("keep tierce: " + " ".join(C.SEATS[p] for p in sorted(rec.keep)))
        if rec.declared is not None:
            groups = [
                f"{C.SEATS[p]} {C.format_cards(m)}" for p, m in sorted(rec.declared.items()) if m
            ]
            lines.append("declared: " + (", ".join(groups) or "-"))
        if rec.tricks:
            lines.append(
                "tricks: " + ", ".join(" ".join(C.card_name(c) for c in t) for t in rec.tricks)
            )
        return "\n".join(lines) + "\n"

    def json(self, rec: PilottaRecord) -> dict:
        from .actions import call_name

        out: dict = {"game": GAME, "player": C.SEATS[rec.player], "dealer": C.SEATS[rec.dealer]}
        out["hands"] = {
            C.SEATS[s]: C.PACK.card_names(h) for s, h in enumerate(rec.dealt) if h is not None
        }
        if rec.calls is not None:
            out["auction"] = [f"{C.SEATS[p]}:{call_name(lv, s)}" for p, lv, s in rec.calls]
        else:
            p, lv, s = rec.contract_only
            out["contract"] = {"seat": C.SEATS[p], "bid": call_name(lv, s)}
        out["keep_tierce"] = [C.SEATS[p] for p in sorted(rec.keep)]
        if rec.declared is not None:
            out["declared"] = {
                C.SEATS[p]: C.PACK.card_names(m) for p, m in sorted(rec.declared.items())
            }
        out["tricks"] = [[C.card_name(c) for c in t] for t in rec.tricks]
        return out

    def from_state(self, state, player: int, every_hand: bool = True) -> PilottaRecord:
        """The record of a round played through ``state``, for ``player``: every hand, or only
        his (then with the cards each seat showed)."""
        tricks = [list(cards) for _, cards, _ in state.line]
        if state.trick:
            tricks.append(list(state.trick))
        keep = {p for p in range(4) if state.decl_actions[p] == KEEP_TIERCE}
        rec = PilottaRecord(
            player=player,
            dealer=state.dealer,
            dealt=list(state.dealt) if every_hand else [None] * 4,
            calls=list(state.calls) if state.calls_known else None,
            keep=keep if every_hand else keep & {player},
            declared=None
            if every_hand
            else {p: state.shown[p] for p in range(4) if state.shown[p]},
            tricks=tricks,
            contract_only=None if state.calls_known else (state.bidder, state.level, state.trump),
        )
        rec.dealt[player] = state.dealt[player]
        return rec


def _check_hands_once(dealt: list[int | None], where) -> None:
    seen: dict[int, str] = {}
    for s, h in enumerate(dealt):
        if h is None:
            continue
        for c in range(32):
            if h >> c & 1:
                here = f"{C.SEATS[s]}'s hand ({where(f'hand:{C.SEATS[s]}')})"
                if c in seen:
                    raise R.RecordError(f"{C.card_name(c)} appears twice: in {seen[c]} and {here}")
                seen[c] = here


#: The grammar, one instance (the definition's ``codec``).
CODEC = PilottaCodec()

__all__ = [
    "CODEC",
    "RECORD_FORM",
    "PilottaCodec",
    "PilottaRecord",
    "auction_value",
    "contract_value",
    "declarations_value",
    "tricks_value",
]
