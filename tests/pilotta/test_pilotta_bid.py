"""The bid advisor (``bid.py``, ``kernels/advise.py``), strategies and mirrored matches."""

from __future__ import annotations

import json

import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.strategy import StrategyError
from piquet_sim.pilotta import bid as B
from piquet_sim.pilotta import match
from piquet_sim.pilotta import strategies as S
from piquet_sim.pilotta.api import make_setup
from piquet_sim.pilotta.cards import parse_cards
from piquet_sim.pilotta.kernels import advise as K
from piquet_sim.pilotta.kernels.auction import apply_call, auction_reset, consistent_call
from piquet_sim.pilotta.layouts import ASTATE_LEN
from piquet_sim.pilotta.policies import AUCTION_THRESHOLD, auction_params, defaults
from piquet_sim.pilotta.reference import auction as RA
from piquet_sim.pilotta.rules import DEFAULT_RULES, Rules
from piquet_sim.pilotta.studies import STUDIES

HAND = parse_cards("JS 9S AS TS KH AD TD 7C")


def test_parse_calls_and_auction():
    assert B.parse_call("pass") == (-1, -1)
    assert B.parse_call("90H") == (1, 1)
    assert B.parse_call("capotC") == (9, 3)
    for bad in ("85H", "90", "capot", "xx"):
        with pytest.raises(InputError):
            B.parse_call(bad)
    calls = B.parse_auction("E:pass S:90H W:100S", dealer=0)
    assert calls == [(1, -1, -1), (2, 1, 1), (3, 2, 0)]
    with pytest.raises(InputError, match="out of turn"):
        B.parse_auction("S:pass", dealer=0)
    with pytest.raises(InputError, match="higher"):
        B.parse_auction("E:100H S:90S", dealer=0)
    with pytest.raises(InputError, match="over"):
        B.parse_auction("E:80H S:pass W:pass N:pass E:pass", dealer=0)


def test_candidates():
    rules = Rules()
    c = B.candidates(B.parse_auction("E:90H", 0), 0, 2, rules)
    assert c[0] == (-1, -1) and c[1] == (2, 0) and len(c) == 1 + 8 * 4
    with pytest.raises(InputError, match="call"):
        B.candidates([], 0, 3, rules)  # E speaks first, not W
    c = B.candidates(B.parse_auction("E:capotS", 0), 0, 2, rules)
    assert c == [(-1, -1)]


def test_consistent_call_matches_reference():
    """The sampler's test against the reference threshold policy, random hands and auctions."""
    rng = np.random.default_rng(3)
    params = defaults("auction", "threshold")
    arr = auction_params("threshold")
    rules = Rules().to_array()
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    seen = {True: 0, False: 0}
    for _ in range(700):
        dealer = int(rng.integers(4))
        a = RA.Auction(dealer)
        auction_reset(ast, dealer)
        for _ in range(int(rng.integers(0, 3))):
            last = a.last_bid()
            lv = -1 if rng.random() < 0.5 else (last[1] if last else -1) + 1
            if lv > 8:
                lv = -1
            s = int(rng.integers(4)) if lv >= 0 else -1
            a.call(lv, s)
            apply_call(ast, lv, s)
        hand = int(sum(1 << int(c) for c in rng.choice(32, 8, replace=False)))
        level = int(rng.integers(-1, 10))
        suit = int(rng.integers(4)) if level >= 0 else -1
        last = a.last_bid()
        if level >= 0 and last is not None and level <= last[1]:
            level, suit = -1, -1
        cap, t = RA.threshold_eval(a, hand, params)
        seat = a.to_speak()
        if level < 0:
            want = (last is not None and last[0] % 2 == seat % 2) or cap <= (
                last[1] if last else -1
            )
        else:
            want = t == suit and cap >= level
        got = consistent_call(AUCTION_THRESHOLD, arr, np.int64(hand), seat, ast, rules, level, suit)
        assert got == want
        seen[want] += 1
    assert min(seen.values()) > 50


def _silent_others(n=300):
    """The others never bid (fixed policy with no bid): a bid always stands."""
    setup = make_setup("fixed", "heuristic", "heuristic", auction_args=(-1, 0))
    cands = np.array([[-1, -1]] + [[lv, s] for lv in range(10) for s in range(4)])
    q = K.Query(np.array([HAND, 2, 1, K.MODE_POLICY]), np.zeros((0, 3), dtype=np.int64), cands)
    known = np.full((n, 4, 4, 2), -1, dtype=np.int64)
    out = K.advise_worlds(np.int64(7), np.int64(n), q, setup, Rules().to_array(), known)
    return out, cands


def test_standing_bid_is_made_exactly_when_the_trump_table_says():
    (per_trump, per_cand, tries, _), cands = _silent_others()
    assert (tries == 1).all()  # no auction so far: every world fits at once
    assert (per_cand[:, 0, K.C_BIDDER] == -1).all()  # the pass throws the cards in
    for i, (lv, s) in enumerate(cands[1:], start=1):
        assert (per_cand[:, i, K.C_BIDDER] == 2).all()
        reach = per_trump[:, s, K.T_REACH]
        want = per_trump[:, s, K.T_CAPOT] == 1 if lv == 9 else reach >= 80 + 10 * lv
        assert (per_cand[:, i, K.C_MADE] == want).all(), (lv, s)
    assert (per_trump[:, :, K.T_CARD] <= 250).all()
    assert ((per_trump[:, :, K.T_CAPOT] == 1) == (per_trump[:, :, K.T_CARD] == 250)).all()


@pytest.mark.slow
def test_dd_oracle_matches_the_solver():
    """The dd advice (record pass, solve_batch, second pass) values each contract exactly:
    the per-trump card points equal ``solve`` on the same world's hands."""
    from piquet_sim.pilotta.solver import solve

    r = B.advise(HAND, 2, auction="E:pass", deals=12, play="dd", prior="random", seed=4)
    setup = make_setup("random", "heuristic", "heuristic")
    cands = np.array(B.candidates([(1, -1, -1)], 0, 2, Rules()), dtype=np.int64)
    q = K.Query(np.array([HAND, 2, 0, K.MODE_RECORD]), np.array([[1, -1, -1]]), cands)
    known = np.full((12, 4, 4, 2), -1, dtype=np.int64)
    hands = K.advise_worlds(np.int64(4), np.int64(12), q, setup, Rules().to_array(), known).hands
    want = [solve(list(map(int, h)), 0, 2).value for h in hands]
    got = np.mean(want)
    assert r["trumps"]["S"]["card_points"]["mean"] == pytest.approx(got)


@pytest.mark.slow
def test_dd_advice_runs():
    r = B.advise(HAND, 2, auction="E:pass", deals=8, play="dd", seed=4)
    assert r["worlds"] == 8 and r["play"] == "dd"
    assert r["trumps"]["S"]["card_points"]["mean"] > 100


def test_advise_is_reproducible_and_coherent():
    r1 = B.advise(HAND, 2, auction="E:pass", deals=300, seed=3)
    r2 = B.advise(HAND, 2, auction="E:pass", deals=300, seed=3)
    assert r1["calls"] == r2["calls"] and r1["trumps"] == r2["trumps"]
    assert r1["dealer"] == "N" and r1["worlds"] == 300
    for d in r1["trumps"].values():
        ps = [d["p_make"][str(lv)]["p"] for lv in B.MAKE_LEVELS]
        assert ps == sorted(ps, reverse=True)
    best = max(r1["calls"], key=lambda c: c["value"]["mean"])
    assert r1["recommendation"]["call"] == best["call"]
    assert r1["recommendation"]["call"].endswith("S")  # four top trumps in spades
    assert r1["recommendation"]["margin"]["mean"] >= 0


def test_bid_cli(run_main):
    hand = "JS 9S AS TS KH AD TD 7C"
    code, out, _ = run_main(
        "pilotta", "bid", hand, "--seat", "S", "--auction", "E:pass", "-n", "200"
    )
    assert code == 0 and "Recommendation" in out and "Perspective" in out
    code, out, _ = run_main("pilotta", "bid", hand, "--seat", "S", "-n", "100", "--json")
    data = json.loads(out)
    assert data["dealer"] == "E" and len(data["calls"]) == 41
    code, out, err = run_main("pilotta", "bid", hand, "--seat", "S", "--auction", "W:90H")
    assert code == 2 and "Traceback" not in out + err and "N's call" in err


@pytest.mark.parametrize("command", ["bid", "batch", "tournament", "game", "strategies", "report"])
def test_help_has_an_example(run_main, command):
    code, out, _ = run_main("pilotta", command, "--help")
    assert code == 0 and "Example:" in out and f"piquet pilotta {command}" in out


def test_match_cli(run_main):
    code, out, _ = run_main("pilotta", "batch", "bold", "cautious", "-n", "500")
    assert code == 0 and "A - B: " in out and "game points per round" in out
    code, out, _ = run_main("pilotta", "game", "bold", "heuristic", "-n", "50", "--json")
    assert code == 0 and json.loads(out)["games"] == 100
    code, _, err = run_main("pilotta", "batch", "bold", "nosuch")
    assert code == 2 and "unknown strategy" in err


def test_strategy_files(tmp_path):
    p = tmp_path / "brave.toml"
    p.write_text(
        'name = "brave"\nplay = "heuristic"\n[auction]\npolicy = "threshold"\n'
        "params = { base = 45 }\n"
    )
    s = S.BOOK.resolve(str(p))
    assert s.params("auction") == {"base": 45}
    for bad in (
        {"name": "x", "play": "dd"},
        {"name": "x", "auction": {"params": {"nope": 1}}},
        {"name": "x", "colour": 1},
    ):
        with pytest.raises(StrategyError):
            S.BOOK.from_dict(bad)
    with pytest.raises(StrategyError):
        S.BOOK.resolve("nosuch")


def test_mirrored_batch_is_antisymmetric_and_zero_against_itself():
    a, b = S.BOOK.resolve("bold"), S.BOOK.resolve("cautious")
    ab = match.batch(a, b, 3000, seed=5)
    ba = match.batch(b, a, 3000, seed=5)
    assert ab["a_minus_b"]["mean"] == pytest.approx(-ba["a_minus_b"]["mean"])
    assert match.batch(a, a, 2000, seed=5)["a_minus_b"]["mean"] == 0
    # separates two bidders: the interval excludes 0
    lo, hi = ab["a_minus_b"]["ci95"]
    assert lo > 0 or hi < 0
    g = match.game(a, a, 300, seed=2)
    assert g["p_a_wins"]["p"] == pytest.approx(0.5) and g["unfinished"] == 0
    assert 5 < g["rounds"]["mean"] < 60


def test_report_writes_html_and_markdown(run_main, tmp_path):
    code, out, err = run_main(
        "pilotta",
        "report",
        "bold",
        "cautious",
        "--out",
        str(tmp_path),
        "-n",
        "400",
        "--games",
        "20",
    )
    assert code == 0, err
    html = (tmp_path / "pilotta_report.html").read_text()
    md = (tmp_path / "pilotta_report.md").read_text()
    assert "data:image/png;base64" in html and "Contracts bid and made" in md
    for png in ("pilotta_contracts.png", "pilotta_points.png", "pilotta_bid.png"):
        assert (tmp_path / png).stat().st_size > 1000


def test_win_table_hand_worked_and_symmetric():
    from piquet_sim.pilotta.kernels.winprob import win_after, win_table

    # each round 10:0 or 0:10, even; target 20: from 10:0 A wins at once or goes to 10:10
    xs, ys = np.array([10, 0]), np.array([0, 10])
    v = win_table(xs, ys, np.array([0.5, 0.5]), 20)
    assert v[0, 0] == pytest.approx(0.5) and v[10, 0] == pytest.approx(0.75)
    assert win_after(v, 20, 10, 20) == 1.0 and win_after(v, 20, 20, 20) == 0.5
    # a thrown-in round (0:0) changes nothing
    v2 = win_table(np.array([10, 0, 0]), np.array([0, 10, 0]), np.array([0.4, 0.4, 0.2]), 20)
    assert v2[10, 0] == pytest.approx(0.75)
    t = B.win_probability_table("threshold", "heuristic")
    assert np.allclose(t + t.T, 1.0)
    assert (np.diff(t, axis=0) >= -1e-12).all()  # more points for A never hurt A


def test_score_ranks_by_p_win(run_main):
    r = B.advise(HAND, 2, auction="E:pass", deals=200, score=(340, 100))
    assert "by_p_win" in r["recommendation"]
    assert all(0 <= c["p_win"]["mean"] <= 1 for c in r["calls"])
    code, _, err = run_main(
        "pilotta", "bid", "JS 9S AS TS KH AD TD 7C", "--seat", "S", "--score", "400:0"
    )
    assert code == 2 and "score" in err


def test_tournament_standings_balance():
    names = ["heuristic", "cautious", "random"]
    r = match.tournament_json(STUDIES.round_robin(names, 800, 3, DEFAULT_RULES))
    assert len(r["pairs"]) == 3
    assert sum(row["mean"] for row in r["table"]) == pytest.approx(0, abs=1e-9)
    assert r["table"][-1]["strategy"] == "random"


def test_montecarlo_bidder_reach_agrees_with_the_advisor_and_bids():
    """The Monte Carlo bidder's mean reach per trump (its own worlds and heuristic rounds)
    agrees with the advisor's per-trump points on uniform worlds within their sampling error;
    it opens a strong hand in its long suit and passes a hand of sevens and eights."""
    from piquet_sim.pilotta.kernels.montecarlo import mc_call, mc_reach

    rules = Rules().to_array()
    reach = np.zeros(4)
    mc_reach(np.int64(HAND), 2, 1, 250, rules, np.int64(5), np.zeros(1, dtype=np.int64), reach)
    r = B.advise(HAND, 2, dealer=1, prior="random", deals=1000, seed=2)
    for t, suit in enumerate("SHDC"):
        want = r["trumps"][suit]["points"]
        tol = 4 * np.hypot(want["se"], 45 / np.sqrt(250))
        assert abs(reach[t] - want["mean"]) < tol, (suit, reach[t], want["mean"])
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    auction_reset(ast, 1)
    params = auction_params("montecarlo")
    state = np.zeros(1, dtype=np.int64)
    assert mc_call(np.int64(HAND), 2, ast, params, rules, np.int64(1), state) == (0, 0)
    weak = parse_cards("7S 8S 7H 8H 7D 8D 7C 8C")
    assert mc_call(np.int64(weak), 2, ast, params, rules, np.int64(1), state) == (-1, -1)
