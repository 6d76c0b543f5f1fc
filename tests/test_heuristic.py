"""The ``heuristic`` play policy: kernel against its plain-Python twin on many random positions
and whole deals, hand-worked cases, and strength against greedy on the same deals."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.engine.rng import stream_key
from piquet_sim.piquet.cards import parse_cards
from piquet_sim.piquet.kernels import heuristic as H
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels import play as P
from piquet_sim.piquet.kernels import solver as K
from piquet_sim.piquet.kernels.bundles import make_env
from piquet_sim.piquet.kernels.deal import deal_hands
from piquet_sim.piquet.reference import heuristic as R
from piquet_sim.piquet.rules import Rules, RuleSlot
from piquet_sim.piquet.simulation import Policies

WS = K.make_workspace(Rules().to_array(), 1)
ENV = make_env(Rules().to_array())


def _know(inside=0, outside=0):
    k = np.zeros(L.KNOW_LEN, dtype=np.int64)
    k[L.KNOW_IN] = inside
    k[L.KNOW_OUT] = outside
    return k


def _m(text):
    return parse_cards(text)


@pytest.mark.parametrize("n", range(9))
def test_binomial_cdf_matches_its_definition(n):
    for f in (0.0, 0.1, 0.37, 0.5, 0.9, 1.0):
        for k in range(-1, n + 2):
            assert H.binom_cdf(n, f, k) == pytest.approx(R.check_binomial(n, f, k), abs=1e-12)
            assert H.binom_cdf(n, f, k) == R.binom_cdf(n, f, k)


def _random_position(rng):
    """A mid-deal position: two hands after t random tricks, what was played, the opponent's
    voids, and a knowledge state true to the opponent's hand (some of his cards known in, some
    non-opponent cards known out)."""
    perm = rng.permutation(32)
    me, opp = set(perm[:12].tolist()), set(perm[12:24].tolist())
    rest = perm[24:].tolist()
    played = set()
    for _ in range(int(rng.integers(0, 11))):
        a = int(rng.choice(sorted(me)))
        b = int(rng.choice(sorted(opp)))
        me.discard(a)
        opp.discard(b)
        played |= {a, b}
    voids = 0
    for s in range(4):
        if not any(c // 8 == s for c in opp) and rng.random() < 0.5:
            voids |= 0xFF << (8 * s)
    inside = sum(1 << c for c in opp if rng.random() < 0.3)
    inside |= sum(1 << c for c in played if rng.random() < 0.2)
    outside = sum(1 << c for c in rest if rng.random() < 0.6)
    mask = lambda cs: sum(1 << c for c in cs)  # noqa: E731
    return mask(me), mask(opp), mask(played), voids, _know(inside, outside)


def test_suit_value_without_depth_or_tilt_is_the_best_card_chance():
    # the kernel reads the top card's chance alone when depth and bias are 0: it must equal
    # the best chance over every card of the holding
    rng = np.random.default_rng(4)
    tops = 0
    for _ in range(3000):
        ranks = rng.permutation(8)
        a, b, c = sorted(rng.integers(0, 9, size=2).tolist()) + [8]
        mine = sum(1 << int(r) for r in ranks[:a])
        sure = sum(1 << int(r) for r in ranks[a:b] if rng.random() < 0.3)
        pool = sum(1 << int(r) for r in ranks[a:b]) & ~sure
        n_pool = bin(pool).count("1")
        cap = int(rng.integers(0, 9))
        fz = (float(rng.integers(0, n_pool + 1)), float(n_pool), np.int64(0))
        got = H.suit_value(np.int64(mine), np.int64(sure), np.int64(pool), cap, fz, 0.0)
        chances = [
            H.card_chance(r, np.int64(mine), np.int64(sure), np.int64(pool), cap, fz)
            for r in range(8)
            if mine >> r & 1
        ]
        assert got == max(chances, default=0.0)
        tops += 0.0 < got < 1.0
    assert tops > 100  # the binomial case was met


def test_chance_table_is_the_arithmetic():
    # the table path (depth 0, no tilt) must read exactly what card_chance computes: every
    # binomial entry, every reach entry, and top_chance against card_chance on random holdings
    T = H.TABLE_POOL + 1
    table = H.CHANCE.reshape(T, T, 8, 8)
    for n in range(T):
        for out in range(n + 1):
            f = 1.0 - out * 1.0 / n if n else 0.0
            f = min(1.0, max(0.0, f))
            q = 1.0
            for c in range(8):
                assert table[n, out, 0, c] == 1.0 - q
                q *= 1.0 - f
            for a2 in range(1, 8):
                fsum = 0.0
                for _ in range(a2):
                    fsum += f
                for k in range(a2):
                    assert table[n, out, a2, k] == H.binom_cdf(a2, fsum / a2, k)
    rng = np.random.default_rng(8)
    middle = 0
    for _ in range(3000):
        ranks = rng.permutation(8)
        a, b = sorted(rng.integers(1, 9, size=2).tolist())
        mine = sum(1 << int(r) for r in ranks[:a])
        sure = sum(1 << int(r) for r in ranks[a:b] if rng.random() < 0.3)
        pool = sum(1 << int(r) for r in ranks[a:b]) & ~sure
        n = int(rng.integers(bin(pool).count("1"), T))
        out = int(rng.integers(0, n + 1))
        cap = int(rng.integers(0, 9))
        got = H.top_chance(mine, sure, pool, cap, H.table_row(n, out))
        want = H.card_chance(
            mine.bit_length() - 1, mine, sure, pool, cap, (float(out), float(n), np.int64(0))
        )
        assert got == want
        middle += 0.0 < got < 1.0
    assert middle > 200  # the table itself was read
    assert T - 1 == 32 - 2  # every pool a hand of two cards or more leaves


def test_table_move_is_the_arithmetic_for_every_pool():
    # at the defaults (depth 0, no tilt) the table kernel must play general_move's card (and the
    # reference's) on any position, pools beyond a twelve-card deal's 20 included: short hands
    # with few cards played, thin knowledge, capot defence and endgame on and off
    rng = np.random.default_rng(21)
    large = 0
    for i in range(1000):
        perm = rng.permutation(32).tolist()
        n = int(rng.integers(2, 13))
        me = sum(1 << c for c in perm[:n])
        played = sum(1 << c for c in perm[n : n + int(rng.integers(0, 12 - n + 1))])
        rest = [c for c in range(32) if not (me | played) >> c & 1]
        lead = int(rng.choice(rest)) if i % 2 else -1
        voids = 0
        for s in range(4):
            if rng.random() < 0.1 and not (lead >= 0 and lead // 8 == s):
                voids |= 0xFF << (8 * s)
        kin = sum(1 << c for c in rest if rng.random() < 0.05)
        kout = sum(1 << c for c in rest if rng.random() < 0.05) & ~kin
        capot = i % 3 != 0
        endgame = (0, 5)[(i // 2) % 2]
        args = [np.int64(x) for x in (me, lead, played, voids, kin, kout)]
        got = H.table_move(*args, capot, endgame)
        want = H.general_move(*args, 0.0, capot, 0, endgame)
        assert got == want
        ref = R.heuristic_card(me, lead, played, voids, _know(kin, kout), 0.0, capot, 0, endgame)
        assert got == ref
        gone = played | (1 << lead if lead >= 0 else 0)
        pool = 0xFFFFFFFF & ~(me | gone | kout | voids | kin)
        large += bin(pool).count("1") > 20
    assert large > 150  # pools a twelve-card deal never has were read from the table


@pytest.mark.parametrize("lam", [0.0, 0.3, 1.0])
def test_kernel_matches_reference_on_random_positions(lam):
    rng = np.random.default_rng(int(lam * 10) + 5)
    discards = 0
    for i in range(1200):
        me, opp, played, voids, know = _random_position(rng)
        capot = i % 2 == 0
        bias = i % 4
        k = H.heuristic_card(
            np.int64(me), np.int64(-1), np.int64(played), np.int64(voids), know, lam, capot, bias
        )
        assert k == R.heuristic_card(me, -1, played, voids, know, lam, capot, bias)
        assert me >> int(k) & 1
        lead = int(rng.choice([c for c in range(32) if opp >> c & 1]))
        k = H.heuristic_card(
            np.int64(me), np.int64(lead), np.int64(played), np.int64(voids), know, lam, capot, bias
        )
        assert k == R.heuristic_card(me, lead, played, voids, know, lam, capot, bias)
        same = [c for c in range(32) if me >> c & 1 and c // 8 == lead // 8]
        assert (int(k) in same) if same else (me >> int(k) & 1)
        discards += not same
    assert discards > 200  # the discard rule was exercised


def _drive(e, y, know_e, know_y, lam, bias, endgame):
    """A whole deal by the reference rule (voids tracked as the kernel does): the cards played."""
    hands = [e, y]
    knows = [know_e, know_y]
    played = 0
    voids = [0, 0]  # suits each player's opponent has shown void in
    leader = 0
    won = [0, 0]
    line = []
    for _ in range(12):
        f = 1 - leader
        c = R.heuristic_card(
            hands[leader],
            -1,
            played,
            voids[leader],
            knows[leader],
            lam,
            won[leader] == 0,
            bias,
            endgame,
        )
        d = R.heuristic_card(
            hands[f], c, played, voids[f], knows[f], lam, won[f] == 0, bias, endgame
        )
        line += [c, d]
        hands[leader] &= ~(1 << c)
        hands[f] &= ~(1 << d)
        played |= (1 << c) | (1 << d)
        if d // 8 != c // 8:
            voids[leader] |= 0xFF << (8 * (c // 8))
        winner = f if (d // 8 == c // 8 and d > c) else leader
        won[winner] += 1
        leader = winner
    return line, won[0]


def test_play_deal_matches_reference_drive():
    rng = np.random.default_rng(3)
    for i in range(80):
        lam = float(rng.choice([0.0, 0.5]))
        bias = i % 4
        endgame = (0, 5)[i % 2]
        pol = Policies(elder_play="heuristic", younger_play="heuristic")
        stages = pol.stages()
        for row in (L.STAGE_ELDER_PLAY, L.STAGE_YOUNGER_PLAY):
            stages.params[row, 0] = lam
            stages.params[row, 2] = bias
            stages.params[row, 3] = endgame
        pack = np.zeros(32, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        e, y = deal_hands(11, i, pack, state)
        e, y = int(e), int(y)
        rest = 0xFFFFFFFF & ~(e | y)
        sc = P.new_scratch()
        ke = _know(sum(1 << c for c in range(32) if y >> c & 1 and rng.random() < 0.3), rest)
        ky = _know(sum(1 << c for c in range(32) if e >> c & 1 and rng.random() < 0.3), 0)
        sc.know_e[:] = ke
        sc.know_y[:] = ky
        pre = (np.int64(0), np.int64(0), np.int64(0))
        P.play_deal(e, y, stages, pre, np.uint64(stream_key(11, i)), state, WS, sc)
        line, et = _drive(e, y, ke, ky, lam, bias, endgame)
        assert [int(c) for c in sc.line] == line
        assert sc.play[L.PO_E_TRICKS] == et


@pytest.mark.parametrize(
    "plays", [("heuristic", "heuristic"), ("heuristic", "greedy"), ("random", "heuristic")]
)
def test_scalar_play_equals_the_trick_loop(plays):
    """``play_if_fast`` plays a deal with a heuristic seat on scalars (``play_fast``): the same
    cards, record and random draws as the bundled trick loop (``play_deal``), whatever the
    parameters (table and general paths), knowledge, rules and start."""
    rng = np.random.default_rng(5)
    for i in range(300):
        ten = i % 2
        env = make_env(Rules(lead_points=("every", "ten_or_higher")[ten]).to_array())
        ws = K.make_workspace(env.rules, 1)
        stages = Policies(elder_play=plays[0], younger_play=plays[1]).stages()
        for row in (L.STAGE_ELDER_PLAY, L.STAGE_YOUNGER_PLAY):
            stages.params[row, :4] = (
                float(rng.choice([0.0, 0.0, 0.5])),
                float(i % 3 != 0),
                i % 3 == 1,
                (0, 5, 3)[i % 3],
            )
        pack = np.zeros(32, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        e, y = (int(h) for h in deal_hands(13, i, pack, state))
        rest = 0xFFFFFFFF & ~(e | y)
        runs = []
        for fast in (True, False):
            sc = P.new_scratch()
            sc.know_e[:] = _know(
                sum(1 << c for c in range(32) if y >> c & 1 and rng.random() < 0.3),
                rest if i % 2 else 0,
            )
            sc.know_y[:] = _know(
                sum(1 << c for c in range(32) if e >> c & 1 and rng.random() < 0.3),
                rest & int(rng.integers(0, 1 << 32)),
            )
            if fast:
                keep = (sc.know_e.copy(), sc.know_y.copy())
            else:
                sc.know_e[:], sc.know_y[:] = keep
            sc.state[:] = state
            pre = (np.int64((0, 25, 18)[i % 3]), np.int64((0, 3, 20)[i % 3]), np.int64(i % 7 == 0))
            key = np.uint64(stream_key(13, i))
            if fast:
                know = (sc.know_e, sc.know_y)
                assert P.play_if_fast(
                    e,
                    y,
                    stages,
                    know,
                    pre,
                    key,
                    sc.state,
                    env.rules[RuleSlot.LEAD_POINTS],
                    sc.line,
                    sc.play,
                    True,  # any depth: the general heuristic
                )
            else:
                P.play_deal(e, y, stages, pre, key, sc.state, ws, sc)
            runs.append((sc.line.copy(), sc.play.copy(), sc.state.copy()))
        (l1, p1, s1), (l2, p2, s2) = runs
        assert np.array_equal(l1, l2) and np.array_equal(p1, p2) and np.array_equal(s1, s2)


def _card(own, lead, played="", voids="", inside="", outside="", lam=0.0, capot=False, bias=2):
    know = _know(_m(inside) if inside else 0, _m(outside) if outside else 0)
    v = 0
    for s in voids:
        v |= 0xFF << (8 * "SHDC".index(s))
    args = (_m(own), -1 if lead is None else _m(lead).bit_length() - 1, _m(played) if played else 0)
    k = H.heuristic_card(
        np.int64(args[0]), np.int64(args[1]), np.int64(args[2]), np.int64(v), know, lam, capot, bias
    )
    assert k == R.heuristic_card(args[0], args[1], args[2], v, know, lam, capot, bias)
    return int(k)


def _idx(name):
    return _m(name).bit_length() - 1


def test_discard_keeps_a_master_over_a_long_suits_last_card():
    # KH is master (AH played); clubs Q J T 9 keep their stopper after the nine goes
    own = "KH QC JC TC 9C 8D"
    played = "AH 9H AS 9S KS JS AC 8C"
    assert _card(own, "QS", played) == _idx("9C")


def test_discard_throws_a_king_the_opponent_is_known_to_beat():
    # the opponent showed AD: a lone KD can never win; a guarded KH keeps its guard
    own = "KD KH 7H QC 9C 8C"
    assert _card(own, "QS", inside="AD AH") == _idx("KD")


def test_discard_keeps_a_guard():
    # K 7 of hearts guards the king against the ace he showed; the low clubs are worth less
    own = "KH 7H 9C 8C"
    assert _card(own, "QS", inside="AH") == _idx("8C")


def test_lead_a_suit_the_opponent_cannot_follow_then_masters():
    own = "7D AS KS 9S 8H"
    assert _card(own, None, voids="D") == _idx("7D")
    assert _card("AS KS 9S 8H QC", None) == _idx("AS")  # master from the longest suit
    # the opponent is known to hold no spade above the nine: the nine is master
    assert _card("9S 8S JH", None, played="AS KS", outside="QS JS TS") == _idx("9S")


@pytest.mark.parametrize("bias", [0, 2])
def test_lead_keeps_a_lone_master_as_an_entry(bias):
    # the thrown aces: the lone AS is the only guard of spades; cashing it first lets the
    # opponent run the suit once he wins a diamond. The ten costs nothing (KD stays a stopper
    # after AD falls), so the diamonds are led and the ace kept (the old rule led AS)
    own = "AS KD QD JD TD 8C 7C"
    assert _card(own, None, bias=bias) == _idx("TD")
    # a master with a master under it is free to cash: it is still led first
    assert _card("AS KS 9S KD QD JD TD", None, bias=bias) == _idx("AS")
    # with one suit left the master is cashed, then the low card
    assert _card("AH 8H 7H", None, bias=bias) == _idx("AH")


@pytest.mark.parametrize("bias", [0, 2])
def test_lead_from_a_sequence_takes_its_bottom_card(bias):
    # K Q J 7 of spades, AS out: the jack wins or draws the ace, where the seven gave a cheap
    # trick to any eight, nine or ten (the lowest card was led before)
    assert _card("KS QS JS 7S 8D", None, bias=bias) == _idx("JS")
    # the ten is known out of his hand: J T are the bottom of K Q J T
    assert _card("KS QS JS 9S 7S 8D", None, outside="TS", bias=bias) == _idx("9S")


def test_lead_keeps_a_guarded_king():
    # K 7 of hearts: leading the seven gives the ace a cheap trick and unguards the king
    own = "KH 7H 9C 8C 7C"
    assert _card(own, None) == _idx("7C")


def test_follow_wins_cheaply_else_ducks_low():
    assert _card("AS JS 8S 7H", "TS") == _idx("JS")
    assert _card("9S 8S 7H", "TS") == _idx("8S")


def _net(rows):
    e = rows[:, L.PO_E_PLAY] + rows[:, L.PO_E_CARDS]
    return (e - rows[:, L.PO_Y_PLAY] - rows[:, L.PO_Y_CARDS]).astype(np.float64)


def test_heuristic_beats_greedy_in_both_seats_and_concedes_fewer_capots():
    from piquet_sim.piquet.policies import PLAY_GREEDY, PLAY_HEURISTIC

    n = 10_000
    pre = (np.int64(0), np.int64(0), np.int64(0))

    def batch(ep, yp):
        pol = Policies(elder_play=ep, younger_play=yp)
        return P.play_batch(9, 0, n, pol.stages(), pre, ENV, 1)

    gg, hg, gh = (
        batch("greedy", "greedy"),
        batch("heuristic", "greedy"),
        batch("greedy", "heuristic"),
    )
    assert PLAY_HEURISTIC != PLAY_GREEDY
    se = np.sqrt(2 * _net(gg).var() / n)
    assert _net(hg).mean() > _net(gg).mean() + 3 * se  # better as elder
    assert _net(gh).mean() < _net(gg).mean() - 3 * se  # better as younger
    capots = lambda rows: (rows[:, L.PO_E_CARDS] == 40).mean()  # noqa: E731
    assert capots(gh) < 0.5 * capots(gg)  # capot defence


@pytest.mark.parametrize(
    "plays", [("heuristic", "heuristic"), ("greedy", "heuristic"), ("heuristic", "random")]
)
def test_bundle_free_deal_records_equal_the_full_loop(plays):
    """The bundle-free full deal (``simple_deal``: known cards on scalars, ``play_fast``) gives
    ``simulate_records``' records with a heuristic seat: sunk classes, heuristic exchange,
    general parameters, both rules."""
    from piquet_sim.piquet.kernels import simple_deal as KD
    from piquet_sim.piquet.kernels import simulate as KS
    from piquet_sim.piquet.simulation import records_kernel

    sink = {"elder": np.array([1.0, 0.0, 1.0]), "younger": np.array([0.0, 1.0, 0.0])}
    for k, rules in enumerate((Rules(), Rules(lead_points="ten_or_higher"))):
        policies = Policies(
            elder_play=plays[0],
            younger_play=plays[1],
            elder_exchange="heuristic",
            elder_declare="sink" if k else "all",
            younger_declare="sink",
            declare_params=sink,
            play_params={"younger": np.array([0.5, 1.0, 2.0, 5.0])} if k else {},
        )
        assert records_kernel(policies) is KD.simple_simulate_records
        args = (policies.stages(), make_env(rules.to_array()), 8, 1)
        a = KD.simple_simulate_records(3, 500, 4000, *args)
        b = KS.simulate_records(3, 500, 4000, *args)
        assert np.array_equal(a, b)
