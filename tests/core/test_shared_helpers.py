"""The pieces the games' positions, deciders and reviews share (core.position, core.review,
core.masks), on fakes: no game, no kernel."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core import review as R
from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.engine.masks import mask_bits, mask_count
from piquet_sim.core.game.position import (
    Decider,
    KernelPlay,
    SeatDecider,
    history_clauses,
    seat_decider_type,
)


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


#: A game's seat decider as the games make theirs: attribute -> phase.
_Seat = seat_decider_type({"bid": "auction", "play": "play"}, __name__, joiner="+")


def test_a_game_seat_decider_takes_one_decider_per_phase_in_order_or_by_name():
    seat = _Seat(_Named("bid"), _Named("card"))
    assert isinstance(seat, SeatDecider) and seat.name == "bid+card"
    assert seat.bid.name == "bid" and seat.play.name == "card"
    assert seat.choose(_At("auction")) == "bid" and seat.choose(_At("play")) == "card"
    assert _Seat(play=_Named("c"), bid=_Named("b")).name == "b+c"
    for wrong in ((_Named("b"),), (_Named("b"), _Named("c"), _Named("d"))):
        with pytest.raises(TypeError, match="one decider per phase: bid, play"):
            _Seat(*wrong)


def test_setting_a_seat_attribute_replaces_that_phase_decider():
    seat = _Seat(_Named("bid"), _Named("card"))
    seat.play = _Named("other")
    assert seat.choose(_At("play")) == "other" and seat.values(_At("play")) == "other values"
    seat.bid = _Named("pass")
    assert seat.choose(_At("auction")) == "pass"


class _Table:
    """A position in its play: a stream the kernel fake draws from, a memory, a history."""

    phase = "play"

    def __init__(self, legal):
        self.memory = {}
        self.drawn = 0
        self._legal = legal

    def current_player(self):
        return 1

    def legal_actions(self):
        return list(self._legal)

    def history(self):
        return [0, 0, 0]


def _draw(decider, state, seat):
    state.drawn += 1
    return 10 * seat + state.drawn


def test_a_kernel_play_that_draws_answers_once_per_decision():
    play = KernelPlay("random", 7, None, kernel=_draw, draws=True)
    table = _Table([11, 12])
    assert play.choose(table) == 11 and play.choose(table) == 11 and table.drawn == 1
    fixed = KernelPlay("greedy", 3, None, kernel=_draw)
    assert fixed.choose(table) == 12 and fixed.choose(table) == 13  # asks the kernel each time


def test_a_play_decider_refuses_outside_the_play_in_its_own_words():
    play = KernelPlay("heuristic", 1, None, kernel=_draw, who="the {name} player")
    table = _Table([1])
    table.phase = "auction"
    with pytest.raises(InputError, match="the heuristic player decides in the play"):
        play.choose(table)


def test_a_deal_view_places_each_card_and_the_reviewed_decisions():
    names = {1: "AS", 2: "KS", 3: "QS", 4: "JS"}
    view = R.DealView(
        seats=("N", "S"),
        player=1,
        dealt=(0b11, None),
        tricks=[(1, 2), (3, 4), (1,)],
        leader=0,
        winner=lambda cards, leader: None if len(cards) < 2 else (leader + 1) % 2,
        card_name=names.get,
        card_names=lambda mask: [str(mask)],
        phases=lambda at: [{"title": "Auction", "items": [{"text": "x", "decision": at["bid"]}]}],
        result=lambda: ["over"],
        hand_label="seat {seat}, dealt",
        more_hands=[{"seat": "talon", "label": "talon", "cards": []}],
        trick_note=lambda i: "first" if i == 1 else "",
    ).view({"bid": 1, ("card", 1): 2, ("card", 2): 3})
    assert view["seats"] == ["N", "S"] and view["player"] == "S" and view["result"] == ["over"]
    assert view["hands"] == [
        {"seat": "N", "label": "seat N, dealt", "cards": ["3"]},
        {"seat": "talon", "label": "talon", "cards": []},
    ]
    assert view["phases"][0]["items"][0]["decision"] == 1
    first, second, third = view["tricks"]
    assert first == {
        "number": 1,
        "cards": [
            {"seat": "N", "card": "AS", "led": True, "decision": None},
            {"seat": "S", "card": "KS", "led": False, "decision": 2},
        ],
        "winner": "S",
        "note": "first",
    }
    assert [c["seat"] for c in second["cards"]] == ["S", "N"] and second["winner"] == "N"
    assert second["cards"][0]["decision"] == 3 and third["winner"] == ""


def test_ranked_alternatives_keep_the_top_and_add_the_player_own_choice():
    from piquet_sim.core.engine.stats import Estimate

    calls = [(name, float(v)) for name, v in zip("abcdefgh", [3, 8, 1, 7, 6, 5, 4, 2], strict=True)]

    def ranked(mine, top=3):
        return R.ranked_alternatives(
            calls,
            mine,
            lambda c: c[0],
            lambda c: Estimate(c[1], 0.0, c[1], c[1], 1),
            lambda c: f"v{c[1]:g}",
            top=top,
        )

    alts = ranked(calls[3])
    assert [(a.action, a.note) for a in alts] == [("b", "v8"), ("d", "yours; v7"), ("e", "v6")]
    alts = ranked(calls[2])
    assert [a.action for a in alts] == ["b", "d", "e", "c"] and alts[-1].note == "yours"
    assert alts[-1].value.mean == 1.0


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
