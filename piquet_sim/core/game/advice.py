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

from ..engine.stats import Estimate
from .position import ActionValues, State, world_mean

if TYPE_CHECKING:
    from .definition import GameDefinition, ValueSettings


@dataclass
class CardValues(ActionValues):
    """:class:`ActionValues` of every legal card over a player's worlds, with each card's value
    in every world (``samples``: the same worlds for every card, so two cards compare paired),
    the worlds themselves where the game keeps them (``hands``), how many worlds the hard facts
    allow (``possible``: exact when enumerated, an upper bound when sampled; None when not
    counted) and the game's other per-card figures (``per_card``: name -> card -> Estimate or
    number, e.g. P(contract made)) and per-advice figures (``facts``: name -> value)."""

    samples: dict = field(default_factory=dict)
    possible: int | None = 0
    hands: list = field(default_factory=list)
    per_card: dict[str, dict] = field(default_factory=dict)
    facts: dict = field(default_factory=dict)


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
    (JSON keys after the cards, e.g. the points so far)."""

    fields: dict
    header: str
    columns: list[str]
    cells: Callable[[dict], list[str]]
    extras: Callable[[int], dict] = lambda card: {}
    after: dict = field(default_factory=dict)
    json_tail: dict = field(default_factory=dict)


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
        game's extras), the game's ``view.after`` keys and the margin."""
        return {
            **view.fields,
            **self.advice_dict(),
            **view.after,
            "cards": self.card_rows(view.extras),
            **self.margin_dict(),
        }


def margin_of(values: CardValues, best: int, runner: int) -> Estimate:
    """``best``'s margin over ``runner`` on the same worlds: exact when every world was
    counted, else paired with its standard error."""
    a, b = values.samples[best], values.samples[runner]
    if values.exact:
        return world_mean(np.asarray(a, dtype=np.float64) - b, True)
    return Estimate.paired(a, b)


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
    ranking = sorted(legal, key=lambda c: (-values.values[c].mean, *game.tie_order(state, c)))
    best, runner = ranking[0], ranking[1]
    margin = margin_of(values, best, runner)
    why = game.explain(state, best, runner)
    name = state.action_to_string(runner)
    why += margin_words(margin, values.exact, name, why, game.margin_unit, game.tie_note)
    return PlayAdvice(state, seat, ranking, values, why, margin)


def per_card_dict(values: CardValues, name: str) -> Mapping[int, object]:
    """One of the game's per-card figures (empty when it has none)."""
    return values.per_card.get(name, {})


__all__ = [
    "CardValues",
    "Explanation",
    "PlayAdvice",
    "advise_play",
    "forced_values",
    "margin_of",
    "margin_words",
    "per_card_dict",
]
