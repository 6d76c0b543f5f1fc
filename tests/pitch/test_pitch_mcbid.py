"""The ``montecarlo`` bidder: its counts against the bid advisor's (the same play-outs, other
worlds), its decision rule against a plain-Python one on hand-worked counts, and its use as a
strategy (games reproducible, a hopeless margin never bids unforced, refused where it cannot
run)."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.engine.rng import stream_key
from piquet_sim.pitch import cards as C
from piquet_sim.pitch.batch import compare_bidders
from piquet_sim.pitch.bid import advise_bid
from piquet_sim.pitch.kernels.auction import legal_calls
from piquet_sim.pitch.kernels.mcbid import best_bid, montecarlo_call, new_mc_work
from piquet_sim.pitch.kernels.table import GAME_WINNER, play_games
from piquet_sim.pitch.match import _seats
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.rules import Rules
from piquet_sim.pitch.strategies import BOOK, REGISTRY, row

HAND = "AS JS 6S 2S KH TD"


def reference_best_bid(hand: int, calls: int, worlds: int, margin: float, made) -> tuple:
    """The rule in plain Python: every legal bid k and suit held, value k (2 made/worlds - 1);
    the best (lowest k, then lowest suit, on ties) when above the margin or forced."""
    options = [
        (k * (2 * made[s][k] / worlds - 1), -k, -s)
        for k in range(3, 7)
        if calls >> k & 1
        for s in range(4)
        if hand & C.suit_cards(s)
    ]
    if not options:
        return 0, -1
    v, k, s = max(options)
    if calls & 1 and v <= margin:
        return 0, -1
    return -k, -s


def test_counts_agree_with_the_advisors_suit_study():
    """P(points >= k) as bidder in each suit from the bidder's worlds and from the advisor's
    per-suit study (uniform worlds, heuristic play, seat 0): within 4.5 standard errors."""
    hand, worlds = C.parse_cards(HAND), 3000
    rules = Rules(players=4).to_array()
    mc = new_mc_work()
    params = np.array([worlds, 0.0] + [0.0] * 14)
    montecarlo_call(
        rules, np.int64(hand), np.int64(0), np.int64(0), params, np.uint64(stream_key(9, 1)), mc
    )
    adv = advise_bid(hand, 4, 0, [], worlds=worlds, seed=3)
    for study in adv.suits:
        s = C.SUITS.index(study.suit)
        for k in range(3, 7):
            p, q = mc.made[0, s, k] / worlds, study.p_at_least[k].mean
            se = np.sqrt((p * (1 - p) + q * (1 - q)) / worlds) + 1e-9
            assert abs(p - q) <= 4.5 * se + 1e-3, (study.suit, k, p, q)
    assert (mc.made[0, :, 0] == np.array([worlds, worlds, worlds, 0])).all()  # clubs not held


@pytest.mark.parametrize("seed", range(40))
def test_decision_rule_matches_the_reference(seed):
    rng = np.random.default_rng(seed)
    hand = C.parse_cards(HAND)
    worlds = int(rng.integers(1, 30))
    made = np.zeros((4, 7), dtype=np.int64)
    for s in range(4):
        made[s, :] = np.sort(rng.integers(0, worlds + 1, 7))[::-1]
    highest = int(rng.choice([0, 3, 4, 5, 6]))
    calls = int(legal_calls(highest, int(rng.integers(0, 2))))
    margin = float(rng.choice([-1.0, 0.0, 0.5, 2.0]))
    got = best_bid(np.int64(hand), np.int64(calls), np.int64(worlds), margin, made)
    assert tuple(int(x) for x in got) == reference_best_bid(hand, calls, worlds, margin, made)


def test_hand_worked_decisions():
    hand = C.parse_cards(HAND)
    made = np.zeros((4, 7), dtype=np.int64)
    made[0, :] = [10, 10, 10, 8, 6, 3, 1]  # spades: 3 worth 3 * 0.6 = 1.8, 4 worth 0.8
    made[1, :] = [10, 10, 5, 2, 0, 0, 0]
    made[2, :] = [10, 10, 4, 1, 0, 0, 0]
    open_ = legal_calls(np.int64(0), 0)
    assert tuple(best_bid(hand, open_, 10, 0.0, made)) == (3, 0)
    assert tuple(best_bid(hand, open_, 10, 2.0, made)) == (0, -1)  # not above the margin
    after4 = legal_calls(np.int64(4), 0)
    assert tuple(best_bid(hand, after4, 10, 0.0, made)) == (0, -1)  # 5 or 6 lose
    forced = legal_calls(np.int64(0), 1)  # the dealer after three passes must bid
    assert tuple(best_bid(hand, forced, 10, 5.0, made)) == (3, 0)
    steal = legal_calls(np.int64(3), 1)  # the dealer may take the 3
    assert tuple(best_bid(hand, steal, 10, 0.0, made)) == (3, 0)


def test_games_reproducible_and_a_hopeless_margin_only_bids_when_forced():
    rules = Rules(players=4)
    seats = _seats(REGISTRY["montecarlo"], REGISTRY["threshold"], 4)
    out = play_games(np.int64(4), np.int64(0), np.int64(30), rules.to_array(), seats)
    again = np.concatenate(
        [
            play_games(np.int64(4), np.int64(0), np.int64(12), rules.to_array(), seats),
            play_games(np.int64(4), np.int64(12), np.int64(18), rules.to_array(), seats),
        ]
    )
    assert np.array_equal(out, again)
    assert (out[:, GAME_WINNER] >= 0).all()
    # a batch hero with margin 99 bids only as the dealer after three passes (the hero sits in
    # seat i % 4; as dealer he is forced in about a quarter of those rounds)
    d = compare_bidders("montecarlo:worlds=2,margin=99", "pass", 4, 400, 2)
    assert d.a.p_bidder.mean == d.b.p_bidder.mean  # both bid exactly when forced
    assert d.a.p_bidder.mean < 0.25


def test_refused_where_it_cannot_run():
    with pytest.raises(InputError, match="one seat at a table"):
        make_policy("montecarlo", "heuristic")
    with pytest.raises(InputError, match="one seat at a table"):
        compare_bidders("threshold", "pass", 4, 10, 1, table="montecarlo")
    s = BOOK.from_dict({"name": "mc8", "bid": {"policy": "montecarlo", "params": {"worlds": 8}}})
    ids, params = row(s)
    assert params[0] == 8 and params[1] == 0.0


@pytest.mark.parametrize("play", ["pimc", "heuristic"])
def test_bid_says_when_its_kernels_compile(run_main, monkeypatch, play):
    """A cold cache: ``pitch bid`` says so on stderr before the work, with how to compile
    ahead (the core's notice, for the search plays too); the advisor itself is stubbed here."""
    from piquet_sim.core.app import compile as core_compile
    from piquet_sim.core.app.cli import COMPILING
    from piquet_sim.pitch.cli import bid as B

    def stub(*args, **kwargs):
        raise InputError("stopped here")

    monkeypatch.setattr(core_compile, "kernels_cold", lambda *d: True)
    monkeypatch.setattr(B, "advise_bid", stub)
    code, _, err = run_main("pitch", "bid", HAND, "--seat", "0", "--play", play)
    first = err.splitlines()[0]
    assert first.startswith(COMPILING) and first != COMPILING  # says how to compile ahead
    assert code == 2 and "stopped here" in err
