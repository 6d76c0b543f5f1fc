"""The partie (docs/rules/piquet.md "The partie"): Rubicon settlement, ties, piquet au cent, four
deals,
the blank-partie bonus; the kernel against the plain-Python reference; simulated parties; the
partie-value tables."""

from __future__ import annotations

import json
import random

import numba
import numpy as np
import pytest
from click.testing import CliRunner

from piquet_sim.cli import cli
from piquet_sim.core.game.strategy import Strategy
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels import partie as KP
from piquet_sim.piquet.partie import partie_kernel, partie_rows, partie_tables, parties
from piquet_sim.piquet.reference.partie import play_partie, settle
from piquet_sim.piquet.rules import Rules
from piquet_sim.piquet.simulation import simulate
from piquet_sim.piquet.strategies import REGISTRY, mirrored_args, policies

RUBICON = Rules()
DOUBLE = Rules(tie="refait_double")
HUNDRED = Rules(game="hundred")
FOUR = Rules(game="four_deals")
BLANK = Rules(blank_partie_bonus=True)
#: random exchanges (they draw from the stream) shared with "random"'s, heuristic play
RANDOM_EXCHANGE = Strategy.of("random-exchange", exchange="random", declare="all", play="heuristic")
ALL_RULES = [
    RUBICON,
    DOUBLE,
    HUNDRED,
    FOUR,
    BLANK,
    Rules(game="hundred", tie="refait_double"),
    Rules(game="four_deals", tie="refait_double", blank_partie_bonus=True),
]


def kernel(points, rules):
    row = KP.partie_from_points(np.array(points, dtype=np.int64).reshape(-1, 2), rules.to_array())
    return row


def test_rubicon_settlement_examples_from_the_rule_books():
    assert settle(120, 99) == 319  # rubiconed: 120 + 99 + 100
    assert settle(120, 101) == 119  # (120 - 101) + 100
    assert settle(150, 100) == 150  # exactly 100 is not rubiconed
    assert settle(101, 100) == 101
    assert settle(130, 0) == 230
    assert settle(130, 0, blank_partie_bonus=True) == 330  # blank partie: 100 more
    assert settle(130, 1, blank_partie_bonus=True) == 231
    for w, lo in ((120, 99), (120, 101), (150, 100), (130, 0)):
        assert KP.settlement(w, lo, 0) == settle(w, lo)
        assert KP.settlement(w, lo, 1) == settle(w, lo, True)


# (rules, deal points A/B, expected (A total, B total, deals, winner, A's settlement))
CASES = [
    (RUBICON, [(20, 10)] * 6, (120, 60, 6, 1, 280)),  # six deals, B rubiconed
    (RUBICON, [(20, 17), (18, 20)] * 3, (114, 111, 6, 1, 103)),  # both over 100
    (RUBICON, [(17, 20)] * 6, (102, 120, 6, -1, -118)),
    (RUBICON, [(10, 10)] * 6 + [(5, 0), (0, 0)], (65, 60, 8, 1, 225)),  # tie: two more deals
    (RUBICON, [(10, 10)] * 6 + [(5, 0), (0, 5)], (65, 65, 8, 0, 0)),  # still tied: drawn
    (DOUBLE, [(10, 10)] * 6 + [(5, 0), (1, 0)], (72, 60, 8, 1, 232)),  # extra deals count double
    (DOUBLE, [(20, 20)] * 6 + [(0, 3), (0, 1)], (120, 128, 8, -1, -108)),
    (FOUR, [(10, 0), (0, 10), (0, 10), (10, 0)], (40, 20, 4, 1, 160)),  # first and last double
    (FOUR, [(30, 40), (40, 50), (60, 45), (25, 10)], (210, 195, 4, 1, 115)),
    (FOUR, [(10, 10)] * 4 + [(0, 1), (0, 0)], (60, 61, 6, -1, -221)),
    (HUNDRED, [(30, 20), (40, 50), (35, 20)], (105, 90, 3, 1, 295)),  # stops at 100
    (HUNDRED, [(60, 70), (50, 45)], (110, 115, 2, -1, -105)),  # both over in one deal
    (HUNDRED, [(50, 50), (50, 50), (1, 0), (0, 0)], (101, 100, 4, 1, 101)),  # tie at 100+
    (BLANK, [(30, 0)] * 6, (180, 0, 6, 1, 380)),  # blank partie: 180 + 0 + 100 + 100
    (RUBICON, [(30, 0)] * 6, (180, 0, 6, 1, 280)),
]


@pytest.mark.parametrize("rules, points, expected", CASES)
def test_hand_worked_parties(rules, points, expected):
    ref = play_partie(points, rules)
    assert (ref.first, ref.second, ref.deals, ref.winner, ref.settlement) == expected
    row = kernel(points, rules)
    got = (row[L.PROW_A], row[L.PROW_B], row[L.PROW_DEALS], row[L.PROW_WINNER], row[L.PROW_SETTLE])
    assert got == expected
    assert bool(row[L.PROW_RUBICON]) == ref.rubicon


def test_kernel_matches_reference_on_random_point_sequences():
    rng = random.Random(5)
    for _ in range(3000):
        rules = rng.choice(ALL_RULES)
        hi = rng.choice([3, 12, 40, 90])
        points = [(rng.randint(0, hi), rng.randint(0, hi)) for _ in range(60)]
        if rng.random() < 0.3:  # force ties often
            points = [(p[0], p[0]) for p in points[:6]] + points[6:]
        ref = play_partie(points, rules)
        row = kernel(points, rules)
        assert (
            row[L.PROW_A],
            row[L.PROW_B],
            row[L.PROW_DEALS],
            row[L.PROW_WINNER],
            row[L.PROW_SETTLE],
        ) == (ref.first, ref.second, ref.deals, ref.winner, ref.settlement)


def test_hundred_is_capped():
    row = kernel([(1, 0)] * 60, HUNDRED)
    assert row[L.PROW_DEALS] == KP.HUNDRED_MAX_DEALS == 40
    assert row[L.PROW_SETTLE] == 40 + 0 + 100


def test_simulated_parties_use_alternating_seats_on_keyed_deals():
    """Partie p's deal d is deal p * DEAL_STRIDE + d; A is elder in deals 0, 2, 4 of version 0."""
    a, b = REGISTRY["greedy"], REGISTRY["max"]
    rows = partie_rows(a, b, seed=3, start=10, n=5)
    for i in range(5):
        p = 10 + i
        for v in range(2):
            n = int(rows[i, v, L.PROW_DEALS])
            pts = []
            for d in range(n):
                a_elder = (d + v) % 2 == 0
                pol = policies(a, b) if a_elder else policies(b, a)
                rec = simulate(1, seed=3, policies=pol, start=p * KP.DEAL_STRIDE + d)[0]
                e, y = rec[L.REC_ELDER + L.RF_TOTAL], rec[L.REC_YOUNGER + L.RF_TOTAL]
                pts.append((e, y) if a_elder else (y, e))
            ref = play_partie(pts, RUBICON)
            assert (ref.first, ref.second, ref.settlement) == tuple(
                rows[i, v, [L.PROW_A, L.PROW_B, L.PROW_SETTLE]]
            )


@pytest.mark.parametrize(
    "a, b",
    [
        ("greedy", "max"),
        ("greedy", "greedy"),
        ("heuristic-play", "sink-sets"),
        ("random", "max"),
        ("random", RANDOM_EXCHANGE),
    ],
)
def test_bundle_free_parties_equal_the_general_kernel(a, b):
    """The bundle-free mirrored-parties kernel gives the general kernel's rows (one version
    ending before the other plays one seating per deal), sharing on and off, for every partie
    form; solver plays keep the general kernel."""
    sa, sb = REGISTRY[a], b if isinstance(b, Strategy) else REGISTRY[b]
    assert partie_kernel(sa, sb) is KP.simple_mirrored_parties
    assert partie_kernel(sa, REGISTRY["pimc-play"]) is KP.mirrored_parties
    for rules in [ALL_RULES[-1], ALL_RULES[-2], Rules(lead_points="ten_or_higher")]:
        args = list(mirrored_args(sa, sb, rules))
        for share in sorted({args[2], 0}):
            args[2] = share
            rows = KP.simple_mirrored_parties(4, 7, 300, *args)
            assert np.array_equal(rows, KP.mirrored_parties(4, 7, 300, *args))


@pytest.mark.parametrize("rules", [RUBICON, DOUBLE, HUNDRED, FOUR, BLANK])
def test_simulated_rows_obey_the_rules(rules):
    rows = partie_rows("greedy", "sink-sets", seed=1, start=0, n=400, rules=rules).astype(int)
    base = {"rubicon": 6, "four_deals": 4}.get(rules.game)
    for v in range(2):
        r = rows[:, v]
        a, b, s = r[:, L.PROW_A], r[:, L.PROW_B], r[:, L.PROW_SETTLE]
        if base is not None:
            tied = r[:, L.PROW_DEALS] == base + 2
            assert set(r[:, L.PROW_DEALS]) <= {base, base + 2}
        else:
            assert (np.maximum(a, b) >= 100).all()
            tied = np.zeros(len(r), bool)
        for i in range(len(r)):
            if a[i] == b[i]:
                assert s[i] == 0 and (base is None or tied[i])
            else:
                w, lo = max(a[i], b[i]), min(a[i], b[i])
                assert abs(s[i]) == settle(w, lo, rules.blank_partie_bonus)
                assert np.sign(s[i]) == np.sign(a[i] - b[i])


def test_self_play_parties_mirror_exactly_and_threads_agree():
    rows = partie_rows("greedy", "greedy", seed=2, start=0, n=300)
    assert np.array_equal(rows[:, 0, L.PROW_SETTLE], -rows[:, 1, L.PROW_SETTLE])
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = partie_rows("greedy", "max", seed=2, start=0, n=300)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = partie_rows("greedy", "max", seed=2, start=0, n=300)
    finally:
        numba.set_num_threads(previous)
    assert np.array_equal(one, two)


def test_parties_summary_and_interrupt():
    r = parties("greedy", "random", 600, seed=4, chunk=200)
    s = r.summary
    assert s["parties"] == 1200 and not s["interrupted"]
    assert s["a_win"]["p"] > 0.95 and s["a_settlement"]["ci95"][0] > 0
    assert s["a_win"]["p"] + s["b_win"]["p"] + s["draw"]["p"] == pytest.approx(1.0)
    assert s["rubicon"]["p"] == pytest.approx(s["a_rubicons_b"]["p"] + s["b_rubicons_a"]["p"])
    assert "greedy gains" in s["statement"]

    def stop(k):
        raise KeyboardInterrupt

    r = parties("greedy", "random", 600, chunk=200, progress=stop)
    assert r.interrupted and r.summary["pairs"] == 200


def _point_mass(a, b):
    d = np.zeros((256, 256))
    d[a, b] = 1.0
    return d


def test_partie_tables_on_fixed_deals_equal_the_reference():
    """I always score 25 v 10 as elder and 10 v 20 as younger: the tables give the certain
    outcome of the reference partie from every start."""
    pe, py = _point_mass(25, 10), _point_mass(10, 20)
    for rules in (RUBICON, FOUR, HUNDRED, DOUBLE):
        t = partie_tables(pe, py, rules, grid=256)
        for first_elder in (True, False):
            seq = [(25, 10) if (d % 2 == 0) == first_elder else (10, 20) for d in range(60)]
            ref = play_partie(seq, rules)
            win, draw, value = t.value(0, 0, 0, first_elder)
            assert win == pytest.approx(float(ref.winner == 1), abs=1e-4)
            assert draw == pytest.approx(float(ref.winner == 0), abs=1e-4)
            assert value == pytest.approx(ref.settlement, abs=1e-2)
    # mid-partie: 80 v 95 after 4 deals, I am elder in deal 5 (scoring 25 v 10, then 10 v 20)
    t = partie_tables(pe, py, RUBICON)
    win, _, value = t.after_deal(80, 95, 5, True, np.array([25]), np.array([10]))
    ref = play_partie([(80, 95), (0, 0), (0, 0), (0, 0), (25, 10), (10, 20)], RUBICON)
    assert (ref.first, ref.second, ref.settlement) == (115, 125, -110)  # 125 - 115 + 100
    assert win[0] == pytest.approx(0.0, abs=1e-4)
    assert value[0] == pytest.approx(-110, abs=1e-2)
    assert t.multiplier(1) == 1 and partie_tables(pe, py, FOUR).multiplier(4) == 2


def test_partie_value_maps_deal_outcomes():
    from piquet_sim.piquet.partie import partie_value

    pe, py = _point_mass(25, 10), _point_mass(10, 20)
    t = partie_tables(pe, py, RUBICON)
    # deal 6 of 6 from 95 v 90, me elder: outcome (2, 0) wins 97 v 90 (rubicon: 287);
    # (0, 40) loses 95 v 130, rubiconed (130 + 95 + 100 = 325); (3, 8) ties 98 v 98: two more deals,
    # me younger then elder: 98 + 10 + 25 = 133 v 98 + 20 + 10 = 128, I win 133 - 128 + 100
    mine, theirs = np.array([2, 0, 3]), np.array([0, 40, 8])
    win = partie_value(95, 90, 6, True, mine, theirs, "win", t)
    value = partie_value(95, 90, 6, True, mine, theirs, "settlement", t)
    assert np.allclose(win, [1, 0, 1], atol=1e-4)
    assert np.allclose(value, [287, -325, 105], atol=1e-2)
    with pytest.raises(ValueError, match="deal must be"):
        partie_value(0, 0, 9, True, mine, theirs, "win", t)
    with pytest.raises(ValueError, match="objective"):
        partie_value(0, 0, 1, True, mine, theirs, "ev", t)


def test_partie_tables_agree_with_simulated_parties():
    from piquet_sim.piquet.partie import deal_distributions

    pe, py = deal_distributions("greedy", "max", deals=60_000, seed=11)
    t = partie_tables(pe, py, RUBICON)
    win, _, value = t.value(0, 0, 0, True)
    s = parties("greedy", "max", 6000, seed=12).summary["by_first_elder"]["a_elder_first"]
    assert abs(win - s["a_win"]["p"]) < 0.03
    assert abs(value - s["a_settlement"]["mean"]) < 4 * s["a_settlement"]["se"] + 3


def test_cli_partie_table_and_plot(tmp_path):
    png = tmp_path / "p.png"
    res = CliRunner().invoke(
        cli,
        [
            "partie",
            "greedy",
            "max",
            "--parties",
            "300",
            "--quiet",
            "--blank-partie-bonus",
            "--plot",
            str(png),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "rubicons" in res.output and "blank partie" in res.output
    assert png.stat().st_size > 1000


def test_cli_partie_json():
    res = CliRunner().invoke(
        cli, ["partie", "greedy", "random", "--parties", "300", "--game", "four_deals", "--json"]
    )
    assert res.exit_code == 0, res.output
    s = json.loads(res.output)
    assert s["rules"]["game"] == "four_deals" and s["parties"] == 600
