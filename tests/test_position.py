"""Piquet's position API (``piquet/position.py``, ``piquet/deciders.py``): deals played through
``PiquetState`` and the deciders score as the round kernels score them, the state keeps the
rules at every step (checked against rules written out here), a seat's knowledge and resampled
worlds keep what it saw, and a described position rebuilds what its player saw."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.advice import advise_play
from piquet_sim.core.game.position import play_out
from piquet_sim.piquet import cards as C
from piquet_sim.piquet.actions import DECL_BASE, END, NUM_ACTIONS, ROLES
from piquet_sim.piquet.card_values import card_values
from piquet_sim.piquet.codec import CODEC
from piquet_sim.piquet.deciders import (
    DdPlay,
    KernelPlay,
    PimcDecider,
    RandomPlay,
    play_decider,
    seat_deciders,
)
from piquet_sim.piquet.definition import DEFINITION, position_of
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels.knowledge import both_knowledge
from piquet_sim.piquet.kernels.tables import SUIT_TABLES
from piquet_sim.piquet.policies import names as policy_names
from piquet_sim.piquet.position import PiquetState
from piquet_sim.piquet.rules import DEFAULT_RULES, Rules
from piquet_sim.piquet.simulation import Policies, simulate

FIELDS = {
    "carte_blanche": L.RF_CARTE_BLANCHE,
    "point": L.RF_POINT,
    "sequence": L.RF_SEQUENCE,
    "sets": L.RF_SETS,
    "carte_rouge": L.RF_CARTE_ROUGE,
    "repique": L.RF_REPIQUE,
    "play": L.RF_PLAY,
    "cards": L.RF_CARDS,
    "pique": L.RF_PIQUE,
    "total": L.RF_TOTAL,
    "tricks": L.RF_TRICKS,
    "taken": L.RF_TAKEN,
}
SINK_SETS = {"elder": np.array([0.0, 0.0, 1.0]), "younger": np.array([1.0, 0.0, 1.0])}
OTHER_RULES = Rules(lead_points="ten_or_higher", carte_rouge=True, younger_must_exchange=False)


def _policies(ex, decl, play, declare_params=None) -> Policies:
    return Policies(
        elder_exchange=ex[0],
        younger_exchange=ex[1],
        elder_declare=decl[0],
        younger_declare=decl[1],
        elder_play=play[0],
        younger_play=play[1],
        declare_params=declare_params or {},
    )


CASES = {
    # deterministic policies
    "greedy": (_policies(("greedy", "greedy"), ("all", "all"), ("greedy", "greedy")), 200),
    "max-heuristic-sink": (
        _policies(("max", "heuristic"), ("sink", "sink"), ("heuristic", "greedy"), SINK_SETS),
        200,
    ),
    "heuristic": (
        _policies(("heuristic", "heuristic"), ("all", "all"), ("heuristic", "heuristic")),
        200,
    ),
    "dd": (_policies(("greedy", "max"), ("all", "sink"), ("dd", "dd"), SINK_SETS), 25),
    # the random draws come from the deal's own stream, in the kernels' order
    "random": (_policies(("random", "random"), ("all", "all"), ("random", "random")), 200),
    "random-vs-heuristic": (
        _policies(("random", "greedy"), ("sink", "all"), ("heuristic", "random"), SINK_SETS),
        200,
    ),
    "pimc-vs-random": (_policies(("greedy", "random"), ("all", "all"), ("pimc", "random")), 8),
    "heuristic-vs-pimc": (
        _policies(("heuristic", "greedy"), ("all", "all"), ("heuristic", "pimc")),
        8,
    ),
}


def _compare(policies: Policies, n: int, seed: int, rules: Rules = DEFAULT_RULES) -> None:
    records = simulate(n, seed=seed, policies=policies, rules=rules)
    deciders = seat_deciders(policies)
    for i in range(n):
        state = play_out(PiquetState.from_deal(seed, i, rules), deciders)
        score = state.score()
        for role, base in (("elder", L.REC_ELDER), ("younger", L.REC_YOUNGER)):
            got = {name: score[role][name] for name in FIELDS}
            want = {name: int(records[i, base + f]) for name, f in FIELDS.items()}
            assert got == want, (i, role)
        assert state.returns() == [score["elder"]["total"], score["younger"]["total"]]


@pytest.mark.parametrize("case", sorted(CASES))
def test_deals_through_the_state_score_as_the_round_kernels(case):
    """Every field of every deal's record (points by kind, totals, tricks, cards taken) is the
    same played through PiquetState and the deciders as by ``simulation.simulate``, for the
    deterministic policies and, sharing the deal's stream, for random and pimc."""
    policies, n = CASES[case]
    _compare(policies, n, seed=5)


@pytest.mark.parametrize("play", ["greedy", "random"])
def test_the_other_rules_score_as_the_round_kernels(play):
    """ten_or_higher leads, carte rouge, younger may pass."""
    policies = _policies(("random", "random"), ("all", "sink"), (play, "heuristic"), SINK_SETS)
    _compare(policies, 150, seed=9, rules=OTHER_RULES)


# ---------------------------------------------------------------------- the rules, step by step


def _follow(hand: int, lead: int) -> int:
    """The cards of ``hand`` that may answer ``lead`` (written out: the suit led, if held)."""
    suit = [c for c in range(32) if hand >> c & 1 and c // 8 == lead // 8]
    return sum(1 << c for c in (suit or [c for c in range(32) if hand >> c & 1]))


def _check_rules(st: PiquetState) -> None:
    """The state against the rules as ``docs/rules/piquet.md`` states them: every card in one
    place, the legal actions of the phase and a non-empty list until the end."""
    assert st.is_terminal() == (st.legal_actions() == [])
    places = [st.hands[0], st.hands[1], st.disc[0], st.disc[1], st.played]
    if st.lead >= 0:
        places.append(1 << st.lead)
    first = 0 if st.took[0] < 0 else st.took[0] + max(st.took[1], 0)
    places.append(sum(1 << c for c in st.talon[first:]))
    total = 0
    for p in places:
        assert total & p == 0, "a card in two places"
        total |= p
    assert total == 0xFFFFFFFF, "a card lost"
    legal = st.legal_actions()
    if st.phase == "play":
        seat = st.current_player()
        hand = st.hands[seat]
        want = _follow(hand, st.lead) if st.lead >= 0 else hand
        assert sum(1 << c for c in legal) == want
        assert C.popcount(st.hands[0]) + C.popcount(st.hands[1]) == 24 - 2 * st.trick - (
            st.lead >= 0
        )
    elif st.phase == "exchange":
        seat = st.current_player()
        n = C.popcount(st.disc[seat])
        lo, hi = (1, 5) if seat == 0 else (int(st.rules.younger_must_exchange), 8 - st.took[0])
        assert (END in legal) == (n >= lo)
        assert all(st.hands[seat] >> c & 1 for c in legal if c != END)
        assert n < hi or legal == [END]
    elif st.phase == "declare":
        assert all(DECL_BASE <= a < NUM_ACTIONS for a in legal)
        assert all((a - DECL_BASE) // 3 == st.declaring_class for a in legal)


def _random_walk(seed: int, index: int, rules: Rules = DEFAULT_RULES, check=_check_rules):
    rng = np.random.default_rng(index)
    st = PiquetState.from_deal(seed, index, rules)
    while True:
        check(st)
        if st.is_terminal():
            return st
        legal = st.legal_actions()
        assert legal
        # an illegal action is refused and changes nothing
        bad = next(a for a in range(NUM_ACTIONS) if a not in legal)
        before = st.observation(st.current_player())
        with pytest.raises(InputError):
            st.apply(bad)
        assert st.observation(st.current_player()) == before
        st.apply(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("rules", [DEFAULT_RULES, OTHER_RULES], ids=["default", "other"])
def test_random_play_keeps_the_rules_at_every_step(rules):
    """Legal actions until the end (and none after), every card in exactly one place, follow
    suit enforced, an illegal action (a revoke among them) refused; the deal ends scored."""
    for i in range(40):
        st = _random_walk(3, i, rules)
        assert st.trick == 12 and len(st.line) == 12
        score = st.score()
        assert score["elder"]["tricks"] + score["younger"]["tricks"] == 12


def test_the_rule_check_fails_on_a_broken_follow_suit(monkeypatch):
    """A state that let the follower play any card (a planted broken rule) fails the check."""
    broken = PiquetState.legal_actions

    def any_card(self):
        acts = broken(self)
        if self.phase == "play" and self.lead >= 0:
            hand = self.hands[1 - self.leader]
            return [c for c in range(32) if hand >> c & 1]
        return acts

    monkeypatch.setattr(PiquetState, "legal_actions", any_card)
    with pytest.raises(AssertionError):
        for i in range(10):
            _random_walk(3, i, check=_check_rules)


def test_a_revoke_and_other_illegal_actions_are_refused():
    st = PiquetState.from_hands(
        "AS KS QS JS TS 9H 8H AD KD AC QC JC",
        "8S 7S AH KH QH JH TH KC TC 9C 8C 7C",
        "9S 7H QD JD TD 9D 8D 7D",
    )
    with pytest.raises(InputError, match="does not hold"):
        st.apply(C.parse_card("7S"))
    with pytest.raises(InputError, match="at least 1"):
        st.apply(END)
    for card in ("8H", "9H", "AC"):
        st.apply(st.string_to_action(card))
    with pytest.raises(InputError, match="ascending"):
        st.apply(st.string_to_action("JC"))
    st.apply(END)
    assert st.hands[0] == C.parse_cards("AS KS QS JS TS 9S 7H QD AD KD QC JC")
    for card in ("7S", "8S", "end"):
        st.apply(st.string_to_action(card))
    st.apply(st.string_to_action("sink point"))
    with pytest.raises(InputError, match="declares the point"):
        st.apply(st.string_to_action("declare sets"))
    for _ in range(5):
        st.apply(st.string_to_action("declare"))
    assert st.phase == "play"
    st.apply(st.string_to_action("AS"))  # elder leads spades: younger has none
    assert st.hands[1] & 0xFF == 0
    st2 = st.clone()
    st2.apply(st2.string_to_action("9C"))  # void: any card
    st.apply(st.string_to_action("AH"))
    st.apply(st.string_to_action("JC"))  # elder leads a club: younger holds clubs
    with pytest.raises(InputError, match="revoke"):
        st.apply(st.string_to_action("JD"))


def test_action_strings_round_trip():
    st = PiquetState.from_deal(1, 0)
    for a in range(NUM_ACTIONS):
        assert st.string_to_action(st.action_to_string(a)) == a
    assert st.string_to_action("10H") == C.parse_card("TH")
    with pytest.raises(InputError):
        st.string_to_action("declare trumps")
    with pytest.raises(InputError):
        st.string_to_action("declare")  # no class being declared


# ---------------------------------------------------------------------- what a seat knows


def _to_play(
    seed: int,
    index: int,
    stop: int,
    policies: Policies | None = None,
    rules: Rules = DEFAULT_RULES,
) -> PiquetState:
    """Deal ``index`` of ``seed`` played by ``policies`` (random by default) until ``stop``
    actions have been taken or the deal is over."""
    policies = policies or _policies(("random", "random"), ("all", "sink"), ("random", "random"))
    d = seat_deciders(policies)
    st = PiquetState.from_deal(seed, index, rules)
    while not st.is_terminal() and len(st.history()) < stop:
        st.apply(d[st.current_player()].choose(st))
    return st


def test_knowledge_is_what_the_kernels_give_the_play_policies():
    """At the first play decision each seat's knowledge is ``knowledge.both_knowledge`` of the
    deal (what ``simulate.knowledge_stage`` hands pimc and the heuristic)."""
    for i in range(60):
        st = _to_play(13, i, 10_000)
        # back up to the first lead: replay the history to the play phase
        first = PiquetState.from_deal(13, i)
        for a in st.history():
            if first.phase == "play":
                break
            first.apply(a)
        k, y = first.took
        talon = first.talon
        seen = (
            sum(1 << c for c in talon[k : k + min(y, 5 - k)]),
            sum(1 << c for c in talon[k + y : 5]),
            sum(1 << c for c in talon[k + y :]),
        )
        know_e = np.zeros(L.KNOW_LEN, dtype=np.int64)
        know_y = np.zeros(L.KNOW_LEN, dtype=np.int64)
        masks = np.array(first.masks, dtype=np.int64)
        both_knowledge(
            (np.int64(first.decl_hands[0]), np.int64(first.decl_hands[1])),
            (np.int64(first.disc[0]), np.int64(first.disc[1])),
            masks,
            tuple(np.int64(x) for x in seen),
            SUIT_TABLES,
            know_e,
            know_y,
        )
        assert (first.knowledge(0) == know_e).all(), i
        first.apply(first.legal_actions()[0])  # elder leads: younger is shown the talon
        assert (first.knowledge(1) == know_y).all(), i


@pytest.mark.parametrize("stop", [0, 3, 9, 14, 20, 28, 36])
def test_resampled_worlds_keep_what_the_seat_saw(stop):
    """At every phase (exchanges in progress, declarations, play) a resampled state shows the
    seat exactly what he saw, the same history, every card once; the hidden cards vary."""
    rng = np.random.default_rng(stop)
    varied = 0
    for i in range(12):
        st = _to_play(17, i, stop)
        if st.is_terminal():
            continue
        for seat in (0, 1):
            worlds = [st.resample(seat, rng) for _ in range(4)]
            for w in worlds:
                assert w.observation(seat) == st.observation(seat)
                assert len(w.history()) == len(st.history())
                _check_rules(w)
            varied += len({w.hands[1 - seat] for w in worlds}) > 1
    assert varied > 0


def test_card_values_over_every_world_match_resampled_double_dummy():
    """Two paths to the same expectation: card_values over every world (enumerated, solved
    from the trick-start position) and dd's exact values over resampled full states (the
    sampler's law): equal within the sampling error."""
    rng = np.random.default_rng(0)
    done = 0
    for i in range(30):
        st = _to_play(19, i, 30, _policies(("greedy", "greedy"), ("all", "all"), ("greedy",) * 2))
        if st.phase != "play" or len(st.legal_actions()) < 2:
            continue
        exact = card_values(st, exact_limit=10**6)
        assert exact.exact
        dd = DdPlay()
        runs = {c: [] for c in st.legal_actions()}
        for _ in range(150):
            w = st.resample(st.current_player(), rng)
            for c, e in dd.values(w).values.items():
                runs[c].append(e.mean)
        for c, xs in runs.items():
            xs = np.asarray(xs)
            se = xs.std(ddof=1) / np.sqrt(len(xs)) if xs.std() > 0 else 0.0
            assert abs(xs.mean() - exact.values[c].mean) <= 4 * se + 1e-9, (i, c)
        done += 1
        if done == 4:
            break
    assert done == 4


def test_sampled_values_agree_with_the_enumeration():
    st = _to_play(19, 3, 30, _policies(("greedy", "greedy"), ("all", "all"), ("greedy",) * 2))
    exact = card_values(st, exact_limit=10**6)
    sampled = card_values(st, worlds=600, seed=4, exact_limit=0)
    assert not sampled.exact and sampled.worlds == 600
    again = card_values(st, worlds=600, seed=4, exact_limit=0, threads=1)
    for c in st.legal_actions():
        assert sampled.values[c] == again.values[c]  # the thread count changes nothing
        e, s = exact.values[c], sampled.values[c]
        assert abs(e.mean - s.mean) <= 4 * s.se + 1e-9


# ---------------------------------------------------------------------- described positions


@pytest.mark.parametrize("rules", [DEFAULT_RULES, OTHER_RULES], ids=["default", "other"])
def test_a_described_position_rebuilds_what_its_player_saw(rules):
    """the record of what he saw -> text -> parse -> position: the same observation and
    knowledge for the player (the hidden cards one world among those he thinks possible), the
    same card values; the JSON form reads back to the same text."""
    rng = np.random.default_rng(1)
    checked = 0
    for i in range(40):
        st = _to_play(11, i, 22 + int(rng.integers(0, 16)), rules=rules)
        if st.phase != "play":
            continue
        seat = st.current_player()
        rec = _history(st, seat)
        text = CODEC.text(rec)
        again = position_of(CODEC.parse(text, rules, player=seat, hand=rec.hand_now), rules, i)
        assert again.observation(seat) == st.observation(seat), text
        assert (again.knowledge(seat) == st.knowledge(seat)).all()
        back = CODEC.parse_json(CODEC.json(rec), rules, player=seat, hand=rec.hand_now)
        assert CODEC.text(back) == text
        if checked < 5 and len(st.legal_actions()) > 1:
            a = card_values(st, worlds=100, seed=2)
            b = card_values(again, worlds=100, seed=2)
            assert a.values == b.values
        checked += 1
    assert checked > 20


def _history(st: PiquetState, seat: int):
    """What ``seat`` tells of ``st`` for ``play``: the record of what he saw, his cards now."""
    rec = CODEC.from_state(st, seat, every_hand=False)
    rec.dealt[seat], rec.hand_now = None, st.hands[seat]
    return rec


def _described(history: str, hand: str, role: str = "younger") -> PiquetState:
    """The position a ``play --history`` text describes."""
    seat = ROLES.index(role)
    rec = CODEC.parse(history, DEFAULT_RULES, player=seat, hand=C.parse_cards(hand))
    return position_of(rec, DEFAULT_RULES, 1)


EXAMPLE_HAND = "QS JH 9H 8H 7H AD QD TD"
EXAMPLE = (
    "discard: 7S 8S 7D 8C; took: TD QS 7H AS; talon: -; elder took: 4; "
    "point: his KC QC JC TC 9C; sequence: his KC QC JC TC 9C; sets: mine; "
    "tricks: 9C-AC AS-TS KS-JS AH-TH"
)


def test_the_example_position_is_advised():
    st = _described(EXAMPLE, EXAMPLE_HAND)
    assert st.current_player() == 1 and st.trick == 4
    advice = advise_play(DEFINITION, st, DEFINITION.play_settings)
    assert C.card_name(advice.best) == "QS" and "master" in advice.why
    assert advice.values.exact and advice.margin.mean > 0


@pytest.mark.parametrize(
    "change, message",
    [
        (("tricks: 9C-AC", "tricks: 9C-AC 9C-8D"), "appears twice"),
        (("; tricks", "; lead: AD; tricks"), "appears twice"),
        (("elder took: 4", "elder took: 6"), "1 to 5"),
        (("took: TD QS 7H AS", "took: TD QS 7H"), "discarded 4"),
        (("point: his KC QC JC TC 9C", "point: his KC QC JC TC"), "does not beat"),
        (("point: his KC QC JC TC 9C", "point: his QS JS"), "cannot have shown"),
        (("sets: mine", "sets: equal"), "never equal"),
        (("sets: mine", "sets: his KH KD"), "not a sets"),
        (("; sets: mine", ""), "who scored the sets"),
        (("AH-TH", "AH-TH; lead: 8D"), "you lead"),
        (("9C-AC", "9C-JH"), "revoke"),
        (("discard", "trumps: none; discard"), "unknown key"),
    ],
)
def test_impossible_histories_are_one_line_errors(change, message):
    text = EXAMPLE.replace(*change)
    assert text != EXAMPLE
    hand = EXAMPLE_HAND.replace("JH", "AC") if "9C-JH" in text else EXAMPLE_HAND
    with pytest.raises(InputError, match=message):
        _described(text, hand)


def test_his_revoke_is_refused():
    """He showed void in spades (8D to the king), then played a spade."""
    text = EXAMPLE.replace("KS-JS AH-TH", "KS-8D AH-TH QS-JS")
    with pytest.raises(InputError, match="revoke"):
        _described(text, "JH 9H 8H 7H AD QD TD")


# ---------------------------------------------------------------------- deciders


def test_every_registered_play_policy_has_a_decider():
    for name in policy_names("play"):
        decider = play_decider(name)
        assert decider.name == name
        if name not in ("random", "greedy", "heuristic", "dd", "pimc"):
            assert isinstance(decider, KernelPlay)  # played through play.player_card


@pytest.mark.parametrize("play", ["pimc", "dd"])
def test_the_kernel_dispatcher_plays_as_the_own_deciders(play):
    """KernelPlay (``play.player_card``, for a policy without a decider of its own) plays pimc
    and dd as their own deciders do: the records again."""
    policies = _policies(("greedy",) * 2, ("all",) * 2, (play, "random"))
    records = simulate(6, seed=7, policies=policies)
    elder, younger = seat_deciders(policies)
    elder.play = play_decider(play, row=elder.play.params, kernel=True)
    assert isinstance(elder.by_phase["play"], KernelPlay)  # the seat now plays it
    for i in range(6):
        st = play_out(PiquetState.from_deal(7, i), (elder, younger))
        assert st.score()["elder"]["total"] == records[i, L.REC_ELDER + L.RF_TOTAL]
        assert st.score()["younger"]["total"] == records[i, L.REC_YOUNGER + L.RF_TOTAL]


def test_a_drawing_decider_draws_once_per_decision():
    st = PiquetState.from_deal(23, 2)
    d = seat_deciders()
    while st.phase != "play":
        st.apply(d[st.current_player()].choose(st))
    r = RandomPlay()
    before = st.stream[0]
    a = r.choose(st)
    after = st.stream[0]
    assert r.choose(st) == a and st.stream[0] == after and after > before
    clone = st.clone()
    assert r.choose(clone) == a and clone.stream[0] == after


def test_pimc_values_rank_every_legal_card():
    st = PiquetState.from_deal(29, 1)
    d = seat_deciders()
    while st.phase != "play":
        st.apply(d[st.current_player()].choose(st))
    values = PimcDecider(value_worlds=50).values(st)
    assert set(values.values) == set(st.legal_actions())
    assert values.worlds > 0 and all(e.n == values.worlds for e in values.values.values())
    dd = DdPlay().values(st)
    assert dd.exact and set(dd.values) == set(st.legal_actions())
    best = DdPlay().choose(st)
    assert dd.values[best].mean == max(e.mean for e in dd.values.values())


def test_carte_blanche_is_kept_in_described_and_resampled_worlds():
    """A player dealt carte blanche: the other's described position and resampled worlds give
    him a dealt hand without a king, queen or jack again (his exchange may have brought some)."""
    found = 0
    rng = np.random.default_rng(5)
    for i in range(3000):
        st = PiquetState.from_deal(41, i)
        if not any(st.cb):
            continue
        holder = st.cb.index(True)
        seat = 1 - holder
        d = seat_deciders(_policies(("random",) * 2, ("all",) * 2, ("random",) * 2))
        while not st.is_terminal() and not (
            st.phase == "play" and st.trick >= 2 and st.current_player() == seat
        ):
            st.apply(d[st.current_player()].choose(st))
        if st.is_terminal():
            continue
        rec = _history(st, seat)
        assert holder in rec.blanche
        text = CODEC.text(rec)
        assert f"blanche: {ROLES[holder]}" in text
        again = position_of(CODEC.parse(text, player=seat, hand=rec.hand_now), DEFAULT_RULES, i)
        assert again.cb[holder] and again.observation(seat) == st.observation(seat)
        w = st.resample(seat, rng)
        assert w.dealt[holder] & 0x70707070 == 0
        found += 1
        if found == 3:
            break
    assert found == 3


def test_a_seat_sees_his_own_actions_the_ends_and_the_cards_played_only():
    st = _to_play(43, 1, 10_000)
    h, who = st.history(), st.actors()
    first_card = next(
        i for i in range(len(h)) if i >= 3 and all(h[j] >= DECL_BASE for j in range(i - 6, i))
    )
    for seat in (0, 1):
        for i, (a, actor) in enumerate(zip(h, who, strict=True)):
            expect = actor == seat or a == END or i >= first_card
            assert st.is_visible(seat, i) == expect, (seat, i)
