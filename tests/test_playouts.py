"""Playout policies and the full-deal play kernel (docs/rules/piquet.md "Play", "Pique").

Each kernel playout is re-driven step by step from Python (same policy functions, same random
stream) and scored by the plain-Python reference; invariants are checked at every step.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from piquet_sim.core.engine.rng import stream_key
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels import play as P
from piquet_sim.piquet.kernels import solver as K
from piquet_sim.piquet.kernels.bundles import make_env
from piquet_sim.piquet.kernels.deal import deal_hands
from piquet_sim.piquet.kernels.tricks import pique_start
from piquet_sim.piquet.policies import PLAY_DD, PLAY_GREEDY, PLAY_RANDOM
from piquet_sim.piquet.reference import play as R
from piquet_sim.piquet.rules import Rules
from piquet_sim.piquet.simulation import Policies

RULES = {0: Rules().to_array(), 1: Rules(lead_points="ten_or_higher").to_array()}
ENVS = {t: make_env(r) for t, r in RULES.items()}
SMALL_WS = {t: K.make_workspace(r, 1) for t, r in RULES.items()}
PRE = [(0, 0, 0), (25, 0, 0), (0, 20, 0), (29, 0, 1), (18, 3, 0)]
NAMES = {PLAY_RANDOM: "random", PLAY_GREEDY: "greedy", PLAY_DD: "dd"}


def _stages(ep, yp):
    return Policies(elder_play=NAMES[ep], younger_play=NAMES[yp]).stages()


def _pre(e_pre, y_pre, rep):
    return (np.int64(e_pre), np.int64(y_pre), np.int64(rep))


def _play_deal(e, y, ep, yp, ten, pre, key, state, ws):
    """``play.play_deal`` on the stream position ``state`` (advanced like the kernel's):
    (net, play record)."""
    sc = P.new_scratch()
    sc.state[:] = state
    net = P.play_deal(e, y, _stages(ep, yp), _pre(*pre), key, sc.state, ws, sc)
    state[:] = sc.state
    return net, sc.play.copy()


def _batch(seed, start, n, ep, yp, ten, pre, bits):
    return P.play_batch(seed, start, n, _stages(ep, yp), _pre(*pre), ENVS[ten], bits)


def _deal(seed, index):
    pack = np.zeros(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    e, y = deal_hands(seed, index, pack, state)
    return int(e), int(y), np.uint64(stream_key(seed, index)), state


def _drive(e, y, ep, yp, key, state, ten, e_pre, y_pre, rep):
    """Play a deal from Python with the kernel's policy functions, checking each step; returns
    the reference tally."""
    st = R.State(e, y, 0, 0, 0, e_pre, y_pre, not rep)
    tally = R.Tally([0, 0], [0, 0], [0, 0], [0, 0])
    played = 0
    seen: set[int] = set()
    for _ in range(12):
        hands = [st.elder, st.younger]
        lp, fp = (ep, yp) if st.leader == 0 else (yp, ep)
        assert R.legal(hands[st.leader], None), "a legal lead exists until the end"
        c = int(P.choose_lead(lp, np.int64(hands[st.leader]), np.int64(played), key, state))
        assert c in R.legal(hands[st.leader], None)
        d = int(P.choose_reply(fp, np.int64(hands[1 - st.leader]), c, np.int64(played), key, state))
        assert d in R.legal(hands[1 - st.leader], c)
        assert c not in seen and d not in seen
        seen |= {c, d}
        played |= (1 << c) | (1 << d)
        st = R.play_trick(st, c, d, bool(ten), tally)
    assert st.elder == 0 and st.younger == 0
    assert R.legal(0, None) == [], "no legal move after the last trick"
    assert seen == set(R.cards_of(e | y))
    return tally


@pytest.mark.parametrize("policies", [(0, 0), (1, 1), (0, 1), (1, 0)])
@pytest.mark.parametrize("ten", [0, 1])
def test_play_deal_matches_reference_replay(policies, ten):
    ep, yp = policies
    for i in range(60):
        e_pre, y_pre, rep = PRE[i % len(PRE)]
        e, y, key, state = _deal(17 + ten, i)
        state2 = state.copy()
        net, out = _play_deal(e, y, ep, yp, ten, (e_pre, y_pre, rep), key, state, SMALL_WS[ten])
        tally = _drive(e, y, ep, yp, key, state2, ten, e_pre, y_pre, rep)
        assert state[0] == state2[0], "the same random draws"
        assert list(out) == [
            tally.play[0],
            tally.play[1],
            tally.tricks[0],
            tally.tricks[1],
            tally.cards[0],
            tally.cards[1],
            tally.pique[0],
            tally.pique[1],
        ]
        assert net == tally.net()


def test_random_playouts_reach_pique_and_both_rules_differ():
    rows = _batch(3, 0, 4000, PLAY_RANDOM, PLAY_RANDOM, 0, (25, 0, 0), 1)
    assert (rows[:, L.PO_E_PIQUE] == 30).any()
    assert (rows[:, L.PO_Y_PIQUE] == 0).all()  # elder's first lead stops younger's pique
    rows1 = _batch(3, 0, 4000, PLAY_RANDOM, PLAY_RANDOM, 1, (0, 25, 0), 1)
    assert (rows1[:, L.PO_Y_PIQUE] == 30).any()  # under ten_or_higher younger can pique
    rep = _batch(3, 0, 2000, PLAY_RANDOM, PLAY_RANDOM, 0, (25, 0, 1), 1)
    assert (rep[:, L.PO_E_PIQUE] == 0).all()  # after a repique, no pique


@pytest.mark.parametrize("policy", [PLAY_RANDOM, PLAY_GREEDY])
def test_batch_points_within_bounds(policy):
    rows = _batch(8, 0, 20000, policy, policy, 0, (0, 0, 0), 1)
    et, yt = rows[:, L.PO_E_TRICKS], rows[:, L.PO_Y_TRICKS]
    assert ((et + yt) == 12).all()
    ep, yp = rows[:, L.PO_E_PLAY], rows[:, L.PO_Y_PLAY]
    assert (ep >= 1).all() and (ep <= 13).all() and (yp <= 13).all()  # elder leads once at least
    assert ((ep + yp) >= 13).all() and ((ep + yp) <= 25).all()  # 12 leads + last trick + wins
    ec, yc = rows[:, L.PO_E_CARDS], rows[:, L.PO_Y_CARDS]
    assert (ec == np.where(et == 12, 40, np.where(et >= 7, 10, 0))).all()
    assert (yc == np.where(yt == 12, 40, np.where(yt >= 7, 10, 0))).all()
    assert (rows[:, L.PO_E_PIQUE] == 0).all() and (rows[:, L.PO_Y_PIQUE] == 0).all()


@pytest.mark.parametrize("policy", [PLAY_RANDOM, PLAY_GREEDY, PLAY_DD])
def test_batch_same_rows_whatever_the_thread_count(policy):
    n = 300 if policy == PLAY_DD else 5000
    numba.set_num_threads(1)
    one = _batch(21, 10, n, policy, PLAY_RANDOM, 1, (20, 0, 0), 16)
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    two = _batch(21, 10, n, policy, PLAY_RANDOM, 1, (20, 0, 0), 16)
    assert (one == two).all()
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


@pytest.mark.parametrize("ten", [0, 1])
def test_dd_policy_realises_the_solver_value(ten):
    ws = K.make_workspace(RULES[ten], 18)
    for i in range(12):
        pre = PRE[i % len(PRE)]
        e, y, key, state = _deal(40 + ten, i)
        ps = pique_start(pre[0], pre[1], 1 - pre[2], 12)
        v = K.solve_position((np.int64(e), np.int64(y), 0, 0, ps), ws)
        assert _play_deal(e, y, PLAY_DD, PLAY_DD, ten, pre, key, state.copy(), ws)[0] == v
        # a DD player gets at least the value against any opponent
        for opp in (PLAY_RANDOM, PLAY_GREEDY):
            assert _play_deal(e, y, PLAY_DD, opp, ten, pre, key, state.copy(), ws)[0] >= v
            assert _play_deal(e, y, opp, PLAY_DD, ten, pre, key, state.copy(), ws)[0] <= v


def test_dd_beats_greedy_beats_random_on_average():
    n = 400
    dd = _batch(5, 0, n, PLAY_DD, PLAY_GREEDY, 0, (0, 0, 0), 16)
    gr = _batch(5, 0, n, PLAY_GREEDY, PLAY_GREEDY, 0, (0, 0, 0), 1)
    rd = _batch(5, 0, n, PLAY_RANDOM, PLAY_GREEDY, 0, (0, 0, 0), 1)

    def net(rows):
        e = rows[:, L.PO_E_PLAY] + rows[:, L.PO_E_CARDS]
        return float((e - rows[:, L.PO_Y_PLAY] - rows[:, L.PO_Y_CARDS]).mean())

    assert net(dd) > net(gr) > net(rd)


def _mask(text):
    from piquet_sim.piquet.cards import parse_cards

    return np.int64(parse_cards(text))


def test_greedy_wins_cheaply_and_ducks_low():
    hand = _mask("AS JS 8S 7H")
    unseen = np.int64(0xFFFFFFFF) & ~(hand | _mask("TS"))
    assert P.greedy_reply(hand, 3, unseen) == 4  # TS led: the jack, not the ace
    hand = _mask("9S 8S AH")
    assert P.greedy_reply(hand, 3, unseen) == 1  # cannot win: the eight


def test_greedy_discards_lowest_of_weakest_suit_keeping_guards():
    # void in spades; hearts K7 (the 7 guards the king), diamonds 98, clubs AQ
    hand = _mask("KH 7H 9D 8D AC QC")
    unseen = np.int64(0xFFFFFFFF) & ~hand
    assert P.greedy_reply(hand, 7, unseen) == 17  # 8D


def test_greedy_leads_masters_from_strength_else_low_from_length():
    hand = _mask("AS KS 7S AH 9D 8D 7D")
    unseen = np.int64(0xFFFFFFFF) & ~hand
    assert P.greedy_lead(hand, unseen) == 7  # AS: master in the longest suit holding one
    hand = _mask("KS 7S QH JH 9H")
    unseen = np.int64(0xFFFFFFFF) & ~hand
    assert P.greedy_lead(hand, unseen) == 10  # no master: lowest of the longest suit (9H)


def test_select_bit_finds_the_kth_lowest_card():
    from piquet_sim.piquet.kernels.play import select_bit

    gen = np.random.default_rng(12)
    for m in gen.integers(1, 2**32, size=3000):
        bits = [i for i in range(32) if int(m) >> i & 1]
        for k in (0, len(bits) - 1, len(bits) // 2):
            assert select_bit(np.int64(m), np.int64(k)) == bits[k]
