"""Worlds in which the opponent may have sunk: combinations he held and did not declare.

A player may declare less than he holds (the rules' "sinking": answer "good" holding better,
or call a lesser combination). Taking every declaration as the whole truth leaves out the
worlds where he did; an expert guards against "the king he did not show". Here the opponent's
declaration of each class is one of the state's kinds (declare all, sink, the lesser:
``actions.kind_mask``), with a prior (:func:`kind_prior`): he sinks or declares the lesser
with probability ``SINK_RATE * exp(-points given up / SINK_TEMPERATURE)``, the points being the
nominal value of what the kind leaves out (a point's cards, a sequence's or set's score), and
declares all otherwise. A world's weight (:func:`world_weights`) is the probability, under that
prior, that its hand gives every declaration outcome, shown card and call the player saw: the
sum over the kinds that fit, class by class. Worlds are drawn (or enumerated) with the
declarations' lower bounds only (he holds at least what he declared) and weighted.

The prior is fitted (``scripts/fit_sinking_prior.py``) to the sinking study
(``results/sinking_study.csv``: per holding, the share of 100 hands where sinking measured better
than declaring all on 6 worlds) by maximum likelihood: ``SINK_RATE`` 0.32, ``SINK_TEMPERATURE``
7.25 points (40 holdings, 856 hands). Six worlds a hand make that share noisy, and noise pushes
a share of a negative mean gain up: the prior overstates how often sinking pays, so the sinking
worlds are an upper end of what to guard against.

Perspective: weights are the player's beliefs about the opponent's hand; no unit.
"""

from __future__ import annotations

import math

import numpy as np

from .actions import DECLARE, LESSER, SINK, _class_keys, kind_mask
from .kernels import layouts as L
from .kernels.knowledge import NO_HI, class_key
from .kernels.tables import SUIT_TABLES
from .worlds import kind_fits

#: Fitted to the sinking study (module docstring): the chance of sinking a combination that
#: gives up nothing, and the points over which that chance falls by a factor e.
SINK_RATE = 0.32
SINK_TEMPERATURE = 7.25
#: A sequence's score by its length (tierce 3, quart 4, quint 15 ... huitieme 18).
SEQUENCE_POINTS = {0: 0, 3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}


def nominal_points(c: int, key: int) -> int:
    """The points a declaration of class ``c`` with comparison ``key`` scores when it wins
    (its best combination only: the point's cards, the sequence's or the set's score)."""
    if key == 0:
        return 0
    if c == L.CLASS_POINT:
        return key >> 7
    if c == L.CLASS_SEQ:
        return SEQUENCE_POINTS[key >> 3]
    return 14 if key >= 8 else 3


def kind_prior(hand: int, c: int) -> dict[int, float]:
    """The prior of each kind the holder of ``hand`` may declare class ``c`` as (module
    docstring): sink and the lesser by the points they give up, declare all the rest."""
    full, lesser = _class_keys(hand)
    if not full[c]:
        return {DECLARE: 1.0}
    value = nominal_points(c, full[c])
    out = {SINK: SINK_RATE * math.exp(-value / SINK_TEMPERATURE)}
    if lesser[c]:
        given_up = value - nominal_points(c, lesser[c])
        out[LESSER] = SINK_RATE * math.exp(-given_up / SINK_TEMPERATURE)
    out[DECLARE] = 1.0 - sum(out.values())
    return out


def relaxed_knowledge(know: np.ndarray) -> np.ndarray:
    """``know`` without its upper key bounds: he holds at least what he declared, maybe more."""
    out = know.copy()
    for c in range(L.CLASS_COUNT):
        out[L.KNOW_HI + c] = NO_HI
    return out


def world_weights(state, seat: int, hands, sinking: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(each world's weight, the classes in which declaring all does not fit it: bit ``c``
    for class ``c``, 0 for a world where every class was declared all) for the opponent hands
    ``hands`` (held now) of ``seat``'s play decision in ``state``: the weight is the product
    over the resolved classes of the prior of the kinds that give what ``seat`` saw. Without
    ``sinking`` only declaring all is tried (the weight is 1 where it fits, else 0)."""
    o = 1 - seat
    view = state.view(seat)
    own = state.decl_hands[seat]
    own_keys = [
        int(class_key(np.int64(own & kind_mask(own, c, cv.own_kind)), c, SUIT_TABLES))
        for c, cv in enumerate(view.classes)
    ]
    played = state.gone[o] | ((1 << state.lead) if state.lead >= 0 and state.leader == o else 0)
    weights = np.zeros(len(hands))
    sunk = np.zeros(len(hands), dtype=np.int64)
    for w, h in enumerate(hands):
        decl = int(h) | played
        weight = 1.0
        for c, cv in enumerate(view.classes):
            if not cv.resolved:
                continue
            prior = kind_prior(decl, c) if sinking else {DECLARE: 1.0}
            fit = {k: p for k, p in prior.items() if kind_fits(cv, seat, own_keys[c], decl, c, k)}
            weight *= sum(fit.values())
            if DECLARE not in fit:
                sunk[w] |= 1 << c
            if weight == 0.0:
                break
        weights[w] = weight
    return weights, sunk


__all__ = [
    "SINK_RATE",
    "SINK_TEMPERATURE",
    "kind_prior",
    "nominal_points",
    "relaxed_knowledge",
    "world_weights",
]
