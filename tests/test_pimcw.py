"""The pimcw play policy (``kernels/pimcw.py``): its weights against the plain-Python twin
(``reference/pimcw.py``) on small cases, the true world's likelihood when the opponent plays the
model, legality at every step, and same seed, same numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_exchange import ref_greedy_discard

from piquet_sim.core.engine.rng import stream_key
from piquet_sim.piquet import policies as PO
from piquet_sim.piquet.heuristic_exchange import HEURISTIC_EXCHANGE_WEIGHTS
from piquet_sim.piquet.kernels import exchange as X
from piquet_sim.piquet.kernels import knowledge as KN
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels import pimcw as W
from piquet_sim.piquet.kernels import solver as S
from piquet_sim.piquet.kernels.bundles import make_env
from piquet_sim.piquet.kernels.deal import deal_full
from piquet_sim.piquet.kernels.heuristic import table_move
from piquet_sim.piquet.kernels.play import new_scratch, play_deal
from piquet_sim.piquet.kernels.tables import SUIT_TABLES
from piquet_sim.piquet.reference import pimcw as R
from piquet_sim.piquet.reference.play import legal
from piquet_sim.piquet.rules import DEFAULT_RULES
from piquet_sim.piquet.simulation import Policies, simulate

FULL3 = np.full(3, 0xFFFFFFFF, dtype=np.int64)


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _subset(rng, mask: int, n: int) -> int:
    return sum(1 << int(c) for c in rng.choice(_cards(mask), size=n, replace=False))


def _history(rng, tricks: int, model_seat: int | None = None, kin: int = 0):
    """Two dealt hands and ``tricks`` tricks played (random legal cards; the seat
    ``model_seat`` plays the model's card instead): (hands now, line, elder's and younger's
    dealt hands)."""
    perm = rng.permutation(32)
    dealt = [sum(1 << int(c) for c in perm[:12]), sum(1 << int(c) for c in perm[12:24])]
    hands = list(dealt)
    leader, played, won, line = 0, 0, [0, 0], []
    voids = [0, 0]  # suits each seat has shown void in

    def card(seat, lead):
        if seat != model_seat:
            return int(rng.choice(legal(hands[seat], None if lead < 0 else lead)))
        # the model as pimcw replays it: the declaration-time hand as his cards known out
        return int(
            table_move(
                hands[seat], lead, played, voids[1 - seat], kin, dealt[seat], won[seat] == 0, 5
            )
        )

    for _ in range(tricks):
        c = card(leader, -1)
        hands[leader] &= ~(1 << c)
        d = card(1 - leader, c)
        hands[1 - leader] &= ~(1 << d)
        if d // 8 != c // 8:
            voids[1 - leader] |= 0xFF << (8 * (c // 8))
        line.append((c, d))
        played |= (1 << c) | (1 << d)
        winner = 1 - leader if (d // 8 == c // 8 and d > c) else leader
        won[winner] += 1
        leader = winner
    return hands, line, leader, dealt


def _line_array(line) -> np.ndarray:
    out = np.zeros(24, dtype=np.int8)
    for t, (c, d) in enumerate(line):
        out[2 * t], out[2 * t + 1] = c, d
    return out


@pytest.mark.parametrize("ten", [0, 1])
def test_play_likelihood_matches_plain_python(ten):
    rng = np.random.default_rng(37 + ten)
    buf = np.empty(12, dtype=np.int64)
    for case in range(150):
        tricks = int(rng.integers(0, 10))
        hands, line, leader, dealt = _history(rng, tricks)
        opp_seat = int(rng.integers(0, 2))
        lead = -1
        if leader == opp_seat and rng.random() < 0.5:  # he has led to the current trick
            lead = int(rng.choice(_cards(hands[opp_seat])))
        played = sum((1 << c) | (1 << d) for c, d in line)
        now = hands[opp_seat] & ~(1 << lead if lead >= 0 else 0)
        if case % 2:  # another world: any hand of his size outside what the player sees
            free = 0xFFFFFFFF & ~(played | hands[1 - opp_seat] | (1 << lead if lead >= 0 else 0))
            now = _subset(rng, free, bin(now).count("1"))
        kin = _subset(rng, dealt[1 - opp_seat], int(rng.integers(0, 4)))
        eps = float(rng.choice([0.05, 0.3, 0.9]))
        got = W.play_loglik(
            np.int64(now), opp_seat, _line_array(line), tricks, np.int64(lead), kin, ten, eps, buf
        )
        want = R.play_loglik(now, opp_seat, line, lead, kin, bool(ten), eps)
        assert got == pytest.approx(want, abs=1e-9), (case, line, lead)


def test_the_true_world_matches_the_model_at_every_choice():
    """An opponent who plays the model's card matches it at every choice in the true world (the
    history is replayed from the right hands, voids, tricks won and knowledge)."""
    rng = np.random.default_rng(5)
    buf = np.empty(12, dtype=np.int64)
    matched = 0
    for _ in range(80):
        tricks = int(rng.integers(1, 11))
        opp_seat = int(rng.integers(0, 2))
        kin = 0
        hands, line, _, dealt = _history(rng, tricks, model_seat=opp_seat, kin=kin)
        arr = _line_array(line)
        true = W.play_loglik(np.int64(hands[opp_seat]), opp_seat, arr, tricks, -1, kin, 0, 0.3, buf)
        best = 0.0  # the likelihood when every choice matched: sum of log(1 - eps + eps / k)
        leader, played, before = 0, 0, 0
        for c, d in line:
            his = c if leader == opp_seat else d
            hand = dealt[opp_seat] & ~before
            options = legal(hand, None if leader == opp_seat else c)
            k = R.classes(options, played, False, hand)
            if k > 1:
                best += math.log(0.7 + 0.3 / k)
                matched += 1
            before |= 1 << his
            played |= (1 << c) | (1 << d)
            leader = 1 - leader if (d // 8 == c // 8 and d > c) else leader
        assert true == pytest.approx(best, abs=1e-9)
    assert matched > 100  # the cases had choices to match


def test_resampling_matches_plain_python():
    rng = np.random.default_rng(11)
    for _ in range(200):
        m = int(rng.integers(1, 40))
        n = int(rng.integers(1, 20))
        logw = rng.normal(0, 3, size=m)
        u = float(rng.random())
        out = np.empty(n, dtype=np.int64)
        distinct = W.resample(logw, m, n, u, out)
        want = R.resample(list(logw), n, u)
        assert out.tolist() == want
        assert distinct == len(set(want))
    # equal weights: evenly spread
    out = np.empty(4, dtype=np.int64)
    W.resample(np.zeros(16), 16, 4, 0.5, out)
    assert out.tolist() == [2, 6, 10, 14]


def test_exchange_completion_matches_plain_python_and_is_exact_for_the_model():
    """The true completion of a heuristic exchange (his dealt hand, the cards he drew, his
    discard) misses nothing; random completions miss what the plain-Python greedy rule says."""
    env = make_env(DEFAULT_RULES.to_array())
    params = np.array(HEURISTIC_EXCHANGE_WEIGHTS)
    state = np.zeros(1, dtype=np.int64)
    rng = np.random.default_rng(3)
    for i in range(120):
        pack = np.empty(32, dtype=np.int8)
        e, y = deal_full(9, i, pack, state)
        talon = pack[24:32].copy()
        key = np.uint64(stream_key(9, i))
        e_new, e_disc, k_e = X.elder_exchange(e, talon, PO.EXCH_HEURISTIC, params, key, state, env)
        y_new, y_disc, k_y = X.younger_exchange(
            y, talon, k_e, PO.EXCH_HEURISTIC, params, key, state, env
        )
        e_drawn = int(e_new) & ~int(e)
        y_drawn = int(y_new) & ~int(y)
        assert W.completion_mismatch(e_new, e_drawn, e_disc, (1, 5), False, SUIT_TABLES) == 0
        assert W.completion_mismatch(y_new, y_drawn, y_disc, (1, 8 - k_e), True, SUIT_TABLES) == 0
        # a random completion against the plain-Python rule
        drawn = _subset(rng, int(y_new), int(k_y))
        x = _subset(rng, 0xFFFFFFFF & ~int(y_new), int(k_y))
        got = W.completion_mismatch(y_new, drawn, x, (1, 8 - k_e), True, SUIT_TABLES)
        want = R.exchange_mismatch(
            int(y_new),
            x,
            drawn,
            True,
            1,
            8 - int(k_e),
            lambda h, lo, hi, yg, w: ref_greedy_discard(h, lo, hi, yg, w)[0],
        )
        assert got == want


def test_random_subset_is_a_subset_of_the_size_asked():
    state = np.zeros(1, dtype=np.int64)
    key = np.uint64(stream_key(1, 2))
    seen = set()
    for _ in range(300):
        s = W.random_subset(np.int64(0b1011_0110), 3, key, state)
        assert s & ~0b1011_0110 == 0 and bin(s).count("1") == 3
        seen.add(int(s))
    assert len(seen) == 10  # every 3-subset of the 5 cards turns up
    assert W.random_subset(np.int64(0b11), 5, key, state) == 0b11


_WS = {}


def _play(seed, i, e_pol, y_pol, takes=(5, 3)):
    """One deal through the play loop (no exchange; knowledge of the dealt hands, the takes
    set so the exchange model runs): (elder, younger, net, play record, pimc counts, line)."""
    if "ws" not in _WS:
        _WS["ws"] = S.make_workspace(DEFAULT_RULES.to_array(), 16)
    sc = new_scratch()
    e, y = deal_full(seed, i, sc.pack, sc.state)
    sc.know_e[:] = KN.deal_knowledge(e, np.int64(0), FULL3, y, FULL3, 0, 0, SUIT_TABLES)
    sc.know_y[:] = KN.deal_knowledge(y, np.int64(0), FULL3, e, FULL3, 0, 0, SUIT_TABLES)
    for know in (sc.know_e, sc.know_y):
        know[L.KNOW_E_TOOK], know[L.KNOW_Y_TOOK] = takes[0] + 1, takes[1] + 1
    params = {
        r: np.array([6, 500, 0, 2, 2.0, 3, 0.3, 0.5, 4]) if pol == "pimcw" else np.array([6, 500])
        for r, pol in (("elder", e_pol), ("younger", y_pol))
    }
    stages = Policies(elder_play=e_pol, younger_play=y_pol, play_params=params).stages()
    pre = (np.int64(0), np.int64(0), np.int64(0))
    key = np.uint64(stream_key(seed, i))
    net = play_deal(e, y, stages, pre, key, sc.state, _WS["ws"], sc)
    return int(e), int(y), net, sc.play.copy(), sc.pimc.copy(), sc.line.copy()


@pytest.mark.parametrize("opp", ["heuristic", "pimc", "pimcw"])
def test_pimcw_never_plays_an_illegal_card(opp):
    for i in range(4):
        e, y, net, out, stats, line = _play(31, i, "pimcw", opp)
        hands = [e, y]
        leader = 0
        for t in range(12):
            c, d = int(line[2 * t]), int(line[2 * t + 1])
            assert hands[leader] >> c & 1, "lead from the leader's hand"
            assert d in legal(hands[1 - leader], c), "reply follows suit when able"
            hands[leader] &= ~(1 << c)
            hands[1 - leader] &= ~(1 << d)
            leader = 1 - leader if (d >> 3 == c >> 3 and d > c) else leader
        assert hands == [0, 0] and out[2] + out[3] == 12
        assert stats[L.PIMC_DECISIONS] > 0


def test_same_seed_same_numbers():
    a = _play(7, 3, "pimcw", "pimc")
    b = _play(7, 3, "pimcw", "pimc")
    assert a[2] == b[2] and (a[5] == b[5]).all() and (a[4] == b[4]).all()
    pol = Policies(
        elder_exchange="heuristic",
        younger_exchange="heuristic",
        elder_play="pimcw",
        younger_play="pimc",
        play_params={"elder": np.array([6, 500, 0, 2, 2.0, 3, 0.3, 0.5, 4])},
    )
    r1 = simulate(6, seed=4, policies=pol)
    r2 = simulate(6, seed=4, policies=pol)
    assert (np.asarray(r1) == np.asarray(r2)).all()


def test_pimcw_refines_the_advice_with_the_control_variate():
    """``advise(play="pimcw")`` takes pimc's defaults (refine 10, SE 0.5) and its refine: the
    heuristic screens, the refined candidates are raced with the heuristic as control variate
    (pimcw through the full dispatcher)."""
    from piquet_sim.piquet.advisor import DEFAULT, advise, default_settings, screen_play

    assert default_settings("pimcw", DEFAULT, None, None) == ("pimcw", 0.5, 10)
    assert screen_play("pimcw") == "heuristic"
    res = advise(
        "AS KS QS JS 9H 8H 7H AD KD AC QC JC", play="pimcw", refine=2, samples=64, precision=50.0
    )
    refined = [c.to_dict(False) for c in res.candidates if c.play == "pimcw"]
    assert len(refined) == 2
    assert all(d["estimator"]["kind"] == "control variate" for d in refined)
