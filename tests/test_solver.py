"""The double-dummy solver against the brute-force reference (docs/rules/piquet.md "Play" and
"Pique").

* 2,400 random endgames of 1-7 tricks (both lead rules, tricks so far and pique points varied)
  whose reference values are committed in ``tests/data/solver_endgames.json``; a random sample
  is recomputed live by the reference, so the file cannot drift from it;
* full 12-trick deals: the pruned solver against the solver with every pruning switched off;
* the three classic traps (window shift, narrowed table window, led card still out).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from piquet_sim.piquet.kernels import solver as K
from piquet_sim.piquet.kernels.deal import deal_hands
from piquet_sim.piquet.kernels.solver_tt import (
    KEYTAB,
    REPTAB,
    build_tables,
    make_tt,
    position_key,
    tt_probe,
    tt_store,
)
from piquet_sim.piquet.kernels.tricks import pique_start
from piquet_sim.piquet.reference import play as R
from piquet_sim.piquet.rules import Rules

DATA = Path(__file__).parent / "data" / "solver_endgames.json"
ENDGAMES = json.loads(DATA.read_text())["endgames"]
UNPRUNED = K.F_TT  # full-window minimax over every card, memoised: nothing pruned or merged


RULES = {0: Rules().to_array(), 1: Rules(lead_points="ten_or_higher").to_array()}


def _workspaces(bits: int) -> dict:
    """One solver workspace per lead rule (``ten`` 0/1): the rules travel in the workspace."""
    return {t: K.make_workspace(RULES[t], bits) for t in (0, 1)}


@pytest.fixture(scope="module")
def ws():
    return _workspaces(18)


def _pos(e, y, leader, et, ps):
    return (np.int64(e), np.int64(y), np.int64(leader), np.int64(et), np.int64(ps))


def _state(d: dict) -> R.State:
    return R.State(
        d["elder"],
        d["younger"],
        d["leader"],
        d["e_tricks"],
        d["y_tricks"],
        d["e_pts"],
        d["y_pts"],
        d["pique_open"],
    )


def _solve(d: dict, ws: dict, flags=K.F_ALL) -> tuple[int, list[tuple[int, int]]]:
    line = np.full(24, -1, dtype=np.int32)
    w = ws[d["ten"]]
    w.flags[0] = flags
    start = (np.int64(d["e_pts"]), np.int64(d["y_pts"]), np.int64(d["pique_open"]))
    try:
        v = K.solve_line(
            np.int64(d["elder"]),
            np.int64(d["younger"]),
            d["leader"],
            d["e_tricks"],
            start,
            w,
            line,
        )
    finally:
        w.flags[0] = K.F_ALL
    n = bin(d["elder"]).count("1")
    return int(v), [(int(line[2 * i]), int(line[2 * i + 1])) for i in range(n)]


def test_endgame_file_covers_the_cases():
    assert len(ENDGAMES) >= 2000
    sizes = {bin(d["elder"]).count("1") for d in ENDGAMES}
    assert sizes == set(range(1, 8))
    assert {d["ten"] for d in ENDGAMES} == {0, 1}
    assert {d["leader"] for d in ENDGAMES} == {0, 1}
    assert len({d["e_tricks"] for d in ENDGAMES}) >= 8
    # pique is at stake in many of them, and decides some values
    assert sum(abs(d["value"]) >= 25 for d in ENDGAMES) > 50


def test_endgames_match_reference_values(ws):
    bad = [(d, v) for d in ENDGAMES if (v := _solve(d, ws)[0]) != d["value"]]
    assert not bad, f"{len(bad)} mismatches, first {bad[0]}"


def test_endgames_match_with_cold_table():
    ws = _workspaces(12)  # tiny table: constant replacement
    for d in ENDGAMES[:600]:
        K.reset_tt(ws[d["ten"]].tt)
        assert _solve(d, ws)[0] == d["value"], d


@pytest.mark.parametrize(
    "flags",
    [K.F_ALL & ~K.F_EQUIV, K.F_ALL & ~K.F_BOUNDS, K.F_ALL & ~K.F_ORDER, K.F_ALPHABETA, UNPRUNED],
)
def test_endgames_each_technique_off(flags):
    ws = _workspaces(16)
    for d in ENDGAMES[::6]:
        assert _solve(d, ws, flags)[0] == d["value"], (flags, d)


def test_mtdf_reaches_the_value_from_any_guess():
    """Each pass of mtdf proves one value or moves a bound: from guesses below, at and above
    the value (cold table, so the passes search rather than read one stored answer)."""
    ws = _workspaces(10)
    for d in ENDGAMES[::8]:
        w = ws[d["ten"]]
        n = bin(d["elder"]).count("1")
        ps = pique_start(d["e_pts"], d["y_pts"], d["pique_open"], n)
        pos = _pos(d["elder"], d["younger"], d["leader"], d["e_tricks"], ps)
        for off in (-45, -11, -2, -1, 0, 1, 2, 13, 45):
            K.reset_tt(w.tt)
            got = K.mtdf(pos, np.int64(-1), np.int64(n), np.int64(d["value"] + off), w)
            assert got == d["value"], (off, d)


def test_reference_values_recomputed_live():
    """The committed values are the reference's (a random sample, all sizes)."""
    rng = random.Random(7)
    sample = rng.sample([d for d in ENDGAMES if bin(d["elder"]).count("1") <= 6], 300)
    for d in sample:
        R.clear_cache()
        assert R.minimax(_state(d), bool(d["ten"])) == d["value"], d
    R.clear_cache()


def test_principal_variation_is_optimal_and_scores_the_value(ws):
    rng = random.Random(11)
    sample = rng.sample([d for d in ENDGAMES if bin(d["elder"]).count("1") <= 5], 150)
    for d in sample:
        v, line = _solve(d, ws)
        st = _state(d)
        assert R.replay(st, line, bool(d["ten"])).net() == v, d
        assert R.optimal_line_ok(st, line, bool(d["ten"])), d
    R.clear_cache()


def _random_deals(seed: int, count: int):
    pack = np.zeros(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    return [deal_hands(seed, i, pack, state) for i in range(count)]


@pytest.mark.parametrize("ten", [0, 1])
def test_full_deals_against_unpruned_solver(ten):
    pruned = K.make_workspace(RULES[ten], 18)
    plain = K.make_workspace(RULES[ten], 20, flags=UNPRUNED)
    rng = random.Random(ten)
    for i, (e, y) in enumerate(_random_deals(99 + ten, 14)):
        # points before play: elder within pique reach in some deals, none in others
        e_pts, y_pts = [(0, 0), (20, 0), (24, 0), (0, 22), (5, 7)][i % 5]
        ps = pique_start(e_pts, y_pts, 1, 12)
        K.reset_tt(plain.tt)
        want = K.solve_position(_pos(e, y, 0, 0, ps), plain)
        got = K.solve_position(_pos(e, y, 0, 0, ps), pruned)
        assert got == want, (i, e, y, e_pts, y_pts)
        # a null-window probe on each side of the value agrees too
        t = want + rng.choice([-2, 0, 1, 3])
        probe = K.search(_pos(e, y, 0, 0, ps), -1, 12, t - 1, t, pruned)
        assert (probe >= t) == (want >= t)


def test_full_deal_line_replays_to_value(ws):
    for ten in (0, 1):
        for e, y in _random_deals(5, 3):
            d = dict(
                elder=int(e),
                younger=int(y),
                leader=0,
                e_tricks=0,
                y_tricks=0,
                e_pts=0,
                y_pts=0,
                pique_open=True,
                ten=ten,
            )
            v, line = _solve(d, ws)
            assert R.replay(_state(d), line, bool(ten)).net() == v
            played = [c for pair in line for c in pair]
            assert sorted(played) == sorted(R.cards_of(int(e)) + R.cards_of(int(y)))


# --- the traps -------------------------------------------------------------------------------


def test_trap_child_window_is_shifted_by_trick_points(ws):
    """Null-window probes at every target near the value must agree with the value: a child
    searched with the parent's window instead of (window - trick points) gets them wrong."""
    for d in ENDGAMES[:300]:
        n = bin(d["elder"]).count("1")
        ps = pique_start(d["e_pts"], d["y_pts"], int(d["pique_open"]), n)
        for t in range(d["value"] - 3, d["value"] + 4):
            w = ws[d["ten"]]
            K.reset_tt(w.tt)
            pos = _pos(d["elder"], d["younger"], d["leader"], d["e_tricks"], ps)
            v = K.search(pos, -1, n, t - 1, t, w)
            assert (v >= t) == (d["value"] >= t), (d, t, v)
            if v < t:
                assert v >= d["value"]  # fail-soft: an upper bound
            else:
                assert v <= d["value"]  # a lower bound


def test_trap_bounds_from_table_narrow_the_window(ws):
    """Probes with shifting windows on a warm table, then exact solves: an entry stored with a
    flag taken against the original (wider) window would turn a bound into a false value."""
    rng = random.Random(3)
    for w in ws.values():
        K.reset_tt(w.tt)
    for d in ENDGAMES[300:900]:
        n = bin(d["elder"]).count("1")
        ps = pique_start(d["e_pts"], d["y_pts"], int(d["pique_open"]), n)
        pos = _pos(d["elder"], d["younger"], d["leader"], d["e_tricks"], ps)
        w = ws[d["ten"]]
        for _ in range(3):
            a = d["value"] + rng.randint(-6, 6)
            b = a + rng.randint(1, 4)
            v = K.search(pos, -1, n, a, b, w)
            if a < v < b:
                assert v == d["value"]
        assert K.search(pos, -1, n, -K.INF, K.INF, w) == d["value"], d


def test_trap_led_card_still_counts_as_out():
    """Younger holds the nine and jack of spades, elder leads the ten: the nine loses, the
    jack wins, so they must not be merged as equivalent."""
    ten, nine, jack = 3, 2, 4
    o_with_lead = (1 << ten) | (1 << nine) | (1 << jack)
    h = (1 << nine) | (1 << jack)
    for rule in (0, 1):
        assert REPTAB[rule, o_with_lead * 256 + h] == h
    assert REPTAB[0, h * 256 + h] == 1 << jack  # without the ten they would merge
    assert REPTAB[1, h * 256 + h] == h  # (not under ten_or_higher: nine and jack score apart)
    # and the reply generator tries both (it keeps the led ten among the cards out)
    gws = K.make_workspace(RULES[0], 4)
    k = K._gen_replies(h | (1 << 8), o_with_lead | (1 << 8) | (1 << 9), ten, 0, K.F_ALL, gws, 3, 1)
    assert sorted(gws.moves[3, :k]) == [nine, jack]
    # and in play: E leads TS; Y (9S JS) must win with the jack to take the last tricks
    E = (1 << ten) | (1 << 8)  # TS 7H
    Y = (1 << nine) | (1 << jack)  # 9S JS
    d = dict(
        elder=E,
        younger=Y,
        leader=0,
        e_tricks=5,
        y_tricks=5,
        e_pts=0,
        y_pts=0,
        pique_open=True,
        ten=0,
    )
    ws = _workspaces(10)
    want = R.minimax(_state(d), False)
    assert _solve(d, ws)[0] == want
    replies = [R.trick_value(_state(d), ten, r, False) for r in R.legal(Y, ten)]
    lead_ten = min(net + R.minimax(st, False) for net, st in replies)
    assert K.lead_value(_pos(E, Y, 0, 5, 0), ten, ws[0]) == lead_ten


def test_ten_and_nine_are_not_equivalent_under_ten_or_higher():
    nine, ten = 2, 3
    h = (1 << nine) | (1 << ten)
    assert REPTAB[0, h * 256 + h] == 1 << ten
    assert REPTAB[1, h * 256 + h] == h


def test_tables_match_rebuild_and_keys_are_order_only():
    keytab, reptab, qttab, low8, pop8 = build_tables()
    assert (keytab == KEYTAB).all() and (reptab == REPTAB).all()
    # sure tricks (low nibble) and how many of those winners are ten or higher (high nibble)
    ace, king, queen, ten, nine, eight, seven = 7, 6, 5, 3, 2, 1, 0
    assert qttab[(1 << ace | 1 << king) * 256 + (1 << queen | 1 << seven)] == 0x22
    assert qttab[(1 << nine | 1 << eight) * 256] == 0x02  # opponent void: both, no scorer
    assert qttab[(1 << ace | 1 << nine) * 256 + (1 << king)] == 0x12  # AK: then the nine
    assert qttab[(1 << ace | 1 << nine | 1 << eight) * 256 + (1 << king | 1 << ten)] == 0x11
    # elder AS vs younger KS is the same position as elder 8S vs younger 7S under "every"
    a = position_key(1 << 7, 1 << 6, 0, 3, 0, 0, KEYTAB)
    b = position_key(1 << 1, 1 << 0, 0, 3, 0, 0, KEYTAB)
    assert a == b
    # ... but not under ten_or_higher (the ace scores a lead, the eight does not)
    assert position_key(1 << 7, 1 << 6, 0, 3, 0, 1, KEYTAB) != position_key(
        1 << 1, 1 << 0, 0, 3, 0, 1, KEYTAB
    )


def test_positions_sharing_a_key_share_a_value():
    rng = random.Random(5)
    seen: dict[int, int] = {}
    hits = 0
    for _ in range(3000):
        n = rng.randint(1, 3)
        cards = rng.sample(range(32), 2 * n)
        e = sum(1 << c for c in cards[:n])
        y = sum(1 << c for c in cards[n:])
        ten = rng.randint(0, 1)
        key = int(position_key(e, y, 0, 12 - n, 0, ten, KEYTAB))
        v = R.minimax(R.State(e, y, 0, 12 - n, 0), bool(ten))
        if key in seen:
            hits += 1
            assert seen[key] == v
        seen[key] = v
    R.clear_cache()
    assert hits > 100


def test_table_replacement_prefers_the_current_generation():
    """One bucket (a two-entry table): within a generation slot 0 keeps the deeper search;
    an entry of an older generation is overwritten first."""
    tt = make_tt(1)
    tt_store(tt, 11, 2, 2, -1, 10, 0)
    tt_store(tt, 12, 3, 3, -1, 3, 0)  # shallower: slot 1
    assert tt_probe(tt, 11) >= 0 and tt_probe(tt, 12) >= 0
    tt_store(tt, 13, 4, 4, -1, 3, 1)  # new generation: the deep old entry goes
    assert tt_probe(tt, 11) < 0 and tt_probe(tt, 12) >= 0 and tt_probe(tt, 13) >= 0
    tt_store(tt, 14, 5, 5, -1, 2, 1)  # same generation, shallower than slot 0: slot 1
    assert tt_probe(tt, 12) < 0 and tt_probe(tt, 13) >= 0 and tt_probe(tt, 14) >= 0
