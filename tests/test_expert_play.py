"""``play`` as an expert reads a position: a card's double-dummy line split into each player's
points, the partie objective against hand-worked partie cases, equal cards ordered by who wins
the cards and the worst case, the declarations trusted (shown cards included) or read with
sinking, and a play policy asked for by name."""

from __future__ import annotations

import json

import numpy as np
import pytest

from piquet_sim.core.engine.stats import Estimate
from piquet_sim.core.game.advice import WORST_CASE, CardValues, rank_cards
from piquet_sim.piquet import cards as C
from piquet_sim.piquet.actions import LESSER, SINK
from piquet_sim.piquet.card_values import card_values, declared_worlds, line_outcomes
from piquet_sim.piquet.codec import CODEC
from piquet_sim.piquet.definition import DEFINITION, played_to, position_of
from piquet_sim.piquet.partie_play import PlayGoal
from piquet_sim.piquet.position import PiquetState
from piquet_sim.piquet.reference.endings import last_two_tricks
from piquet_sim.piquet.reference.partie import settle
from piquet_sim.piquet.rules import Rules
from piquet_sim.piquet.sunk import SINK_RATE, SINK_TEMPERATURE, kind_prior

EXAMPLE_HAND = DEFINITION.play_example.hand
EXAMPLE_HISTORY = DEFINITION.play_example.history
YOUNGER = ("play", EXAMPLE_HAND, "--younger", "--history", EXAMPLE_HISTORY)


def _told(state: PiquetState) -> PiquetState:
    """The position as its player tells it (his hand only), rebuilt as ``play`` builds it."""
    seat = state.current_player()
    rec = CODEC.from_state(state, seat, every_hand=False)
    rec.hand_now = state.hands[seat]
    return position_of(rec, Rules(), seed=1)


# ---------------------------------------------------------------------- the lines


@pytest.mark.parametrize("seed, index, tricks", [(2, 0, 6), (2, 3, 9), (7, 1, 10)])
def test_a_lines_points_add_up_to_the_cards_value(seed, index, tricks):
    """Each player's points still to come on a card's double-dummy line differ by the card's
    exact value (the cards or capot included), and the tricks add up."""
    state = _told(played_to(seed, index, tricks))
    seat = state.current_player()
    values = card_values(state, worlds=8, exact_limit=50)
    for card in state.legal_actions():
        lines = line_outcomes(state, seat, values.hands, card, values.raw[card])
        sign = 1 if seat == 0 else -1
        assert np.array_equal(sign * (lines[:, 0] - lines[:, 1]), values.raw[card])
        now = state.et if seat == 0 else state.trick - state.et
        assert ((lines[:, 2] >= now) & (lines[:, 2] <= now + 12 - state.trick)).all()


# ---------------------------------------------------------------------- the partie, by hand


def _settlement(mine: int, his: int) -> float:
    """The Rubicon settlement of a finished partie for the first player (rule books: the
    loser at 100 or more pays the difference plus 100, else both totals plus 100)."""
    return float(settle(mine, his) if mine > his else -settle(his, mine))


def test_the_last_deal_is_valued_by_the_partie_as_worked_by_hand():
    """Trick 11 of the sixth (last) deal: each card's settlement and P(win the partie) equal,
    world by world, the two tricks played out by hand and the Rubicon rule applied to the
    totals (a partie won or lost, never tied, at this score)."""
    state = _told(played_to(2, 5, 10))
    seat, o = state.current_player(), 1 - state.current_player()
    assert state.trick == 10 and state.lead < 0  # he leads trick 11 of 12
    base = state.returns()
    score = (61, 80)  # before deal 6: an odd gap the deal's points cannot close to a tie
    for objective in ("settlement", "win"):
        partie = {"my_score": score[0], "opp_score": score[1], "deal": 6, "objective": objective}
        goal = PlayGoal.of(partie, Rules())
        values = card_values(state, worlds=50, exact_limit=500, goal=goal)
        tricks = (state.et, state.trick - state.et)
        for card in state.legal_actions():
            want = []
            for h in values.hands:
                hands = [None, None]
                hands[seat], hands[o] = C.mask_to_cards(state.hands[seat]), C.mask_to_cards(h)
                e, y = last_two_tricks(hands, seat, card, list(tricks))
                final = [base[0] + e, base[1] + y]
                mine, his = score[0] + final[seat], score[1] + final[o]
                assert mine != his
                want.append(_settlement(mine, his) if objective == "settlement" else mine > his)
            assert np.allclose(values.samples[card], want), (objective, C.card_name(card))
            assert values.values[card].mean == pytest.approx(np.mean(want))


@pytest.mark.parametrize(
    "args, message",
    [
        (("--score", "84:61"), "needs both"),
        (("--score", "84-61", "--deal", "5"), "ME:OPP"),
        (("--score", "84:61", "--deal", "9"), "has 6 deals"),
        (("--score", "84:61", "--deal", "7"), "only played after a tie"),
        (("--game", "hundred"), "go with --score"),
        (("--policy", "nonsense"), "unknown strategy"),
    ],
)
def test_bad_partie_and_policy_options_are_one_line_exit_2(run_main, args, message):
    code, out, err = run_main(*YOUNGER, *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err


def test_the_partie_objective_reports_net_points_beside(run_main):
    code, out, err = run_main(*YOUNGER, "--score", "90:120", "--deal", "6", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["unit"].startswith("P(win the partie)") and data["partie"]["deal"] == 6
    assert all(0 <= c["mean"] <= 1 and "net_points" in c for c in data["cards"])
    code, out, _ = run_main(*YOUNGER, "--score", "90:120", "--deal", "6")
    assert "P(win partie)" in out and "net points" in out


# ---------------------------------------------------------------------- ties


class _Game:
    """A game definition's tie hooks, on hand-made values."""

    risk_ties = True

    def __init__(self, figures):
        self.figures = figures

    def tie_order(self, state, card):
        return (card,)

    def tie_figures(self, state, cards, values, settings):
        return {k: {c: v[c] for c in cards} for k, v in self.figures.items()}


class _State:
    def action_to_string(self, card):
        return f"c{card}"


def _values(samples: dict) -> CardValues:
    est = {c: Estimate(float(np.mean(x)), 0.0, 0.0, 0.0, len(x)) for c, x in samples.items()}
    return CardValues(est, "points", exact=True, samples=samples)


def test_equal_cards_go_by_the_games_figure_then_the_worst_case_then_the_card_order():
    samples = {1: np.array([2.0, 2.0]), 2: np.array([0.0, 4.0]), 3: np.array([-9.0, 1.0])}
    values = _values(samples)
    # the game's figure decides: card 2 wins the cards more often
    ranking, tie = rank_cards(
        _Game({"P(cards)": {1: 0.5, 2: 0.9}}), _State(), None, values, [1, 2, 3]
    )
    assert ranking == [2, 1, 3] and tie["decided_by"] == "P(cards)" and tie["tied"] == ["c2", "c1"]
    # the figure equal: the worst case over the worlds decides (card 1 never below 2)
    ranking, tie = rank_cards(_Game({"P(cards)": {1: 0.5, 2: 0.5}}), _State(), None, values, [2, 1])
    assert ranking[:2] == [1, 2] and tie["decided_by"] == WORST_CASE
    # the same in every world: the card order, and no tie reported
    same = _values({1: np.array([1.0, 3.0]), 2: np.array([1.0, 3.0])})
    assert rank_cards(_Game({}), _State(), None, same, [2, 1]) == ([1, 2], None)


def test_a_tie_in_the_partie_goes_to_the_net_points_and_is_said(run_main):
    code, out, err = run_main(*YOUNGER, "--score", "90:120", "--deal", "6", "--json")
    data = json.loads(out)
    assert data["cards"][0]["mean"] == data["cards"][1]["mean"]  # P(win) 0 for every card
    assert data["tie_break"]["decided_by"] == "net points" and data["best"] == "QS"
    assert "net points" in data["why"]


# ---------------------------------------------------------------------- the declarations


def _example_state():
    rec = CODEC.parse(EXAMPLE_HISTORY, player=1, hand=C.parse_cards(EXAMPLE_HAND))
    return position_of(rec, Rules(), seed=1)


def test_trusted_declarations_leave_out_hands_that_would_have_shown_more():
    """He won the sequence showing KC QC JC TC 9C: a hand holding JS TS 9S besides would have
    shown that tierce too, so no trusted world holds it (the key bounds alone allowed it)."""
    state = _example_state()
    found = declared_worlds(state, 1, 100, 1, 5000)
    tierce = C.parse_cards("JS TS 9S")
    played = state.gone[0]
    assert found["exact"] and found["hands"]
    assert not any((h | played) & tierce == tierce for h in found["hands"])
    assert state.hands[0] in found["hands"]


def test_sinking_worlds_hold_the_trusted_ones_and_weigh_sunk_ones_by_the_prior():
    state = _example_state()
    trusted = set(declared_worlds(state, 1, 100, 1, 5000)["hands"])
    found = declared_worlds(state, 1, 100, 1, 5000, sinking=True)
    hands = found["hands"]
    assert trusted == {h for h, t in zip(hands, found["sunk"], strict=True) if t == 0}
    assert len(hands) > len(trusted)
    # six clubs shown as five (the lesser point, one point given up): weighed by its prior
    six_clubs = [
        (w, t)
        for h, w, t in zip(hands, found["weights"], found["sunk"], strict=True)
        if (h | state.gone[0]) & C.parse_cards("7C")
    ]
    assert six_clubs and all(t & 1 for _, t in six_clubs)  # the point: bit 0
    assert all(0 < w <= SINK_RATE * np.exp(-1 / SINK_TEMPERATURE) for w, _ in six_clubs)


def test_the_prior_of_each_kind_falls_with_the_points_given_up():
    quint = C.parse_cards("KC QC JC TC 9C 8S 7S AH 9H 8D 7D 9D")
    prior = kind_prior(quint, 1)
    assert prior[SINK] == pytest.approx(SINK_RATE * np.exp(-15 / SINK_TEMPERATURE))
    assert prior[LESSER] == pytest.approx(SINK_RATE * np.exp(-11 / SINK_TEMPERATURE))
    assert sum(prior.values()) == pytest.approx(1.0)


def test_play_says_whether_possible_sunk_cards_change_the_card(run_main):
    code, out, err = run_main(*YOUNGER, "--declarations", "sinking")
    assert code == 0, err
    assert "where he sank" in out
    code, out, _ = run_main(*YOUNGER, "--declarations", "sinking", "--json")
    data = json.loads(out)
    assert 0 < data["sinking"]["sunk_weight"] < 1 and data["sinking"]["trusting"] == "QS"


# ---------------------------------------------------------------------- policies


def test_play_names_a_policys_card_and_marks_the_oracle(run_main):
    code, out, err = run_main(*YOUNGER, "--policy", "heuristic", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["policy"]["name"] == "heuristic" and not data["policy"]["oracle"]
    assert data["why"].startswith("the heuristic policy's card")
    code, out, err = run_main(*YOUNGER, "--policy", "dd")
    assert code == 0, err
    assert "an oracle" in out
    code, out, err = run_main(*YOUNGER, "--policy", "pimc:worlds=8", "--json")
    assert code == 0, err
    assert json.loads(out)["policy"]["name"] == "pimc(worlds=8)"


def test_a_review_values_the_exchange_and_the_cards_by_the_partie(run_main):
    from pathlib import Path

    record = Path(__file__).resolve().parents[1] / "docs" / "examples" / "piquet-deal-younger.txt"
    args = ("review", str(record), "--quick", "--score", "60:95", "--deal", "6", "--json")
    code, out, err = run_main(*args)
    assert code == 0, err
    data = json.loads(out)
    assert data["settings"]["game"]["partie"]["my_score"] == 60
    units = data["phase_units"]
    assert units["play"] == units["exchange"] == "P(win the partie)"
    assert units["declare"].startswith("net deal points")


SUNK_HAND = "9D 8D 7D AC QC TC 9C"
SUNK_HISTORY = (
    "elder took: 5; younger discard: JS 8S 7C; younger took: 9C TC 7H; left: -; "
    "point: elder AS KS QS TS 9S; sequence: elder AS KS QS; sets: elder KS KH KD KC; "
    "tricks: AS-7H KS-JH QS-QH 8H-AH AD-JD"
)


def test_play_says_when_possible_sunk_cards_change_the_card(run_main):
    """Deal 296 of seed 11 at trick 6 (younger to lead): trusting elder's declarations the
    diamonds are led; the worlds where he kept a longer point or another combination back
    make the ace of clubs better, and the advice says so."""
    args = ("play", SUNK_HAND, "--seat", "younger", "--history", SUNK_HISTORY)
    code, out, err = run_main(*args, "--json")
    assert code == 0, err
    assert json.loads(out)["best"] == "7D"
    code, out, err = run_main(*args, "--declarations", "sinking", "--json")
    data = json.loads(out)
    assert data["best"] == "AC" and data["sinking"]["changes_card"]
    assert data["sinking"]["trusting"] == "7D"
    code, out, _ = run_main(*args, "--declarations", "sinking")
    assert "changes the card: trusting his declarations, 7D" in " ".join(out.split())
