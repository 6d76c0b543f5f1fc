"""Piquet deal records and their review (``piquet review FILE``).

A deal record (:data:`RECORD_FORM`; ``docs/review.md``) is the whole deal as the reviewed player
tells it: the ``play`` command's history form (``position.HISTORY_FORM``) extended to the whole
deal, with every key naming whose it is. Either every hand is known (both dealt hands, the talon
and both discards: the deal is replayed card by card through a :class:`PiquetState`) or only the
player's (his hand, his exchange, the other's count, what he saw of the talon, who scored each
class and the tricks: each of his play decisions is rebuilt as ``piquet play`` rebuilds one,
:func:`position.from_description`). Every record is checked against the rules before any work
(:class:`core.review.RecordError`, one line naming the place).

The review (:func:`review_record`) measures each of the player's decisions with what he could
know:

* the exchange: the discard advisor (``advisor.advise``) ranks every discard; the cost of his is
  the paired difference from the advised one on the advisor's worlds (``advisor.world_values``:
  the heuristic's difference on many worlds plus pimc's correction on the first of them, the
  advisor's own control-variate estimator);
* the declarations (point, sequence and sets together, as the sinking study compares them):
  ``sinking.evaluate`` plays every choice (declare all, sink a class, declare the lesser, sink
  everything) on the same worlds from the hand he held; with every hand known, each choice is
  also valued on the true deal (the declarations as recorded for the opponent, the play solved
  double-dummy);
* each card: ``deciders.card_values`` (every legal card over the worlds he could not tell
  apart, each solved double-dummy: pimc's values) and the paired cost; with every hand known,
  ``deciders.DdPlay.values``: the exact double-dummy value of every card on the true deal.

Points are net deal points for the reviewed player (his minus the other's).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..core import review as R
from ..core.engine.errors import InputError
from ..core.engine.stats import Estimate
from ..core.game.definition import CardDecision, GameDecision, ReviewPlan, ReviewSettings
from . import cards as C
from .actions import CLASSES, DECLARE, LESSER, ROLES, SINK, _class_keys, decl_action, trick_winner
from .codec import _kinds_text, _list
from .description import description_of, from_description
from .partie_play import play_goal
from .position import PiquetState
from .record import (
    CHOICE_KINDS,
    EQUAL,
    NONE,
    PHASES,
    UNIT,
    PiquetRecord,
    _err,
    _names,
)
from .replay import check_one_hand, replay
from .rules import DEFAULT_RULES, Rules

# ---------------------------------------------------------------------- the review


@dataclass(frozen=True)
class PiquetReviewSettings(ReviewSettings):
    """How each decision is measured (defaults: the advisors' own, about 20 s a deal).

    ``worlds``/``exact_limit``: a card decision's worlds (``card_values``: every world when at
    most ``exact_limit``); ``exchange_play``, ``exchange_precision``, ``exchange_samples``: the
    discard advisor's play, SE target and world cap (``advise``); ``control_worlds`` and
    ``pair_worlds``: the paired cost of the discard (the heuristic's difference on
    ``control_worlds`` worlds, the advisor's play's correction on the first ``pair_worlds``;
    0: the control alone); ``sink_worlds``, ``sink_play``, ``sink_pimc_worlds``: the
    declarations (``sinking.evaluate``); ``max_seconds``: a card decision's time budget for its
    sampled worlds (None: none); ``exact``: double-dummy values when every hand is known;
    ``seed``: every sample's."""

    worlds: int = 400
    exact_limit: int = 5000
    exchange_play: str = "pimc"
    exchange_precision: float | None = 0.5
    exchange_samples: int | None = None
    control_worlds: int = 4000
    pair_worlds: int = 200
    sink_worlds: int = 48
    sink_play: str = "pimc"
    sink_pimc_worlds: int = 8
    max_seconds: float | None = None


#: Settings for tests and quick looks: seconds, not tens of them.
QUICK = PiquetReviewSettings(
    worlds=60,
    exact_limit=300,
    exchange_play="heuristic",
    exchange_precision=None,
    exchange_samples=128,
    control_worlds=256,
    pair_worlds=0,
    sink_worlds=8,
    sink_play="heuristic",
)


#: A net deal point in a partie objective's unit, to rank the declarations' costs (in deal
#: points) among the others: P(win) moves by about half a percent a point in mid-partie.
PARTIE_POINT = {"win": 0.005, "settlement": 1.0}


def _est(mean: float, se: float, n: int) -> Estimate:
    from ..core.engine.stats import Z95

    return Estimate(mean, se, mean - Z95 * se, mean + Z95 * se, n)


def _exchange_task(rec: PiquetRecord, rules: Rules, st: ReviewSettings, index: int) -> R.Task:
    s = rec.player
    role = ROLES[s]
    hand = rec.dealt[s]
    disc = rec.discard[s]
    elder_took = None if s == 0 else rec.took_n[0]
    done = _names(disc) or "-"
    place = f"discard {C.popcount(disc)} of 12" + (f" (elder took {elder_took})" if s else "")

    def run() -> R.DecisionReview:
        from .advisor import advise, world_values
        from .advisor_refine import CONTROL_PLAY, cv_mean_se

        t0 = time.perf_counter()
        goal = play_goal(st.game, rules)
        res = advise(
            hand,
            role=role,
            elder_took=elder_took,
            play=st.exchange_play,
            samples=st.exchange_samples,
            precision=st.exchange_precision,
            seed=st.seed,
            rules=goal.rules if goal is not None else rules,
            elder_carte_blanche=(s == 1 and 0 in rec.blanche),
            partie=goal.partie if goal is not None else None,
        )
        by_disc = {c.discard: c for c in res.candidates}
        best = res.best
        mine = by_disc.get(disc)
        notes = []
        if mine is None:
            raise _err(rec.place(f"discard:{role}"), "not a discard the rules allow here")
        if disc == best.discard:
            cost = R.exact_estimate(0.0, best.samples)
        elif goal is not None:  # the advisor's partie values, unpaired
            se = math.hypot(best.se, mine.se)
            cost = _est(best.ev - mine.ev, se, min(best.samples, mine.samples))
            notes.append("cost: the advisor's two partie values (standard errors in quadrature)")
        else:
            pair = [best.discard, disc]
            h, info = world_values(
                hand,
                pair,
                role,
                elder_took,
                play=CONTROL_PLAY if st.pair_worlds else st.exchange_play,
                n_worlds=st.control_worlds,
                seed=st.seed,
                rules=rules,
            )
            ok = info["valid"]
            hd = (h[0].astype(np.float64) - h[1])[ok]
            if st.pair_worlds and st.exchange_play != CONTROL_PLAY:
                n = min(st.pair_worlds, st.control_worlds)
                p, pinfo = world_values(
                    hand,
                    pair,
                    role,
                    elder_took,
                    play=st.exchange_play,
                    n_worlds=n,
                    seed=st.seed,
                    rules=rules,
                )
                okp = pinfo["valid"] & ok[:n]
                dd = (p[0].astype(np.float64) - p[1])[okp] - (h[0].astype(np.float64) - h[1])[:n][
                    okp
                ]
                mean, se = cv_mean_se(hd, dd)
                cost = _est(mean, se, int(okp.sum()))
                how = (
                    f"{CONTROL_PLAY} on {int(ok.sum())} worlds + {st.exchange_play}'s "
                    f"correction on {int(okp.sum())}"
                )
            else:
                cost = Estimate.of_sample(hd)
                play = st.exchange_play if not st.pair_worlds else CONTROL_PLAY
                how = f"{play} on {len(hd)} worlds"
            notes.append(f"cost: paired on the advisor's worlds ({how})")
            if res.stop_reason == "interrupted":
                notes.append("the advisor was stopped by Ctrl-C")
        top = res.candidates[:5]
        if mine not in top:
            top = [*top, mine]
        rank = res.candidates.index(mine) + 1
        alts = [
            R.Alternative(
                _names(c.discard) or "-",
                _est(c.ev, c.se, c.samples) if math.isfinite(c.se) else None,
                note=f"{c.play}, {c.samples:,} worlds"
                + (" (yours)" if c.discard == disc else "")
                + (
                    f", rank {rank} of {len(res.candidates):,}"
                    if c is mine and c not in res.candidates[:5]
                    else ""
                ),
            )
            for c in top
        ]
        return R.DecisionReview(
            index,
            "exchange",
            place,
            done,
            best=_names(best.discard) or "-",
            cost=cost,
            alternatives=alts,
            method=(
                f"discard advisor: {len(res.candidates):,} discards, {res.play} play, "
                f"{res.worlds:,} worlds for the leaders, stopped on {res.stop_reason}; yours "
                f"ranks {rank}"
            ),
            seconds=time.perf_counter() - t0,
            notes=notes,
            partial=res.stop_reason == "interrupted",
            context={"step": "exchange"},
        )

    weight = 10.0 if st.exchange_play == "pimc" else 2.0
    return R.Task("exchange", place, done, run, weight)


def _choice_of(kinds: list[int], hand: int) -> tuple[int, int, int]:
    """A choice's kinds as the State takes them: sinking a class one holds nothing in is
    declaring it."""
    full, _ = _class_keys(hand)
    return tuple(DECLARE if (k == SINK and not full[c]) else k for c, k in enumerate(kinds))


def _applicable(hand: int) -> dict[str, tuple[int, int, int]]:
    """The sinking choices legal for ``hand`` and different from each other (name -> kinds)."""
    full, lesser = _class_keys(hand)
    out: dict[str, tuple[int, int, int]] = {}
    for name, kinds in CHOICE_KINDS.items():
        if any(k == LESSER and not lesser[c] for c, k in enumerate(kinds)):
            continue
        adj = _choice_of(list(kinds), hand)
        if adj in out.values():
            continue
        out[name] = adj
    return out


def _choice_name(kinds) -> str:
    for name, k in CHOICE_KINDS.items():
        if tuple(k) == tuple(kinds):
            return name
    return _kinds_text(list(kinds))


def _declare_task(rec, rules, st, index, decl_state, held) -> R.Task:
    s = rec.player
    kinds = tuple(rec.kinds[s])
    done = _choice_name(_choice_of(list(kinds), held))
    place = "point, sequence, sets"

    def run() -> R.DecisionReview:
        from ..core.engine.backend import StopOnInterrupt, stop_requested
        from .kernels import layouts as L
        from .sinking import CHOICES, CHUNK_WORLDS, evaluate, summarise

        t0 = time.perf_counter()
        choices = _applicable(held)
        mine = _choice_of(list(kinds), held)
        names = list(choices)
        notes = []
        if len(names) == 1:
            return R.DecisionReview(
                index,
                "declare",
                place,
                done,
                best=done,
                cost=R.exact_estimate(0.0),
                forced=True,
                method="nothing to sink or lessen: declaring is the only choice",
                seconds=time.perf_counter() - t0,
                context={"step": "declare"},
            )
        parts = []
        partial = False
        with StopOnInterrupt():
            for first in range(0, st.sink_worlds, CHUNK_WORLDS):
                rows, _ = evaluate(
                    held,
                    s,
                    -1,
                    0,
                    [CHOICES[n] for n in names],
                    min(CHUNK_WORLDS, st.sink_worlds - first),
                    st.sink_play,
                    st.sink_pimc_worlds,
                    st.seed,
                    rules,
                    start=first,
                )
                parts.append(rows)
                if stop_requested():
                    partial = first + CHUNK_WORLDS < st.sink_worlds
                    break
        rows = np.concatenate(parts)
        results = summarise(rows, names)
        total = rows[:, :, L.SINK_TOTAL].astype(np.float64)
        exact = {}
        if decl_state is not None and st.exact:
            exact = _declaration_exact(decl_state, rec, choices)
        order = sorted(range(len(names)), key=lambda j: (-results[j].net, j))
        best_j = order[0]
        my_j = next((j for j in range(len(names)) if choices[names[j]] == mine), None)
        if my_j is not None and results[my_j].net == results[best_j].net:
            best_j = my_j
        cost = None
        if my_j is None:
            notes.append(f"{done} is not among the choices the sinking study compares")
        else:
            if best_j == my_j:
                cost = R.exact_estimate(0.0, len(total))
            else:
                cost = Estimate.paired(total[:, best_j], total[:, my_j])
        alts = []
        for j in order:
            r_ = results[j]
            val = _est(r_.net, (r_.net_ci[1] - r_.net) / 1.959964, len(total))
            alts.append(
                R.Alternative(
                    names[j],
                    val,
                    exact.get(names[j]),
                    note=("yours; " if j == my_j else "") + f"vs declare all {r_.gain:+.2f}",
                )
            )
        if my_j is None and done in exact:
            alts.append(R.Alternative(done, None, exact[done], "yours"))
        exact_cost = exact_best = None
        if exact:
            top = max(exact.values())
            exact_best = done if exact.get(done) == top else max(exact, key=lambda k: exact[k])
            if done in exact:
                exact_cost = top - exact[done]
        return R.DecisionReview(
            index,
            "declare",
            place,
            done,
            best=names[best_j],
            cost=cost,
            exact_cost=exact_cost,
            exact_best=exact_best,
            alternatives=alts,
            method=(
                f"sinking study: {len(names)} choices on {len(total)} worlds from the hand held "
                f"({_names(held)}), {st.sink_play} play both sides; the other declares all"
                + (
                    "; exact: the true deal, his declarations as recorded, play double-dummy"
                    if exact
                    else ""
                )
            ),
            seconds=time.perf_counter() - t0,
            notes=notes,
            partial=partial,
            context={"step": "declare"},
        )

    weight = 3.0 if st.sink_play == "pimc" else 0.5
    return R.Task("declare", place, done, run, weight)


def _declaration_exact(state: PiquetState, rec: PiquetRecord, choices: dict) -> dict:
    """Each choice's value on the true deal: the player's classes as the choice, the other's as
    recorded, then the play double-dummy from the first lead (net for the player)."""
    from .deciders import DdPlay

    s = rec.player
    out = {}
    for name, kinds in choices.items():
        st = state.clone()
        for c in range(3):
            for who in (0, 1):
                k = kinds[c] if who == s else rec.kinds[who][c]
                st.apply(decl_action(c, k))
        vals = DdPlay().values(st).values  # for elder, who leads
        best = max(v.mean for v in vals.values())
        out[name] = best if s == 0 else -best
    mine = _choice_of(list(rec.kinds[s]), state.decl_hands[s])
    if _choice_name(mine) not in out:
        st = state.clone()
        for c in range(3):
            for who in (0, 1):
                st.apply(decl_action(c, mine[c] if who == s else rec.kinds[who][c]))
        vals = DdPlay().values(st).values
        best = max(v.mean for v in vals.values())
        out[_choice_name(mine)] = best if s == 0 else -best
    return out


def _one_hand_state(rec: PiquetRecord, rules: Rules, seed: int, n: int, lead, hand_now, place):
    def make():
        try:
            return from_description(description_of(rec, n, lead, hand_now), rules, seed=seed)
        except InputError as err:
            raise R.RecordError(f"{place}: {err}") from None

    return make


def _card(key, trick: int, lead: int | None, card: int, make_state, exact: bool) -> CardDecision:
    """A card decision, placed as Piquet says it: "trick 3, lead" or "trick 3, to AS"."""
    place = f"trick {trick}, " + ("lead" if lead is None else f"to {C.card_name(lead)}")
    before = [] if lead is None else [C.card_name(lead)]
    return CardDecision(key, trick, before, card, make_state, exact, place, weight=0.3)


def _before_play(rec: PiquetRecord, tasks_at: dict, final: PiquetState | None) -> list[dict]:
    """The page's phases before the play: the exchange, the declarations."""
    s = rec.player
    ex_items = []
    for x, role in enumerate(ROLES):
        d = rec.discard[x]
        took = rec.took[x]
        if d is not None:
            text = f"{role} discarded {_names(d) or 'nothing'}"
            text += f" and took {_list(took)}" if took else ""
        else:
            text = f"{role} took {rec.took_n[x]} card(s)"
        ex_items.append({"text": text, "decision": tasks_at.get("exchange") if x == s else None})
    if rec.left:
        ex_items.append({"text": f"talon cards {ROLES[s]} saw that nobody took: {_list(rec.left)}"})
    de_items = []
    for x, role in enumerate(ROLES):
        if rec.kinds[x] is not None:
            de_items.append(
                {
                    "text": f"{role} declares {_kinds_text(rec.kinds[x])}",
                    "decision": tasks_at.get("declare") if x == s else None,
                }
            )
    for c, name in enumerate(CLASSES):
        if c in rec.outcomes:
            out = rec.outcomes[c]
            who = {EQUAL: "equal: nobody scores", NONE: "nobody declared one"}.get(out.winner)
            if who is None:
                who = f"{ROLES[out.winner]} scores" + (
                    f" (showed {_names(out.cards)})" if out.cards else ""
                )
            de_items.append({"text": f"{name}: {who}"})
    if final is not None:
        e, y, _ = final.declaration_points()
        de_items.append({"text": f"declaration points: elder {sum(e)}, younger {sum(y)}"})
    return [
        {"title": "Exchange", "items": ex_items},
        {"title": "Declarations", "items": de_items},
    ]


def _deal_result(rec: PiquetRecord, final: PiquetState | None) -> list[str]:
    if final is None:
        return []
    sc = final.score()
    return [
        f"Deal points: elder {sc['elder']['total']}, younger {sc['younger']['total']} "
        f"(tricks {sc['elder']['tricks']}-{sc['younger']['tricks']}); net for "
        f"{ROLES[rec.player]} {final.net(rec.player):+d}"
    ]


def _deal_view(rec: PiquetRecord, final: PiquetState | None) -> R.DealView:
    """The page's view of the deal: hands (the talon too), the exchange, the declarations,
    the tricks."""
    talon = []
    if rec.talon is not None:
        talon.append(
            {
                "seat": "talon",
                "label": "talon, top first",
                "cards": [C.card_name(c) for c in rec.talon],
            }
        )
    return R.DealView(
        seats=ROLES,
        player=rec.player,
        dealt=rec.dealt,
        tricks=rec.tricks,
        leader=0,
        winner=lambda cards, leader: trick_winner(leader, *cards),
        card_name=C.card_name,
        card_names=C.card_names,
        phases=lambda at: _before_play(rec, at, final),
        result=lambda: _deal_result(rec, final),
        more_hands=talon,
        mark_followers=False,
    )


def review_plan(
    rec: PiquetRecord, rules: Rules = DEFAULT_RULES, settings: PiquetReviewSettings = QUICK
) -> ReviewPlan:
    """The player's decisions in order (the exchange, the declarations, each card), the record
    checked first (RecordError naming the place), and the page's view of the deal."""
    s = rec.player
    st = settings
    decisions: list = []
    notes = []
    final = None
    if rec.full:
        steps, final = replay(rec, rules, st.seed)
        my_steps = [(state, a, p) for state, a, p in steps if state.current_player() == s]
        decisions.append(
            GameDecision("exchange", lambda index: _exchange_task(rec, rules, st, index))
        )
        decl = next((state for state, _, _ in steps if state.phase == "declare"), None)
        if decl is not None:
            held = decl.decl_hands[s]
            decisions.append(
                GameDecision(
                    "declare", lambda index: _declare_task(rec, rules, st, index, decl, held)
                )
            )
        for state, a, _ in my_steps:
            if state.phase != "play":
                continue
            trick = state.trick + 1
            lead = state.lead if state.lead >= 0 else None
            decisions.append(_card(("card", trick), trick, lead, a, state.clone, st.exact))
        if len(rec.tricks) < 12:
            notes.append(f"the record stops after {len(rec.tricks)} trick(s)")
    else:
        points = check_one_hand(rec, rules)
        decisions.append(
            GameDecision("exchange", lambda index: _exchange_task(rec, rules, st, index))
        )
        held = (rec.dealt[s] & ~rec.discard[s]) | C.cards_to_mask(rec.took[s])
        decisions.append(
            GameDecision("declare", lambda index: _declare_task(rec, rules, st, index, None, held))
        )
        for i, lead, mine, hand in points:
            place = f"{rec.place('tricks')}, trick {i}"
            make = _one_hand_state(rec, rules, st.seed, i - 1, lead, hand, place)
            decisions.append(_card(("card", i), i, lead, mine, make, False))
        notes.append("only the player's hand is known: no exact (double-dummy) costs")
        if len(rec.tricks) < 12:
            notes.append(f"the record stops after {len(rec.tricks)} trick(s)")
    units: dict = {}
    scale: dict = {}
    goal = play_goal(st.game, rules)
    if goal is not None:  # the partie's objective, the declarations still in deal points
        units = {"exchange": goal.unit, "declare": UNIT, "play": goal.unit}
        scale = {"declare": PARTIE_POINT.get(goal.partie.objective, 1.0)}
        notes.append(
            f"the exchange and the cards {goal.note}; the declarations and the dd costs in net "
            "deal points"
        )
    return ReviewPlan(
        title=f"Review of a Piquet deal ({'every hand known' if rec.full else 'one hand known'})",
        player=ROLES[rec.player],
        unit=goal.unit if goal is not None else UNIT,
        phases=PHASES,
        decisions=decisions,
        deal_view=_deal_view(rec, final).view,
        notes=notes,
        phase_units=units,
        rank_scale=scale,
    )
