"""Pitch's review of a played round (``piquet pitch review FILE``): the reviewed player's
decisions as a plan the core measures (``core.review.plan``).

The record (``record.RECORD_FORM``; ``docs/review.md``) gives every hand (the round is replayed
card by card through a :class:`PitchState`) or only the player's (each of his card decisions is
rebuilt as ``play`` rebuilds a position, :func:`seen.position_of`). It is checked against the
rules before any work (one line naming the place). The player count is the record's.

* his call: the bid advisor (``bid.advise_bid``: every legal call, each bid with each suit he
  could pitch, on common worlds fitting the calls before his under the others' ``threshold``
  bidding), in his score change for the round; his bid is valued with the suit he pitched when
  he won the auction (else the best suit for it); the cost is the difference of two means on
  the same worlds, standard errors in quadrature (conservative);
* each card (the pitch included): the core's card task over the game's card values (every
  legal card over the worlds consistent with what he saw, each solved by the paranoid search)
  in his side's points, paired; with every hand known, the ``dd`` search on the true deal
  (exact).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from ..core import review as R
from ..core.engine.stats import Z95, Estimate
from ..core.game.definition import CardDecision, GameDecision, ReviewPlan, ReviewSettings
from ..core.review.one_hand import TrickWalk, one_hand_cards, one_hand_decisions
from . import cards as C
from .position import BID_BASE, PASS, PitchState, beats
from .record import PitchRecord, call_name
from .rules import DEFAULT_RULES, Rules
from .seen import position_of, seen_position

UNIT = (
    "Points for the reviewed player: a call in his score change for the round (as bidder +bid "
    "made, -bid set; as a defender the points he takes), a card in his side's points (the bidder's "
    "for the bidder, the points the bidder does not take for a defender)"
)
PHASES = ("bid", "play")
PHASE_UNITS = {"bid": "score change", "play": "side's points"}
_err = R.record_error


def replay(rec: PitchRecord, rules: Rules = DEFAULT_RULES):
    """A record with every hand, replayed: (the states before each action with its place, the
    final state); RecordError names the first illegal step."""
    rules = rec.table_rules(rules)
    replayed = R.Replay.of(lambda: PitchState.from_hands(rec.dealt, rules))
    state, act = replayed.state, replayed.act

    for s, c in enumerate(rec.calls):
        act(PASS if c == 0 else BID_BASE + c, f"{rec.place('auction')}, seat {s}")
    if len(rec.calls) < rec.players and rec.tricks:
        raise _err(rec.place("auction"), f"{len(rec.calls)} calls: every seat calls once")
    replayed.play_tricks(rec.tricks, rec.place("tricks"))
    return replayed.steps, state


def _winner(cards: list[int], leader: int, trump: int, n: int) -> int:
    best, at = cards[0], 0
    for j, c in enumerate(cards[1:], 1):
        if beats(c, best, trump):
            best, at = c, j
    return (leader + at) % n


def _one_hand_cards(rec: PitchRecord, rules: Rules) -> list:
    """The player's card decisions in a one-hand record, each position checked as ``play``
    checks one (``core.review.one_hand_cards``)."""
    rules = rec.table_rules(rules)
    seat, n = rec.player, rec.players
    if len(rec.calls) < n and rec.tricks:
        raise _err(rec.place("auction"), f"{len(rec.calls)} calls: every seat calls once")
    trump = rec.tricks[0][0] >> 4 if rec.tricks else -1

    def position_at(before: list[list[int]], hand: int) -> PitchRecord:
        # the trump given is not his to pitch to: his pitch is reviewed among every card
        upto = dataclasses.replace(rec, tricks=before, hand_now=hand, trump=None)
        seen_position(upto, rules)
        return upto

    walk = TrickWalk(
        seat,
        rec.dealt[seat],
        n,
        rec.bidder,
        lambda cards, lead: _winner(cards, lead, trump, n),
        f"seat {seat}",
        C.card_name,
    )
    return one_hand_cards(rec.tricks, walk, rec.place("tricks"), position_at)


@dataclass(frozen=True)
class PitchReviewSettings(ReviewSettings):
    """How each decision is measured: ``worlds``/``exact_limit``/``max_seconds``: a card
    decision's worlds (``card_values``); ``bid_play``/``bid_worlds``: the bid advisor's;
    ``others``: the others' bidding policy the worlds fit their calls to; ``exact``: the dd
    search on the true deal with every hand; ``seed``."""

    exact_limit: int = 20_000
    max_seconds: float | None = 3.0
    bid_play: str = "heuristic"
    bid_worlds: int = 5000
    others: str = "threshold"


QUICK = PitchReviewSettings(worlds=32, exact_limit=2000, max_seconds=1.0, bid_worlds=500)


def _estimate(e) -> Estimate:
    """The project's Estimate of the bid advisor's (mean, 95% interval, count)."""
    lo, hi = e.ci95
    return Estimate(e.mean, (hi - lo) / (2 * Z95), lo, hi, e.n)


def _call_task(rec: PitchRecord, rules: Rules, st: PitchReviewSettings, index: int) -> R.Task:
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
            rules,
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
        alts = R.ranked_alternatives(
            values,
            my,
            lambda v: v.call,
            lambda v: _estimate(v.score),
            lambda v: f"bidder {v.p_bidder:.0%}" if v.bid else "",
        )
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


def _auction(rec: PitchRecord, at: dict) -> list[dict]:
    """The page's phase before the play: the auction."""
    calls = [
        {
            "text": f"seat {s}: {call_name(c)}",
            "decision": at.get("bid") if s == rec.player else None,
        }
        for s, c in enumerate(rec.calls)
    ]
    if rec.bidder >= 0:
        calls.append({"text": f"seat {rec.bidder} bids {max(rec.calls)}"})
    return [{"title": "Auction", "items": calls}]


def _round_result(final: PitchState | None) -> list[str]:
    if final is None or not final.is_terminal():
        return []
    return [
        "Round scores: " + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(final.scores or []))
    ]


def _round_view(rec: PitchRecord, final: PitchState | None) -> R.DealView:
    """The page's view of the round: hands, the auction, the tricks (the first names the
    trump pitched)."""
    n = rec.players
    trump = rec.tricks[0][0] >> 4 if rec.tricks else -1
    return R.DealView(
        seats=[str(s) for s in range(n)],
        player=rec.player,
        dealt=rec.dealt,
        tricks=rec.tricks,
        leader=rec.bidder,
        winner=lambda cards, leader: _winner(cards, leader, trump, n) if len(cards) == n else None,
        card_name=C.card_name,
        card_names=C.PACK.card_names,
        phases=lambda at: _auction(rec, at),
        result=lambda: _round_result(final),
        hand_label="seat {seat}, dealt",
        trick_note=lambda i: f"pitch: {C.SUITS[trump]} trumps" if i == 1 else "",
    )


def review_plan(
    rec: PitchRecord, rules: Rules = DEFAULT_RULES, settings: PitchReviewSettings = QUICK
) -> ReviewPlan:
    """The reviewed player's decisions in order (his call, his cards), the record checked first
    (RecordError naming the place), and the page's view of the round."""
    seat = rec.player
    st = settings
    rules = rec.table_rules(rules)
    decisions: list = []
    notes = []
    final = None
    if rec.full:
        steps, final = replay(rec, rules)
    else:
        points = _one_hand_cards(rec, rules)
    if len(rec.calls) > seat:
        decisions.append(GameDecision("bid", lambda index: _call_task(rec, rules, st, index)))
    if rec.full:
        for state, a, _ in steps:
            if state.phase != "play" or state.current_player() != seat:
                continue
            trick = state.trick_index + 1
            before = [C.card_name(c) for c in state.trick]
            decisions.append(CardDecision(("card", trick), trick, before, a, state.clone, st.exact))
    else:
        decisions += one_hand_decisions(
            points, lambda upto: position_of(upto, rules, st.others, st.seed), C.card_name
        )
        notes.append("only the player's hand is known: no exact (search on the true deal) costs")
    if sum(len(t) for t in rec.tricks) < rec.players * C.HAND_SIZE:
        notes.append(f"the record stops after {sum(len(t) for t in rec.tricks)} card(s)")
    known = "every hand known" if rec.full else "one hand known"
    return ReviewPlan(
        title=f"Review of a Pitch round, {rec.players} players ({known})",
        player=f"seat {rec.player}",
        unit=UNIT,
        phases=PHASES,
        decisions=decisions,
        deal_view=_round_view(rec, final).view,
        notes=notes,
        phase_units=PHASE_UNITS,
        rules=rules,  # the record's table size
    )


__all__ = ["QUICK", "PitchReviewSettings", "replay", "review_plan"]
