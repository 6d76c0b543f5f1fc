"""PilottaState and the deciders: rounds played through the state with every registered policy
record what the round kernels record for the same seeds (deterministic and random policies,
pimc too: the streams are shared), the rules hold at every step of random play (checked
against the plain-Python reference), the duties of the cards played are exactly the
"forbidden" cards, resampled worlds keep what the seat saw, records of what a seat saw
round-trip and rebuild the position, bad ones are one-line errors, and the card values of dd
and pimc agree with the solver and pimc's own choice."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.advice import advise_play
from piquet_sim.core.game.definition import ValueSettings
from piquet_sim.core.game.position import play_out
from piquet_sim.pilotta import rules as R
from piquet_sim.pilotta.actions import (
    DECLARE,
    KEEP_TIERCE,
    NUM_ACTIONS,
    PASS,
    action_name,
    parse_action,
)
from piquet_sim.pilotta.api import make_setup, simulate_batch
from piquet_sim.pilotta.card_values import card_values
from piquet_sim.pilotta.deciders import (
    DdPlay,
    PimcPlay,
    seat_deciders,
)
from piquet_sim.pilotta.definition import DEFINITION, position_of
from piquet_sim.pilotta.position import PilottaState
from piquet_sim.pilotta.record import CODEC
from piquet_sim.pilotta.reference.play import legal as ref_legal
from piquet_sim.pilotta.rules import Rules
from piquet_sim.pilotta.solver import solve
from piquet_sim.pilotta.worlds import forbidden_by

FULL = 0xFFFFFFFF
DEFAULT = Rules()
HAS_UNDER = "under_optional" in inspect.signature(ref_legal).parameters


def _contree():
    if not hasattr(R, "preset"):
        pytest.skip("no rules presets in this tree")
    return R.preset("contree")


def _kernel_rounds(seed, n, setup, rules):
    return simulate_batch(seed, 0, n, setup, rules.to_array())


def _through_state(seed, n, setup, rules):
    states = []
    for i in range(n):
        st = PilottaState.from_deal(seed, i, rules, setup)
        play_out(st, seat_deciders(setup))
        states.append(st)
    return states


def _assert_same(seed, n, setup, rules=DEFAULT):
    recs, plays, legal_n = _kernel_rounds(seed, n, setup, rules)
    for i, st in enumerate(_through_state(seed, n, setup, rules)):
        assert np.array_equal(st.record(), recs[i]), i
        k = len(st.plays)
        assert list(plays[i, :k]) == st.plays and (plays[i, k:] == -1).all(), i
        assert list(legal_n[i, :k]) == st.legal_n, i
    return recs


SETUPS = {
    "random": (make_setup("random", "random", "random"), 120),
    "threshold-heuristic-greedy": (make_setup("threshold", "heuristic", "greedy"), 120),
    "no-tierce": (
        make_setup("threshold", "heuristic", "heuristic", declare=("no-tierce", "all")),
        120,
    ),
    "fixed-capot": (
        make_setup("fixed", "greedy", "random", auction_args={"level": 9, "suit": 2}),
        40,
    ),
    "mixed-auctions": (
        make_setup(
            "random", "random", "heuristic", auction_ew="threshold", declare=("all", "no-tierce")
        ),
        120,
    ),
}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_rounds_through_the_state_record_what_the_kernels_record(name):
    setup, n = SETUPS[name]
    recs = _assert_same(11, n, setup)
    assert (recs[:, 5] >= 0).sum() > n // 4  # contracts were played, not only thrown in


@pytest.mark.parametrize(
    "rules",
    [
        Rules(partner_exemption=True, first_lead="after_dealer"),
        Rules(trump_kq_points=(3, 2), equal_declarations="nobody"),
        Rules(pass_is_final=True, contract_on_card_points_only=True),
        Rules(failed_contract_loses_declarations=False),
    ],
)
def test_other_rules_record_the_same(rules):
    _assert_same(5, 80, make_setup("random", "random", "heuristic"), rules)
    _assert_same(6, 40, make_setup("threshold", "greedy", "heuristic"), rules)


def test_contree_options_record_the_same():
    rules = _contree()
    _assert_same(7, 100, make_setup("random", "random", "random"), rules)
    _assert_same(8, 60, make_setup("threshold", "heuristic", "greedy"), rules)


def test_montecarlo_bidder_records_the_same():
    setup = make_setup("montecarlo", "heuristic", "random", auction_args={"worlds": 2, "margin": 0})
    recs = _assert_same(3, 12, setup)
    assert (recs[:, 5] >= 0).any()


def test_pimc_rounds_record_the_same():
    """pimc draws its worlds from the round's stream in both (same cards, same plays)."""
    _assert_same(3, 3, make_setup("threshold", "pimc", "heuristic", worlds=(2, 2)))
    setup = make_setup("random", "pimc", "pimc", worlds=(2, 3), declare=("no-tierce", "all"))
    _assert_same(4, 2, setup, Rules(partner_exemption=True))


def _ref_legal(st):
    trick = [((st.leader + i) % 4, c) for i, c in enumerate(st.trick)]
    seat = st.current_player()
    kwargs = {}
    exemption = st.rules.partner_exemption
    if HAS_UNDER:
        kwargs["under_optional"] = getattr(st.rules, "under_trump", "required") == "optional"
    return sorted(ref_legal(st.hands[seat], trick, st.trump, exemption, **kwargs))


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(partner_exemption=True), Rules(trump_kq_points=(3, 2))], ids=str
)
def test_random_play_keeps_the_rules_at_every_step(rules):
    rng = np.random.default_rng(2)
    total = 160 if rules.trump_kq_points == (3, 2) else 162
    for i in range(60):
        st = PilottaState.from_deal(21, i, rules)
        assert sum(st.dealt) == FULL and all(bin(h).count("1") == 8 for h in st.dealt)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal == sorted(legal) and legal
            if st.phase == "play":
                assert legal == _ref_legal(st)
                sizes = [bin(h).count("1") for h in st.hands]
                n = len(st.trick)
                left = 8 - len(st.line)
                for k in range(4):
                    assert sizes[(st.leader + k) % 4] == left - (k < n)
            elif st.phase == "auction":
                assert legal[0] == PASS
            else:
                seat = st.current_player()
                assert DECLARE in legal and (KEEP_TIERCE in legal) == _has_tierce(st.dealt[seat])
            before = st.clone()
            a = int(legal[rng.integers(len(legal))])
            st.apply(a)
            assert before.history() + [a] == st.history()
            with pytest.raises(InputError):
                before.apply(NUM_ACTIONS + 1)
        if st.bidder < 0:
            assert st.returns() == [0.0] * 4
            continue
        assert sum(st.pts) == total and sum(st.tricks_won) == 8
        ns, ew = st.returns()[:2]
        assert st.returns() == [ns, ew, ns, ew] and ns + ew > 0


def _has_tierce(hand):
    for s in range(4):
        h = hand >> (8 * s) & 0xFF
        runs = [len(r) for r in bin(h)[2:].split("0")]
        if 3 in runs:
            return True
    return False


@pytest.mark.parametrize("code", [0, 1, 2, 4, 5, 6])
def test_a_play_is_legal_exactly_when_the_hand_holds_none_of_its_forbidden_cards(code):
    """The duties of the rules read "holding any card of a set", so the forbidden cards of a
    play decide its legality from any hand holding it."""
    from piquet_sim.pilotta.kernels.tricks import legal_cards

    rng = np.random.default_rng(code)
    for _ in range(400):
        cards = rng.permutation(32)
        trump = int(rng.integers(4))
        n = int(rng.integers(1, 4))
        trick = [int(c) for c in cards[:n]]
        hand = sum(1 << int(c) for c in cards[n : n + int(rng.integers(1, 9))])
        led = trick[0] >> 3
        trumps = [c for c in trick if c >> 3 == trump]
        from piquet_sim.pilotta.actions import strength

        top = max((strength(c, trump) for c in trumps), default=-1)
        pw = n >= 2 and bool(rng.integers(2))
        legal = int(legal_cards(hand, n, led, trump, top, pw, code))
        for c in range(32):
            if hand >> c & 1:
                f = forbidden_by(c, n, led, trump, top, pw, code)
                assert bool(legal >> c & 1) == (hand & f == 0)


def test_action_strings_round_trip():
    for a in range(NUM_ACTIONS):
        assert parse_action(action_name(a)) == a
    assert parse_action("10H") == parse_action("TH") and parse_action("capot S") == 69
    assert parse_action("no-tierce") == KEEP_TIERCE and parse_action("p") == PASS
    with pytest.raises(InputError):
        parse_action("85H")


def _play_to(st, setup, cards):
    ds = seat_deciders(setup)
    while not st.is_terminal() and not (st.phase == "play" and len(st.plays) >= cards):
        st.apply(ds[st.current_player()].choose(st))
    return st


SETUP = make_setup("threshold", "heuristic", "heuristic")


def _positions(cards, n=30, seed=5):
    out = []
    for i in range(n):
        st = _play_to(PilottaState.from_deal(seed, i, setup=SETUP), SETUP, cards)
        if st.phase == "play":
            out.append(st)
    return out


def test_resampled_worlds_keep_what_the_seat_saw():
    rng = np.random.default_rng(4)
    for st in _positions(13, 12) + _positions(0, 4):
        for seat in range(4):
            seen = st.observation(seat)
            hands = set()
            for _ in range(4):
                w = st.resample(seat, rng)
                assert w.observation(seat) == seen
                assert w.hands[seat] == st.hands[seat] and w.actors() == st.actors()
                assert [a for k, a in enumerate(w.history()) if st.is_visible(seat, k)] == [
                    a for k, a in enumerate(st.history()) if st.is_visible(seat, k)
                ]
                forbidden = w.forbidden()
                assert all(w.hands[p] & forbidden[p] == 0 for p in range(4))
                hands.add(tuple(w.hands))
            assert len(hands) > 1 or bin(FULL & ~st.played).count("1") <= 8
    auction = PilottaState.from_deal(5, 1, setup=SETUP)
    auction.apply(PASS)
    w = auction.resample(2, rng)
    assert w.observation(2) == auction.observation(2) and w.phase == "auction"
    for _ in range(3):
        auction.apply(PASS)
    assert auction.is_terminal() and auction.returns() == [0.0] * 4  # thrown in
    assert auction.resample(1, rng).observation(1) == auction.observation(1)
    over = _play_to(PilottaState.from_deal(5, 2, setup=SETUP), SETUP, 32)
    assert over.is_terminal() and over.resample(3, rng).observation(3) == over.observation(3)


def test_records_of_what_a_seat_saw_round_trip_and_rebuild_the_position():
    for st in _positions(13, 8) + _positions(22, 6):
        seat = st.current_player()
        rec = CODEC.from_state(st, seat, every_hand=False)
        text = CODEC.text(rec)
        assert CODEC.text(CODEC.parse(text)) == text
        assert CODEC.text(CODEC.parse_json(json.loads(json.dumps(CODEC.json(rec))))) == text
        again = position_of(CODEC.parse(text), DEFAULT, "threshold", 1)
        assert again.observation(seat) == st.observation(seat)
        assert again.legal_actions() == st.legal_actions()


def test_a_contract_alone_reads_no_call():
    st = _positions(9, 3)[0]
    seat = st.current_player()
    rec = CODEC.from_state(st, seat, every_hand=False)
    rec.calls, rec.contract_only = None, (st.bidder, st.level, st.trump)
    again = position_of(rec, DEFAULT, "threshold", 1)
    assert again.calls_array().shape == (0, 3) and again.contract() == st.contract()
    assert "contract:" in CODEC.text(rec)


BAD = {
    "card twice": "dealer: E; auction: S:80C W:pass N:pass E:pass; tricks: JC 7C KC 8S, JC 9D",
    "out of turn": "auction: S:80C N:pass",
    "not over": "auction: S:80C W:pass N:pass",
    "too low": "auction: S:80C W:80S",
    "no contract": "dealer: E; tricks: JC 7C KC 8S",
    "unknown key": "auction: S:80C W:pass N:pass E:pass; lead: 7S",
    "unfinished trick inside": "auction: S:80C W:pass N:pass E:pass; tricks: JC 7C, KC 8S 9S AS",
}
GOOD_AUCTION = "dealer: E; auction: S:80C W:pass N:pass E:90D S:100C W:pass N:pass E:pass"
HAND = "JS AH JH QD 9C"


def _position(history: str, hand: str):
    """North's play position a ``--history`` text describes (the calls read as random)."""
    from piquet_sim.pilotta.cards import parse_cards

    rec = CODEC.parse(history, DEFAULT, player=0, hand=parse_cards(hand))
    return position_of(rec, DEFAULT, "random", 1)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_histories_are_one_line_errors(name):
    with pytest.raises(InputError) as err:
        _position(BAD[name], HAND)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "tricks, hand, words",
    [
        ("JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H, JS", "AH JH QD 9C", "turn"),
        ("JC 7C KC 8S, AS 7S QD 9S, 7H 8H TH 9H", "JS AH JH KS 9C", "revoke"),
        ("JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 8C", "JS AH JH QD 9C", "revoke"),
        ("JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H, 9C 8C", "JS AH JH QD", "revoke"),
        ("JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H", "JS AH JH QD", "hold"),
        ("JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H", "JS AH JH QD 9C JC", "trick"),
    ],
)
def test_impossible_plays_are_refused(tricks, hand, words):
    text = f"{GOOD_AUCTION}; tricks: {tricks}"
    with pytest.raises(InputError) as err:
        _position(text, hand)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_seat_failing_a_duty_while_holding_what_it_showed_revokes():
    text = (
        f"{GOOD_AUCTION}; declared: E 8D 9D TD; "
        "tricks: JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H, QD TS"
    )
    with pytest.raises(InputError) as err:
        _position(text, "JS AH JH 9C")
    assert "while holding" in str(err.value)


def test_declarations_are_checked():
    from piquet_sim.pilotta.cards import parse_cards

    base = f"{GOOD_AUCTION}; tricks: JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H"
    for declared, words in [
        ("E KH QH", "not combinations"),
        ("E AH KH QH", "in your hand"),
        ("N AH KH QH", "your hand declares"),
        ("W QS KS AS", "was declared by W"),
    ]:
        with pytest.raises(InputError) as err:
            _position(f"{base}; declared: {declared}", HAND)
        assert words in str(err.value), declared
    st = _position(f"{base}; declared: E 8D 9D TD", HAND)
    assert st.shown[1] == parse_cards("8D 9D TD") and st.announced[1] == 20
    seat_e = st.hands[1] | st.gone[1]
    assert seat_e & st.shown[1] == st.shown[1]


def test_dd_values_are_the_solvers():
    for st in _positions(14, 6):
        seat = st.current_player()
        dd = DdPlay()
        vals = dd.values(st)
        for c in st.legal_actions():
            after = st.clone()
            after.apply(c)
            trick = list(after.trick)
            hands = list(after.hands)
            leader = after.leader
            won = (after.tricks_won[after.c_team], after.tricks_won[1 - after.c_team])
            sol = solve(
                hands,
                after.trump,
                leader,
                after.c_team,
                trick,
                won,
                after.pts[after.c_team] if min(won) > 0 else None,
                st.rules,
            )
            mine = (
                sol.value
                if (seat & 1) == st.c_team
                else (0 if sol.value >= 250 else 162 - sol.value)
            )
            assert vals.values[c].mean == mine, (c, sol.value)
        best = dd.choose(st)
        assert best in st.legal_actions()
        assert vals.values[best].mean == max(v.mean for v in vals.values.values())


def test_pimc_values_are_the_worlds_it_plays_on():
    """values() solves the worlds choose() draws (the stream copied): its best is the card
    pimc plays, and asking twice draws once."""
    n = 0
    for st in _positions(9, 10) + _positions(18, 6):
        p = PimcPlay(worlds=3)
        vals = p.values(st)
        before = st.stream.copy()
        card = p.choose(st)
        after = st.stream.copy()
        assert p.choose(st) == card and (st.stream == after).all()
        if len(st.legal_actions()) == 1:
            continue
        assert not (before == after).all()
        best = vals.best()
        capot_possible = any(max(v) >= 250 for v in vals.per_card["contracting"].values())
        if not capot_possible:
            assert vals.values[best].mean == vals.values[card].mean
            n += 1
    assert n > 5


def test_card_values_enumerate_the_last_tricks_exactly():
    for st in _positions(24, 8):
        if len(st.legal_actions()) < 2:
            continue
        vals = card_values(st, worlds=50)
        assert vals.exact and 0 < vals.worlds <= vals.possible
        assert all(e.se == 0 for e in vals.values.values())
        again = card_values(st, worlds=50)
        assert {c: e.mean for c, e in again.values.items()} == {
            c: e.mean for c, e in vals.values.items()
        }


def test_advice_ranks_every_legal_card():
    st = _positions(13, 3)[0]
    settings = ValueSettings(worlds=40, exact_limit=0)
    a = advise_play(DEFINITION, st, settings)
    assert sorted(a.ranking) == st.legal_actions() and not a.values.exact
    means = [a.values.values[c].mean for c in a.ranking]
    assert means == sorted(means, reverse=True)
    data = a.to_dict(DEFINITION.advice_view(a, settings))
    assert data["best"] == action_name(a.best) and len(data["cards"]) == len(a.ranking)
    assert all(0 <= row["p_made"]["p"] <= 1 for row in data["cards"])
