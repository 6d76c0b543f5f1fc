"""Games to 12 between strategies, P(winning the game) and strategy files: the table kernel's
round against the simulator's, a game's invariants, the hero rotation, a hand-worked
win-probability pool, reproducibility, strategy files and the commands' one-line errors."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.engine.rng import stream_key
from piquet_sim.core.game.strategy import StrategyError
from piquet_sim.pitch.kernels.simulate import simulate_rounds
from piquet_sim.pitch.kernels.table import (
    GAME_ROUNDS,
    GAME_SCORES,
    GAME_WINNER,
    deal_round,
    new_table_work,
    play_games,
    table_round,
)
from piquet_sim.pitch.kernels.winprob import POOL_BIDDER, POOL_LEN, POOL_MADE, win_chances
from piquet_sim.pitch.layouts import RoundRec
from piquet_sim.pitch.match import _seats, game_match
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.rules import Rules
from piquet_sim.pitch.strategies import BOOK, REGISTRY, row

load, resolve = BOOK.load, BOOK.resolve


@pytest.mark.parametrize("players", [3, 4])
def test_table_round_is_the_simulators_round(players):
    """With every player on one strategy and the last seat dealing, the table's round (the
    shared play loop with per-seat rows, its own auction) is the simulator's round
    (``simulate_rounds``), record for record."""
    rules = Rules(players=players).to_array()
    s = REGISTRY["threshold"]
    seats = _seats(s, s, players)
    recs, _ = simulate_rounds(5, 0, 300, rules, make_policy("threshold", "heuristic"), False)
    tw = new_table_work()
    a = tw.rec
    keep = [RoundRec.BIDDER, RoundRec.BID, RoundRec.TRUMP, RoundRec.MADE, RoundRec.STOLE]
    sl = slice(RoundRec.TAKER, RoundRec.SCORE + 6)
    for i, b in enumerate(recs):
        key = np.uint64(stream_key(np.int64(5), np.int64(i)))
        deal_round(key, rules, np.int64(players - 1), tw)
        table_round(key, rules, seats, tw)
        assert np.array_equal(a[keep], b[keep]), i
        assert np.array_equal(a[sl], b[sl]), i


def test_games_end_with_a_made_bid_at_target_and_rotate_the_hero():
    players = 4
    rules = Rules(players=players)
    seats = _seats(REGISTRY["cautious"], REGISTRY["threshold"], players)
    out = play_games(np.int64(3), np.int64(0), np.int64(400), rules.to_array(), seats)
    assert (out[:, GAME_WINNER] >= 0).all()
    winners = out[:, GAME_WINNER]
    final = out[np.arange(len(out)), GAME_SCORES + winners]
    assert (final >= 12).all()
    assert (out[:, GAME_ROUNDS] >= 4).all()  # +6 at most per made bid: two rounds at least
    # split into two calls, and on one thread: the same games
    prev = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = play_games(np.int64(3), np.int64(0), np.int64(150), rules.to_array(), seats)
        b = play_games(np.int64(3), np.int64(150), np.int64(250), rules.to_array(), seats)
    finally:
        numba.set_num_threads(prev)
    assert np.array_equal(np.concatenate([a, b]), out)


def test_symmetric_strategies_win_their_fair_share():
    m = game_match(REGISTRY["threshold"], REGISTRY["threshold"], 3, 3000, 2)
    r = m.results[0]
    assert r.p_win.ci95[0] - 0.01 <= 1 / 3 <= r.p_win.ci95[1] + 0.01
    assert r.unfinished == 0 and r.rounds_per_game.mean > 4


def test_win_chances_hand_worked_pool():
    """One round in the pool: the first seat bids 3 and makes it, the others score nothing.
    From 0:0:0 with the last player dealing, players take turns at +3; player 0 goes first
    and reaches 12 on his fourth turn: he always wins. From 9:0:0 with player 0 dealing,
    player 1 bids first, then 2, then 0 reaches 12 at once."""
    pool = np.zeros((1, POOL_LEN), dtype=np.int64)
    pool[0, 0] = 3
    pool[0, POOL_BIDDER] = 0
    pool[0, POOL_MADE] = 1
    starts = np.array([[0, 0, 0], [9, 0, 0], [0, 9, 0]], dtype=np.int64)
    p0 = win_chances(pool, starts, np.int64(2), np.int64(0), np.int64(12), np.int64(50), 1)
    assert list(p0) == [1.0, 1.0, 0.0]
    p0 = win_chances(pool, starts, np.int64(0), np.int64(0), np.int64(12), np.int64(50), 1)
    assert list(p0) == [0.0, 1.0, 0.0]  # from 0:0:0 player 1 starts and wins; from 9 he wins


def test_strategy_files(tmp_path):
    t = tmp_path / "brave.toml"
    t.write_text(
        'name = "brave"\nplay = "heuristic"\n[bid]\npolicy = "threshold"\n'
        "params = { margin = -0.5 }\n"
    )
    s = load(t)
    assert s.name == "brave" and s.params("bid") == {"margin": -0.5}
    ids, params = row(s)
    assert ids[0] == 2 and params[0] == -0.5
    j = tmp_path / "p.json"
    j.write_text(json.dumps({"bid": {"policy": "parametric", "params": {"high": 2}}}))
    p = resolve(str(j))
    assert p.name == "p" and row(p)[1][:7].tolist() == [2, 1, 1, 1, 1, 1, 0]
    for bad, msg in (
        ({"bid": {"policy": "nope"}}, "unknown bid policy"),
        ({"bid": {"policy": "threshold", "params": {"x": 1}}}, "no parameter"),
        ({"play": "pimc"}, "cannot play simulated rounds"),
        ({"colour": 1}, "unknown key 'colour'"),
        ({"bid": {"policy": "threshold", "params": {"margin": "x"}}}, "must be a number"),
        ({"bid": {"policy": "montecarlo", "params": {"worlds": 0}}}, "worlds must be 1 to"),
    ):
        f = tmp_path / "bad.json"
        f.write_text(json.dumps(bad))
        with pytest.raises(StrategyError, match=msg):
            load(f)
    with pytest.raises(StrategyError, match="no such file"):
        resolve("missing.toml")
    with pytest.raises(InputError, match="only in the bid advisor"):
        make_policy("threshold", "pimc")


def test_commands_help_and_errors(run_main, tmp_path):
    for cmd in ("game", "tournament", "strategies", "report"):
        code, out, _ = run_main("pitch", cmd, "--help")
        assert code == 0 and "Example" in out
    code, out, _ = run_main("pitch", "strategies")
    assert code == 0 and "cautious" in out
    for args, msg in (
        (("pitch", "game", "threshold", "nosuch"), "unknown strategy"),
        (("pitch", "tournament", "threshold"), "at least two"),
        (("pitch", "bid", "AS JS 6S 2S KH TD", "--seat", "0", "--rank", "win"), "needs --score"),
        (("pitch", "bid", "AS JS 6S 2S KH TD", "--seat", "0", "--score", "1:2"), "4 scores"),
        (("pitch", "bid", "AS JS 6S 2S KH TD", "--seat", "0", "--pimc-worlds", "3"), "pimc"),
        (("pitch", "batch", "--play", "pimc"), "pimc"),
    ):
        code, out, err = run_main(*args)
        assert code == 2 and msg in err and "Traceback" not in err, (args, err)
        assert len(err.strip().splitlines()) == 1
    code, out, _ = run_main("pitch", "game", "threshold", "cautious", "-n", "40", "--json")
    assert code == 0 and len(json.loads(out)["results"]) == 2


def test_tournament_writes_its_table_and_heatmap(run_main, tmp_path):
    table, plot = tmp_path / "t.csv", tmp_path / "t.png"
    args = ("pitch", "tournament", "threshold", "bold", "threshold:margin=0.5", "-n", "30")
    code, out, err = run_main(
        *args, "--seed", "3", "--json", "--out", str(table), "--plot", str(plot)
    )
    assert code == 0, err
    data = json.loads(out)
    import pandas as pd

    frame = pd.read_csv(table)
    assert len(frame) == 6 == len(data["results"])
    assert frame["p_win"].tolist() == [r["p_win"]["mean"] for r in data["results"]]
    assert set(frame["hero"]) == {"threshold", "bold", "threshold:margin=0.5"}
    assert plot.stat().st_size > 1000
    code, _, err = run_main(*args, "--plot", str(tmp_path / "no" / "t.png"))
    assert code == 2 and "does not exist" in err and len(err.strip().splitlines()) == 1
