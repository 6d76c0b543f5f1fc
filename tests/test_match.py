"""Mirrored-deal matches: seat swap on the same deal and stream, paired statistics, counts,
reproducibility across threads and chunks, interrupts, tournaments, and the CLI commands."""

from __future__ import annotations

import json

import numba
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from piquet_sim.cli import cli
from piquet_sim.core.game.strategy import Strategy
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels import match as KM
from piquet_sim.piquet.kernels.play import new_scratch
from piquet_sim.piquet.kernels.solver import make_workspace
from piquet_sim.piquet.match import (
    MatchCounts,
    head_to_head,
    match_kernel,
    mirrored_chunk,
    summarize,
    tournament_tables,
)
from piquet_sim.piquet.rules import DEFAULT_RULES, Rules
from piquet_sim.piquet.simulation import simulate
from piquet_sim.piquet.strategies import REGISTRY, mirrored_args, policies
from piquet_sim.piquet.studies import STUDIES

G, SINK, RAND, MAX = (REGISTRY[n] for n in ("greedy", "sink-sets", "random", "max"))


def test_each_deal_is_played_both_ways_on_the_same_deal():
    """Column 0 is the deal with A elder, column 1 with B elder: the plain simulator's records."""
    nets, _ = mirrored_chunk(RAND, MAX, seed=4, start=100, n=300)
    ab = simulate(300, seed=4, policies=policies(RAND, MAX), start=100)
    ba = simulate(300, seed=4, policies=policies(MAX, RAND), start=100)
    assert np.array_equal(nets[:, 0], ab[:, L.REC_NET])
    assert np.array_equal(nets[:, 1], ba[:, L.REC_NET])


def test_counts_match_the_records():
    n = 2000
    _, counts = mirrored_chunk(G, SINK, seed=9, start=0, n=n)
    ab = simulate(n, seed=9, policies=policies(G, SINK)).astype(np.int64)
    ba = simulate(n, seed=9, policies=policies(SINK, G)).astype(np.int64)
    c = MatchCounts(counts)
    d = ab[:, L.REC_NET] - ba[:, L.REC_NET]
    assert c.pairs == n
    assert counts[L.MATCH_SUM_D] == d.sum() and counts[L.MATCH_SUM_D2] == (d * d).sum()
    assert counts[L.MATCH_SUM_AE] == ab[:, L.REC_NET].sum()
    assert counts[L.MATCH_SUM_AY] == -ba[:, L.REC_NET].sum()
    # A as younger is the younger block of the B-elder records
    yb = L.REC_YOUNGER
    assert c.block(KM.SIDE_A, KM.SEAT_YOUNGER, L.MB_PIQUE) == (ba[:, yb + L.RF_PIQUE] > 0).sum()
    assert c.block(KM.SIDE_A, KM.SEAT_YOUNGER, L.MB_REPIQUE) == (ba[:, yb + L.RF_REPIQUE] > 0).sum()
    assert c.block(KM.SIDE_B, KM.SEAT_ELDER, L.MB_CAPOT) == (ba[:, L.RF_CARDS] == 40).sum()
    assert c.block(KM.SIDE_A, KM.SEAT_ELDER, L.MB_WIN) == (ab[:, L.REC_NET] > 0).sum()
    assert c.block(KM.SIDE_B, KM.SEAT_YOUNGER, L.MB_WIN) == (ab[:, L.REC_NET] < 0).sum()
    assert c.block(KM.SIDE_A, KM.SEAT_ELDER, L.MB_POINTS) == ab[:, L.RF_TOTAL].sum()
    cb = (ab[:, L.RF_CARTE_BLANCHE] > 0).sum()  # elder's dealt hand is the same in both plays
    assert c.block(KM.SIDE_A, KM.SEAT_ELDER, L.MB_CARTE_BLANCHE) == cb
    assert c.block(KM.SIDE_B, KM.SEAT_ELDER, L.MB_CARTE_BLANCHE) == cb


FEATURES = [
    L.RF_DEALT_POINT_LEN,
    L.RF_DEALT_SEQ_LEN,
    L.RF_DEALT_SET,
    L.RF_FINAL_POINT_LEN,
    L.RF_FINAL_SEQ_LEN,
    L.RF_FINAL_SET,
]
KEEP = [f for f in range(L.REC_LEN) if f % L.RF_BLOCK not in FEATURES or f >= 2 * L.RF_BLOCK]


def _pair_records(a, b, n, seed, share, need_ab=True, need_ba=True, rules=DEFAULT_RULES):
    stages_ab, stages_ba, _, env, _, _ = mirrored_args(a, b, rules)
    ws = make_workspace(rules.to_array(), 1)
    sc, sc2 = new_scratch(), new_scratch()
    out = np.zeros((n, 2, L.REC_LEN), dtype=np.int32)
    for i in range(n):
        KM.play_pair(seed, i, stages_ab, stages_ba, share, (need_ab, need_ba), ws, sc, sc2)
        out[i, 0], out[i, 1] = sc.rec, sc2.rec
    return out


# slow: it calls the pair kernel on its own, a compilation of a minute used by no command (the
# bundle-free test below checks the mirrored kernels built on it against the general one)
@pytest.mark.slow
@pytest.mark.parametrize(
    "a, b, level",
    [
        ("greedy", "greedy", 3),
        ("greedy", "sink-sets", 1),
        ("greedy", "greedy-random-play", 2),
        ("greedy", "younger-sinks-sets", 1),
        ("random", "max", 0),
        ("random", "random", 3),
        ("max", "random", 0),
    ],
)
def test_shared_pair_gives_the_simulator_records(a, b, level):
    """play_pair shares the deal, exchanges and declarations between the seatings; every record
    field (hand features aside) equals the plain simulator's, at every sharing level, and the
    same with sharing off or with one seating only."""
    sa, sb = REGISTRY[a], REGISTRY[b]
    assert mirrored_args(sa, sb, DEFAULT_RULES)[2] == level
    n = 400
    ab = simulate(n, seed=8, policies=policies(sa, sb))
    ba = simulate(n, seed=8, policies=policies(sb, sa))
    for share in sorted({level, 0}):
        got = _pair_records(sa, sb, n, 8, share)
        assert np.array_equal(got[:, 0, KEEP], ab[:, KEEP])
        assert np.array_equal(got[:, 1, KEEP], ba[:, KEEP])
    only_ba = _pair_records(sa, sb, n, 8, level, need_ab=False)
    assert np.array_equal(only_ba[:, 1, KEEP], ba[:, KEEP])
    only_ab = _pair_records(sa, sb, n, 8, level, need_ba=False)
    assert np.array_equal(only_ab[:, 0, KEEP], ab[:, KEEP])


def test_shared_pair_under_other_rules():
    rules = Rules(lead_points="ten_or_higher", younger_must_exchange=False, carte_rouge=True)
    sa, sb = REGISTRY["random"], REGISTRY["sink-point"]
    got = _pair_records(sa, sb, 300, 5, 0, rules=rules)
    ab = simulate(300, seed=5, policies=policies(sa, sb), rules=rules)
    assert np.array_equal(got[:, 0, KEEP], ab[:, KEEP])


#: random exchanges shared with "random" (its exchanges draw from the stream, so a seating that
#: resumed the stream at the wrong place would differ)
RANDOM_EXCHANGE = Strategy.of("random-exchange", exchange="random", declare="all", play="heuristic")
#: strategy pairs of the bundle-free kernels: every sharing level, heuristic seats, sinks by seat
FAST_PAIRS = [
    ("greedy", "greedy", 3),
    ("greedy", "max", 0),
    ("greedy", "greedy-random-play", 2),
    ("greedy", "younger-sinks-sets", 1),
    ("heuristic-play", "random", 0),
    ("sink-point", "heuristic-play", 1),
    ("random", RANDOM_EXCHANGE, 2),
]
FAST_RULES = [
    DEFAULT_RULES,
    Rules(lead_points="ten_or_higher", younger_must_exchange=False, carte_rouge=True),
]


@pytest.mark.parametrize("a, b, level", FAST_PAIRS)
def test_bundle_free_pairs_equal_the_general_kernel(a, b, level):
    """The bundle-free mirrored kernel gives the general kernel's nets and counts, at the pair's
    sharing level and with sharing off, under two rule sets; solver plays keep the general one."""
    sa, sb = REGISTRY[a], b if isinstance(b, Strategy) else REGISTRY[b]
    assert match_kernel(sa, sb) is KM.simple_mirrored_deals
    for rules in FAST_RULES:
        args = list(mirrored_args(sa, sb, rules))
        assert args[2] == level
        for share in sorted({level, 0}):
            args[2] = share
            nets, counts = KM.simple_mirrored_deals(5, 40, 3000, *args)
            want_nets, want_counts = KM.mirrored_deals(5, 40, 3000, *args)
            assert np.array_equal(nets, want_nets) and np.array_equal(counts, want_counts)
            assert np.abs(nets).sum() > 0


def test_solver_plays_keep_the_general_kernel():
    dd = REGISTRY["dd-play"]
    assert match_kernel(G, dd) is KM.mirrored_deals
    assert match_kernel(dd, G) is KM.mirrored_deals
    args = mirrored_args(G, dd, DEFAULT_RULES)
    with pytest.raises(ValueError, match="not greedy, random or heuristic"):
        KM.simple_mirrored_deals(1, 0, 10, *args)


def test_self_match_is_exactly_even():
    r = head_to_head("greedy", "greedy", 2000).to_dict()
    assert r["net_per_deal"]["mean"] == 0
    assert not r["significant"]
    assert "identically" in r["statement"]


def test_same_result_on_one_and_two_threads():
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = mirrored_chunk(G, RAND, seed=2, start=0, n=3000)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = mirrored_chunk(G, RAND, seed=2, start=0, n=3000)
    finally:
        numba.set_num_threads(previous)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])


def test_chunks_merge_exactly_and_csv_rows_cover_every_deal():
    seen = []
    whole = head_to_head(G, SINK, 5000, seed=6)
    parts = head_to_head(G, SINK, 5000, seed=6, chunk=1500, on_chunk=lambda s, n: seen.append(s))
    assert whole.to_dict() == parts.to_dict()
    assert seen == [0, 1500, 3000, 4500]


def test_interrupt_between_chunks_returns_partial_results():
    calls = []

    def progress(k):
        calls.append(k)
        if len(calls) == 2:
            raise KeyboardInterrupt

    r = head_to_head(G, RAND, 10_000, chunk=1000, progress=progress)
    assert r.partial and r.to_dict()["interrupted"] and r.to_dict()["partial"]
    assert r.played == r.to_dict()["pairs"] == 2000


def test_paired_statistics_and_statement():
    r = head_to_head(G, RAND, 3000, seed=1)
    s = r.to_dict()
    net = s["net_per_deal"]
    assert net["mean"] > 20 and net["ci95"][0] > 0 and s["significant"]
    assert s["p_value"] < 1e-6
    assert s["statement"].startswith("greedy beats random by")
    # the per-seat means average to the per-deal mean
    e, y = s["seats"]["elder"]["a_net"]["mean"], s["seats"]["younger"]["a_net"]["mean"]
    assert (e + y) / 2 == pytest.approx(net["mean"])
    # only elder can pique under the default lead rule
    assert s["seats"]["younger"]["a"]["pique"]["count"] == 0
    assert s["seats"]["younger"]["b"]["pique"]["count"] == 0


def test_statement_cannot_be_told_apart():
    counts = MatchCounts()
    counts.counts[L.MATCH_PAIRS] = 100
    counts.counts[L.MATCH_SUM_D] = 10
    counts.counts[L.MATCH_SUM_D2] = 100 * 400
    s = summarize(counts, "a", "b")
    assert not s["significant"]
    assert "cannot be told apart" in s["statement"]


def test_tournament_table_margins_and_exports(tmp_path):
    t = tournament_tables(
        STUDIES.round_robin(["greedy", "sink-sets", "random"], 1500, 2, DEFAULT_RULES)
    )
    assert len(t.matches) == 3
    assert np.allclose(t.margins, -t.margins.T)
    assert t.standings.iloc[0]["strategy"] == "greedy"
    assert t.standings.iloc[-1]["strategy"] == "random"
    row = t.matches.set_index(["a", "b"]).loc[("greedy", "random")]
    assert row["ci_low"] < row["net_per_deal"] < row["ci_high"]


def test_cli_batch_json_and_csv(tmp_path):
    csv = tmp_path / "pairs.csv"
    res = CliRunner().invoke(
        cli, ["batch", "greedy", "random", "--deals", "2000", "--json", "--out", str(csv)]
    )
    assert res.exit_code == 0, res.output
    s = json.loads(res.output)
    assert s["pairs"] == 2000 and s["significant"]
    frame = pd.read_csv(csv)
    assert len(frame) == 2000 and frame["deal"].tolist() == list(range(2000))
    assert frame["a_net_mean"].mean() == pytest.approx(s["net_per_deal"]["mean"])


def test_cli_tournament_plot_and_table(tmp_path):
    png, out = tmp_path / "m.png", tmp_path / "m.csv"
    res = CliRunner().invoke(
        cli,
        [
            "tournament",
            "greedy",
            "max",
            "random",
            "--deals",
            "1000",
            "--plot",
            str(png),
            "--out",
            str(out),
            "--quiet",
        ],
    )
    assert res.exit_code == 0, res.output
    assert png.stat().st_size > 1000 and len(pd.read_csv(out)) == 3
    assert "Standings" in res.output


def test_cli_strategy_errors_are_usage_errors(tmp_path):
    from piquet_sim.cli import main

    for argv in (
        ["batch", "greedy", "nope"],
        ["tournament", "greedy"],
        ["tournament", "greedy", "greedy"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2


def test_every_strategy_command_has_an_example():
    for name in ("strategies", "batch", "tournament", "partie"):
        res = CliRunner().invoke(cli, [name, "--help"])
        assert res.exit_code == 0
        assert "Example" in res.output and f"piquet {name}" in res.output


def test_cli_strategies_lists_the_registry():
    res = CliRunner().invoke(cli, ["strategies", "--json"])
    assert res.exit_code == 0
    assert set(json.loads(res.output)) == set(REGISTRY)
