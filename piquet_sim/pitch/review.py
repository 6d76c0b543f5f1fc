"""Pitch round records and their review (``piquet pitch review FILE``).

A round record (:data:`RECORD_FORM`; ``docs/review.md``) is the whole round as the reviewed
player tells it: the ``pitch play`` history form (``position.HISTORY_FORM``: the auction from
seat 0, the tricks from their leaders, the first card the pitch) extended to the whole round,
with the dealt hands. Either every hand is known (the round is replayed card by card through a
:class:`PitchState`) or only the player's (each of his play decisions is rebuilt as ``piquet
pitch play`` rebuilds one, :func:`position.from_description`). Every record is checked against
the rules before any work (:class:`core.review.RecordError`, one line naming the place).

The review measures each of the player's decisions with what he could know:

* his call: the bid advisor (``bid.advise_bid``: every legal call, each bid with each suit he
  could pitch, on common worlds fitting the calls before his under the others' ``threshold``
  bidding), in his score change for the round; his bid is valued with the suit he pitched when
  he won the auction (else the best suit for it); the cost is the difference of two means on
  the same worlds, standard errors in quadrature (conservative);
* each card (the pitch included): ``deciders.card_values`` (every legal card over the worlds
  consistent with what he saw, each solved by the paranoid search) in his side's points, and
  the paired cost; with every hand known, the ``dd`` search on the true deal (exact).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..core import review as R
from ..core.engine.errors import InputError
from ..core.engine.stats import Z95, Estimate
from . import cards as C
from .position import (
    BID_BASE,
    PASS,
    Description,
    PitchState,
    _calls_value,
    _tricks_value,
    beats,
    call_name,
    check_description,
    from_description,
)
from .rules import DEFAULT_RULES, Rules

GAME = "pitch"
UNIT = (
    "Points for the reviewed player: a call in his score change for the round (as bidder +bid "
    "made, -bid set; as a defender the points he takes), a card in his side's points (the bidder's "
    "for the bidder, the points the bidder does not take for a defender)"
)
PHASES = ("bid", "play")
PHASE_UNITS = {"bid": "score change", "play": "side's points"}

RECORD_FORM = (
    "lines 'key: value' ('#' comments; ';' separates clauses on a line): player: SEAT (whose "
    "decisions are reviewed; 0 calls first, players-1 deals); players: N; 0: / 1: / ... CARDS "
    "(the dealt hands, 6 each; the player's at least; hand: is the player's); auction: the "
    "calls from seat 0 (pass or 3..6); tricks: the cards of each trick from its leader, tricks "
    "separated by '/' (the bidder leads the first: its first card is the pitch)"
)


@dataclass
class PitchRecord(R.Record):
    """A parsed round record: seats 0..n-1; hand masks (``None`` where unknown)."""

    player: int
    players: int
    dealt: list[int | None]
    calls: list[int]
    tricks: list[list[int]] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)

    @property
    def bidder(self) -> int:
        top = max(self.calls, default=0)
        if top == 0:
            return -1
        return max(s for s, c in enumerate(self.calls) if c == top)


_err = R.record_error


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


def _key(text: str) -> str | None:
    t = text.strip().lower()
    if t.isdigit():
        return f"hand:{int(t)}"
    m = t.removeprefix("seat ").removesuffix(" hand")
    if m.isdigit():
        return f"hand:{int(m)}"
    return _KEYS.get(t)


def _raw_json(data) -> tuple[dict, dict]:
    if not isinstance(data, dict):
        raise R.RecordError("the record JSON must be an object")
    raw, places = {}, {}
    for k, v in data.items():
        if k == "hands":
            if not isinstance(v, dict | list):
                raise R.RecordError('key hands: an object {"0": [...], ...} or a list')
            items = v.items() if isinstance(v, dict) else enumerate(v)
            for seat, cards in items:
                if cards is None:
                    continue
                key = _key(str(seat))
                if key is None:
                    raise R.RecordError(f"key hands.{seat}: a seat number")
                raw[key], places[key] = cards, f"key hands.{seat}"
            continue
        key = _key(str(k))
        if key is None:
            raise R.RecordError(
                f"key {k}: unknown (game, player, players, hands, auction, tricks, trump)"
            )
        raw[key], places[key] = v, f"key {k}"
    return raw, places


def parse_record(text: str) -> PitchRecord:
    """A record from its text form (:data:`RECORD_FORM`)."""
    return _build(*R.raw_clauses(text, _key, RECORD_FORM))


def parse_record_json(data) -> PitchRecord:
    """A record from its JSON form (:func:`record_json`)."""
    return _build(*_raw_json(data))


def read_record(path) -> PitchRecord:
    kind, data = R.read_record(path)
    return parse_record_json(data) if kind == "json" else parse_record(data)


def _int(value, place: str, lo: int, hi: int, what: str) -> int:
    try:
        n = int(str(value).strip())
    except ValueError:
        raise _err(place, f"{what}: a whole number, got {value!r}") from None
    if not lo <= n <= hi:
        raise _err(place, f"{what} is {lo} to {hi}, not {n}")
    return n


def _build(raw: dict, places: dict) -> PitchRecord:
    def where(key):
        return places.get(key, key)

    game = str(raw.get("game", GAME)).strip().lower()
    if game != GAME:
        raise _err(where("game"), f"this is a {game} record; pitch review reads Pitch rounds")
    hands = {
        int(k.split(":")[1]): v
        for k, v in raw.items()
        if k.split(":")[1:2] != ["player"] and k.startswith("hand:")
    }
    if "players" in raw:
        players = _int(raw["players"], where("players"), 3, 6, "players")
    elif len(hands) >= 3:
        players = len(hands)
    else:
        raise R.RecordError("say how many played: 'players: N' (3 to 6)")
    if "player" not in raw:
        raise R.RecordError(f"say whose decisions to review: 'player: SEAT' (0 to {players - 1})")
    player = _int(raw["player"], where("player"), 0, players - 1, "the player's seat")
    if "hand:player" in raw:
        key = f"hand:{player}"
        if player in hands:
            raise _err(where("hand:player"), f"given twice (also at {where(key)})")
        hands[player] = raw["hand:player"]
        places[key] = where("hand:player")
    dealt: list[int | None] = [None] * players
    seen: dict[int, str] = {}
    for s, value in sorted(hands.items()):
        place = where(f"hand:{s}")
        if not 0 <= s < players:
            raise _err(place, f"no seat {s} at {players} players")
        dealt[s] = R.dealt_hand(value, place, C.PACK, C.HAND_SIZE)
        for c in range(64):
            if dealt[s] >> c & 1:
                if c in seen:
                    raise R.RecordError(
                        f"{C.card_name(c)} appears twice: in {seen[c]} and in seat {s}'s hand "
                        f"({place})"
                    )
                seen[c] = f"seat {s}'s hand ({place})"
    if dealt[player] is None:
        raise R.RecordError(f"give your dealt hand: '{player}: CARDS' (6 cards)")
    if sum(h is not None for h in dealt) not in (1, players):
        raise R.RecordError("give every hand or only yours")
    try:
        calls = _calls_value(raw.get("auction"), players)
    except InputError as err:
        raise _err(where("auction"), str(err).removeprefix("auction: ")) from None
    try:
        tricks = _tricks_value(raw.get("tricks"))
    except InputError as err:
        raise _err(where("tricks"), str(err).removeprefix("tricks: ")) from None
    rec = PitchRecord(player, players, dealt, calls, tricks, places)
    if "trump" in raw and tricks:
        try:
            t = C.parse_suit(str(raw["trump"]))
        except InputError as err:
            raise _err(where("trump"), str(err)) from None
        if tricks[0][0] >> 4 != t:
            raise _err(where("trump"), f"the pitch {C.card_name(tricks[0][0])} makes another trump")
    return rec


def _rules(rec: PitchRecord, rules: Rules) -> Rules:
    return rules if rules.players == rec.players else rules.replace(players=rec.players)


def replay(rec: PitchRecord, rules: Rules = DEFAULT_RULES):
    """A record with every hand, replayed: (the states before each action with its place, the
    final state); RecordError names the first illegal step."""
    rules = _rules(rec, rules)
    try:
        state = PitchState.from_hands(rec.dealt, rules)
    except InputError as err:
        raise R.RecordError(str(err)) from None
    replayed = R.Replay(state)
    act = replayed.act

    for s, c in enumerate(rec.calls):
        act(PASS if c == 0 else BID_BASE + c, f"{rec.place('auction')}, seat {s}")
    if len(rec.calls) < rec.players and rec.tricks:
        raise _err(rec.place("auction"), f"{len(rec.calls)} calls: every seat calls once")
    for i, cards in enumerate(rec.tricks, 1):
        for c in cards:
            act(c, f"{rec.place('tricks')}, trick {i}")
    return replayed.steps, state


def _winner(cards: list[int], leader: int, trump: int, n: int) -> int:
    best, at = cards[0], 0
    for j, c in enumerate(cards[1:], 1):
        if beats(c, best, trump):
            best, at = c, j
    return (leader + at) % n


def _one_hand_points(rec: PitchRecord, rules: Rules, others: str, seed: int):
    """The player's card decisions in a one-hand record, each position checked as ``pitch
    play`` checks one: (trick, cards before his, his card, the description)."""
    rules = _rules(rec, rules)
    seat, n = rec.player, rec.players
    if len(rec.calls) < n and rec.tricks:
        raise _err(rec.place("auction"), f"{len(rec.calls)} calls: every seat calls once")
    leader = rec.bidder
    hand = rec.dealt[seat]
    trump = rec.tricks[0][0] >> 4 if rec.tricks else -1
    out = []
    place = rec.place("tricks")
    for i, cards in enumerate(rec.tricks, 1):
        for j, c in enumerate(cards):
            if (leader + j) % n != seat:
                continue
            if not hand >> c & 1:
                raise _err(place, f"trick {i}: you (seat {seat}) do not hold {C.card_name(c)}")
            before = [list(t) for t in rec.tricks[: i - 1]] + ([cards[:j]] if j else [])
            d = Description(n, seat, hand, list(rec.calls), before)
            try:
                check_description(d, rules)
            except InputError as err:
                raise _err(place, f"trick {i}: {err}") from None
            out.append((i, cards[:j], c, d))
            hand &= ~(1 << c)
        if len(cards) == n:
            leader = _winner(cards, leader, trump, n)
    return out


@dataclass(frozen=True)
class ReviewSettings:
    """How each decision is measured: ``worlds``/``exact_limit``/``max_seconds``: a card
    decision's worlds (``card_values``); ``bid_play``/``bid_worlds``: the bid advisor's;
    ``others``: the others' bidding policy the worlds fit their calls to; ``exact``: the dd
    search on the true deal with every hand; ``seed``."""

    worlds: int = 200
    exact_limit: int = 20_000
    max_seconds: float | None = 3.0
    bid_play: str = "heuristic"
    bid_worlds: int = 5000
    others: str = "threshold"
    exact: bool = True
    seed: int = 1

    def to_dict(self) -> dict:
        return dict(vars(self))


QUICK = ReviewSettings(worlds=32, exact_limit=2000, max_seconds=1.0, bid_worlds=500)


def _estimate(e) -> Estimate:
    """The project's Estimate of the bid advisor's (mean, 95% interval, count)."""
    lo, hi = e.ci95
    return Estimate(e.mean, (hi - lo) / (2 * Z95), lo, hi, e.n)


def _call_task(rec, rules, st, index) -> R.Task:
    seat = rec.player
    mine = rec.calls[seat]
    done = call_name(mine)
    before = " ".join(call_name(c) for c in rec.calls[:seat])
    place = f"call (seat {seat}" + (f", after {before})" if before else ", first)")
    trump = rec.tricks[0][0] >> 4 if rec.tricks and rec.bidder == seat else None

    def run() -> R.DecisionReview:
        from .bid import advise_bid

        t0 = time.perf_counter()
        res = advise_bid(
            rec.dealt[seat],
            rec.players,
            seat,
            list(rec.calls[:seat]),
            _rules(rec, rules),
            play=st.bid_play,
            others=st.others,
            worlds=st.bid_worlds,
            seed=st.seed,
            rank="score",
        )
        values = res.calls
        best = max(values, key=lambda v: v.score.mean)
        if mine == 0:
            my = next(v for v in values if v.bid == 0)
        elif trump is not None:
            my = next(v for v in values if v.bid == mine and v.suit == C.SUITS[trump])
        else:
            my = max((v for v in values if v.bid == mine), key=lambda v: v.score.mean)
        done_text = my.call
        notes = []
        if my is best:
            cost = R.exact_estimate(0.0, res.worlds)
        else:
            cost = R.difference(_estimate(best.score), _estimate(my.score))
            notes.append("cost: two means on the same worlds, errors in quadrature (conservative)")
        order = sorted(values, key=lambda v: -v.score.mean)
        alts = [
            R.Alternative(
                v.call,
                _estimate(v.score),
                note=("yours; " if v is my else "") + (f"bidder {v.p_bidder:.0%}" if v.bid else ""),
            )
            for v in order[:6]
        ]
        if my not in order[:6]:
            alts.append(R.Alternative(my.call, _estimate(my.score), note="yours"))
        return R.DecisionReview(
            index,
            "bid",
            place,
            done_text,
            best=best.call,
            cost=cost,
            alternatives=alts,
            method=(
                f"bid advisor: {len(values)} calls on {res.worlds:,} worlds fitting the calls "
                f"before ({res.others} bidding, {res.prior} prior), {res.play} play"
            ),
            seconds=time.perf_counter() - t0,
            notes=notes,
            partial=res.partial,
        )

    return R.Task("bid", place, done, run, 1.0)


def _card_task(index, trick, before, card, make_state, st, exact) -> R.Task:
    def values(state):
        from .card_values import card_values

        return card_values(
            state,
            worlds=st.worlds,
            seed=st.seed,
            exact_limit=st.exact_limit,
            others=st.others,
            max_seconds=st.max_seconds,
        )

    def exact_values(state):
        from .deciders import SearchPlay

        return SearchPlay("dd", others=st.others).values(state)

    place = R.card_place(trick, [C.card_name(c) for c in before])
    return R.card_task(
        index, trick, place, card, C.card_name, make_state, values, exact_values if exact else None
    )


def _deal_view(rec: PitchRecord, at: dict, final: PitchState | None) -> dict:
    n = rec.players
    seats = [str(s) for s in range(n)]
    hands = [
        {"seat": str(s), "label": f"seat {s}, dealt", "cards": C.PACK.card_names(h)}
        for s, h in enumerate(rec.dealt)
        if h is not None
    ]
    calls = [
        {
            "text": f"seat {s}: {call_name(c)}",
            "decision": at.get("bid") if s == rec.player else None,
        }
        for s, c in enumerate(rec.calls)
    ]
    if rec.bidder >= 0:
        calls.append({"text": f"seat {rec.bidder} bids {max(rec.calls)}"})
    tricks = []
    leader = rec.bidder
    trump = rec.tricks[0][0] >> 4 if rec.tricks else -1
    for i, cards in enumerate(rec.tricks, 1):
        row = []
        for j, c in enumerate(cards):
            p = (leader + j) % n
            row.append(
                {
                    "seat": str(p),
                    "card": C.card_name(c),
                    "led": j == 0,
                    "decision": at.get(("card", i)) if p == rec.player else None,
                }
            )
        w = _winner(cards, leader, trump, n) if len(cards) == n else None
        note = f"pitch: {C.SUITS[trump]} trumps" if i == 1 else ""
        tricks.append(
            {"number": i, "cards": row, "winner": "" if w is None else str(w), "note": note}
        )
        if w is not None:
            leader = w
    result = []
    if final is not None and final.is_terminal():
        result.append(
            "Round scores: "
            + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(final.scores or []))
        )
    return {
        "seats": seats,
        "player": str(rec.player),
        "hands": hands,
        "phases": [{"title": "Auction", "items": calls}],
        "tricks": tricks,
        "result": result,
    }


def review_tasks(
    rec: PitchRecord, rules: Rules = DEFAULT_RULES, settings: ReviewSettings = ReviewSettings()
):
    """(tasks of the player's decisions, the page's view of the round, notes); the record is
    checked first (RecordError)."""
    seat = rec.player
    st = settings
    rules = _rules(rec, rules)
    tasks = R.Tasks()
    notes = []
    final = None
    if rec.full:
        steps, final = replay(rec, rules)
    else:
        points = _one_hand_points(rec, rules, st.others, st.seed)
    if len(rec.calls) > seat:
        tasks.add("bid", _call_task(rec, rules, st, tasks.next))
    if rec.full:
        for state, a, _ in steps:
            if state.phase != "play" or state.current_player() != seat:
                continue
            trick = state.trick_index + 1
            task = _card_task(tasks.next, trick, list(state.trick), a, state.clone, st, st.exact)
            tasks.add(("card", trick), task)
    else:
        for trick, before, c, d in points:

            def make(d=d):
                return from_description(d, rules, seed=st.seed, others=st.others)

            tasks.add(("card", trick), _card_task(tasks.next, trick, before, c, make, st, False))
        notes.append("only the player's hand is known: no exact (search on the true deal) costs")
    if sum(len(t) for t in rec.tricks) < rec.players * C.HAND_SIZE:
        notes.append(f"the record stops after {sum(len(t) for t in rec.tricks)} card(s)")
    return tasks, _deal_view(rec, tasks.at, final), notes


def review_from_tasks(rec, rules, settings, tasks, deal, notes, progress=None) -> R.Review:
    rules = _rules(rec, rules)
    return R.review(
        GAME,
        f"Review of a Pitch round, {rec.players} players "
        f"({'every hand known' if rec.full else 'one hand known'})",
        f"seat {rec.player}",
        UNIT,
        record_json(rec),
        deal,
        tasks,
        progress=progress,
        settings={"rules": rules.to_dict(), **settings.to_dict()},
        notes=notes,
        phases=PHASES,
        phase_units=PHASE_UNITS,
    )


def review_record(
    rec: PitchRecord,
    rules: Rules = DEFAULT_RULES,
    settings: ReviewSettings = ReviewSettings(),
    progress=None,
) -> R.Review:
    """Review every decision of the record's player (module docstring)."""
    tasks, deal, notes = review_tasks(rec, rules, settings)
    return review_from_tasks(rec, rules, settings, tasks, deal, notes, progress)


def check_record(rec: PitchRecord, rules: Rules = DEFAULT_RULES) -> None:
    """Check a record against the rules (RecordError naming the place)."""
    if rec.full:
        replay(rec, rules)
    else:
        _one_hand_points(rec, rules, "threshold", 1)


def record_from_state(state: PitchState, player: int, every_hand: bool = True) -> PitchRecord:
    """The record of a round played through ``state`` for ``player`` (every hand or his)."""
    tricks = [list(t) for t in state.finished]
    if state.trick:
        tricks.append(list(state.trick))
    dealt = list(state.dealt) if every_hand else [None] * state.n
    dealt[player] = state.dealt[player]
    return PitchRecord(player, state.n, dealt, list(state.calls), tricks)


def record_text(rec: PitchRecord) -> str:
    lines = ["game: pitch", f"players: {rec.players}", f"player: {rec.player}"]
    for s, h in enumerate(rec.dealt):
        if h is not None:
            lines.append(f"{s}: {C.format_cards(h)}")
    lines.append("auction: " + " ".join(call_name(c) for c in rec.calls))
    if rec.tricks:
        lines.append(
            "tricks: " + " / ".join(" ".join(C.card_name(c) for c in t) for t in rec.tricks)
        )
    return "\n".join(lines) + "\n"


def record_json(rec: PitchRecord) -> dict:
    return {
        "game": GAME,
        "players": rec.players,
        "player": rec.player,
        "hands": {str(s): C.PACK.card_names(h) for s, h in enumerate(rec.dealt) if h is not None},
        "auction": [call_name(c) for c in rec.calls],
        "tricks": [[C.card_name(c) for c in t] for t in rec.tricks],
    }


def entry_kernels() -> tuple:
    from .advice import entry_kernels as play_kernels
    from .bid import advisor_kernels

    return (*advisor_kernels("heuristic"), *play_kernels())


__all__ = [
    "QUICK",
    "RECORD_FORM",
    "PitchRecord",
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
