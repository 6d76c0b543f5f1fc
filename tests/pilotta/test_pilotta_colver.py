"""Under the ``contree`` preset our card play is colver's (a Belote Contree engine, MIT, PyPI;
skipped when it is not installed): the same legal cards at every step of random rounds, and
the same exact double-dummy values as its ``Env.solve_scores`` on random deals, for every first
card. Only colver's weight-free functions are used (no model is ever downloaded).

Mapping colver to ours, found by these tests:

* seats 0..3 are N E S W in both, team = seat & 1, and colver's seat ``dealer + 1`` leads the
  first trick (our ``first_lead = after_dealer``, which the preset sets);
* suits are S H D C in both; colver's card index is ``8 * suit + place`` with the places
  7 8 9 J Q K 10 A (the plain-suit order), ours ``8 * suit + rank`` with the ranks
  7 8 9 10 J Q K A: ``colver = 8 * suit + PLAIN_STRENGTH[rank]``;
* ``Env.get_current_trick()`` is indexed by seat (-1: not played), not by playing order;
* ``solve_scores()["scores"]`` is ``[card, value]`` for each legal card of the seat to play,
  the value being North-South's card points of the whole round (tricks' card points, 10 for
  the last trick, 252 for a capot; the belote is not in it) under best play, North-South
  maximising and East-West minimising, whatever the contract (``set_contract``'s team changes
  no value): our solver's value with North-South as the contracting team (the defenders hold
  it down and do not play for their own capot, which gives North-South 0 either way).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from piquet_sim.pilotta.cards import PLAIN_STRENGTH, card_name
from piquet_sim.pilotta.kernels import solver as K
from piquet_sim.pilotta.kernels.deal import deal_hands
from piquet_sim.pilotta.kernels.solver_tt import card_to_internal, to_internal
from piquet_sim.pilotta.kernels.tricks import legal_in_trick, play_code
from piquet_sim.pilotta.rules import Rules, preset
from piquet_sim.pilotta.solver import solve

colver = pytest.importorskip("colver")

#: our natural card index -> colver's, and back
TO_COLVER = [8 * (n >> 3) + PLAIN_STRENGTH[n & 7] for n in range(32)]
FROM_COLVER = [TO_COLVER.index(c) for c in range(32)]
CONTREE = preset("contree")


def _env(hands: list[int], dealer: int, trump: int, team: int):
    """A colver deal in its play phase: our hands (natural masks N E S W), the contract."""
    env = colver.Env.deal_with_hands(
        dealer, [[TO_COLVER[c] for c in range(32) if h >> c & 1] for h in hands]
    )
    env.set_contract(trump, 80, team, 0)
    env.set_phase_playing()
    return env


def _trick(env) -> list[int]:
    """The current trick in playing order (our indices)."""
    lead = env.get_trick_lead()
    by_seat = env.get_current_trick()
    seats = [(lead + i) % 4 for i in range(4)]
    return [FROM_COLVER[by_seat[p]] for p in seats if by_seat[p] >= 0]


def test_card_indices_map():
    ours = {FROM_COLVER[c]: colver.Env.card_name(c) for c in range(32)}
    suits = dict(zip("♠♥♦♣", "SHDC", strict=True))
    for n, name in ours.items():
        rank, suit = name[:-1], suits[name[-1]]
        assert card_name(n) == ("T" if rank == "10" else rank) + suit


def test_colver_seats_and_first_leader():
    hands = [int(h) for h in deal_hands(5, 0)]
    env = _env(hands, 2, 1, 0)
    assert env.current_player() == 3 == env.get_trick_lead()
    assert [sorted(FROM_COLVER[c] for c in h) for h in env.get_hands()] == [
        [c for c in range(32) if h >> c & 1] for h in hands
    ]


@pytest.mark.parametrize("rules, agree", [(CONTREE, True), (Rules(), False)])
def test_legal_cards_match_colver_at_every_step(rules, agree):
    """Random rounds in colver (its deals, random contracts, random legal cards): at every
    card, its legal cards are ours under the contree preset (and not under Pilotta's rules,
    which differ on the partner's exemption and under-trumping: the comparison bites)."""
    code = int(play_code(rules.to_array()))
    rng = random.Random(36)
    steps = differ = 0
    for deal in range(300):
        env = colver.Env.deal(dealer=deal % 4, seed=deal)
        trump = rng.randrange(4)
        env.set_contract(trump, 80, rng.randrange(2), 0)
        env.set_phase_playing()
        while env.phase() == 1:
            p = env.current_player()
            hand = sum(1 << FROM_COLVER[c] for c in env.get_hands()[p])
            trick = _trick(env)
            arr = np.full(4, -1, dtype=np.int64)
            arr[: len(trick)] = trick
            ours = int(legal_in_trick(np.int64(hand), arr, len(trick), trump, code))
            theirs = sum(1 << FROM_COLVER[c] for c in env.legal_actions())
            steps += 1
            differ += ours != theirs
            if agree:
                assert ours == theirs, (deal, trump, p, trick, env.get_hands()[p])
            env.step(rng.choice(env.legal_actions()))
    assert steps == 300 * 32
    assert agree or differ > 100


def _first_card_values(ws, hands, trump, leader, team, rules) -> dict[int, int]:
    """Our exact value (the team ``team`` contracting) of each card the leader may lead."""
    ih = np.array([to_internal(np.int64(h), trump) for h in hands], dtype=np.int64)
    out = {}
    for c in range(32):
        if hands[leader] >> c & 1:
            K.set_position(
                ws, ih, np.zeros(4, dtype=np.int64), K.position(leader, team, rules=rules)
            )
            add = K.play_card(ws, card_to_internal(c, trump))
            out[c] = add + int(K.value(ws, np.int64(-1), K.F_ALL))
    return out


@pytest.mark.parametrize(
    "rules, agree", [(CONTREE, True), (Rules(first_lead="after_dealer"), False)]
)
def test_exact_values_match_solve_scores(rules, agree):
    """120 random deals, dealer, trump and contract: every first card's value and the deal's
    value equal colver's ``solve_scores`` under the contree preset (one solver table kept
    across deals, as the library keeps it). Under Pilotta's play rules many differ."""
    arr = rules.to_array()
    ws = K.make_workspace()
    rng = random.Random(2026)
    deals_differing = capots = 0
    for i in range(120):
        hands = [int(h) for h in deal_hands(36, i)]
        dealer, trump, team = rng.randrange(4), rng.randrange(4), rng.randrange(2)
        env = _env(hands, dealer, trump, team)
        theirs = {FROM_COLVER[c]: v for c, v in env.solve_scores()["scores"]}
        leader = (dealer + 1) % 4
        ours = _first_card_values(ws, hands, trump, leader, 0, arr)
        assert set(ours) == set(theirs)
        if not agree:
            deals_differing += ours != theirs
            continue
        assert ours == theirs, (i, dealer, trump)
        best = (max if leader % 2 == 0 else min)(theirs.values())
        capots += best == 252
        # the library's face, the contracting team's perspective: North-South's points are
        # its value, or the pack's 162 less East-West's (0 for their capot of 252; their 0 is
        # North-South's 162 or capot)
        value = solve(hands, trump, leader, contract=team, rules=rules).value
        if team == 0:
            assert value == best
        elif value == 252:
            assert best == 0
        elif value == 0:
            assert best in (162, 252)
        else:
            assert best == 162 - value
    assert agree or deals_differing > 30


def test_a_capot_is_252_in_both():
    """North holds every trump and South every ace: North-South take all eight tricks, 252
    under the preset (250 under Pilotta's rules), in colver and in ours."""
    from piquet_sim.pilotta.cards import parse_cards

    hands = [
        parse_cards("7S 8S 9S TS JS QS KS AS"),
        parse_cards("7H 8H 9H TH 7D 8D 9D TD"),
        parse_cards("AH AD AC KH KD KC QH QD"),
        parse_cards("JH JD 7C 8C 9C TC JC QC"),
    ]
    env = _env(hands, 3, 0, 0)  # West deals: North leads
    assert max(v for _, v in env.solve_scores()["scores"]) == 252
    assert solve(hands, 0, 0, rules=CONTREE).value == 252
    assert solve(hands, 0, 0, rules=Rules()).value == 250
