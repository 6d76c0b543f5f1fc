"""The pimc play policy (docs/rules/piquet.md "Play"): legality at every step, full information
equals the
exact solver, determinism, and equivalence reduction of candidate cards."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.engine.rng import stream_key
from piquet_sim.core.engine.workspaces import KeptWorkspaces
from piquet_sim.piquet.kernels import knowledge as KN
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels import pimc as P
from piquet_sim.piquet.kernels import solver as S
from piquet_sim.piquet.kernels import tricks as T
from piquet_sim.piquet.kernels.deal import deal_full
from piquet_sim.piquet.kernels.play import new_scratch, play_deal
from piquet_sim.piquet.kernels.tables import SUIT_TABLES
from piquet_sim.piquet.reference import play as R
from piquet_sim.piquet.rules import DEFAULT_RULES, Rules, RuleSlot
from piquet_sim.piquet.simulation import Policies

FULL3 = np.full(3, 0xFFFFFFFF, dtype=np.int64)


_workspace = KeptWorkspaces(lambda rules: S.make_workspace(rules.to_array(), 16))


@pytest.fixture(scope="module")
def ws():
    return _workspace(DEFAULT_RULES)


def _play(
    seed, i, e_pol, y_pol, ws, rules=DEFAULT_RULES, worlds=4, know=None, adaptive=0, race=0, keep=0
):
    """One deal through the play loop (no exchange): (elder, younger, net, play record,
    pimc counts, cards played)."""
    sc = new_scratch()
    e, y = deal_full(seed, i, sc.pack, sc.state)
    if know is None:
        sc.know_e[:] = KN.deal_knowledge(e, np.int64(0), FULL3, y, FULL3, 0, 0, SUIT_TABLES)
        sc.know_y[:] = KN.deal_knowledge(y, np.int64(0), FULL3, e, FULL3, 0, 0, SUIT_TABLES)
    else:
        sc.know_e[:], sc.know_y[:] = know(e, y)
    params = {r: np.array([worlds, 500, adaptive, race, 2.0, keep]) for r in ("elder", "younger")}
    stages = Policies(elder_play=e_pol, younger_play=y_pol, play_params=params).stages()
    pre = (np.int64(0), np.int64(0), np.int64(0))
    key = np.uint64(stream_key(seed, i))
    net = play_deal(e, y, stages, pre, key, sc.state, _workspace(rules), sc)
    return int(e), int(y), net, sc.play, sc.pimc, sc.line


@pytest.mark.parametrize("opp", ["random", "greedy", "dd", "pimc"])
def test_pimc_never_plays_an_illegal_card(ws, opp):
    for i in range(6):
        e, y, net, out, stats, line = _play(31, i, "pimc", opp, ws)
        hands = [e, y]
        leader = 0
        seen = set()
        for t in range(12):
            c, d = int(line[2 * t]), int(line[2 * t + 1])
            assert hands[leader] >> c & 1, "lead from the leader's hand"
            assert d in R.legal(hands[1 - leader], c), "reply follows suit when able"
            seen |= {c, d}
            hands[leader] &= ~(1 << c)
            hands[1 - leader] &= ~(1 << d)
            leader = 1 - leader if (d >> 3 == c >> 3 and d > c) else leader
        assert len(seen) == 24 and hands == [0, 0]
        assert out[2] + out[3] == 12


def test_full_information_pimc_is_double_dummy(ws):
    """With the opponent's whole hand known, every world is the true one: pimc plays a line
    worth the exact solver's value."""

    def know(e, y):
        ke = KN.empty_knowledge(e, 12)
        ke[L.KNOW_IN] = y
        ky = KN.empty_knowledge(y, 12)
        ky[L.KNOW_IN] = e
        return ke, ky

    for i in range(5):
        e, y, net, *_ = _play(8, i, "pimc", "pimc", ws, know=know, keep=i % 2)
        assert net == S.solve_position((np.int64(e), np.int64(y), 0, 0, 0), ws)


def test_same_seed_same_play(ws):
    a = _play(5, 3, "pimc", "pimc", ws)
    b = _play(5, 3, "pimc", "pimc", ws)
    assert (a[5] == b[5]).all() and a[2] == b[2]


def test_ten_or_higher_rule_is_legal_too(ws):
    rules = Rules(lead_points="ten_or_higher")
    for i in range(3):
        e, y, net, out, stats, line = _play(2, i, "pimc", "pimc", ws, rules=rules)
        assert len(set(line.tolist())) == 24
        assert stats[L.PIMC_DECISIONS] > 0


def test_candidates_reduce_equivalent_cards():
    out = np.zeros(12, dtype=np.int64)
    # spades 7 8 9 held, nothing gone: one class; with 10 of spades gone, 9 and J join
    assert P.candidates(np.int64(0b111), np.int64(0), 0, out) == 1
    assert P.candidates(np.int64(0b10111), np.int64(0b01000), 0, out) == 1
    # under ten_or_higher nine and ten never merge
    assert P.candidates(np.int64(0b01100), np.int64(0), 1, out) == 2
    # a card still out between them splits the class
    assert P.candidates(np.int64(0b101), np.int64(0), 0, out) == 2


def test_adaptive_worlds_shrink_as_the_hand_becomes_known():
    know = KN.empty_knowledge(np.int64(0xFFF), 12)  # observer holds the 12 lowest cards
    # 12 cards to draw from 20: all 16 worlds
    assert P.adaptive_worlds(know, np.int64(0), np.int64(0), 12, 16) == 16
    # 4 to draw from a pool of 12 (8 cards gone): 8 worlds; 1 from 4: the floor of 4
    gone = np.int64(0xFFFF000)  # 16 cards gone: a pool of 4
    assert P.adaptive_worlds(know, np.int64(0xFF000), np.int64(0), 4, 16) == 8
    assert P.adaptive_worlds(know, np.int64(0xFFFF000), np.int64(0), 1, 16) == 4
    # every pool card is his: one world; a worlds setting under 4 is kept
    assert P.adaptive_worlds(know, gone, np.int64(0), 4, 16) == 1
    assert P.adaptive_worlds(know, np.int64(0), np.int64(0), 12, 2) == 2
    full = KN.empty_knowledge(np.int64(0xFFF), 12)
    full[L.KNOW_IN] = np.int64(0xFFF000)
    assert P.adaptive_worlds(full, np.int64(0), np.int64(0), 12, 16) == 1


def test_adaptive_pimc_is_legal_and_samples_fewer_worlds(ws):
    fixed = adaptive = 0
    for i in range(4):
        *_, s0, line = _play(41, i, "pimc", "pimc", ws, worlds=8)
        e, y, net, out, s1, line1 = _play(41, i, "pimc", "pimc", ws, worlds=8, adaptive=1)
        assert len(set(line1.tolist())) == 24 and out[2] + out[3] == 12
        fixed += s0[L.PIMC_WORLDS] / s0[L.PIMC_DECISIONS]
        adaptive += s1[L.PIMC_WORLDS] / s1[L.PIMC_DECISIONS]
    assert adaptive < 0.8 * fixed


def _race(vals, alive, seat, z=P.RACE_Z):
    v = np.zeros((len(vals), P.MAX_CANDIDATES), dtype=np.int64)
    v[:, : len(vals[0])] = vals
    a = np.zeros(P.MAX_CANDIDATES, dtype=np.uint8)
    a[: len(alive)] = alive
    left = P.race_step(v, len(vals), a, len(alive), seat, z)
    got = [bool(x) for x in a[: len(alive)]]
    assert left == sum(got)
    return got


def test_race_step_hand_worked():
    # elder: card 1 is 2/3 of a point behind, SE 2/3 (kept at z = 2, dropped at z = 0.8);
    # card 2 is 1.33 behind with SE 2.3 (kept)
    vals = [[5, 5, 3], [4, 2, 7], [6, 6, 1]]
    assert _race(vals, [1, 1, 1], 0) == [True, True, True]
    assert _race(vals, [1, 1, 1], 0, z=0.8) == [True, False, True]
    # younger minimises: card 1 is best; card 0 is 3.5 behind, SE 0.5 (dropped); card 2 is
    # 3.5 behind, SE 2.7 (kept)
    vals = [[5, 3, 0], [5, 1, 9], [5, 1, 2], [5, 1, 9]]
    assert _race(vals, [1, 1, 1], 1) == [False, True, True]
    # the same deficit in every world (zero variance) is dropped; identical values are kept
    assert _race([[2, 1], [4, 3]], [1, 1], 0) == [True, False]
    assert _race([[2, 2], [4, 4]], [1, 1], 0) == [True, True]
    # a dropped candidate stays dropped and does not compete for best
    assert _race([[1, 9, 4], [1, 9, 4]], [1, 0, 1], 0) == [False, False, True]


def test_race_step_matches_reference():
    from piquet_sim.piquet.reference.pimc import race_step as ref

    rng = np.random.default_rng(3)
    dropped = 0
    for _ in range(400):
        w = int(rng.integers(1, 12))
        k = int(rng.integers(2, 9))
        spread = int(rng.integers(1, 30))
        vals = rng.integers(-spread, spread + 1, size=(w, k)) + rng.integers(-9, 10, size=k)
        alive = [bool(x) for x in rng.integers(0, 2, size=k)]
        alive[int(rng.integers(0, k))] = True
        seat = int(rng.integers(0, 2))
        z = float(rng.choice([0.5, 1.0, 2.0, 3.0]))
        got = _race(vals.tolist(), alive, seat, z)
        assert got == ref(vals.tolist(), alive, seat, z)
        dropped += sum(alive) - sum(got)
    assert dropped > 100


def test_racing_pimc_is_legal_and_solves_less(ws):
    full = raced = 0
    for i in range(3):
        *_, s0, _ = _play(43, i, "pimc", "pimc", ws, worlds=8)
        e, y, net, out, s1, line = _play(43, i, "pimc", "pimc", ws, worlds=8, race=2)
        assert len(set(line.tolist())) == 24 and out[2] + out[3] == 12
        full += s0[L.PIMC_SOLVES]
        raced += s1[L.PIMC_SOLVES]
    assert raced < 0.9 * full


def test_world_twins_have_equal_exact_values(ws):
    """A candidate that ``world_twin`` pairs with an earlier one (only the player's own or
    out-of-play cards between them in this world) has the same exact value, as a lead and as a
    reply, on random 5-card positions with the other cards out of play."""
    rng = np.random.default_rng(5)
    cand = np.zeros(P.MAX_CANDIDATES, dtype=np.int64)
    alive = np.ones(P.MAX_CANDIDATES, dtype=np.uint8)
    twins = 0
    ten = int(ws.env.rules[RuleSlot.LEAD_POINTS])
    for _ in range(150):
        cards = rng.permutation(32)
        own = sum(1 << int(c) for c in cards[:5])
        opp = sum(1 << int(c) for c in cards[5:10])
        lead = -1 if rng.integers(0, 2) else int(cards[5])
        legal = own if lead < 0 else int(T.legal_replies(np.int64(own), lead))
        k = P.candidates(np.int64(legal), np.int64(0), ten, cand)
        # he leads as elder, or replies as younger to elder's lead
        E, Y = (own, opp) if lead < 0 else (opp, own)
        pos = (np.int64(E), np.int64(Y), np.int64(0), np.int64(0), np.int64(0))
        for i in range(k):
            j = P.world_twin(cand, i, alive, np.int64(opp), ten)
            if j < 0:
                continue
            twins += 1
            if lead < 0:
                vals = [S.lead_value(pos, cand[x], ws) for x in (i, j)]
            else:
                vals = [P.reply_value(pos, np.int64(lead), cand[x], ws, 0) for x in (i, j)]
            assert vals[0] == vals[1]
    assert twins > 50
    # hand-worked: 7S and 9S are one card unless the opponent holds 8S; never across 9/10
    cand[:2] = (0, 2)
    assert P.world_twin(cand, 1, alive, np.int64(1 << 1), 0) == -1
    assert P.world_twin(cand, 1, alive, np.int64(1 << 9), 0) == 0
    cand[:2] = (2, 3)
    assert P.world_twin(cand, 1, alive, np.int64(0), 1) == -1
    assert P.world_twin(cand, 1, alive, np.int64(0), 0) == 0


def test_kept_world_matches_reference():
    """A kept world stays exactly while the play has not ruled it out (random hands, plays and
    voids against the plain-Python rule; some worlds survive, some do not)."""
    from piquet_sim.piquet.reference.pimc import kept_world as ref

    rng = np.random.default_rng(14)
    row = np.zeros(L.PW_LEN, dtype=np.int64)
    kept = dropped = 0
    for _ in range(3000):
        cards = rng.permutation(32)
        own_dealt = sum(1 << int(c) for c in cards[:12])
        full = sum(1 << int(c) for c in cards[12:24])
        t = int(rng.integers(0, 10))  # tricks played; the opponent's cards are mostly his own
        opp_played = sum(1 << int(c) for c in cards[12 : 12 + t])
        if rng.random() < 0.3:  # he played a card the world does not hold
            opp_played |= 1 << int(cards[24 + rng.integers(0, 8)])
        mine = sum(1 << int(c) for c in cards[:t])
        if rng.random() < 0.2:  # a card of the world counted as gone
            mine |= 1 << int(cards[12 + t + rng.integers(0, 12 - t)]) if t < 12 else 0
        voids = [int(s) for s in range(4) if rng.random() < 0.15]
        vmask = sum(0xFF << (8 * s) for s in voids)
        n_opp = 12 - t - int(rng.random() < 0.1)
        drawn, now = int(rng.integers(0, 2)), int(rng.integers(0, 2))
        row[L.PW_HANDS + 3] = full
        row[L.PW_FLAGS + 3] = drawn
        gone = mine | opp_played
        own = own_dealt & ~mine
        got = P.kept_world(row, 3, np.int64(opp_played), np.int64(gone | own | vmask), n_opp, now)
        want = ref(full, drawn, opp_played, gone, own, voids, n_opp, now)
        assert got == want
        kept += want != 0
        dropped += want == 0
    assert kept > 300 and dropped > 300


def test_kept_worlds_are_used_and_legal(ws):
    """With keep on (pimc's default) later decisions use earlier worlds and every card is played
    once (the full-information test above also runs with keep on)."""
    for i in range(3):
        e, y, net, out, stats, line = _play(31, i, "pimc", "pimc", ws, keep=1)
        assert stats[L.PIMC_KEPT] > 0
        assert len(set(line.tolist())) == 24 and out[2] + out[3] == 12


def _full_knowledge(e, y):
    ke = KN.empty_knowledge(e, 12)
    ke[L.KNOW_IN] = y
    return ke


def _elder_two_decisions(seed, i, ws, clear=False, worlds=4):
    """Elder's pimc lead to trick 1 (full information, ``worlds`` worlds, keep on), younger's
    double-dummy reply, then elder's next decision (his lead, or his reply to younger's
    double-dummy lead). ``clear``: drop the kept values between the two. Returns (first card,
    its exact value, the trick's points, the kept row after the first decision, the position
    after trick 1, the second card, solver passes of the second decision)."""
    from piquet_sim.piquet.kernels.play import dd_reply

    sc = new_scratch()
    e, y = deal_full(seed, i, sc.pack, sc.state)
    E, Y, z = np.int64(e), np.int64(y), np.int64(0)
    know = _full_knowledge(e, y)
    key = np.uint64(stream_key(seed, i))
    kept = sc.worlds[0]
    pos = (E, Y, z, z, z)
    sampler = (np.int64(worlds), np.int64(500), z, z, 2.0, np.int64(1))
    first = (E, z, np.int64(-1), z, z, z, z, z)
    c = P.pimc_decide(z, first, know, sampler, key, sc.state, ws, sc.pimc, kept)
    row = kept.copy()
    v = S.lead_value(pos, np.int64(c), ws)
    d = dd_reply(pos, np.int64(c), ws)
    nxt, net, left = S.after_trick(pos, np.int64(c), np.int64(d), np.int64(0), np.int64(12))
    if clear:
        kept[L.PW_VALID] = 0
    played = np.int64((1 << c) | (1 << d))
    voids = np.int64(0 if d >> 3 == c >> 3 else 0xFF << (8 * (c >> 3)))
    own = nxt[0]
    if nxt[2] == 0:
        view = (own, nxt[2], np.int64(-1), nxt[3], nxt[4], played, np.int64(1 << d), voids)
    else:
        lead2 = S.best_lead(nxt, S.solve_position(nxt, ws), ws)
        view = (own, nxt[2], np.int64(lead2), nxt[3], nxt[4], played, np.int64(1 << d), voids)
    p0 = ws.stats[L.SOLVE_PASSES]
    c2 = P.pimc_decide(z, view, know, sampler, key, sc.state, ws, sc.pimc, kept)
    return c, v, net, row, nxt, d, c2, ws.stats[L.SOLVE_PASSES] - p0


def test_kept_values_are_exact_and_the_trick_since_scores_like_the_rules(ws):
    """With keep on, a decision records each world's exact value of the card played
    (``PW_VALUES``, here the solver's value of elder's lead), :func:`trick_since` scores the
    trick finished since as the plain-Python rules do, and under full information (the reply
    double-dummy) that value less the trick's points is the exact value of the next position:
    MTD(f)'s first guess there. Hand-worked rows under both lead rules."""
    for i in range(6):
        e, y = deal_full(21, i, np.empty(32, dtype=np.int8), np.zeros(1, dtype=np.int64))
        c, v, net, row, nxt, d, *_ = _elder_two_decisions(21, i, _workspace(DEFAULT_RULES))
        assert row[L.PW_VALID] == 0b1111 and row[L.PW_OWN] == c and row[L.PW_LEAD] == c
        assert all(row[L.PW_VALUES + w] == v for w in range(4))
        valid, since = P.trick_since(row, np.int64((1 << c) | (1 << d)), 0)
        want, _ = R.trick_value(R.State(int(e), int(y)), int(c), int(d), False)
        assert valid == 0b1111 and since == net == want
        assert v - since == S.solve_position(nxt, ws)
    # younger led 8H (9), he won with AH (15): 'every' -1 + 1, 'ten_or_higher' 0 + 1
    row = np.zeros(L.PW_LEN, dtype=np.int64)
    row[L.PW_VALID], row[L.PW_GONE] = 1, 1 << 3
    row[L.PW_LEAD], row[L.PW_OWN], row[L.PW_LEADER] = 9, 15, 1
    gone = np.int64((1 << 3) | (1 << 9) | (1 << 15))
    assert P.trick_since(row, gone, 0) == (1, 0) and P.trick_since(row, gone, 1) == (1, 1)
    # more than that trick finished since, or no value kept: no guess
    assert P.trick_since(row, gone | (3 << 20), 0) == (0, 0)
    row[L.PW_VALID] = 0
    assert P.trick_since(row, gone, 0) == (0, 0)


def test_kept_value_guesses_save_mtdf_passes():
    """The same second decision (one world) from the same table, with and without the kept
    values: same card, fewer MTD(f) passes with them (the first candidate's guess; equal
    counts if pimc ignored them)."""
    rules = DEFAULT_RULES.to_array()
    with_g = without = 0
    for i in range(10):
        a = _elder_two_decisions(22, i, S.make_workspace(rules, 16), worlds=1)
        b = _elder_two_decisions(22, i, S.make_workspace(rules, 16), clear=True, worlds=1)
        assert a[6] == b[6]
        with_g += a[7]
        without += b[7]
    assert with_g <= without - 4  # 82 against 87 passes
