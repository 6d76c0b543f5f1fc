"""The pimc play policy (``kernels/pimc.py``) and the declaration policies.

Default set (cheap: pimc's sampler is its one compiled kernel there): sampled worlds respect
everything the player knows, on positions reached by random play; the no-tierce declaration
policy against its plain-Python reference and in the differential. ``-m slow`` (pimc's
decision kernel compiles the solver into it): with every hand shown (one consistent world)
pimc plays a double-dummy best card; whole pimc rounds; the advisor's ``--play pimc``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_pilotta_differential import RULE_SETS, run_differential

from piquet_sim.core.game.strategy import StrategyError
from piquet_sim.pilotta import match
from piquet_sim.pilotta import strategies as S
from piquet_sim.pilotta.api import make_setup, simulate_batch
from piquet_sim.pilotta.kernels import pimc as P
from piquet_sim.pilotta.kernels import solver as SK
from piquet_sim.pilotta.kernels.declarations import combination_cards, declare_policy_hand
from piquet_sim.pilotta.kernels.solver_tt import card_to_internal, to_internal
from piquet_sim.pilotta.layouts import (
    DECL_LEN,
    POS_LEN,
    PUB_LEN,
    VIEW_LEN,
    Decl,
    Pub,
    RoundRec,
    Setup,
    SolverPos,
    View,
)
from piquet_sim.pilotta.policies import DECL_ALL, DECL_NO_TIERCE
from piquet_sim.pilotta.reference.declarations import declared
from piquet_sim.pilotta.reference.play import Round, trick_winner
from piquet_sim.pilotta.rules import Rules

PLAIN = Rules()
SETUP = make_setup("threshold", "pimc", "pimc", worlds=(3, 3))


def _position(rng: random.Random, steps: int, exemption: bool = False):
    """Random legal play of ``steps`` cards from a random deal: (true hands now, view, pub) for
    the seat to play, as ``pimc_round`` keeps them (every combination declared)."""
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[8 * p : 8 * p + 8]) for p in range(4)]
    trump, leader = rng.randrange(4), rng.randrange(4)
    game = Round(list(hands), trump=trump, leader=leader, exemption=exemption)
    pub = np.zeros(PUB_LEN, dtype=np.int64)
    decl = np.zeros(DECL_LEN, dtype=np.int32)
    for p in range(4):
        pub[Pub.SHOWN + p] = combination_cards(np.int64(hands[p]), 0)
        declare_policy_hand(np.int64(hands[p]), trump, 0, decl)
        pub[Pub.ANNOUNCED + p] = decl[Decl.POINTS]
    pub[Pub.CAPOT] = 1
    team = leader & 1
    voids = played = 0
    for _ in range(steps):
        seat = game.to_play()
        card = rng.choice(game.legal_actions())
        trick = game.trick
        led = trick[0][1] >> 3 if trick else card >> 3
        partner_winning = len(trick) >= 2 and trick_winner(trick, trump) == (seat + 2) % 4
        if trick and card >> 3 != led:
            voids |= 1 << (4 * seat + led)
            if led != trump and card >> 3 != trump and not (exemption and partner_winning):
                voids |= 1 << (4 * seat + trump)
        pub[Pub.GONE + seat] |= 1 << card
        played |= 1 << card
        done = len(trick) == 3
        winner = trick_winner(trick + [(seat, card)], trump) if done else -1
        game.apply(card)
        if done and (winner & 1) != team:
            pub[Pub.CAPOT] = 0
    seat = game.to_play()
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    view[View.SEAT] = seat
    view[View.POS] = len(game.trick)
    view[View.TRUMP] = trump
    view[View.C_TEAM] = team
    view[View.PLAYED] = played
    view[View.VOIDS] = voids
    lead_seat = game.trick[0][0] if game.trick else seat
    pub[Pub.LEADER] = lead_seat
    for i, (_, c) in enumerate(game.trick):
        pub[Pub.TRICK + i] = c
    legal = sum(1 << c for c in game.legal_actions())
    return game, view, pub, legal


def test_sampled_worlds_respect_what_the_player_knows():
    rng = random.Random(5)
    ctx = P.Ctx(SK.make_workspace(4), np.zeros((0, 3), dtype=np.int64), SETUP, PLAIN.to_array())
    key, state = np.int64(99), np.zeros(1, dtype=np.int64)
    world = np.zeros(4, dtype=np.int64)
    no_bars = np.zeros(4, dtype=np.int64)
    kinds = {0: 0, 1: 0, 2: 0}
    open_cases = varied = 0
    for case in range(90):
        game, view, pub, _ = _position(rng, rng.randrange(0, 30), exemption=case % 2 == 1)
        seat = int(view[View.SEAT])
        hand = game.hands[seat]
        unseen = 0xFFFFFFFF & ~int(view[View.PLAYED]) & ~hand
        seen = set()
        for _ in range(6):
            kind = P.deal_world(seat, np.int64(hand), view, pub, ctx, world, key, state, no_bars)
            kinds[int(kind)] += 1
            assert kind >= 1  # the true deal always fits the hard facts
            w = [int(x) for x in world]
            assert w[seat] == hand
            assert w[0] | w[1] | w[2] | w[3] == hand | unseen
            assert sum(bin(x).count("1") for x in w) == bin(hand | unseen).count("1")
            for o in range(4):
                assert bin(w[o]).count("1") == bin(game.hands[o]).count("1")
                assert int(pub[Pub.SHOWN + o]) & unseen & ~w[o] == 0  # shown cards stay put
                for s in range(4):
                    if int(view[View.VOIDS]) >> (4 * o + s) & 1:
                        assert (w[o] >> (8 * s)) & 0xFF == 0
                if kind == 2 and o != seat:  # announced points fit the whole hand
                    whole = w[o] | int(pub[Pub.GONE + o])
                    pts = sum(c.value for c in declared(whole, 0))
                    assert pts == int(pub[Pub.ANNOUNCED + o])
            seen.add(tuple(w))
        shown = sum(int(pub[Pub.SHOWN + o]) for o in range(4) if o != seat)
        if bin(unseen & ~shown).count("1") >= 6:
            open_cases += 1
            varied += len(seen) > 1
    assert varied > 0.8 * open_cases > 25  # the sampler is not stuck on one world
    assert kinds[2] > 0.95 * sum(kinds.values())


@pytest.mark.slow
def test_with_every_hand_shown_pimc_plays_a_double_dummy_best_card():
    """Shown cards are placed in their owner's hand: with every card shown there is one world,
    and the card chosen keeps the position's exact value for the side to play."""
    rng = random.Random(11)
    ws = SK.make_workspace(16)
    rules = PLAIN.to_array()
    ctx = P.Ctx(ws, np.zeros((0, 3), dtype=np.int64), SETUP, rules)
    key, state = np.int64(3), np.zeros(1, dtype=np.int64)
    checked = 0
    for _ in range(40):
        game, view, pub, legal = _position(rng, rng.randrange(8, 29))
        if bin(legal).count("1") < 2:
            continue
        seat = int(view[View.SEAT])
        trump = int(view[View.TRUMP])
        for p in range(4):
            pub[Pub.SHOWN + p] = game.hands[p]
        card = P.pimc_card(
            np.int64(game.hands[seat]), np.int64(legal), view, pub, ctx, 2, key, state
        )
        assert legal >> int(card) & 1
        ih = np.array([to_internal(np.int64(h), trump) for h in game.hands], dtype=np.int64)
        it = np.zeros(4, dtype=np.int64)
        for i, (_, c) in enumerate(game.trick):
            it[i] = card_to_internal(c, trump)
        pos = np.zeros(POS_LEN, dtype=np.int64)
        pos[SolverPos.LEADER] = pub[Pub.LEADER]
        pos[SolverPos.PLAYED] = len(game.trick)
        pos[SolverPos.TEAM] = view[View.C_TEAM]
        pos[SolverPos.CAPOT] = pub[Pub.CAPOT]
        best = SK.solve_position(ws, ih, it, pos, SK.F_ALL)
        SK.set_position(ws, ih, it, pos)
        got = SK.play_card(ws, card_to_internal(card, trump))
        if ws.hands.any():
            got += SK.value(ws, np.int64(-1), SK.F_ALL)
        assert got == best
        checked += 1
    assert checked >= 25


def test_no_tierce_declarations_match_reference():
    rng = random.Random(2)
    decl = np.zeros(DECL_LEN, dtype=np.int32)
    seen_tierce = 0
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(32), 8))
        trump = rng.randrange(4)
        for name, pid in (("all", DECL_ALL), ("no-tierce", DECL_NO_TIERCE)):
            want = declared(hand, trump, name)
            declare_policy_hand(np.int64(hand), trump, pid, decl)
            assert decl[Decl.POINTS] == sum(c.value for c in want)
            assert (decl[Decl.BEST_KEY] == 0) == (not want)
            cards = 0
            for c in want:
                if c.kind == "four":
                    cards |= 0x01010101 << c.top
                else:
                    cards |= ((1 << c.length) - 1) << (8 * c.suit + c.top - c.length + 1)
            assert combination_cards(np.int64(hand), pid) == cards
        seen_tierce += any(c.length == 3 and c.kind == "sequence" for c in declared(hand, 0))
    assert seen_tierce > 300


def test_kernels_match_reference_with_no_tierce_teams():
    setup = make_setup("random", "random", "random", auction_args=(600, 3))
    setup[Setup.DECLARE_EW] = DECL_NO_TIERCE
    assert run_differential(RULE_SETS["options"], 800, setup) > 750


def test_concealing_tierces_costs_points():
    """A tierce kept quiet scores nothing and cannot win the comparison; with heuristic play
    (which reads no announcements) that is all it does: no-tierce loses on mirrored deals."""
    r = match.batch(S.BOOK.resolve("quiet"), S.BOOK.resolve("heuristic"), 20_000, seed=3)
    assert r["a_minus_b"]["ci95"][1] < 0


def test_pimc_strategy_files_and_setup():
    s = S.BOOK.from_dict({"name": "p", "play": "pimc", "play_params": {"worlds": 3}})
    su = S.setup(s, S.BOOK.resolve("quiet"))
    assert su[Setup.WORLDS_NS] == 3 and su[Setup.PLAY_NS] == 4
    assert su[Setup.DECLARE_EW] == DECL_NO_TIERCE
    for bad in (
        {"name": "x", "play": "heuristic", "play_params": {"worlds": 3}},
        {"name": "x", "play": "pimc", "play_params": {"worlds": 0}},
        {"name": "x", "declare": "some"},
    ):
        with pytest.raises(StrategyError):
            S.BOOK.from_dict(bad)


@pytest.mark.slow
def test_pimc_rounds_keep_deals_and_auctions_and_beat_heuristic_play():
    rules = PLAIN.to_array()
    n = 120
    heur = make_setup("threshold", "heuristic", "heuristic")
    mixed = make_setup("threshold", "pimc", "heuristic", worlds=(4, 4))
    base, _, _ = simulate_batch(9, 0, n, heur, rules)
    recs, plays, _ = simulate_batch(9, 0, n, mixed, rules)
    head = RoundRec.FIRST_LEADER + 1
    assert (recs[:, :head] == base[:, :head]).all()  # same deals, auctions, declarations
    played = recs[:, RoundRec.BIDDER] >= 0
    assert (np.sort(plays[played], axis=1) == np.arange(32)).all()
    ns = RoundRec.SCORE + 14
    ew = RoundRec.SCORE + 15
    gain = (recs[:, ns] - recs[:, ew]) - (base[:, ns] - base[:, ew])
    assert gain.mean() > 0


@pytest.mark.slow
def test_pimc_rounds_same_whatever_threads():
    import numba

    rules = PLAIN.to_array()
    setup = make_setup("threshold", "pimc", "pimc", worlds=(2, 2))
    prev = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate_batch(4, 0, 40, setup, rules)[0]
        numba.set_num_threads(prev)
        many = simulate_batch(4, 0, 40, setup, rules)[0]
    finally:
        numba.set_num_threads(prev)
    assert (one == many).all()


@pytest.mark.slow
def test_bid_with_pimc_play(run_main):
    code, out, err = run_main(
        "pilotta", "bid", "JS 9S AS TS KH AD TD 7C", "--seat", "S", "--play", "pimc", "-n", "6"
    )
    assert code == 0, err
    assert "Recommendation" in out and "pimc" in out
