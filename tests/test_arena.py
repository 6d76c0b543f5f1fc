"""Matches decision by decision through a game's State (core.arena): mirrored seatings cancel
the cards, so a player against itself scores exactly 0 on every deal."""

from __future__ import annotations

from piquet_sim.core.study.arena import mirrored_match, play_deal
from piquet_sim.piquet.deciders import seat_deciders
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.position import PiquetState
from piquet_sim.piquet.simulation import Policies, simulate

SEATINGS = [(True, False), (False, True)]


def _greedy():
    return seat_deciders(Policies())[0]


def test_a_player_against_itself_scores_zero_on_every_deal():
    a, b = _greedy(), _greedy()
    match = mirrored_match(lambda i: PiquetState.from_deal(3, i), a, b, 4, SEATINGS)
    assert match.deals == 4 and match.margins == [0.0] * 4
    assert match.margin.mean == 0.0 and match.margin.n == 4
    assert match.seconds_per_decision["a"] > 0


def test_play_deal_scores_as_the_round_kernels():
    """Deals through the arena total what the simulator records for the same policies."""
    elder, younger = seat_deciders(Policies())
    records = simulate(3, seed=9)
    for i in range(3):
        returns = play_deal(PiquetState.from_deal(9, i), [elder, younger])
        assert returns == [
            records[i, L.REC_ELDER + L.RF_TOTAL],
            records[i, L.REC_YOUNGER + L.RF_TOTAL],
        ]
