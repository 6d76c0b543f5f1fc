"""The pieces the games' positions, deciders and reviews share (core.position, core.review,
core.masks), on fakes: no game, no kernel."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core import review as R
from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.engine.masks import mask_bits, mask_count
from piquet_sim.core.game.position import Decider, SeatDecider, history_clauses


def test_mask_bits_and_count():
    assert mask_bits(0) == []
    assert mask_bits(0b1010_0001) == [0, 5, 7]
    assert mask_bits(1 << 60 | 1 << 3) == [3, 60]
    assert mask_count(1 << 60 | 0b111) == 4


class _Named(Decider):
    def __init__(self, name):
        self.name = name

    def choose(self, state):
        return self.name

    def values(self, state):
        return f"{self.name} values"


class _At:
    def __init__(self, phase):
        self.phase = phase


def test_seat_decider_routes_by_phase_and_falls_back_to_play():
    seat = SeatDecider({"auction": _Named("bid"), "play": _Named("card")}, joiner="+")
    assert seat.name == "bid+card"
    assert seat.choose(_At("auction")) == "bid"
    assert seat.choose(_At("play")) == "card"
    assert seat.choose(_At("over")) == "card"
    assert seat.values(_At("play")) == "card values"
    assert seat.values(_At("auction")) is None


def test_history_clauses():
    keys = {"tricks": "tricks", "dealer": "dealer", "keep tierce": "keep"}
    raw = history_clauses("dealer: W;\n keep   Tierce : N ; tricks: AS 7S", "FORM", keys.get)
    assert raw == {"dealer": "W", "keep": "N", "tricks": "AS 7S"}
    assert history_clauses("Auction: pass 3", "FORM") == {"auction": "pass 3"}
    with pytest.raises(InputError, match=r"history clause 'dealer W' is not 'key: value' \(FORM\)"):
        history_clauses("dealer W", "FORM", keys.get)
    with pytest.raises(InputError, match=r"unknown history key 'lead' \(FORM\)"):
        history_clauses("lead: AS", "FORM", keys.get)
    with pytest.raises(InputError, match="history key 'Dealer' given twice"):
        history_clauses("dealer: W; Dealer: N", "FORM", keys.get)


def test_raw_clauses_names_both_places_of_a_key_given_twice():
    raw, places = R.raw_clauses("player: N\nhand: AS KS", {"player": "p", "hand": "h"}.get, "K")
    assert raw == {"p": "N", "h": "AS KS"} and places == {
        "p": "line 1 (player)",
        "h": "line 2 (hand)",
    }
    with pytest.raises(R.RecordError, match=r"line 2 \(player\): given twice \(first at line 1"):
        R.raw_clauses("player: N\nplayer: S", {"player": "p"}.get, "K")
    with pytest.raises(R.RecordError, match=r"line 1 \(seat\): unknown key 'seat' \(K\)"):
        R.raw_clauses("seat: N", {"player": "p"}.get, "K")


class _Values:
    """A card values fake: card 1 worth 2 per world, card 2 worth 1 (the same 3 worlds)."""

    def __init__(self, exact):
        import numpy as np

        from piquet_sim.core.engine.stats import Estimate

        self.samples = {1: np.array([2, 2, 2]), 2: np.array([1, 0, 2])}
        self.values = {c: Estimate.of_sample(x) for c, x in self.samples.items()}
        self.exact = exact
        self.notes = ["three worlds"]


class _Position:
    def legal_actions(self):
        return [1, 2]


def test_card_task_costs_the_card_played_against_the_best():
    from piquet_sim.core.engine.stats import Estimate
    from piquet_sim.core.game.position import ActionValues

    def exact_values(state):
        e = {1: Estimate(3.0, 0, 3, 3, 1), 2: Estimate(3.0, 0, 3, 3, 1)}
        return ActionValues(e, "points", exact=True)

    task = R.card_task(
        4, 2, R.card_place(2, ["AS"]), 2, str, _Position, lambda s: _Values(True), exact_values
    )
    assert (task.phase, task.place, task.done) == ("play", "trick 2, after AS", "2")
    row = task.run()
    assert row.best == "1" and row.cost.mean == 1.0 and row.cost.se == 0
    assert row.exact_cost == 0.0 and row.exact_best == "2"  # as good as the top: his card
    assert [a.action for a in row.alternatives] == ["1", "2"]
    sampled = R.card_task(4, 2, "x", 2, str, _Position, lambda s: _Values(False)).run()
    assert sampled.cost.mean == 1.0 and sampled.cost.se > 0 and sampled.exact_cost is None


def test_echo_json_writes_strict_json_for_a_one_sample_interval(capsys):
    """A one-deal match's interval is infinite; the printed JSON has nulls, not Infinity."""
    import json

    from piquet_sim.core.app.cli import echo_json
    from piquet_sim.core.engine.stats import Estimate

    echo_json({"margin": Estimate.of_sample(np.array([3.0])).to_dict(), "ok": [1.5, (2, 3)]})
    data = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(c))
    assert data == {
        "margin": {"mean": 3.0, "se": None, "ci95": [None, None], "n": 1},
        "ok": [1.5, [2, 3]],
    }
