"""The toy game's definition: every hook of the core's ``GameDefinition``, in plain Python.

Records: ``player: first|second``, the dealt hands (``first: CARDS``, ``second: CARDS``: both,
or only the player's) and ``tricks: LEAD-REPLY ...``, the leader's card first. Card values are
the tricks the side to act takes in the deal, over every world he cannot tell apart (the other
hand among the cards he has not seen, voids kept), each solved by minimax."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.engine.stats import Estimate
from piquet_sim.core.game import record as R
from piquet_sim.core.game.advice import CardValues, Explanation, PlayAdvice, forced_values
from piquet_sim.core.game.definition import (
    CardDecision,
    Facts,
    GameDefinition,
    PlayExample,
    ReviewPlan,
    ReviewSettings,
    ValueSettings,
)
from piquet_sim.core.game.position import ActionValues, Decider, world_mean

from .rules import HAND, PACK, REGISTRY, SEATS, SPEC, TRICKS, Rules
from .state import ToyState, cards_of, mask, suit_of, tricks_from
from .studies import studies

UNIT = "tricks the side to act takes in the deal"
KEYS = {"game": "game", "player": "player", "tricks": "tricks", "lead": "lead"} | {
    s: f"hand:{s}" for s in SEATS
}
FORM = "player: first|second; first: CARDS; second: CARDS; tricks: LEAD-REPLY ...; lead: CARD"


# ---------------------------------------------------------------------- records
@dataclass
class ToyRecord(R.Record):
    player: int
    dealt: list
    tricks: list = field(default_factory=list)
    places: dict = field(default_factory=dict)
    hand_now: int | None = None
    lead: int | None = None


def _seat(value, place: str) -> int:
    text = str(value).strip().lower()
    if text in SEATS:
        return SEATS.index(text)
    raise R.record_error(place, f"{value!r} is not first or second")


def _tricks(value, place: str) -> list[tuple[int, int]]:
    if value is None:
        return []
    pairs = value if isinstance(value, list) else [p.split("-") for p in str(value).split()]
    out = []
    for i, p in enumerate(pairs, 1):
        if len(p) != 2:
            raise R.record_error(place, f"trick {i}: each trick is LEAD-REPLY")
        try:
            out.append((PACK.parse_card(str(p[0])), PACK.parse_card(str(p[1]))))
        except InputError as err:
            raise R.record_error(place, f"trick {i}: {err}") from None
    return out


class ToyCodec(R.RecordCodec):
    game = "toy"
    form = FORM
    noun = "a toy deal"

    def build(self, raw, places, rules, player, hand) -> ToyRecord:
        if player is None:
            if "player" not in raw:
                raise R.RecordError("say whose decisions to review: 'player: first'")
            player = _seat(raw["player"], places.get("player", "player"))
        dealt = [None, None]
        for s, name in enumerate(SEATS):
            key = f"hand:{name}"
            if key in raw:
                dealt[s] = R.dealt_hand(raw[key], places[key], PACK, HAND)
        if hand is None and dealt[player] is None:
            raise R.RecordError(f"give your dealt hand: '{SEATS[player]}: CARDS'")
        tricks = _tricks(raw.get("tricks"), places.get("tricks", "tricks"))
        lead = None
        if raw.get("lead"):
            try:
                lead = PACK.parse_card(str(raw["lead"]).strip())
            except InputError as err:
                raise R.record_error(places.get("lead", "lead"), str(err)) from None
        return ToyRecord(player, dealt, tricks, places, hand, lead)

    def text_clauses(self, text: str, history: bool) -> tuple[dict, dict]:
        return R.raw_clauses(text, KEYS.get, FORM)

    def json_clauses(self, data) -> tuple[dict, dict]:
        return R.json_clauses(data, KEYS.get, FORM, {"hands": "hand:{}"})

    def text(self, rec: ToyRecord) -> str:
        lines = [f"player: {SEATS[rec.player]}"]
        lines += [f"{SEATS[s]}: {PACK.format(h)}" for s, h in enumerate(rec.dealt) if h]
        if rec.tricks:
            names = (f"{PACK.card_name(a)}-{PACK.card_name(b)}" for a, b in rec.tricks)
            lines.append("tricks: " + " ".join(names))
        if rec.lead is not None:
            lines.append(f"lead: {PACK.card_name(rec.lead)}")
        return "\n".join(lines) + "\n"

    def json(self, rec: ToyRecord) -> dict:
        return {
            "player": SEATS[rec.player],
            "hands": {SEATS[s]: PACK.card_names(h) for s, h in enumerate(rec.dealt) if h},
            "tricks": [[PACK.card_name(a), PACK.card_name(b)] for a, b in rec.tricks],
        }

    def from_state(self, state: ToyState, player: int, every_hand: bool = True) -> ToyRecord:
        dealt = list(state.dealt) if every_hand else [None, None]
        dealt[player] = state.dealt[player]
        return ToyRecord(player, dealt, [(a, b) for _, a, b in state.line])


CODEC = ToyCodec()


def replay(rec: ToyRecord, rules: Rules) -> tuple[list, ToyState]:
    """A record with both hands, played through a state: (each position before an action,
    with its action and place; the last position). RecordError names the first bad step."""
    try:
        state = ToyState(rec.dealt, rules)
    except InputError as err:
        raise R.RecordError(str(err)) from None
    steps = R.Replay(state)
    for i, (a, b) in enumerate(rec.tricks, 1):
        place = f"{rec.place('tricks')}, trick {i}"
        if state.is_terminal():
            raise R.record_error(place, "the deal has four tricks")
        steps.act(a, place)
        steps.act(b, place)
    return steps.steps, state


def position_of(rec: ToyRecord, rules: Rules, seed: int) -> ToyState:
    """The position at the end of ``rec`` as its player knows it: his hand then, the tricks;
    the other hand one world of the cards he has not seen (voids kept). RecordError when the
    tricks break the rules from his side or no world fits."""
    s = rec.player
    played = mask(c for t in rec.tricks for c in t) | (0 if rec.lead is None else 1 << rec.lead)
    now = rec.hand_now if rec.hand_now is not None else rec.dealt[s] & ~played
    unseen = PACK.full & ~now & ~played
    his = HAND - len(rec.tricks) - (rec.lead is not None)
    for hand in itertools.combinations(cards_of(unseen), his):
        try:
            world = [0, 0]
            world[s], world[1 - s] = now, mask(hand)
            state = _replayed(rec, world, rules)
        except InputError:
            continue
        return state.resample(s, np.random.default_rng(seed))
    raise R.RecordError("no deal of the unseen cards fits the tricks as recorded")


def _replayed(rec: ToyRecord, now: list[int], rules: Rules) -> ToyState:
    """The tricks played from hands that hold ``now`` at the end (each seat's plays added)."""
    dealt = list(now)
    leader = 0
    for a, b in rec.tricks:
        dealt[leader] |= 1 << a
        dealt[1 - leader] |= 1 << b
        follows = suit_of(b) == suit_of(a)
        leader = (1 - leader) if follows and b > a else leader
    if rec.lead is not None:
        dealt[leader] |= 1 << rec.lead
    state = ToyState(dealt, rules)
    for a, b in rec.tricks:
        state.apply(a)
        state.apply(b)
    if rec.lead is not None:
        state.apply(rec.lead)
    if state.current_player() != rec.player:
        raise R.RecordError(f"it is {SEATS[state.current_player()]}'s turn, not the player's")
    return state


# ---------------------------------------------------------------------- players
class ToyPlay(Decider):
    """random, greedy or dd (the oracle)."""

    def __init__(self, name: str, seed: int = 1):
        REGISTRY.get("play", name)
        self.name, self.rng = name, np.random.default_rng(seed)

    def choose(self, state: ToyState) -> int:
        legal = state.legal_actions()
        if self.name == "random":
            return int(self.rng.choice(legal))
        if self.name == "dd":
            seat = state.current_player()
            return max(legal, key=lambda c: (_after(state, c, seat), -c))
        if state.trick:
            winners = [
                c for c in legal if suit_of(c) == suit_of(state.trick[0]) and c > state.trick[0]
            ]
            return min(winners) if winners else min(legal, key=lambda c: c & 7)
        return max(legal, key=lambda c: c & 7)

    def values(self, state: ToyState) -> ActionValues | None:
        if self.name != "dd":
            return None
        seat = state.current_player()
        vals = {c: _exact(_after(state, c, seat)) for c in state.legal_actions()}
        return ActionValues(vals, UNIT, exact=True, worlds=1)


def _after(state: ToyState, card: int, seat: int) -> int:
    nxt = state.clone()
    nxt.apply(card)
    return tricks_from(nxt, seat)


def _exact(x: float) -> Estimate:
    return Estimate(float(x), 0.0, float(x), float(x), 1)


# ---------------------------------------------------------------------- card values
def card_values(state: ToyState, settings: ValueSettings) -> CardValues:
    """Every legal card over the worlds the seat to act cannot tell apart (every one when at
    most ``exact_limit``, else ``worlds`` drawn from ``seed``), each solved by minimax."""
    seat = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return forced_values(legal[0], UNIT)
    other = 1 - seat
    unseen = PACK.full & ~state.hands[seat] & ~mask(state._history)
    allowed = [c for c in cards_of(unseen) if not state.voids(other) >> suit_of(c) & 1]
    need = bin(state.hands[other]).count("1")
    possible = math.comb(len(allowed), need)
    exact = possible <= settings.exact_limit
    if exact:
        hands = [mask(h) for h in itertools.combinations(allowed, need)]
    else:
        rng = np.random.default_rng(settings.seed)
        hands = [mask(rng.choice(allowed, need, replace=False)) for _ in range(settings.worlds)]
    samples = {
        c: np.array([_after(state.with_hand(other, h), c, seat) for h in hands]) for c in legal
    }
    values = {c: world_mean(x.astype(float), exact) for c, x in samples.items()}
    how = f"every world enumerated ({len(hands)})" if exact else f"{len(hands)} worlds drawn"
    return CardValues(
        values,
        UNIT,
        exact=exact,
        worlds=len(hands),
        notes=[f"{how}, each solved by minimax"],
        samples=samples,
        possible=possible,
    )


def explain(state: ToyState, best: int, runner: int | None) -> str:
    if runner is None:
        return "the only legal card"
    if state.trick and suit_of(best) == suit_of(state.trick[0]) and best > state.trick[0]:
        return "takes the trick"
    return f"plays {PACK.card_name(best)} rather than {PACK.card_name(runner)}"


def advice_view(advice: PlayAdvice) -> Explanation:
    st = advice.state
    fields = {"seat": SEATS[advice.seat], "hand": PACK.card_names(st.hands[advice.seat])}
    header = f"You ({fields['seat']}) hold {PACK.format(st.hands[advice.seat])}."

    def cells(row: dict) -> list[str]:
        return [f"{row['mean']:.2f}"]

    return Explanation(fields, header, ["tricks"], cells)


# ---------------------------------------------------------------------- review
@dataclass(frozen=True)
class ToyReviewSettings(ReviewSettings):
    exact_limit: int = 500


def review_plan(rec: ToyRecord, rules: Rules, settings: ReviewSettings) -> ReviewPlan:
    """The player's card decisions: with both hands from the replay (exact costs too), with
    his alone from the record cut before each of his cards."""
    decisions = []
    if rec.full:
        steps, _ = replay(rec, rules)
        for state, card, _ in steps:
            if state.current_player() == rec.player:
                trick = len(state.line) + 1
                before = [PACK.card_name(c) for c in state.trick]
                decisions.append(
                    CardDecision(("card", trick), trick, before, card, state.clone, settings.exact)
                )
    else:
        hand = rec.dealt[rec.player]
        leader = 0
        for i, (a, b) in enumerate(rec.tricks, 1):
            mine, led = (a, None) if leader == rec.player else (b, a)
            upto = dataclasses.replace(rec, tricks=rec.tricks[: i - 1], hand_now=hand, lead=led)
            position_of(upto, rules, settings.seed)  # checked before any work
            before = [] if led is None else [PACK.card_name(led)]

            def make(upto=upto):
                return position_of(upto, rules, settings.seed)

            decisions.append(CardDecision(("card", i), i, before, mine, make))
            hand &= ~(1 << mine)
            follows = suit_of(b) == suit_of(a)
            leader = (1 - leader) if follows and b > a else leader
    return ReviewPlan(
        title="Review of a toy deal",
        player=SEATS[rec.player],
        unit=UNIT,
        phases=("play",),
        decisions=decisions,
        deal_view=lambda at: {"seats": list(SEATS), "tricks": []},
    )


# ---------------------------------------------------------------------- the definition
class ToyDefinition(GameDefinition):
    facts = Facts(
        name="toy",
        title="Toy",
        seats=SEATS,
        players=(2, 2),
        pack=PACK,
        cards_each=HAND,
        extra=16 - 2 * HAND,
        actions=32,
        longest=2 * TRICKS,
        utility=(0.0, float(TRICKS + 4)),
        zero_sum=False,
        unit=UNIT,
    )
    rules_spec = SPEC
    policies = REGISTRY
    play_settings = ValueSettings(worlds=50, exact_limit=500)
    play_example = PlayExample("KS QH", "first", "tricks: TS-JS TH-JH", "first, two tricks played")

    rules_class = Rules
    codec = CODEC
    state_type = ToyState
    review_settings = (ToyReviewSettings(), ToyReviewSettings(worlds=20, exact_limit=50))

    def state_from_cards(self, cards: Sequence[int], rules) -> ToyState:
        return ToyState([mask(cards[:HAND]), mask(cards[HAND : 2 * HAND])], rules)

    def position(self, record, rules, settings, before_kernels=None) -> ToyState:
        return position_of(record, rules, settings.seed)

    def play_decider(self, name: str, params: Mapping[str, float] | None = None) -> Decider:
        return ToyPlay(name)

    def seat_deciders(self, strategies, rules) -> list[Decider]:
        return [ToyPlay(s.policy("play")) for s in strategies]

    @functools.cached_property
    def studies(self):
        return studies(self)

    def card_values(self, state, settings) -> CardValues:
        return card_values(state, settings)

    def explain(self, state, best, runner) -> str:
        return explain(state, best, runner)

    def advice_view(self, advice, settings) -> Explanation:
        return advice_view(advice)

    def review_plan(self, record, rules, settings) -> ReviewPlan:
        return review_plan(record, rules, settings)

    def entry_kernels(self, command: str) -> tuple:
        return ()


DEFINITION = ToyDefinition()
