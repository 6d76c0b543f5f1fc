"""Exchange policies (docs/rules/piquet.md, Exchange): legality, reproducibility, plain-Python
references of
the random and max policies, and a measured check that greedy scores more declaration points."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.engine.rng import bounded
from piquet_sim.core.engine.rng import stream_key as _stream_key
from piquet_sim.piquet.cards import parse_cards, popcount
from piquet_sim.piquet.heuristic_exchange import HEURISTIC_EXCHANGE_WEIGHTS
from piquet_sim.piquet.kernels import exchange as X
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels.bundles import make_env, make_stages
from piquet_sim.piquet.kernels.deal import deal_full
from piquet_sim.piquet.policies import EXCH_GREEDY, EXCH_MAX, EXCH_RANDOM, ids
from piquet_sim.piquet.rules import Rules

MUST = make_env(Rules().to_array())
MAY_PASS = make_env(Rules(younger_must_exchange=False).to_array())
PARAMS = X.GREEDY_DEFAULT_PARAMS
HEURISTIC_PARAMS = np.array(HEURISTIC_EXCHANGE_WEIGHTS, dtype=np.float64)
POLICIES = sorted(ids("exchange").values())


def stream_key(seed: int, index: int) -> np.uint64:
    return np.uint64(_stream_key(seed, index))  # keep the key uint64 across the Python edge


def _deals(n: int, seed: int = 5):
    pack = np.empty(32, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    for i in range(n):
        elder, younger = deal_full(seed, i, pack, state)
        yield i, int(elder), int(younger), pack[24:32].copy()


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def test_policy_registry_names_every_id():
    assert ids("exchange") == {"random": 0, "max": 1, "greedy": 2, "heuristic": 3}
    assert len(PARAMS) == L.GW_LEN


@pytest.mark.parametrize("rules", [MUST, MAY_PASS], ids=["must_exchange", "may_pass"])
@pytest.mark.parametrize("policy", POLICIES)
def test_exchange_is_legal(policy, rules):
    """Elder takes 1..5 from the front; younger takes lo..8-K from talon[K:]; 12 cards stay."""
    low = 1 if rules.rules[1] else 0
    younger_counts = set()
    for i, elder, younger, talon in _deals(300):
        key = stream_key(9, i)
        state = np.zeros(1, dtype=np.int64)
        e_new, e_disc, e_n = X.elder_exchange(elder, talon, policy, PARAMS, key, state, rules)
        e_new, e_disc = int(e_new), int(e_disc)
        assert 1 <= e_n <= 5
        assert e_disc & ~elder == 0 and popcount(e_disc) == e_n
        assert e_new == (elder & ~e_disc) | sum(1 << int(c) for c in talon[:e_n])
        assert popcount(e_new) == 12
        for k in (int(e_n), 1 + i % 5):
            y_new, y_disc, y_n = X.younger_exchange(
                younger, talon, k, policy, PARAMS, key, state, rules
            )
            y_new, y_disc = int(y_new), int(y_disc)
            assert low <= y_n <= 8 - k
            younger_counts.add(int(y_n))
            assert y_disc & ~younger == 0 and popcount(y_disc) == y_n
            assert y_new == (younger & ~y_disc) | sum(1 << int(c) for c in talon[k : k + y_n])
            assert popcount(y_new) == 12
    if policy == EXCH_RANDOM:  # random covers the whole legal range
        assert younger_counts == set(range(low, 8))


@pytest.mark.parametrize("policy", POLICIES)
def test_same_key_same_exchange(policy):
    """Reproducibility: the result depends only on (hand, talon, key, state)."""
    results = []
    for _ in range(2):
        out = []
        for i, elder, younger, talon in _deals(100, seed=3):
            state = np.zeros(1, dtype=np.int64)
            key = stream_key(17, i)
            e = X.elder_exchange(elder, talon, policy, PARAMS, key, state, MUST)
            y = X.younger_exchange(younger, talon, e[2], policy, PARAMS, key, state, MUST)
            out.append(tuple(int(v) for v in (*e, *y)))
        results.append(out)
    assert results[0] == results[1]
    if policy == EXCH_RANDOM:
        other = []
        for i, elder, _, talon in _deals(100, seed=3):
            state = np.zeros(1, dtype=np.int64)
            e = X.elder_exchange(elder, talon, policy, PARAMS, stream_key(18, i), state, MUST)
            other.append(int(e[1]))
        assert other != [r[1] for r in results[0]]


def ref_random_discard(hand: int, low: int, high: int, draw) -> int:
    """Plain random policy: n = low + draw(high - low + 1), then n times the draw(12 - i)-th
    remaining card in ascending index order. ``draw(n)`` is uniform in [0, n)."""
    n = low + draw(high - low + 1)
    remaining = _cards(hand)
    discard = 0
    for i in range(n):
        card = remaining.pop(draw(12 - i))
        discard |= 1 << card
    return discard


def ref_max_discard(hand: int, n: int) -> int:
    """Plain max policy: discard the n lowest by 16 * rank + cards in the suit, then index."""

    def value(c):
        suit_count = sum(1 for d in _cards(hand) if d // 8 == c // 8)
        return (16 * (c % 8) + suit_count, c)

    return sum(1 << c for c in sorted(_cards(hand), key=value)[:n])


def _python_draw(key):
    state = np.zeros(1, dtype=np.int64)
    return (lambda n: int(bounded(key, state, n))), state


def test_random_policy_matches_plain_python():
    for i, elder, younger, talon in _deals(400, seed=11):
        key = stream_key(23, i)
        draw, _ = _python_draw(key)
        want_e = ref_random_discard(elder, 1, 5, draw)
        k = 1 + i % 5
        want_y = ref_random_discard(younger, 0, 8 - k, draw)
        state = np.zeros(1, dtype=np.int64)
        _, got_e, _ = X.elder_exchange(elder, talon, EXCH_RANDOM, PARAMS, key, state, MUST)
        _, got_y, _ = X.younger_exchange(
            younger, talon, k, EXCH_RANDOM, PARAMS, key, state, MAY_PASS
        )
        assert int(got_e) == want_e
        assert int(got_y) == want_y


def test_max_policy_matches_plain_python():
    state = np.zeros(1, dtype=np.int64)
    key = np.uint64(1)
    for i, elder, younger, talon in _deals(400, seed=13):
        _, got_e, n_e = X.elder_exchange(elder, talon, EXCH_MAX, PARAMS, key, state, MUST)
        assert n_e == 5 and int(got_e) == ref_max_discard(elder, 5)
        k = 1 + i % 5
        _, got_y, n_y = X.younger_exchange(younger, talon, k, EXCH_MAX, PARAMS, key, state, MUST)
        assert n_y == 8 - k and int(got_y) == ref_max_discard(younger, 8 - k)


PIPS = (7, 8, 9, 10, 10, 10, 10, 11)  # seven .. ace


def ref_greedy_discard(hand: int, low: int, high: int, younger: bool, w) -> tuple[int, int]:
    """Plain greedy policy (``kernels/exchange.py`` docstring): a keep value per card in units
    of 1/1024; every card valued below the replacement value goes, the count clipped to
    [low, high] by the lowest values (ties to the lower card index). Returns (discard, how many
    cards were below the replacement value)."""

    def u(i):
        return round(w[i] * 1024)

    cards = _cards(hand)
    ranks = {s: {c % 8 for c in cards if c // 8 == s} for s in range(4)}
    point = {s: len(r) * 128 + sum(PIPS[x] for x in r) for s, r in ranks.items()}
    point_suit = min(s for s in range(4) if point[s] == max(point.values()))
    w_point = round((w[L.GW_POINT] + w[L.GW_POINT_LEN] * max(len(ranks[point_suit]) - 4, 0)) * 1024)

    def value(c):
        s, r = divmod(c, 8)
        held = ranks[s]
        in_seq = any(all(x in held for x in range(a, a + 3)) for a in range(r - 2, r + 1))
        near = not in_seq and any(0 < abs(r - x) <= 2 for x in held)
        k = sum(r in ranks[t] for t in range(4)) if r >= 3 else 0
        guard = younger and ((r == 6 and len(held) >= 2) or (r == 5 and len(held) >= 3))
        return (
            w_point * (s == point_suit)
            + u(L.GW_RANK) * r
            + u(L.GW_SEQ) * in_seq
            + u(L.GW_SEQ_NEAR) * near
            + u(L.GW_SET3) * (k >= 3)
            + u(L.GW_SET2) * (k == 2)
            + u(L.GW_GUARD) * guard
            - u(L.GW_SINGLETON) * (len(held) == 1 and r < 7)
        )

    threshold = u(L.GW_DRAW) + u(L.GW_LEAVE) * (not younger)
    below = sum(value(c) < threshold for c in cards)
    n = min(max(below, low), high)
    return sum(1 << c for c in sorted(cards, key=lambda c: (value(c), c))[:n]), below


@pytest.mark.parametrize("weights", [PARAMS, HEURISTIC_PARAMS])
def test_greedy_policy_matches_plain_python(weights):
    state = np.zeros(1, dtype=np.int64)
    key = np.uint64(1)
    clipped = 0
    for i, elder, younger, talon in _deals(300, seed=17):
        _, got_e, _ = X.elder_exchange(elder, talon, EXCH_GREEDY, weights, key, state, MUST)
        want_e, below = ref_greedy_discard(elder, 1, 5, False, weights)
        assert int(got_e) == want_e
        k = 1 + i % 5
        env, low = (MUST, 1) if i % 2 else (MAY_PASS, 0)
        _, got_y, _ = X.younger_exchange(younger, talon, k, EXCH_GREEDY, weights, key, state, env)
        assert int(got_y) == ref_greedy_discard(younger, low, 8 - k, True, weights)[0]
        clipped += not 1 <= below <= 5
    assert 0 < clipped < 300  # both paths of the kernel: clipped counts and unclipped ones


def test_greedy_keeps_combinations_and_throws_low_singletons():
    """A quint, a trio of aces and a long point are kept; low odd cards go."""
    hand = parse_cards("AS KS QS JS TS AH 7H AD 8D 9C 8C 7C")
    talon = np.array([c for c in range(32) if not hand >> c & 1][:8], dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    _, disc, n = X.elder_exchange(hand, talon, EXCH_GREEDY, PARAMS, np.uint64(0), state, MUST)
    disc = int(disc)
    assert disc & parse_cards("AS KS QS JS TS AH AD") == 0
    assert disc & parse_cards("7H 8D") == parse_cards("7H 8D")
    assert 1 <= n <= 5


def _trial(e_policy, y_policy, n=20000, seed=2024):
    ids_ = np.zeros(L.STAGE_LEN, np.int32)
    params = np.zeros((L.STAGE_LEN, L.STAGE_PARAMS))
    ids_[[L.STAGE_ELDER_EXCHANGE, L.STAGE_YOUNGER_EXCHANGE]] = e_policy, y_policy
    params[[L.STAGE_ELDER_EXCHANGE, L.STAGE_YOUNGER_EXCHANGE], : PARAMS.size] = PARAMS
    records, rows = X.exchange_trial(seed, 0, n, make_stages(ids_, params), MUST)
    elder = records[:, L.DECL_ELDER : L.DECL_ELDER + L.DP_BLOCK].sum(axis=1).mean()
    younger = records[:, L.DECL_YOUNGER : L.DECL_YOUNGER + L.DP_BLOCK].sum(axis=1).mean()
    potentials = rows[:, L.XT_ELDER_POTENTIAL].mean(), rows[:, L.XT_YOUNGER_POTENTIAL].mean()
    return elder, younger, *potentials


def test_greedy_scores_more_declaration_points_than_random_and_max():
    """Measured on 20,000 seeded deals against a max opponent (declaration points per deal).
    Measured at writing: elder 16.4 (greedy) v 12.2 (max) v 5.1 (random); younger 11.9 v 9.3 v
    4.9. Margins are far beyond the noise (standard error about 0.1)."""
    e_greedy = _trial(EXCH_GREEDY, EXCH_MAX)
    e_max = _trial(EXCH_MAX, EXCH_MAX)
    e_random = _trial(EXCH_RANDOM, EXCH_MAX)
    assert e_greedy[0] > e_max[0] + 2.0
    assert e_greedy[0] > e_random[0] + 6.0
    assert e_greedy[2] > e_max[2] + 0.8  # points held if every class won
    y_greedy = _trial(EXCH_MAX, EXCH_GREEDY)
    y_random = _trial(EXCH_MAX, EXCH_RANDOM)
    assert y_greedy[1] > e_max[1] + 1.0
    assert y_greedy[1] > y_random[1] + 4.0
    assert y_greedy[3] > e_max[3] + 0.5
