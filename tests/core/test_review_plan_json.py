"""A review's record and settings JSON are the core's: the game's codec writes the record, the
settings carry the rules the plan played by (the game's own where it changed those given)."""

from __future__ import annotations

import dataclasses

import numpy as np
from toy_game.definition import DEFINITION as TOY

from piquet_sim.core.review.plan import review_record


def _played(seed: int = 3):
    state = TOY.new_state(seed, 0, TOY.rules_class())
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions())))
    return TOY.codec.from_state(state, 1)


class _Rules:
    def to_dict(self) -> dict:
        return {"changed": True}


def test_the_review_json_has_the_codecs_record_and_the_given_rules_and_settings():
    rec, rules, settings = _played(), TOY.rules_class(), TOY.review_settings[1]
    out = review_record(TOY, rec, rules, settings).to_dict()
    assert out["record"] == TOY.codec.json(rec)
    assert out["settings"] == {"rules": rules.to_dict(), **settings.to_dict()}


def test_the_rules_a_plan_played_by_replace_those_given_in_the_settings():
    rec, rules, settings = _played(), TOY.rules_class(), TOY.review_settings[1]
    plan = dataclasses.replace(TOY.review_plan(rec, rules, settings), rules=_Rules())
    out = review_record(TOY, rec, rules, settings, plan=plan).to_dict()
    assert out["settings"]["rules"] == {"changed": True}
