"""Pitch policies: the registry against the kernels' ids, the heuristic play and the threshold
bid on hand-worked positions, and the policies' invariants over simulated rounds."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.pitch import cards as C
from piquet_sim.pitch import policies as P
from piquet_sim.pitch.kernels import policies as KP
from piquet_sim.pitch.kernels.bidding import best_suit, estimate, threshold_call
from piquet_sim.pitch.kernels.simulate import simulate_rounds
from piquet_sim.pitch.layouts import RoundRec
from piquet_sim.pitch.rules import Rules

S, H, D, Cl = 0, 1, 2, 3


def test_kernel_ids_come_from_the_registry():
    """One copy of the ids: the kernels' constants are the registry's (same numbers as before
    the registry moved onto the core's type), and kernels/policies.py defines none itself."""
    ids = {(p.stage, p.name): p.id for p in P.REGISTRY}
    assert ids == {
        ("bid", "random"): 0,
        ("bid", "pass"): 1,
        ("bid", "threshold"): 2,
        ("bid", "parametric"): 3,
        ("bid", "montecarlo"): 4,
        ("play", "random"): 0,
        ("play", "heuristic"): 1,
        ("play", "pimc"): 2,
        ("play", "dd"): 3,
    }
    for (stage, name), i in ids.items():
        assert getattr(P, f"{stage.upper()}_{name.upper()}") == i
    assert KP.BID_THRESHOLD is P.BID_THRESHOLD and KP.PLAY_HEURISTIC is P.PLAY_HEURISTIC
    source = Path(KP.__file__).read_text(encoding="utf-8")
    assert not re.search(r"^(BID|PLAY)_\w+ = ", source, re.M)
    for stage in P.STAGES:
        assert [p.id for p in P.by_stage(stage).values()] == list(range(len(P.by_stage(stage))))
    assert P.table_bidders() == ("random", "pass", "threshold", "parametric")
    assert P.names("play", needs_solver=False) == ("random", "heuristic")


def test_make_policy_errors_and_params():
    pol = P.make_policy("threshold", "heuristic", bid_params=(0.5,))
    assert list(pol.ids) == [2, 1] and pol.params[0] == 0.5
    assert P.make_policy("montecarlo", "heuristic", allow_seat=True).params[:2].tolist() == [
        16.0,
        0.0,
    ]
    assert P.make_policy("random", "pimc", allow_solver=True).params[P.PLAY_PARAMS_AT] == 8.0
    with pytest.raises(InputError, match="unknown play policy"):
        P.make_policy("random", "clever")
    with pytest.raises(InputError, match="takes 1 parameter"):
        P.make_policy("threshold", "random", bid_params=(1.0, 2.0))


@pytest.mark.parametrize(
    "bid, bid_params, play, play_params, message",
    [
        ("threshold", (float("nan"),), "heuristic", None, "margin must be a finite number"),
        ("threshold", (float("inf"),), "heuristic", None, "margin must be a finite number"),
        ("parametric", {"jack": float("nan")}, "heuristic", None, "jack must be a finite"),
        ("threshold", {"margn": 1.0}, "heuristic", None, "no parameter 'margn'"),
        ("montecarlo", {"worlds": 0}, "heuristic", None, "worlds must be 1 to 4096"),
        ("montecarlo", {"worlds": 1.5}, "heuristic", None, "worlds must be a whole number"),
        ("montecarlo", {"margin": float("nan")}, "heuristic", None, "margin must be a finite"),
        ("random", None, "pimc", (0,), "worlds must be 1 to 1024"),
        ("random", None, "pimc", (1025,), "worlds must be 1 to 1024"),
        ("random", None, "pimc", (2.5,), "worlds must be a whole number"),
        ("random", None, "pimc", ("x",), "must be a number"),
    ],
)
def test_parameters_are_checked_before_work(bid, bid_params, play, play_params, message):
    """A parameter out of its range is one line naming it, not garbage from the kernels."""
    with pytest.raises(InputError, match=message) as info:
        P.make_policy(bid, play, bid_params, play_params, allow_solver=True, allow_seat=True)
    assert "\n" not in str(info.value)


def test_threshold_estimate_and_calls():
    hand = C.parse_cards("AS JS 6S 2S KH TD")
    # ace 10 + two 10 + jack 9 + six 8 + 3 trumps beyond the first 9 + 18 game points / 3 = 6
    assert estimate(hand, S) == 52
    assert estimate(hand, Cl) == 0
    bids_from_4 = (1 << 0) | (1 << 4) | (1 << 5) | (1 << 6)
    assert threshold_call(hand, bids_from_4, 0.0) == 5
    assert threshold_call(hand, bids_from_4, 2.5) == 0  # 2.7 wanted: below every legal bid
    weak = C.parse_cards("3H 7D 8D 9C 4C 5S")
    assert threshold_call(weak, bids_from_4, 0.0) == 0
    must = (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6)  # a dealer after four passes
    assert threshold_call(weak, must, 0.0) == 3
    steal = 1 | (1 << 5) | (1 << 6)  # a dealer after a bid of 5
    assert threshold_call(hand, steal, 0.0) == 5


@pytest.mark.parametrize("players", [3, 6])
def test_policy_rounds_are_legal_and_reproducible(players):
    rules = Rules(players=players).to_array()
    pol = P.make_policy("threshold", "heuristic")
    a, _ = simulate_rounds(5, 0, 3000, rules, pol, False)
    b, _ = simulate_rounds(5, 1000, 2000, rules, pol, False)
    assert np.array_equal(a[1000:], b)
    bids = a[:, RoundRec.BID]
    assert ((bids >= 3) & (bids <= 6)).all()
    # threshold bidders bid at most what their best suit is estimated to make
    for r in a[:200]:
        for s in range(players):
            call = r[RoundRec.BIDS + s]
            h = int(r[RoundRec.HANDS + s])
            if call > 3:
                assert call * 10 <= estimate(h, best_suit(h))
