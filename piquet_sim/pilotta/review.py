"""Pilotta round records and their review (``piquet pilotta review FILE``).

A round record (:data:`RECORD_FORM`; ``docs/review.md``) is the whole round as the reviewed
player tells it: the ``pilotta play`` history form (``position.HISTORY_FORM``: the dealer, the
auction, the cards shown, the tricks) extended to the whole round, with the dealt hands. Either
all four hands are known (the round is replayed card by card through a :class:`PilottaState`)
or only the player's (each of his play decisions is rebuilt as ``piquet pilotta play`` rebuilds
one, :func:`position.from_description`). Every record is checked against the rules before any
work (:class:`core.review.RecordError`, one line naming the place).

The review measures each of the player's decisions with what he could know:

* each call: the bid advisor (``bid.advise``: every legal call played out on worlds consistent
  with the auction so far under the ``threshold`` prior), in game points of the round (his
  team's minus the opponents'); the cost is paired when his call is the advice's runner-up or
  the pass, else the difference of two means on the same worlds with the standard errors in
  quadrature (conservative);
* keeping a tierce: shown, not measured (the project has no advisor for it);
* each card: ``deciders.card_values`` (every legal card over the worlds he could not tell apart,
  each solved double-dummy) in his team's card points for the round, and the paired cost; with
  every hand known, ``deciders.DdPlay.values``: the exact double-dummy cost on the true deal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..core import review as R
from ..core.engine.errors import InputError
from ..core.engine.stats import Estimate
from . import cards as C
from .kernels import tricks as KT
from .position import (
    DECLARE,
    KEEP_TIERCE,
    PASS,
    Description,
    PilottaState,
    _auction_value,
    _declarations_value,
    _tricks_value,
    bid_action,
    call_name,
    from_description,
    has_tierce,
    make_setup,
)
from .rules import DEFAULT_RULES, Rules

GAME = "pilotta"
UNIT = (
    "Points for the reviewed player's team: a call in the round's game points (his team's "
    "minus the opponents'), a card in his team's card points for the round"
)
PHASES = ("bid", "declare", "play")
PHASE_UNITS = {"bid": "game points", "declare": "game points", "play": "card points"}
#: Costs ranked in card points: a game point is ten.
RANK_SCALE = {"bid": 10.0, "declare": 10.0}

RECORD_FORM = (
    "lines 'key: value' ('#' comments; ';' separates clauses on a line): player: SEAT (whose "
    "decisions are reviewed: N, E, S or W); dealer: SEAT; N: / E: / S: / W: CARDS (the dealt "
    "hands, 8 each; the player's at least; hand: is the player's); auction: SEAT:CALL ... "
    "(every call in turn: N:pass E:90H ...); keep tierce: SEATS (who kept a tierce "
    "unannounced; others declared everything); declared: SEAT CARDS, ... (the cards each seat "
    "showed; needed with only your hand); tricks: CARDS, CARDS, ... (each trick in playing "
    "order from its leader)"
)

_KEYS = {
    "game": "game",
    "player": "player",
    "seat": "player",
    "dealer": "dealer",
    "hand": "hand:player",
    "auction": "auction",
    "calls": "auction",
    "keep tierce": "keep_tierce",
    "keep_tierce": "keep_tierce",
    "kept tierce": "keep_tierce",
    "declared": "declared",
    "declarations": "declared",
    "announced": "declared",
    "tricks": "tricks",
}
for _i, _s in enumerate(C.SEATS):
    _KEYS[_s.lower()] = f"hand:{_s}"
    _KEYS[f"{_s.lower()} hand"] = f"hand:{_s}"


@dataclass
class PilottaRecord(R.Record):
    """A parsed round record: seats 0..3 (N E S W); masks for hands; ``None`` where unknown."""

    player: int
    dealer: int
    dealt: list[int | None]
    calls: list[tuple[int, int, int]]
    keep: set[int] = field(default_factory=set)
    declared: dict[int, int] | None = None
    tricks: list[list[int]] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)

    @property
    def contract(self) -> tuple[int, int, int]:
        return next((p, lv, s) for p, lv, s in reversed(self.calls) if lv >= 0)


_err = R.record_error


def _seat(value, place: str) -> int:
    try:
        return C.parse_seat(str(value))
    except InputError as err:
        raise _err(place, str(err)) from None


def _raw_json(data) -> tuple[dict, dict]:
    if not isinstance(data, dict):
        raise R.RecordError("the record JSON must be an object")
    raw, places = {}, {}
    for k, v in data.items():
        if k == "hands":
            if not isinstance(v, dict):
                raise R.RecordError("key hands: an object {N: [...], E: [...], ...}")
            for seat, cards in v.items():
                s = _seat(seat, f"key hands.{seat}")
                raw[f"hand:{C.SEATS[s]}"], places[f"hand:{C.SEATS[s]}"] = cards, f"key hands.{seat}"
            continue
        key = _KEYS.get(str(k).lower().replace("_", " "), _KEYS.get(str(k).lower()))
        if key is None:
            raise R.RecordError(
                f"key {k}: unknown (game, player, dealer, hands, auction, keep_tierce, "
                "declared, tricks)"
            )
        raw[key], places[key] = v, f"key {k}"
    return raw, places


def parse_record(text: str, rules: Rules = DEFAULT_RULES) -> PilottaRecord:
    """A record from its text form (:data:`RECORD_FORM`), checked as far as needs no play."""
    return _build(*R.raw_clauses(text, _KEYS.get, RECORD_FORM), rules)


def parse_record_json(data, rules: Rules = DEFAULT_RULES) -> PilottaRecord:
    """A record from its JSON form (:func:`record_json`)."""
    return _build(*_raw_json(data), rules)


def read_record(path, rules: Rules = DEFAULT_RULES) -> PilottaRecord:
    kind, data = R.read_record(path)
    return parse_record_json(data, rules) if kind == "json" else parse_record(data, rules)


def _build(raw: dict, places: dict, rules: Rules) -> PilottaRecord:
    def where(key):
        return places.get(key, key)

    game = str(raw.get("game", GAME)).strip().lower()
    if game != GAME:
        raise _err(where("game"), f"this is a {game} record; pilotta review reads Pilotta rounds")
    if "player" not in raw:
        raise R.RecordError("say whose decisions to review: 'player: S' (N, E, S or W)")
    player = _seat(raw["player"], where("player"))
    if "hand:player" in raw:
        key = f"hand:{C.SEATS[player]}"
        if key in raw:
            raise _err(where("hand:player"), f"given twice (also at {where(key)})")
        raw[key], places[key] = raw.pop("hand:player"), where("hand:player")
    dealt: list[int | None] = [None] * 4
    for s, name in enumerate(C.SEATS):
        key = f"hand:{name}"
        if key in raw:
            dealt[s] = R.dealt_hand(raw[key], where(key), C.PACK, 8)
    if dealt[player] is None:
        raise R.RecordError(f"give your dealt hand: '{C.SEATS[player]}: CARDS' (8 cards)")
    known = sum(h is not None for h in dealt)
    if known not in (1, 4):
        raise R.RecordError("give every hand (N, E, S, W) or only yours")
    seen: dict[int, str] = {}
    for s, h in enumerate(dealt):
        if h is None:
            continue
        for c in range(32):
            if h >> c & 1:
                if c in seen:
                    raise R.RecordError(
                        f"{C.card_name(c)} appears twice: in {seen[c]} and in "
                        f"{C.SEATS[s]}'s hand ({where(f'hand:{C.SEATS[s]}')})"
                    )
                seen[c] = f"{C.SEATS[s]}'s hand ({where(f'hand:{C.SEATS[s]}')})"
    dealer = _seat(raw["dealer"], where("dealer")) if raw.get("dealer") is not None else None
    if raw.get("auction") is None:
        raise R.RecordError("give the auction: 'auction: N:pass E:90H ...' (every call)")
    try:
        calls, dealer = _auction_value(raw["auction"], dealer, rules)
    except InputError as err:
        raise _err(where("auction"), str(err).removeprefix("auction: ")) from None
    keep = set()
    if raw.get("keep_tierce") is not None:
        v = raw["keep_tierce"]
        items = v if isinstance(v, list) else str(v).replace(",", " ").split()
        for t in items:
            if str(t).lower() not in ("-", "none", "nobody"):
                keep.add(_seat(t, where("keep_tierce")))
    declared = None
    if raw.get("declared") is not None:
        try:
            declared = _declarations_value(raw["declared"])
        except InputError as err:
            raise _err(where("declared"), str(err).removeprefix("declared: ")) from None
    try:
        tricks = _tricks_value(raw.get("tricks"))
    except InputError as err:
        raise _err(where("tricks"), str(err).removeprefix("tricks: ")) from None
    rec = PilottaRecord(player, dealer, dealt, calls, keep, declared, tricks, places)
    for s in keep:
        if dealt[s] is not None and not has_tierce(dealt[s]):
            raise _err(where("keep_tierce"), f"{C.SEATS[s]} holds no tierce to keep")
    return rec


def _setup(prior: str):
    return make_setup(prior)


def replay(rec: PilottaRecord, rules: Rules = DEFAULT_RULES, prior: str = "threshold"):
    """A record with every hand, replayed: (the states before each action with its place, the
    final state); RecordError names the first illegal step."""
    try:
        state = PilottaState.from_hands(rec.dealt, rec.dealer, rules, _setup(prior))
    except InputError as err:
        raise R.RecordError(str(err)) from None
    replayed = R.Replay(state)
    act = replayed.act

    for i, (_, lv, s) in enumerate(rec.calls, 1):
        act(PASS if lv < 0 else bid_action(lv, s), f"{rec.place('auction')}, call {i}")
    for _ in range(4):
        p = state.current_player()
        act(KEEP_TIERCE if p in rec.keep else DECLARE, rec.place("keep_tierce"))
    if rec.declared is not None:
        for p in range(4):
            said = rec.declared.get(p, 0)
            if said != state.shown[p]:
                raise _err(
                    rec.place("declared"),
                    f"{C.SEATS[p]} showed {C.format_cards(state.shown[p]) or 'nothing'}, not "
                    f"{C.format_cards(said) or 'nothing'}",
                )
    for i, cards in enumerate(rec.tricks, 1):
        for c in cards:
            act(c, f"{rec.place('tricks')}, trick {i}")
    return replayed.steps, state


def _winner(cards: list[int], leader: int, trump: int) -> int:
    return (leader + int(KT.trick_winner_pos(np.array(cards, dtype=np.int64), trump))) % 4


def _one_hand_points(rec: PilottaRecord, rules: Rules, prior: str, seed: int):
    """The player's card decisions in a one-hand record, each position checked as ``pilotta
    play`` checks one: (trick, the cards before his in the trick, his card, the description)."""
    seat = rec.player
    bidder, _, trump = rec.contract
    leader = (rec.dealer + 1) % 4 if rules.first_lead == "after_dealer" else bidder
    hand = rec.dealt[seat]
    out = []
    place = rec.place("tricks")
    for i, cards in enumerate(rec.tricks, 1):
        for j, c in enumerate(cards):
            p = (leader + j) % 4
            if p != seat:
                continue
            before = [list(t) for t in rec.tricks[: i - 1]] + ([cards[:j]] if j else [])
            d = Description(
                seat=seat,
                hand=hand,
                dealer=rec.dealer,
                calls=list(rec.calls),
                declarations=dict(rec.declared or {}),
                tricks=before,
            )
            if not hand >> c & 1:
                raise _err(place, f"trick {i}: you ({C.SEATS[seat]}) do not hold {C.card_name(c)}")
            try:
                from_description(d, rules, prior=prior, seed=seed)
            except InputError as err:
                raise _err(place, f"trick {i}: {err}") from None
            out.append((i, cards[:j], c, d))
            hand &= ~(1 << c)
        if len(cards) == 4:
            leader = _winner(cards, leader, trump)
    return out


@dataclass(frozen=True)
class ReviewSettings:
    """How each decision is measured: ``worlds``/``exact_limit``/``max_seconds``: a card
    decision's worlds (``card_values``); ``bid_play``/``bid_deals``: the bid advisor's play and
    worlds; ``prior``: the others' bidding policy the worlds fit their calls to; ``exact``:
    double-dummy costs with every hand; ``seed``."""

    worlds: int = 200
    exact_limit: int = 3000
    max_seconds: float | None = 4.0
    bid_play: str = "heuristic"
    bid_deals: int = 2000
    prior: str = "threshold"
    exact: bool = True
    seed: int = 1

    def to_dict(self) -> dict:
        return dict(vars(self))


QUICK = ReviewSettings(worlds=24, exact_limit=200, max_seconds=1.0, bid_deals=200)


def _call_task(rec, rules, st, index, k, before) -> R.Task:
    seat = rec.player
    _, lv, s = rec.calls[k]
    done = call_name(lv, s)
    auction = " ".join(f"{C.SEATS[p]}:{call_name(a, b)}" for p, a, b in before)
    last = next(((p, a, b) for p, a, b in reversed(before) if a >= 0), None)
    place = f"call {k + 1}, " + (
        f"over {C.SEATS[last[0]]} {call_name(last[1], last[2])}" if last else "no bid yet"
    )

    def run() -> R.DecisionReview:
        from .bid import advise

        t0 = time.perf_counter()
        res = advise(
            rec.dealt[seat],
            seat,
            rec.dealer,
            auction,
            play=st.bid_play,
            deals=st.bid_deals,
            seed=st.seed,
            prior=st.prior,
            rules=rules,
        )
        rows = {r["call"]: r for r in res["calls"]}
        best = res["recommendation"]["call"]
        m = res["worlds"]

        def est(r) -> Estimate:
            v = r["value"]
            return Estimate(v["mean"], v["se"], *v["ci95"], m)

        notes = []
        if done == best:
            cost = R.exact_estimate(0.0, m)
        elif done == res["recommendation"].get("runner_up"):
            d = res["recommendation"]["margin"]
            cost = Estimate(d["mean"], d["se"], *d["ci95"], d["n"])
        elif done == "pass" and "over_pass" in res["recommendation"]:
            d = res["recommendation"]["over_pass"]
            cost = Estimate(d["mean"], d["se"], *d["ci95"], d["n"])
        else:
            cost = R.difference(est(rows[best]), est(rows[done]))
            notes.append("cost: two means on the same worlds, errors in quadrature (conservative)")
        order = sorted(res["calls"], key=lambda r: -r["value"]["mean"])
        alts = [
            R.Alternative(
                r["call"],
                est(r),
                note=("yours; " if r["call"] == done else "")
                + f"we contract {r['p_we_contract']['p']:.0%}",
            )
            for r in order[:6]
        ]
        if done not in [a.action for a in alts]:
            alts.append(R.Alternative(done, est(rows[done]), note="yours"))
        return R.DecisionReview(
            index,
            "bid",
            place,
            done,
            best=best,
            cost=cost,
            alternatives=alts,
            method=(
                f"bid advisor: {len(res['calls'])} calls on {m:,} worlds fitting the auction "
                f"({res['prior']['policy']} prior), {res['play']} play"
            ),
            seconds=time.perf_counter() - t0,
            notes=notes,
            partial=bool(res.get("partial")),
            context={"auction": auction},
        )

    return R.Task("bid", place, done, run, 1.5)


def _declare_task(rec, index) -> R.Task:
    seat = rec.player
    done = "keep tierce" if seat in rec.keep else "declare"

    def run() -> R.DecisionReview:
        return R.DecisionReview(
            index,
            "declare",
            "declarations",
            done,
            best=None,
            alternatives=[R.Alternative("declare"), R.Alternative("keep tierce")],
            method="not measured: the project has no advisor for keeping a tierce",
        )

    return R.Task("declare", "declarations", done, run, 0.1)


def _card_task(index, trick, before, card, make_state, st, exact) -> R.Task:
    def values(state):
        from .card_values import card_values

        return card_values(
            state,
            worlds=st.worlds,
            seed=st.seed,
            exact_limit=st.exact_limit,
            max_seconds=st.max_seconds,
        )

    def exact_values(state):
        from .deciders import DdPlay

        return DdPlay().values(state)

    place = R.card_place(trick, [C.card_name(c) for c in before])
    return R.card_task(
        index, trick, place, card, C.card_name, make_state, values, exact_values if exact else None
    )


def _deal_view(rec: PilottaRecord, at: dict, final: PilottaState | None, rules: Rules) -> dict:
    seats = list(C.SEATS)
    hands = [
        {"seat": C.SEATS[s], "label": f"{C.SEATS[s]}, dealt", "cards": C.PACK.card_names(h)}
        for s, h in enumerate(rec.dealt)
        if h is not None
    ]
    calls = []
    for k, (p, lv, s) in enumerate(rec.calls):
        calls.append({"text": f"{C.SEATS[p]}: {call_name(lv, s)}", "decision": at.get(("call", k))})
    bidder, level, trump = rec.contract
    calls.append({"text": f"contract: {C.SEATS[bidder]} {call_name(level, trump)}"})
    decl_items = []
    if final is not None:
        for p in range(4):
            shown = C.format_cards(final.shown[p]) or "nothing"
            decl_items.append(
                {
                    "text": f"{C.SEATS[p]} shows {shown} ({final.announced[p]})",
                    "decision": at.get("declare") if p == rec.player else None,
                }
            )
    elif rec.declared is not None:
        for p, m in sorted(rec.declared.items()):
            decl_items.append({"text": f"{C.SEATS[p]} shows {C.format_cards(m) or 'nothing'}"})
    if "declare" in at and final is None:
        decl_items.append({"text": f"{C.SEATS[rec.player]}'s choice", "decision": at["declare"]})
    leader = (rec.dealer + 1) % 4 if rules.first_lead == "after_dealer" else bidder
    tricks = []
    for i, cards in enumerate(rec.tricks, 1):
        row = []
        for j, c in enumerate(cards):
            p = (leader + j) % 4
            row.append(
                {
                    "seat": C.SEATS[p],
                    "card": C.card_name(c),
                    "led": j == 0,
                    "decision": at.get(("card", i)) if p == rec.player else None,
                }
            )
        w = _winner(cards, leader, trump) if len(cards) == 4 else None
        tricks.append({"number": i, "cards": row, "winner": C.SEATS[w] if w is not None else ""})
        if w is not None:
            leader = w
    result = []
    if final is not None and final.is_terminal():
        sc = final.score()
        result.append(
            f"Card points NS {sc['card_points']['NS']}, EW {sc['card_points']['EW']}; game "
            f"points NS {sc['score']['total_ns']}, EW {sc['score']['total_ew']}"
        )
    return {
        "seats": seats,
        "player": C.SEATS[rec.player],
        "hands": hands,
        "phases": [
            {"title": "Auction", "items": calls},
            {"title": "Declarations", "items": decl_items},
        ],
        "tricks": tricks,
        "result": result,
    }


def review_tasks(
    rec: PilottaRecord, rules: Rules = DEFAULT_RULES, settings: ReviewSettings = ReviewSettings()
):
    """(tasks of the player's decisions, the page's view of the round, notes); the record is
    checked first (RecordError)."""
    seat = rec.player
    st = settings
    tasks = R.Tasks()
    notes = []
    final = None
    for k, (p, _, _) in enumerate(rec.calls):
        if p == seat:
            tasks.add(("call", k), _call_task(rec, rules, st, tasks.next, k, rec.calls[:k]))
    if has_tierce(rec.dealt[seat]):
        tasks.add("declare", _declare_task(rec, tasks.next))
    if rec.full:
        steps, final = replay(rec, rules, st.prior)
        for state, a, _ in steps:
            if state.phase != "play" or state.current_player() != seat:
                continue
            trick = len(state.line) + 1
            task = _card_task(tasks.next, trick, list(state.trick), a, state.clone, st, st.exact)
            tasks.add(("card", trick), task)
    else:
        for trick, before, c, d in _one_hand_points(rec, rules, st.prior, st.seed):

            def make(d=d):
                return from_description(d, rules, prior=st.prior, seed=st.seed)

            tasks.add(("card", trick), _card_task(tasks.next, trick, before, c, make, st, False))
        notes.append("only the player's hand is known: no exact (double-dummy) costs")
    if sum(len(t) for t in rec.tricks) < 32:
        notes.append(f"the record stops after {sum(len(t) for t in rec.tricks)} card(s)")
    return tasks, _deal_view(rec, tasks.at, final, rules), notes


def review_from_tasks(rec, rules, settings, tasks, deal, notes, progress=None) -> R.Review:
    return R.review(
        GAME,
        f"Review of a Pilotta round ({'every hand known' if rec.full else 'one hand known'})",
        C.SEATS[rec.player],
        UNIT,
        record_json(rec),
        deal,
        tasks,
        progress=progress,
        settings={"rules": rules.to_dict(), **settings.to_dict()},
        notes=notes,
        phases=PHASES,
        phase_units=PHASE_UNITS,
        rank_scale=RANK_SCALE,
    )


def review_record(
    rec: PilottaRecord,
    rules: Rules = DEFAULT_RULES,
    settings: ReviewSettings = ReviewSettings(),
    progress=None,
) -> R.Review:
    """Review every decision of the record's player (module docstring)."""
    tasks, deal, notes = review_tasks(rec, rules, settings)
    return review_from_tasks(rec, rules, settings, tasks, deal, notes, progress)


def check_record(rec: PilottaRecord, rules: Rules = DEFAULT_RULES) -> None:
    """Check a record against the rules (RecordError naming the place)."""
    if rec.full:
        replay(rec, rules)
    else:
        _one_hand_points(rec, rules, "threshold", 1)


# ---------------------------------------------------------------------- writing records


def record_from_state(state: PilottaState, player: int, every_hand: bool = True) -> PilottaRecord:
    """The record of a round played through ``state``, for ``player``: every hand or only his
    (then with the cards each seat showed)."""
    tricks = [list(cards) for _, cards, _ in state.line]
    if state.trick:
        tricks.append(list(state.trick))
    keep = {p for p in range(4) if state.decl_actions[p] == KEEP_TIERCE}
    rec = PilottaRecord(
        player=player,
        dealer=state.dealer,
        dealt=list(state.dealt) if every_hand else [None] * 4,
        calls=list(state.calls),
        keep=keep if every_hand else keep & {player},
        declared=None if every_hand else {p: state.shown[p] for p in range(4) if state.shown[p]},
        tricks=tricks,
    )
    rec.dealt[player] = state.dealt[player]
    return rec


def record_text(rec: PilottaRecord) -> str:
    lines = ["game: pilotta", f"player: {C.SEATS[rec.player]}", f"dealer: {C.SEATS[rec.dealer]}"]
    for s, h in enumerate(rec.dealt):
        if h is not None:
            lines.append(f"{C.SEATS[s]}: {C.format_cards(h)}")
    lines.append(
        "auction: " + " ".join(f"{C.SEATS[p]}:{call_name(lv, s)}" for p, lv, s in rec.calls)
    )
    if rec.keep:
        lines.append("keep tierce: " + " ".join(C.SEATS[p] for p in sorted(rec.keep)))
    if rec.declared is not None:
        groups = [f"{C.SEATS[p]} {C.format_cards(m)}" for p, m in sorted(rec.declared.items()) if m]
        lines.append("declared: " + (", ".join(groups) or "-"))
    if rec.tricks:
        lines.append(
            "tricks: " + ", ".join(" ".join(C.card_name(c) for c in t) for t in rec.tricks)
        )
    return "\n".join(lines) + "\n"


def record_json(rec: PilottaRecord) -> dict:
    out: dict = {"game": GAME, "player": C.SEATS[rec.player], "dealer": C.SEATS[rec.dealer]}
    out["hands"] = {
        C.SEATS[s]: C.PACK.card_names(h) for s, h in enumerate(rec.dealt) if h is not None
    }
    out["auction"] = [f"{C.SEATS[p]}:{call_name(lv, s)}" for p, lv, s in rec.calls]
    out["keep_tierce"] = [C.SEATS[p] for p in sorted(rec.keep)]
    if rec.declared is not None:
        out["declared"] = {
            C.SEATS[p]: C.PACK.card_names(m) for p, m in sorted(rec.declared.items())
        }
    out["tricks"] = [[C.card_name(c) for c in t] for t in rec.tricks]
    return out


def entry_kernels() -> tuple:
    from .advice import entry_kernels as play_kernels
    from .bid import entry_kernels as bid_kernels

    return (*bid_kernels("heuristic"), *play_kernels())


__all__ = [
    "QUICK",
    "RECORD_FORM",
    "PilottaRecord",
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
