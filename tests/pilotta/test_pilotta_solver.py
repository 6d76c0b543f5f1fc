"""The double-dummy solver against a brute-force reference and against itself unpruned.

* endgames of 1-4 tricks reached by random legal play (some in the middle of a trick), with the
  contracting team, the capot chance, the partner exemption (never, always, plain-suit
  leads), optional under-trumping, the capot's 250 or 252 and the trump K/Q points varied:
  every pruning combination equals the brute-force minimax of ``reference.solver``;
* full 8-trick rounds: the full solver equals plain alpha-beta (nothing but the window and move
  ordering) and the solver with each technique switched off;
* the four-trick search in nested loops against the frame search: every null-window test of
  many four- and five-trick positions passes or fails alike, its fail-soft bound on the right
  side of the value;
* the principal variation is legal play that scores the value; the table kept across solves and
  the parallel batch (1 or 2 threads) give the same values.
"""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest

from piquet_sim.pilotta.kernels import solver as K
from piquet_sim.pilotta.kernels.deal import deal_hands
from piquet_sim.pilotta.kernels.solver_tt import (
    REPS,
    card_to_internal,
    card_to_natural,
    reset_tt,
    to_internal,
)
from piquet_sim.pilotta.reference import solver as RS
from piquet_sim.pilotta.reference.cards import points
from piquet_sim.pilotta.reference.play import Round
from piquet_sim.pilotta.rules import Rules
from piquet_sim.pilotta.solver import SolveError, solve

FLAG_SETS = {
    "all": K.F_ALL,
    "plain": K.F_PLAIN,
    "unpruned": K.F_TT,  # full window everywhere, exact values memoised
    "no-equiv": K.F_ALL & ~K.F_EQUIV,
    "no-bounds": K.F_ALL & ~K.F_BOUNDS,
    "no-order": K.F_ALL & ~K.F_ORDER,
    "no-four": K.F_ALL & ~K.F_FOUR,
}


@pytest.fixture(scope="module")
def ws():
    return K.make_workspace(14)


def random_position(rng: random.Random, tricks_left: int, in_trick: int) -> dict:
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[8 * p : 8 * p + 8]) for p in range(4)]
    exemption = rng.choice((False, True, "plain_leads"))
    under = rng.random() < 0.4
    game = Round(
        hands, rng.randrange(4), rng.randrange(4), exemption=exemption, under_optional=under
    )
    team = rng.randrange(2)
    for _ in range(4 * (8 - tricks_left) + in_trick):
        game.apply(rng.choice(game.legal_actions()))
    tricks_d = game.tricks[1 - team]
    return {
        "hands": list(game.hands),
        "trump": game.trump,
        "leader": game.leader,
        "trick": [c for _, c in game.trick],
        "team": team,
        "capot": int(tricks_d == 0),
        "kq": (3, 2) if rng.random() < 0.3 else (4, 3),
        "exemption": exemption,
        "under": under,
        "capot_points": rng.choice((250, 252)),
    }


def kernel_value(ws, pos: dict, flags: int) -> int:
    tr = pos["trump"]
    hands = np.array([to_internal(np.int64(h), tr) for h in pos["hands"]], dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(pos["trick"]):
        trick[i] = card_to_internal(c, tr)
    reset_tt(ws.tt)
    return int(K.solve_position(ws, hands, trick, solver_pos(pos), flags))


def pos_rules(pos: dict) -> Rules:
    return Rules(
        trump_kq_points=pos["kq"],
        partner_exemption=pos["exemption"],
        under_trump="optional" if pos.get("under") else "required",
        capot_points=pos.get("capot_points", 250),
    )


def solver_pos(pos: dict) -> np.ndarray:
    return K.position(
        pos["leader"], pos["team"], len(pos["trick"]), pos["capot"], rules=pos_rules(pos).to_array()
    )


def reference_value(pos: dict) -> int:
    leader = pos["leader"]
    trick = tuple(((leader + i) % 4, c) for i, c in enumerate(pos["trick"]))
    return RS.solve(
        tuple(pos["hands"]),
        pos["trump"],
        leader,
        pos["team"],
        bool(pos["capot"]),
        trick,
        pos["kq"],
        pos["exemption"],
        pos.get("under", False),
        pos.get("capot_points", 250),
    )


@pytest.mark.parametrize("tricks_left, count", [(1, 120), (2, 150), (3, 150), (4, 20)])
def test_endgames_match_brute_force(ws, tricks_left, count):
    rng = random.Random(1000 + tricks_left)
    for k in range(count):
        pos = random_position(rng, tricks_left, in_trick=k % 4)
        expected = reference_value(pos)
        for name, flags in FLAG_SETS.items():
            assert kernel_value(ws, pos, flags) == expected, (name, pos)


def full_round(i: int) -> dict:
    rng = random.Random(i)
    return {
        "hands": [int(h) for h in deal_hands(77, i)],
        "trump": i % 4,
        "leader": (i // 4) % 4,
        "trick": [],
        "team": rng.randrange(2),
        "capot": 1,
        "kq": (3, 2) if i % 5 == 4 else (4, 3),
        "exemption": (False, False, True, "plain_leads")[i % 4],
        "under": i % 7 >= 4,
        "capot_points": 252 if i % 3 == 1 else 250,
    }


@pytest.mark.parametrize("i", range(6))
def test_full_rounds_match_plain_alpha_beta(ws, i):
    pos = full_round(i)
    assert kernel_value(ws, pos, K.F_ALL) == kernel_value(ws, pos, K.F_PLAIN)


@pytest.mark.slow
@pytest.mark.parametrize("i", range(6, 60))
def test_full_rounds_match_plain_alpha_beta_more(ws, i):
    pos = full_round(i)
    assert kernel_value(ws, pos, K.F_ALL) == kernel_value(ws, pos, K.F_PLAIN)


@pytest.mark.parametrize("i", range(20))
def test_full_rounds_each_technique_off(ws, i):
    pos = full_round(100 + i)
    v = kernel_value(ws, pos, K.F_ALL)
    for name in ("no-equiv", "no-bounds", "no-order", "no-four"):
        assert kernel_value(ws, pos, FLAG_SETS[name]) == v, name


@pytest.mark.parametrize("tricks_left", [4, 5])
def test_four_trick_loops_match_the_frame_search(ws, tricks_left):
    """The last four tricks in nested loops (F_FOUR) against the frame search down to three
    tricks left: the same value, and at every null-window test around it (each with a fresh
    table) the same verdict, the fail-soft bound on the value's side of the test."""
    rng = random.Random(900 + tricks_left)
    without = K.F_ALL & ~K.F_FOUR
    for k in range(250):
        pos = random_position(rng, tricks_left, in_trick=0 if k % 3 else k % 4)
        v = kernel_value(ws, pos, without)
        assert kernel_value(ws, pos, K.F_ALL) == v, pos
        tr = pos["trump"]
        hands = np.array([to_internal(np.int64(h), tr) for h in pos["hands"]], dtype=np.int64)
        trick = np.array([card_to_internal(c, tr) for c in pos["trick"]] + [0] * 4, dtype=np.int64)
        for m in (v - 7, v - 1, v, v + 1, v + 12):
            if m < 1:
                continue
            reset_tt(ws.tt)
            K.set_position(ws, hands, trick[:4], solver_pos(pos))
            g = int(K.search(ws, np.int64(m - 1), np.int64(m), K.F_ALL))
            assert (g >= m) == (v >= m), (pos, m, g)
            assert (v >= g) if g >= m else (v <= g), (pos, m, g)


def replay(pos: dict, cards: list[int]) -> int:
    """Points the line gives the contracting team (rest of the round), checking every card is
    legal; 250 - 162 (or 160) more when the contracting team takes every trick with a capot
    still possible."""
    game = Round(
        pos["hands"],
        pos["trump"],
        pos["leader"],
        pos["exemption"],
        pos["kq"],
        under_optional=pos.get("under", False),
    )
    for i, c in enumerate(pos["trick"]):  # the trick in progress: put its cards back
        game.hands[(pos["leader"] + i) % 4] |= 1 << c
    for c in pos["trick"] + cards:
        game.apply(c)
    team = pos["team"]
    taken_before = 0  # the cards of the trick in progress are counted by the replay
    total = 160 if pos["kq"] == (3, 2) else 162
    rest = game.points[team] - taken_before
    if pos["capot"] and game.tricks[1 - team] == 0:
        rest += pos.get("capot_points", 250) - total
    return rest


@pytest.mark.parametrize("i", range(8))
def test_principal_variation_is_legal_and_scores_the_value(ws, i):
    rng = random.Random(500 + i)
    pos = full_round(200 + i) if i < 4 else random_position(rng, 5, in_trick=i % 4)
    tr = pos["trump"]
    hands = np.array([to_internal(np.int64(h), tr) for h in pos["hands"]], dtype=np.int64)
    trick = np.array([card_to_internal(c, tr) for c in pos["trick"]] + [0] * 4, dtype=np.int64)
    line = np.full(32, -1, dtype=np.int64)
    reset_tt(ws.tt)
    v = K.solve_line(ws, hands, trick[:4], solver_pos(pos), K.F_ALL, line)
    cards = [int(card_to_natural(int(c), tr)) for c in line if c >= 0]
    assert len(cards) == sum(bin(h).count("1") for h in pos["hands"])
    assert replay(pos, cards) == v
    if i >= 4:  # endgames: plain alpha-beta is quick there
        assert v == kernel_value(ws, pos, K.F_PLAIN)


def _each_card_alone(pos: dict, legal: int, flags: int) -> dict[int, int]:
    """Each legal card's value (internal cards), every card searched alone (a fresh table)."""
    tr = pos["trump"]
    hands = np.array([to_internal(np.int64(h), tr) for h in pos["hands"]], dtype=np.int64)
    trick = np.array([card_to_internal(c, tr) for c in pos["trick"]] + [0] * 4, dtype=np.int64)
    out = {}
    for c in range(32):
        if legal >> c & 1:
            ws = K.make_workspace(12)
            K.set_position(ws, hands, trick[:4], solver_pos(pos))
            v = int(K.play_card(ws, c))
            out[c] = v + (int(K.value(ws, np.int64(-1), flags)) if ws.hands.any() else 0)
    return out


def _equivalents(hands: np.ndarray, trick: list[int], legal: int) -> int:
    """How many legal cards move_values need not search (runs of equivalent cards, REPS)."""
    allout = int(hands[0] | hands[1] | hands[2] | hands[3])
    for c in trick:
        allout |= 1 << c
    reps = 0
    for s in range(4):
        h = legal >> (8 * s) & 0xFF
        if h:
            reps |= int(REPS[1 if s == 0 else 0, (allout >> (8 * s) & 0xFF) * 256 + h]) << (8 * s)
    return bin(legal & ~reps).count("1")


@pytest.mark.parametrize("tricks_left", [2, 4, 5])
def test_move_values_equal_each_card_searched_alone(ws, tricks_left):
    """move_values (one table, equivalent cards searched once) gives every legal card the
    value plain alpha-beta gives it alone: endgames (some mid-trick; the first ten and then
    those where a run of equivalent cards is legal) and two full rounds."""
    rng = random.Random(700 + tricks_left)
    positions = [random_position(rng, tricks_left, in_trick=k % 4) for k in range(400)]
    if tricks_left == 5:
        positions += [full_round(400 + i) for i in range(2)]
    runs = 0
    for k, pos in enumerate(positions):
        tr = pos["trump"]
        hands = np.array([to_internal(np.int64(h), tr) for h in pos["hands"]], dtype=np.int64)
        trick = [int(card_to_internal(c, tr)) for c in pos["trick"]]
        K.set_position(ws, hands, np.array(trick + [0] * (4 - len(trick))), solver_pos(pos))
        legal = int(K.legal_now(ws))
        n_equivalent = _equivalents(hands, trick, legal)
        if k >= 10 and not n_equivalent and len(pos["trick"]) + tricks_left < 8:
            continue
        runs += n_equivalent
        reset_tt(ws.tt)
        vals = np.full(32, -1, dtype=np.int64)
        K.move_values(ws, np.int64(legal), K.F_ALL, vals)
        assert list(ws.hands) == list(hands)  # the position is left as it was
        want = _each_card_alone(pos, legal, K.F_PLAIN)
        assert {c: int(vals[c]) for c in want} == want, pos
    assert runs >= 10


def test_probe_splits_inside_the_interval_towards_the_cheaper_side():
    """value's next test lies strictly inside (lo, hi): the middle until a search has passed
    and one failed, then higher when passing searches cost more nodes, lower otherwise."""
    rng = random.Random(5)
    for _ in range(2000):
        lo = rng.randrange(0, 170)
        hi = lo + rng.randrange(2, 60)
        cost = np.array([rng.randrange(0, 10**6) for _ in range(2)] + [rng.randrange(0, 4)] * 2)
        assert lo < K._probe(lo, hi, cost) < hi
    fresh = np.zeros(4, dtype=np.int64)
    assert K._probe(0, 163, fresh) == 82 == (0 + 163 + 1) // 2
    dear_pass = np.array([900, 100, 1, 1], dtype=np.int64)
    dear_fail = np.array([100, 900, 1, 1], dtype=np.int64)
    assert K._probe(0, 101, dear_pass) == 76
    assert K._probe(0, 101, dear_fail) == 26


def test_table_kept_across_solves_gives_the_same_values():
    ws = K.make_workspace(12)  # a small table: replacements happen
    fresh = K.make_workspace(14)
    for i in range(12):
        pos = full_round(300 + i)
        tr = pos["trump"]
        hands = np.array([to_internal(np.int64(h), tr) for h in pos["hands"]], dtype=np.int64)
        kept = K.solve_position(
            ws, hands, np.zeros(4, dtype=np.int64), K.position(pos["leader"], pos["team"]), K.F_ALL
        )
        pos["kq"], pos["exemption"], pos["under"], pos["capot_points"] = (4, 3), False, False, 250
        assert kept == kernel_value(fresh, pos, K.F_ALL)


@pytest.mark.slow  # compiling the parallel driver takes about 20 s
def test_batch_same_values_whatever_the_threads():
    n = 16
    hands = np.array([deal_hands(5, i) for i in range(n)], dtype=np.int64)
    trumps = np.arange(n, dtype=np.int64) % 4
    leaders = (np.arange(n, dtype=np.int64) // 4) % 4
    teams = np.arange(n, dtype=np.int64) % 2
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        rounds = K.Rounds(hands, trumps, leaders, teams)
        one = K.solve_batch(rounds, K.position(0, 0), 12, K.TABLES)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = K.solve_batch(rounds, K.position(0, 0), 12, K.TABLES)
    finally:
        numba.set_num_threads(previous)
    assert (one == two).all()
    ws = K.make_workspace(14)
    for i in range(4):
        pos = {
            "hands": list(hands[i]),
            "trump": int(trumps[i]),
            "leader": int(leaders[i]),
            "trick": [],
            "team": int(teams[i]),
            "capot": 1,
            "kq": (4, 3),
            "exemption": False,
        }
        assert one[i] == kernel_value(ws, pos, K.F_ALL)


def test_capot_is_worth_250():
    # N holds all eight trumps (spades) and leads: each is the highest trump out when played,
    # so NS takes all eight tricks: 162 card points make a capot, 250.
    hands = [0xFF, 0, 0, 0]
    rng = random.Random(3)
    rest = [c for c in range(32) if not hands[0] >> c & 1]
    rng.shuffle(rest)
    for p in (1, 2, 3):
        hands[p] = sum(1 << c for c in rest[8 * (p - 1) : 8 * p])
    sol = solve(hands, trump=0, leader=0)
    assert sol.value == 250 and sol.contract == "NS"
    sol = solve(hands, trump=0, leader=0, contract=1)
    assert sol.value == 0  # the defenders' capot leaves EW nothing


def test_api_validates_positions():
    h = [int(x) for x in deal_hands(1, 0)]
    with pytest.raises(SolveError):
        solve([h[0], h[0], h[2], h[3]], 0, 0)  # overlapping hands
    with pytest.raises(SolveError):
        solve([h[0] & (h[0] - 1), h[1], h[2], h[3]], 0, 0)  # 7 cards against 8
    with pytest.raises(SolveError):
        solve(h, 0, 0, tricks=(1, 0))  # eight cards but a trick already won
    sol = solve(h, 1, 2, rules=Rules(partner_exemption=True))
    assert 0 <= sol.value <= 162 or sol.value == 250
    assert sum(t.to_contract for t in sol.tricks) == sol.rest
    assert sum(points(c, 1) for c in range(32)) + 10 == 162
