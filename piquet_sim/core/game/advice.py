"""Card values and play advice, for every game: which card to play now and why.

A game values every legal card of the seat to play over the worlds that seat cannot tell apart
(:class:`CardValues`, its hook ``card_values``); :func:`advise_play` ranks the cards, names the
best with the game's reason (its hook ``explain``) and measures its margin over the runner-up
on the same worlds (paired; exact when every world was counted). A forced card is answered at
once, nothing measured.

Perspective: values are for the side to act, in the unit the game states (``unit``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..engine.stats import Z95, Estimate
from .position import ActionValues, State, world_mean

if TYPE_CHECKING:
    from .definition import GameDefinition, ValueSettings


@dataclass
class CardValues(ActionValues):
    """:class:`ActionValues` of every legal card over a player's worlds, with each card's value
    in every world (``samples``: the same worlds for every card, so two cards compare paired),
    the worlds themselves where the game keeps them (``hands``), how many worlds the hard facts
    allow (``possible``: exact when enumerated, an upper bound when sampled; None when not
    counted), the game's other per-card figures (``per_card``: name -> card -> Estimate or
    number, e.g. P(contract made)) and per-advice figures (``facts``: name -> value), and the
    worlds' weights when they are not equally likely (``weights``)."""

    samples: dict = field(default_factory=dict)
    possible: int | None = 0
    hands: list = field(default_factory=list)
    per_card: dict[str, dict] = field(default_factory=dict)
    facts: dict = field(default_factory=dict)
    #: each world's weight where the worlds are not equally likely (same order as
    #: ``samples``; the values are then weighted means); None: equal weights
    weights: np.ndarray | None = None


def forced_values(card: int, unit: str, seconds: float = 0.0) -> CardValues:
    """The values of a forced card: nothing measured (NaN), exact, no world."""
    nan = math.nan
    return CardValues(
        {card: Estimate(nan, nan, nan, nan, 0)},
        unit,
        exact=True,
        worlds=0,
        seconds=seconds,
        notes=["forced: the only legal card"],
    )


@dataclass
class Explanation:
    """A game's view of one advice (its hook ``advice_view``): ``fields`` (the position, for
    the JSON: seat, contract, trick …, before the advice's own keys), ``header`` (the position
    in one line of text), ``columns`` (the value columns of the card table) and ``cells(row)``
    (a card row's cells under them), ``extras(card)`` (a card row's JSON additions), ``after``
    (JSON keys after the cards, e.g. the points so far), ``footer`` (lines of text after the
    advice)."""

    fields: dict
    header: str
    columns: list[str]
    cells: Callable[[dict], list[str]]
    extras: Callable[[int], dict] = lambda card: {}
    after: dict = field(default_factory=dict)
    json_tail: dict = field(default_factory=dict)
    #: lines of text after the advice (e.g. what another reading of the history would play)
    footer: list[str] = field(default_factory=list)


@dataclass
class PlayAdvice:
    """What :func:`advise_play` answers: every legal card ranked best first (``ranking``) with
    its value for the player's side (``values``), the best, why in one line, and its margin
    over the runner-up (paired over the same worlds; None for a forced card)."""

    state: State
    seat: int
    ranking: list[int]
    values: CardValues
    why: str
    margin: Estimate | None = None
    #: how cards tied at the best value were ordered (:func:`rank_cards`); None: no tie
    tie_break: dict | None = None
    #: the play policy whose card this is (``play --policy``), None: the card values' best
    policy: dict | None = None

    @property
    def best(self) -> int:
        return self.ranking[0]

    @property
    def forced(self) -> bool:
        return len(self.ranking) == 1

    def card_rows(self, extras: Callable[[int], dict] | None = None) -> list[dict]:
        """Each card, best first: its name, rank and world count, and unless forced its value
        (``mean``, ``se``, ``ci95``) and the game's ``extras(card)``."""
        rows = []
        for rank, c in enumerate(self.ranking, 1):
            e = self.values.values[c]
            row = {"card": self.state.action_to_string(c), "rank": rank, "worlds": e.n}
            if not self.forced:
                row |= {"mean": e.mean, "se": e.se, "ci95": e.ci95}
                if extras is not None:
                    row |= extras(c)
            rows.append(row)
        return rows

    def advice_dict(self) -> dict:
        """The advice and how it was measured: best, why, forced, exact, worlds,
        possible_worlds, method, unit, seconds."""
        v = self.values
        return {
            "best": self.state.action_to_string(self.best),
            "why": self.why,
            "forced": self.forced,
            "exact": v.exact,
            "worlds": v.worlds,
            "possible_worlds": v.possible,
            "method": "; ".join(v.notes),
            "unit": v.unit,
            "seconds": round(v.seconds, 3),
        }

    def margin_dict(self) -> dict:
        """``{"margin": {"over": the runner-up, mean, se, ci95, n …}}``, or {} without one."""
        if self.margin is None:
            return {}
        return {
            "margin": {"over": self.state.action_to_string(self.ranking[1])} | self.margin.to_dict()
        }

    def to_dict(self, view: Explanation) -> dict:
        """The advice as JSON: the game's ``view.fields``, the advice, the cards (with the
        game's extras), the game's ``view.after`` keys, the margin, and how a tie was broken
        and the policy asked for (only when there was one)."""
        out = {
            **view.fields,
            **self.advice_dict(),
            **view.after,
            "cards": self.card_rows(view.extras),
            **self.margin_dict(),
        }
        if self.tie_break is not None:
            out["tie_break"] = self.tie_break
        if self.policy is not None:
            out["policy"] = self.policy
        return out


def margin_of(values: CardValues, best: int, runner: int) -> Estimate:
    """``best``'s margin over ``runner`` on the same worlds: exact when every world was
    counted, else paired with its standard error (weighted worlds: the weighted mean, its
    standard error from the effective sample size); from the two means alone (exact) when
    the values keep no worlds."""
    if best not in values.samples or runner not in values.samples:
        m = values.values[best].mean - values.values[runner].mean
        return Estimate(m, 0.0, m, m, values.values[best].n)
    a, b = values.samples[best], values.samples[runner]
    if values.weights is not None:
        return weighted_mean(np.asarray(a, dtype=np.float64) - b, values.weights, values.exact)
    if values.exact:
        return world_mean(np.asarray(a, dtype=np.float64) - b, True)
    return Estimate.paired(a, b)


def weighted_mean(x: np.ndarray, w: np.ndarray, exact: bool) -> Estimate:
    """The weighted mean of ``x`` over worlds of weight ``w`` (not all zero): exact when every
    world was counted, else with the standard error of a self-normalized estimate (Kish's
    effective sample size); ``n`` is the worlds of non-zero weight."""
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    total = float(w.sum())
    n = int((w > 0).sum())
    if not total > 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, 0)
    p = w / total
    m = float(p @ x)
    if exact:
        return Estimate(m, 0.0, m, m, n)
    ess = 1.0 / float(p @ p)
    var = float(p @ (x - m) ** 2) * ess / max(ess - 1.0, 1.0)
    se = math.sqrt(var / ess) if ess > 1 else math.inf
    return Estimate(m, se, m - Z95 * se, m + Z95 * se, n)


#: Values this close are equal (exact ties: equivalent cards, or the same value in every world).
TIE_TOLERANCE = 1e-9
WORST_CASE = "worst case over the worlds"


def worst_case(values: CardValues, card: int) -> float:
    """``card``'s lowest value over the worlds of non-zero weight (its mean without worlds)."""
    x = values.samples.get(card)
    if x is None or len(x) == 0:
        return values.values[card].mean
    x = np.asarray(x, dtype=np.float64)
    if values.weights is not None:
        x = x[np.asarray(values.weights) > 0]
    return float(x.min()) if len(x) else values.values[card].mean


def rank_cards(
    game: GameDefinition, state: State, settings: ValueSettings, values: CardValues, legal
) -> tuple[list[int], dict | None]:
    """The legal cards best first: by value, ties by the game's ``tie_order``; with the game's
    ``risk_ties``, cards tied at the best value by the game's own figures (``tie_figures``,
    higher better), then the worst case over the worlds, then ``tie_order``. Returns (the
    ranking, how the tie was broken: the tied cards, each criterion's figures, the one that
    decided, None when the best value is not shared or nothing but the card order tells the
    tied cards apart)."""
    ranking = sorted(legal, key=lambda c: (-values.values[c].mean, *game.tie_order(state, c)))
    if not game.risk_ties or len(ranking) < 2:
        return ranking, None
    best = values.values[ranking[0]].mean
    tied = [c for c in ranking if abs(values.values[c].mean - best) <= TIE_TOLERANCE]
    if len(tied) < 2:
        return ranking, None
    criteria = list(game.tie_figures(state, tied, values, settings).items())
    criteria.append((WORST_CASE, {c: worst_case(values, c) for c in tied}))
    order = sorted(tied, key=lambda c: (*(-f[c] for _, f in criteria), *game.tie_order(state, c)))
    top, second = order[0], order[1]
    decided = next((name for name, f in criteria if f[top] != f[second]), None)
    if decided is None:
        return ranking, None
    name = state.action_to_string
    info = {
        "tied": [name(c) for c in order],
        "criteria": [{"name": n, "values": {name(c): f[c] for c in order}} for n, f in criteria],
        "decided_by": decided,
    }
    return order + [c for c in ranking if c not in tied], info


def tie_words(info: dict) -> str:
    """How a tie was broken, after the margin: ``; P(wins the cards) 0.83 against 0.40``."""
    crit = next(c for c in info["criteria"] if c["name"] == info["decided_by"])
    a, b = (crit["values"][c] for c in info["tied"][:2])
    if info["decided_by"] == WORST_CASE:
        return f"; at worst {a:+.2f} against {b:+.2f}"
    return f"; {info['decided_by']} {a:.2f} against {b:.2f}"


def margin_words(
    margin: Estimate, exact: bool, runner: str, why: str, unit: str = "", tie: str = ""
) -> str:
    """The margin said after the reason: ``(worth the same as 7H)``, ``(+0.40 over 7H, within
    the noise)``, ``(+3.86 over 7H)`` (``unit``: a word after the number, e.g. " points";
    ``tie``: what broke a tie, e.g. "; the cheaper card"); ``runner`` becomes "playing it"
    when the reason names the runner-up already."""
    other = "playing it" if runner in why else runner
    if margin.mean == 0:
        return f" (worth the same as {other}{tie})"
    if not exact and margin.lo <= 0:
        return f" (+{margin.mean:.2f}{unit} over {other}, within the noise)"
    return f" (+{margin.mean:.2f}{unit} over {other})"


def advise_play(game: GameDefinition, state: State, settings: ValueSettings) -> PlayAdvice:
    """What the seat to play should play: the game's card values of every legal card, ranked
    by value (ties by the game's ``tie_order``), the best explained with its margin over the
    runner-up. A forced card is answered at once."""
    seat = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        values = game.card_values(state, settings)
        return PlayAdvice(state, seat, legal, values, game.explain(state, legal[0], None))
    values = game.card_values(state, settings)
    ranking, tie = rank_cards(game, state, settings, values, legal)
    return _advice(game, state, seat, ranking, values, tie)


def _advice(game, state, seat, ranking, values, tie, policy=None) -> PlayAdvice:
    """The advice of a ranking: the best explained, its margin over the runner-up."""
    best, runner = ranking[0], ranking[1]
    margin = margin_of(values, best, runner)
    why = game.explain(state, best, runner)
    if policy is not None:
        oracle = " (an oracle: it sees the hidden cards of one world)" if policy["oracle"] else ""
        why = f"the {policy['name']} policy's card{oracle}: {why}"
    name = state.action_to_string(runner)
    note = tie_words(tie) if tie is not None else game.tie_note
    why += margin_words(margin, values.exact, name, why, game.margin_unit, note)
    return PlayAdvice(state, seat, ranking, values, why, margin, tie, policy)


def advise_policy(
    game: GameDefinition, state: State, settings: ValueSettings, decider, policy: dict
) -> PlayAdvice:
    """What a play policy (``decider``, described by ``policy``: its name, its parameters, a
    note such as "an oracle") plays here: its card first, the other cards by the values the
    policy has (pimc, dd) or else by the game's card values; the policy's card is the advice,
    whatever its value."""
    seat = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        values = game.card_values(state, settings)
        return PlayAdvice(state, seat, legal, values, game.explain(state, legal[0], None))
    chosen = decider.choose(state.clone())
    own = decider.values(state.clone())
    if own is None:
        values = game.card_values(state, settings)
    elif isinstance(own, CardValues):
        values = own
    else:
        values = CardValues(own.values, own.unit, own.exact, own.worlds, own.seconds, own.notes)
    rest, _ = rank_cards(game, state, settings, values, [c for c in legal if c != chosen])
    return _advice(game, state, seat, [chosen, *rest], values, None, policy)


def per_card_dict(values: CardValues, name: str) -> Mapping[int, object]:
    """One of the game's per-card figures (empty when it has none)."""
    return values.per_card.get(name, {})


__all__ = [
    "TIE_TOLERANCE",
    "WORST_CASE",
    "CardValues",
    "Explanation",
    "PlayAdvice",
    "advise_play",
    "advise_policy",
    "forced_values",
    "margin_of",
    "margin_words",
    "per_card_dict",
    "rank_cards",
    "weighted_mean",
    "worst_case",
]
