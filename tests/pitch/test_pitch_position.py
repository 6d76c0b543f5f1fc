"""Pitch's position API (``pitch/position.py``, ``worlds.py``, ``seen.py``, ``deciders.py``):
rounds played through ``PitchState`` and the deciders are the rounds the kernels play (every
registered policy, the same streams), the state keeps the rules at every step (checked against
the plain-Python reference), a seat's resampled worlds keep what it saw and are drawn
uniformly, and a record of what a seat saw rebuilds the position or is refused in one line."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.advice import advise_play
from piquet_sim.core.game.definition import ValueSettings
from piquet_sim.core.game.position import play_out
from piquet_sim.pitch import cards as C
from piquet_sim.pitch.batch import duel_policies
from piquet_sim.pitch.card_values import card_values
from piquet_sim.pitch.deciders import (
    SearchPlay,
    SeatDecider,
    bid_decider,
    play_decider,
    seat_deciders,
)
from piquet_sim.pitch.definition import DEFINITION
from piquet_sim.pitch.kernels.decide import sampled_hands, search_rounds
from piquet_sim.pitch.kernels.duel import duel_rounds
from piquet_sim.pitch.kernels.simulate import simulate_rounds
from piquet_sim.pitch.layouts import RoundRec, TraceRec
from piquet_sim.pitch.policies import make_policy, names
from piquet_sim.pitch.position import BID_BASE, NUM_ACTIONS, PASS, PitchState
from piquet_sim.pitch.record import CODEC, PitchRecord, history_text
from piquet_sim.pitch.reference import rules as R
from piquet_sim.pitch.rules import Rules
from piquet_sim.pitch.seen import position_of, seen_position
from piquet_sim.pitch.worlds import count_worlds, enumerate_worlds

OPTIONS = {
    "default": {},
    "must_follow": {"must_follow": True},
    "low_to_capturer": {"low_to": "capturer"},
    "game_tie_bidder": {"game_tie": "bidder"},
}


def _check_round(st: PitchState, rec, trace, n: int, where: str) -> None:
    assert st.is_terminal(), where
    assert st.calls == [int(x) for x in rec[RoundRec.BIDS : RoundRec.BIDS + n]], where
    assert (st.bidder, st.bid, int(st.stole)) == (
        rec[RoundRec.BIDDER],
        rec[RoundRec.BID],
        rec[RoundRec.STOLE],
    ), where
    assert st.trump == rec[RoundRec.TRUMP], where
    assert st.takers == [int(x) for x in rec[RoundRec.TAKER : RoundRec.TAKER + 6]], where
    assert st.points == [int(x) for x in rec[RoundRec.POINTS : RoundRec.POINTS + n]], where
    assert st.game == [int(x) for x in rec[RoundRec.GAME_PTS : RoundRec.GAME_PTS + n]], where
    assert st.returns() == [float(x) for x in rec[RoundRec.SCORE : RoundRec.SCORE + n]], where
    assert int(st.made) == rec[RoundRec.MADE], where
    if trace is not None:
        plays = [a for a in st.history() if a < PASS]
        assert plays == [int(x) for x in trace[TraceRec.PLAYS : TraceRec.PLAYS + 6 * n]], where
        assert st.winners == [int(x) for x in trace[TraceRec.WINNERS : TraceRec.WINNERS + 6]]


@pytest.mark.parametrize(
    ("bid", "play", "players", "option"),
    [
        ("random", "random", 4, "default"),
        ("random", "random", 3, "must_follow"),
        ("random", "random", 5, "low_to_capturer"),
        ("random", "random", 6, "game_tie_bidder"),
        ("threshold", "heuristic", 4, "default"),
        ("threshold", "heuristic", 6, "must_follow"),
        ("parametric", "heuristic", 3, "low_to_capturer"),
        ("pass", "random", 5, "game_tie_bidder"),
        ("random", "heuristic", 4, "low_to_capturer"),
    ],
)
def test_rounds_through_the_state_are_the_kernels_rounds(bid, play, players, option):
    """Every call, card, trick, point and score of 300 rounds (seed 7) as ``simulate_rounds``
    plays them; the legal cards at every play as the kernel offered them."""
    rules = Rules(players=players, **OPTIONS[option])
    recs, traces = simulate_rounds(
        np.int64(7), np.int64(0), np.int64(300), rules.to_array(), make_policy(bid, play), True
    )
    decs = seat_deciders(bid, play, players)
    for i in range(300):
        st = PitchState.from_deal(7, i, rules)
        assert st.dealt == [int(h) for h in recs[i][RoundRec.HANDS : RoundRec.HANDS + players]]
        k = 0
        while not st.is_terminal():
            if st.phase == "play":
                assert st.legal_mask() == traces[i][TraceRec.LEGAL + k], (i, k)
                k += 1
            st.apply(decs[st.current_player()].choose(st))
        _check_round(st, recs[i], traces[i], players, f"round {i}, {bid}/{play}, {rules}")


def test_the_montecarlo_bidder_is_the_duel_kernels():
    """A ``montecarlo`` hero (round i: seat i % 4) among ``threshold`` bidders, heuristic play:
    his score, points, whether he bid and made it, as ``duel_rounds`` (variant A) has them; he
    pitches the suit he chose with his bid."""
    rules = Rules()
    table, heroes = duel_policies("montecarlo", "threshold", 150, "threshold", "heuristic")
    d = duel_rounds(np.int64(4), np.int64(0), np.int64(150), rules.to_array(), table, heroes)
    mc = SeatDecider(bid_decider("montecarlo"), play_decider("heuristic"))
    plain = SeatDecider(bid_decider("threshold"), play_decider("heuristic"))
    bids = 0
    for i in range(150):
        hero = i % 4
        st = play_out(
            PitchState.from_deal(4, i, rules), [mc if s == hero else plain for s in range(4)]
        )
        mine = st.bidder == hero
        bids += mine
        got = (st.scores[hero], st.points[hero], int(mine), int(mine and st.made))
        assert got == tuple(int(x) for x in d[i, 0]), i
        if mine:
            assert st.trump == st.memory[("pitch", hero)]
    assert bids > 20


def test_a_seat_decider_pickles_with_its_phases():
    import pickle

    seat = pickle.loads(pickle.dumps(seat_deciders("threshold", "heuristic")[0]))
    assert type(seat) is SeatDecider and seat.name == "threshold+heuristic"
    assert seat.bid.name == "threshold" and seat.by_phase["auction"] is seat.bid


@pytest.mark.parametrize(
    ("bid", "play", "players", "params", "rounds"),
    [
        ("threshold", "dd", 3, None, 6),
        ("threshold", "pimc", 3, (2.0,), 6),
        pytest.param("random", "pimc", 4, (2.0,), 3, marks=pytest.mark.slow),  # 40 s in CI
        ("pass", "pimc", 3, (3.0,), 3),
        ("threshold", "pimc", 4, (2.0, 1.0), 3),  # a defender playing for his own points
        ("threshold", "pimc", 4, (3.0, 0.0, 1.0), 4),  # every seat choosing by the score
        ("threshold", "pimc", 3, (2.0, 1.0, 1.0), 3),  # the bidder by the score, own defenders
    ],
)
def test_search_plays_are_the_search_kernel(bid, play, players, params, rounds):
    """pimc and dd through the state (``pimc.search_card`` step for step, the round's stream)
    play the rounds ``kernels.decide.search_rounds`` plays with ``pimc.play_out_search``."""
    rules = Rules(players=players)
    pol = make_policy(bid, play, play_params=params, allow_solver=True)
    recs, tricks = search_rounds(np.int64(5), np.int64(0), np.int64(rounds), rules.to_array(), pol)
    decs = seat_deciders(bid, play, players, play_params=params)
    for i in range(rounds):
        st = play_out(PitchState.from_deal(5, i, rules), decs)
        _check_round(st, recs[i], None, players, f"round {i}, {bid}/{play}")
        assert st.winners == [int(x) for x in tricks[i][6:12]]
        assert [_mask(t) for t in st.finished] == [int(x) for x in tricks[i][:6]]


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def test_search_values_agree_with_the_choice():
    """pimc's values (the decision's worlds) and dd's (exact): one estimate per legal card,
    the card chosen among the best (ties go to the cheapest), asking twice draws once."""
    rules = Rules(players=3)
    pimc = SearchPlay("pimc", (4.0,), "threshold")
    dd = SearchPlay("dd", None, "threshold")
    decs = seat_deciders("threshold", "heuristic", 3)
    checked = 0
    for i in range(12):
        st = PitchState.from_deal(3, i, rules)
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.phase == "play" and len(legal) > 1 and st.trick_index in (1, 3):
                for dec in (pimc, dd):
                    before = st.stream[0]
                    v = dec.values(st)
                    drawn = st.stream[0]
                    card = dec.choose(st)
                    assert st.stream[0] == drawn and (dec is dd or drawn > before)
                    assert sorted(v.values) == legal
                    assert v.exact == (dec is dd) and v.worlds == (1 if dec is dd else 4)
                    top = max(e.mean for e in v.values.values())
                    assert v.values[card].mean == top
                    checked += 1
            st.apply(decs[st.current_player()].choose(st))
    assert checked > 20


def test_pimc_own_changes_only_the_defenders_cards_and_chooses_his_best():
    """With own=1 the bidder plays as before (the same worlds, the same values), a defender
    plays the card best for his own points in the worlds (his values, highest first), and on
    some positions that is not the card that holds the bidder down."""
    rules = Rules(players=4)
    decs = seat_deciders("threshold", "heuristic", 4)
    differs = checked = 0
    for i in range(16):
        st = PitchState.from_deal(11, i, rules)
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.phase == "play" and len(legal) > 1:
                cards = {}
                for own in (0.0, 1.0):
                    dec = SearchPlay("pimc", (4.0, own), "threshold")
                    probe = st.clone()
                    v = dec.values(probe)
                    cards[own] = dec.choose(probe)
                    assert v.values[cards[own]].mean == max(e.mean for e in v.values.values())
                if st.current_player() == st.bidder:
                    assert cards[0.0] == cards[1.0]
                else:
                    differs += cards[0.0] != cards[1.0]
                checked += 1
            st.apply(decs[st.current_player()].choose(st))
    assert checked > 100 and differs > 0


def _legal_ref(st: PitchState) -> list[int]:
    seat = st.current_player()
    hand = [c for c in range(64) if st.hands[seat] >> c & 1]
    trump = st.trump if st.trump >= 0 else None
    if st.trick:
        return sorted(R.legal_plays(hand, st.trick, trump, st.rules.must_follow))
    return sorted(hand)


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_random_play_keeps_the_rules_at_every_step(option):
    """Uniform random legal actions, 3 to 6 players: at every step the legal actions are the
    reference's (calls: ``legal_bids``; cards: ``legal_plays``), strings round-trip, a clone is
    independent, nobody holds a suit he showed void in, and the end scores as
    ``reference.score_round``."""
    rng = np.random.default_rng(11)
    for players in (3, 4, 5, 6):
        rules = Rules(players=players, **OPTIONS[option])
        for i in range(60):
            st = PitchState.from_deal(21, i, rules)
            steps = 0
            while not st.is_terminal():
                legal = st.legal_actions()
                assert legal == sorted(legal) and all(0 <= a < NUM_ACTIONS for a in legal)
                if st.phase == "auction":
                    dealer = st.current_player() == players - 1
                    ref = R.legal_bids(st.highest, dealer)
                    assert legal == [PASS if c == 0 else BID_BASE + c for c in ref]
                else:
                    assert legal == _legal_ref(st)
                for a in legal:
                    assert st.string_to_action(st.action_to_string(a)) == a
                for s in range(players):
                    for x in range(4):
                        if st.voids[s] >> x & 1:
                            assert not st.hands[s] & (0x1FFF << 16 * x)
                assert sum(map(C.popcount, st.hands)) + sum(map(C.popcount, st.played)) == (
                    6 * players
                )
                a = legal[rng.integers(len(legal))]
                if steps == 5:
                    twin = st.clone()
                    st.apply(a)
                    assert twin.history() == st.history()[:-1]
                    twin.apply(a)
                    assert twin.hands == st.hands and twin.returns() == st.returns()
                else:
                    st.apply(a)
                steps += 1
            plays = [a for a in st.history() if a < PASS]
            ref = R.score_round(
                st.dealt,
                st.bidder,
                st.bid,
                plays,
                rules.must_follow,
                rules.low_to == "capturer",
                rules.game_tie == "bidder",
            )
            assert st.returns() == [float(x) for x in ref.scores]
            assert st.winners == ref.winners
            with pytest.raises(InputError):
                st.apply(plays[0])


def test_illegal_actions_and_strings():
    st = PitchState.from_hands(
        ["AS KS 2S 3H 4D 5C", "JS 6S TH 9H 8D 7C", "QS 3S AH KH QD 2C", "TS 5S JH 2H AD KC"]
    )
    with pytest.raises(InputError, match="not legal"):
        st.apply(0)  # a card in the auction
    st.apply_all(["pass", "4", "pass"])
    assert st.string_to_action("steal") == BID_BASE + 4
    assert st.legal_actions() == [PASS, BID_BASE + 4, BID_BASE + 5, BID_BASE + 6]
    st.apply(st.string_to_action("4 (steal)"))
    assert (st.bidder, st.bid, st.stole) == (3, 4, True)
    assert st.current_player() == 3
    with pytest.raises(InputError, match="not legal"):
        st.apply(C.parse_card("AS"))  # seat 0's card
    with pytest.raises(InputError, match="neither a card nor a call"):
        st.string_to_action("XX")
    given = PitchState.from_hands(
        ["AS KS 2S 3H 4D 5C", "JS 6S TH 9H 8D 7C", "QS 3S AH KH QD 2C"], trump="H"
    )
    given.apply_all(["3", "pass", "pass"])
    assert given.legal_actions() == [C.parse_card("3H")]


def _mid_states(players: int, count: int, seed: int = 31, bid: str = "threshold"):
    rules = Rules(players=players)
    decs = seat_deciders(bid, "heuristic", players)
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        st = PitchState.from_deal(seed, i, rules)
        stop = int(rng.integers(players, players + 6 * players - 1))
        while len(st.history()) < stop and not st.is_terminal():
            st.apply(decs[st.current_player()].choose(st))
        if not st.is_terminal():
            out.append(st)
    return out


def _public(obs: dict) -> dict:
    return {k: v for k, v in obs.items() if k != "history"}


def test_resampled_worlds_keep_what_the_seat_saw():
    """Every resampled world keeps the seat's observation (his cards, the calls, the tricks,
    the cards left, the voids) and the calls fit the others' bid policy (threshold)."""
    rng = np.random.default_rng(5)
    for players in (3, 4, 6):
        for st in _mid_states(players, 25):
            seat = st.current_player()
            obs = st.observation(seat)
            for _ in range(3):
                w = st.resample(seat, rng)
                assert w.world_status == 0
                assert w.observation(seat) == obs
                assert w.hands[seat] == st.hands[seat]
                for s in range(players):
                    assert C.popcount(w.hands[s]) == C.popcount(st.hands[s])
                    assert w.dealt[s] == w.hands[s] | st.played[s]
                # the others' calls are what threshold calls with the world's hands
                replay = PitchState(w.dealt, st.rules)
                dec = bid_decider("threshold")
                for s, call in enumerate(st.calls):
                    if s != seat:
                        assert dec.choose(replay) == (PASS if call == 0 else BID_BASE + call)
                    replay.apply(PASS if call == 0 else BID_BASE + call)
                w.apply(w.legal_actions()[0])  # the world plays on


def test_the_sampler_draws_every_consistent_world_alike():
    """Late in a 3-player round with voids shown (few worlds): the frequencies of 40,000 sampled
    worlds (calls not conditioning: the others bid at random) match the uniform law over the
    enumerated worlds (chi-square), which the sampler's acceptance ratio makes exact."""
    rules = Rules(players=3, must_follow=True)
    decs = seat_deciders("random", "random", 3)
    for i in range(400):
        st = PitchState.from_deal(8, i, rules)
        while not st.is_terminal() and not (st.trick_index == 5 and not st.trick):
            st.apply(decs[st.current_player()].choose(st))
        seat = st.current_player()
        voids = sum(C.popcount(v) for s, v in enumerate(st.voids) if s != seat)
        if st.is_terminal() or voids < 2 or not 20 <= count_worlds(st, seat) <= 3000:
            continue
        worlds = enumerate_worlds(st, seat)
        if not 15 <= len(worlds) < count_worlds(st, seat):
            continue
        sight, policy = st.sight(seat, "random")
        hands, status = sampled_hands(
            np.int64(3),
            np.int64(0),
            np.int64(40_000),
            sight,
            policy,
            np.int64(1 << 14),
            np.int64(1 << 14),
        )
        assert (status == 0).all()
        seen = Counter(tuple(int(x) for x in h) for h in hands)
        keys = {tuple(int(x) for x in w) for w in worlds}
        assert set(seen) <= keys
        expect = len(hands) / len(keys)
        chi2 = sum((seen.get(k, 0) - expect) ** 2 / expect for k in keys)
        df = len(keys) - 1
        assert chi2 < df + 5 * math.sqrt(2 * df), (chi2, df)
        return
    pytest.fail("no position with voids and few worlds found")


def test_exact_values_at_the_last_tricks_and_the_sample_agrees():
    """A position with few worlds is valued over every one of them (exact); 3,000 sampled
    worlds of the same position agree with it within their intervals."""
    for st in _mid_states(3, 200, seed=41):
        seat = st.current_player()
        if st.trick_index < 4 or len(st.legal_actions()) < 2 or count_worlds(st, seat) > 20_000:
            continue
        exact = card_values(st, exact_limit=20_000)
        assert exact.exact and exact.facts["drawn"] == len(enumerate_worlds(st, seat))
        sampled = card_values(st, worlds=3000, exact_limit=0, seed=2)
        assert not sampled.exact
        for c, e in exact.values.items():
            s = sampled.values[c]
            assert abs(s.mean - e.mean) <= 4 * s.se + 1e-9, (c, s, e)
        return
    pytest.fail("no late position found")


def test_play_advice_ranks_and_explains():
    st = _mid_states(4, 30, seed=12)
    done = 0
    for s in st:
        if len(s.legal_actions()) < 2 or s.phase != "play":
            continue
        settings = ValueSettings(worlds=60, exact_limit=20_000, seed=3, others="threshold")
        adv = advise_play(DEFINITION, s, settings)
        d = adv.to_dict(DEFINITION.advice_view(adv, settings))
        means = [r["mean"] for r in d["cards"]]
        assert means == sorted(means, reverse=True)
        assert d["best"] == d["cards"][0]["card"] and d["why"]
        assert d["worlds"] + d["worlds_left_out"] == d["worlds_drawn"]
        assert all(0 <= r["p_bid_made"] <= 1 for r in d["cards"])
        done += 1
        if done == 4:
            return
    pytest.fail("too few decisions")


def test_forced_card_needs_no_world():
    for st in _mid_states(4, 40, seed=13):
        if st.phase == "play" and len(st.legal_actions()) == 1:
            adv = advise_play(DEFINITION, st, DEFINITION.play_settings)
            assert adv.forced and adv.values.worlds == 0 and adv.why == "the only legal card"
            return
    pytest.fail("no forced card found")


# ---------------------------------------------------------------------- records
def test_records_of_what_a_seat_saw_round_trip_and_rebuild_the_position():
    """A seat's record (his dealt hand and what he saw): text and JSON round-trip, and it
    rebuilds his position as a review file and as a play history with his cards now."""
    for players in (3, 4, 5):
        rules = Rules(players=players)
        for st in _mid_states(players, 20, seed=17):
            seat = st.current_player()
            rec = CODEC.from_state(st, seat, every_hand=False)
            text = CODEC.text(rec)
            assert CODEC.text(CODEC.parse(text)) == text
            assert CODEC.text(CODEC.parse_json(CODEC.json(rec))) == text
            history = CODEC.parse(history_text(rec), rules, player=seat, hand=st.hands[seat])
            for told in (CODEC.parse(text), history):
                w = position_of(told, rules, seed=4)
                assert _public(w.observation(seat)) == _public(st.observation(seat))
                assert w.legal_actions() == st.legal_actions()


def _d(seat: int, hand: str, history: str, players: int = 4) -> PitchRecord:
    """Seat ``seat``'s play history, with ``hand`` his cards now."""
    return CODEC.parse(history, Rules(players=players), player=seat, hand=C.parse_cards(hand))


@pytest.mark.parametrize(
    ("seat", "hand", "history", "message"),
    [
        (1, "JS 6S TH 9H 8D", "auction: pass 4 pass pass; tricks: JS AS", "your hand and trick 1"),
        (1, "TH 9H 8D 7C", "auction: pass 3 pass pass; tricks: JS 2S 3S 5S / 6S", "seat 2's"),
        (2, "3S AH KH QD 2C", "auction: 3 pass pass pass; tricks: AS 6S QS TS 5S", "5 cards"),
        (0, "KS 2S 4D 5C", "auction: 3 pass pass pass; tricks: AS 6S 3S 5S / 3H 8H", "turn"),
        (3, "TS 5S JH 2H AD KC", "auction: 3 4 pass", "auction is not"),
        (1, "JS 6S TH 9H 8D 7C", "auction: pass 3 3 pass", "cannot call 3"),
        (3, "TS 5S JH 2H AD KC", "auction: pass pass pass pass", "must bid"),
        (1, "6S TH 9H 8D 7C", "auction: pass 3 pass pass; trump: H; tricks: JS", "trump: H"),
        (1, "6S TH 9H 8D 7C", "auction: 3 pass pass pass; tricks: AS JH", "may not play JH"),
        (1, "6S TH 9H 8D 7C", "auction: 3 pass pass pass; tricks: AS", "a hand is 6"),
        (3, "TS 5S JH 2H AD", "auction: pass pass pass 3; tricks: KC / 2S", "only the last"),
    ],
)
def test_impossible_descriptions_are_one_line(seat, hand, history, message):
    with pytest.raises(InputError, match=message) as err:
        d = _d(seat, hand, history)
        if "auction is not" in message:
            st = seen_position(d, Rules())
            assert st.phase == "auction"
            position_of(d, Rules())
        seen_position(d, Rules())
    assert "\n" not in str(err.value)


def test_a_revoke_after_a_void_and_voids_that_cannot_be_dealt():
    """Seat 2 showed no spades (trick 1, spades trump) and plays one later: a revoke. Voids
    leaving too few unseen cards for a seat: impossible."""
    with pytest.raises(InputError, match="showed no spades"):
        seen_position(
            _d(3, "TS JH 2H AD KC", "auction: pass pass pass 3; tricks: 5S 7S 9H 2S / JS 4S 3S"),
            Rules(),
        )
    # 3 players: seats 1 and 2 void in spades, hearts and diamonds hold six cards, all clubs,
    # and only four clubs are unseen
    hist = "auction: 3 pass pass; tricks: AS 2C 3C / AH 4C 5C / AD 6C 7C"
    with pytest.raises(InputError, match="impossible history: seat 1, seat 2 hold 6"):
        seen_position(_d(0, "KC QC JC", hist, 3), Rules(players=3))


def test_histories_in_json_and_text_agree():
    text = "auction: 0:pass 1:3 2:pass 3:pass; tricks: AC 7C 4C KC / 7D QD QC JD / 3H 6H"
    hand = C.parse_cards("TH 9D TC 2C")
    a = CODEC.parse(text, Rules(), player=1, hand=hand)
    b = CODEC.parse_json(
        json.loads(
            '{"auction": ["pass", 3, "pass", "pass"], "tricks": [["AC", "7C", "4C", "KC"], '
            '["7D", "QD", "QC", "JD"], "3H 6H"]}'
        ),
        Rules(),
        player=1,
        hand=hand,
    )
    assert CODEC.json(a) == CODEC.json(b) and a.hand_now == b.hand_now == hand
    st = seen_position(a, Rules())
    assert st.bidder == 1 and st.trump == 3 and st.leader == 3 and st.trick == a.tricks[-1]


def test_every_registered_policy_has_a_decider():
    for name in names("bid"):
        assert bid_decider(name).name == name
    for name in names("play"):
        assert play_decider(name).name == name


def test_the_definitions_seat_deciders_play_the_strategies():
    """A strategy per seat (the core's strategy book): rounds played by the definition's seat
    deciders are those of the deciders of the same bid and play policies."""
    book = DEFINITION.strategies
    rules = Rules(players=4)
    names = ["threshold", "bold", "threshold", "random"]
    mine = DEFINITION.seat_deciders([book.get(n) for n in names], rules)
    bold = {"margin": -1.0}
    theirs = [
        SeatDecider(bid_decider("threshold"), play_decider("heuristic")),
        SeatDecider(bid_decider("threshold", bold), play_decider("heuristic")),
        SeatDecider(bid_decider("threshold"), play_decider("heuristic")),
        SeatDecider(bid_decider("random"), play_decider("random")),
    ]
    for i in range(20):
        a = play_out(PitchState.from_deal(9, i, rules), mine)
        b = play_out(PitchState.from_deal(9, i, rules), theirs)
        assert a.history() == b.history() and a.returns() == b.returns(), i
