"""Pilotta's review of a played round (``piquet pilotta review FILE``): the reviewed player's
decisions as a plan the core measures (``core.review.plan``).

The record (``record.RECORD_FORM``; ``docs/review.md``) gives every hand (the round is
replayed card by card through a :class:`PilottaState`) or only the player's (each of his card
decisions is rebuilt as ``play`` rebuilds a position, :func:`definition.position_of`). It is
checked against the rules before any work (one line naming the place).

* each call: the bid advisor (``bid.advise``: every legal call played out on worlds consistent
  with the auction so far under the others' bidding model), in game points of the round (his
  team's minus the opponents'); the cost is paired when his call is the advice's runner-up or
  the pass, else the difference of two means on the same worlds with the standard errors in
  quadrature (conservative);
* keeping a tierce: shown, not measured (the project has no advisor for it);
* each card: the core's card task over the game's card values (every legal card over the
  worlds he could not tell apart, each solved double-dummy) in his team's card points for the
  round, paired; with every hand known, the exact double-dummy cost on the true deal.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np

from ..core import review as R
from ..core.engine.stats import Estimate
from ..core.game.definition import CardDecision, GameDecision, ReviewPlan, ReviewSettings
from ..core.review.one_hand import TrickWalk, one_hand_cards, one_hand_decisions
from . import cards as C
from .actions import DECLARE, KEEP_TIERCE, PASS, bid_action, call_name, has_tierce, make_setup
from .description import _synth_calls
from .kernels import tricks as KT
from .position import PilottaState
from .record import PilottaRecord
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
_err = R.record_error


def _setup(prior: str):
    return make_setup(prior)


def replay(rec: PilottaRecord, rules: Rules = DEFAULT_RULES, prior: str = "threshold"):
    """A record with every hand, replayed: (the states before each action with its place, the
    final state); RecordError names the first illegal step."""
    replayed = R.Replay.of(
        lambda: PilottaState.from_hands(rec.dealt, rec.dealer, rules, _setup(prior))
    )
    state, act = replayed.state, replayed.act

    calls = rec.calls if rec.calls is not None else _synth_calls(rec.dealer, rec.contract)
    for i, (_, lv, s) in enumerate(calls, 1):
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
    replayed.play_tricks(rec.tricks, rec.place("tricks"))
    return replayed.steps, state


def _winner(cards: list[int], leader: int, trump: int) -> int:
    return (leader + int(KT.trick_winner_pos(np.array(cards, dtype=np.int64), trump))) % 4


def _one_hand_cards(rec: PilottaRecord, rules: Rules, others: str, seed: int) -> list:
    """The player's card decisions in a one-hand record, each position checked as ``play``
    checks one (``core.review.one_hand_cards``)."""
    from .description import position_of

    seat = rec.player
    bidder, _, trump = rec.contract
    leader = (rec.dealer + 1) % 4 if rules.first_lead == "after_dealer" else bidder

    def position_at(before: list[list[int]], hand: int) -> PilottaRecord:
        upto = dataclasses.replace(rec, tricks=before, hand_now=hand)
        position_of(upto, rules, others, seed)
        return upto

    walk = TrickWalk(
        seat,
        rec.dealt[seat],
        4,
        leader,
        lambda cards, lead: _winner(cards, lead, trump),
        C.SEATS[seat],
        C.card_name,
    )
    return one_hand_cards(rec.tricks, walk, rec.place("tricks"), position_at)


@dataclass(frozen=True)
class PilottaReviewSettings(ReviewSettings):
    """How each decision is measured: a card decision's worlds (``worlds``, ``exact_limit``,
    ``max_seconds``: the card values'); the bid advisor's play and worlds (``bid_play``,
    ``bid_deals``); the others' bidding policy the worlds fit their calls to (``others``);
    double-dummy costs with every hand (``exact``); ``seed``."""

    exact_limit: int = 3000
    max_seconds: float | None = 4.0
    bid_play: str = "heuristic"
    bid_deals: int = 2000
    others: str = "threshold"


QUICK = PilottaReviewSettings(worlds=24, exact_limit=200, max_seconds=1.0, bid_deals=200)


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
            prior=st.others,
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
        alts = R.ranked_alternatives(
            res["calls"],
            rows[done],
            lambda r: r["call"],
            est,
            lambda r: f"we contract {r['p_we_contract']['p']:.0%}",
        )
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


def _before_play(rec: PilottaRecord, at: dict, final: PilottaState | None) -> list[dict]:
    """The page's phases before the play: the auction, the declarations."""
    calls = []
    for k, (p, lv, s) in enumerate(rec.calls or []):  # none when only the contract is known
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
    return [
        {"title": "Auction", "items": calls},
        {"title": "Declarations", "items": decl_items},
    ]


def _round_result(final: PilottaState | None) -> list[str]:
    if final is None or not final.is_terminal():
        return []
    sc = final.score()
    return [
        f"Card points NS {sc['card_points']['NS']}, EW {sc['card_points']['EW']}; game "
        f"points NS {sc['score']['total_ns']}, EW {sc['score']['total_ew']}"
    ]


def _round_view(rec: PilottaRecord, final: PilottaState | None, rules: Rules) -> R.DealView:
    """The page's view of the round: hands, the auction, the declarations, the tricks."""
    bidder, _, trump = rec.contract
    return R.DealView(
        seats=C.SEATS,
        player=rec.player,
        dealt=rec.dealt,
        tricks=rec.tricks,
        leader=(rec.dealer + 1) % 4 if rules.first_lead == "after_dealer" else bidder,
        winner=lambda cards, leader: _winner(cards, leader, trump) if len(cards) == 4 else None,
        card_name=C.card_name,
        card_names=C.PACK.card_names,
        phases=lambda at: _before_play(rec, at, final),
        result=lambda: _round_result(final),
    )


def review_plan(
    rec: PilottaRecord, rules: Rules = DEFAULT_RULES, settings: PilottaReviewSettings = QUICK
) -> ReviewPlan:
    """The reviewed player's decisions in order (his calls, keeping a tierce, his cards), the
    record checked first (RecordError naming the place), and the page's view of the round."""
    seat = rec.player
    st = settings
    decisions: list = []
    notes = []
    final = None
    for k, (p, _, _) in enumerate(rec.calls or []):
        if p == seat:

            def call(index, k=k):
                return _call_task(rec, rules, st, index, k, rec.calls[:k])

            decisions.append(GameDecision(("call", k), call))
    if has_tierce(rec.dealt[seat]):
        decisions.append(GameDecision("declare", lambda index: _declare_task(rec, index)))
    if rec.full:
        steps, final = replay(rec, rules, st.others)
        for state, a, _ in steps:
            if state.phase != "play" or state.current_player() != seat:
                continue
            trick = len(state.line) + 1
            before = [C.card_name(c) for c in state.trick]
            decisions.append(CardDecision(("card", trick), trick, before, a, state.clone, st.exact))
    else:
        from .description import position_of

        cards = _one_hand_cards(rec, rules, st.others, st.seed)
        decisions += one_hand_decisions(
            cards, lambda upto: position_of(upto, rules, st.others, st.seed), C.card_name
        )
        notes.append("only the player's hand is known: no exact (double-dummy) costs")
    if sum(len(t) for t in rec.tricks) < 32:
        notes.append(f"the record stops after {sum(len(t) for t in rec.tricks)} card(s)")
    return ReviewPlan(
        title=f"Review of a Pilotta round ({'every hand known' if rec.full else 'one hand known'})",
        player=C.SEATS[rec.player],
        unit=UNIT,
        phases=PHASES,
        decisions=decisions,
        deal_view=_round_view(rec, final, rules).view,
        notes=notes,
        phase_units=PHASE_UNITS,
        rank_scale=RANK_SCALE,
    )
