"""Exact talon odds (docs/rules/piquet.md, Exchange and Information): the numba enumeration against
the
plain-Python reference, want-probabilities against hypergeometric formulas, and `piquet draw`."""

from __future__ import annotations

import json
from math import comb

import pytest
from click.testing import CliRunner

from piquet_sim.cli import cli, main
from piquet_sim.piquet.cards import parse_cards, popcount
from piquet_sim.piquet.reference.talon import draw_counts
from piquet_sim.piquet.rules import Rules
from piquet_sim.piquet.talon import DrawError, draw_odds

HAND = "AS KS QS 9S 8H 7H AD 9D 8D KC 8C 7C"
CASES = [
    (HAND, "8H 7H 9D 8C 7C", "JS TS QH"),
    (HAND, "7H", "JS"),
    ("AS KS QS JS TS AH KH AD KD 7C 8C 9C", "7C 8C 9C", "AC KC QD"),
    ("7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C", "7S 8H 9D 7C", "AS AH AD AC TS"),
    ("AS QS TS 8S AH QH TH 8H AD QD AC QC", "8S 8H", "KS KH JS"),
]
SEQ_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixieme", 7: "septieme", 8: "huitieme"}


def _compare(result: dict, ref: dict) -> None:
    draws = ref["draws"]
    assert result["draws"] == draws
    assert {int(k): round(v * draws) for k, v in result["point_length"].items()} == ref["point"]
    by_name: dict[str, int] = {}
    by_top: dict[str, int] = {}
    for key, n in ref["sequence"].items():
        name = "none" if key is None else SEQ_NAMES[key[0]]
        by_name[name] = by_name.get(name, 0) + n
        by_top["none" if key is None else f"{name} to the {'789TJQKA'[key[1]]}"] = n
    assert {k: round(v * draws) for k, v in result["best_sequence"].items()} == by_name
    assert {k: round(v * draws) for k, v in result["best_sequence_by_top"].items()} == by_top
    sets: dict[str, int] = {}
    for key, n in ref["sets"].items():
        name = "none" if key is None else ("quatorze" if key[0] == 4 else "trio")
        sets[name] = sets.get(name, 0) + n
    assert {k: round(v * draws) for k, v in result["best_set"].items()} == sets
    for cls in ("point", "sequence", "sets"):
        assert result["expected_points"][cls] == pytest.approx(ref["points"][cls] / draws)
    if result["want"]:
        exactly = {int(k): round(v * draws) for k, v in result["want"]["exactly"].items()}
        assert {k: n for k, n in exactly.items() if n} == ref["want"]


@pytest.mark.parametrize("hand, discard, want", CASES)
def test_elder_kernel_matches_reference(hand, discard, want):
    h, d, w = parse_cards(hand, 12), parse_cards(discard), parse_cards(want)
    _compare(draw_odds(h, d, want=w), draw_counts(h, d, w))


def test_younger_kernel_matches_reference():
    h, d, w = parse_cards(HAND, 12), parse_cards("8H 7H 9D"), parse_cards("QH JH")
    result = draw_odds(h, d, role="younger", elder_took=5, want=w)
    _compare(result, draw_counts(h, d, w))
    assert "uniform prior" in result["prior"]


@pytest.mark.parametrize("d, w", [(1, 1), (3, 2), (5, 1), (5, 3), (4, 6), (2, 5)])
def test_want_is_hypergeometric(d, w):
    """P(exactly k of w wanted among d drawn from 20) = C(w,k) C(20-w,d-k) / C(20,d)."""
    hand = parse_cards(HAND, 12)
    kept_order = [c for c in range(32) if hand >> c & 1]
    discard = sum(1 << c for c in kept_order[:d])
    unseen = [c for c in range(32) if not hand >> c & 1]
    want = sum(1 << c for c in unseen[:w])
    result = draw_odds(hand, discard, want=want)
    assert result["draws"] == comb(20, d)
    for k in range(min(w, d) + 1):
        p = comb(w, k) * comb(20 - w, d - k) / comb(20, d)
        assert result["want"]["exactly"][str(k)] == pytest.approx(p)
        if k:
            at_least = sum(
                comb(w, j) * comb(20 - w, d - j) for j in range(k, min(w, d) + 1)
            ) / comb(20, d)
            assert result["want"]["at_least"][str(k)] == pytest.approx(at_least)


def test_queen_of_spades_when_discarding_five_is_five_in_twenty():
    """Hand-worked: the QS is one of 20 unseen cards; 5 are drawn, so P = 5/20."""
    hand = parse_cards("AS KS JS 9S 8H 7H AD 9D 8D KC 8C 7C", 12)
    result = draw_odds(hand, parse_cards("8H 7H 9D 8C 7C"), want=parse_cards("QS"))
    assert result["draws"] == 15504
    assert result["want"]["at_least"]["1"] == pytest.approx(5 / 20)


def test_younger_may_draw_nothing_only_when_allowed():
    hand = parse_cards(HAND, 12)
    result = draw_odds(
        hand, 0, role="younger", elder_took=5, rules=Rules(younger_must_exchange=False)
    )
    assert result["draws"] == 1
    with pytest.raises(DrawError):
        draw_odds(hand, 0, role="younger", elder_took=5)
    with pytest.raises(DrawError):  # elder took 4: younger may take up to 4, not 5
        draw_odds(hand, parse_cards("8H 7H 9D 8C 7C"), role="younger", elder_took=4)
    ok = draw_odds(hand, parse_cards("8H 7H 9D 8C"), role="younger", elder_took=4)
    assert ok["draws"] == comb(20, 4)


def test_draw_json_and_table():
    runner = CliRunner()
    args = ["draw", HAND, "--discard", "8H 7H 9D 8C 7C", "--want", "JS TS"]
    out = runner.invoke(cli, [*args, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["draws"] == 15504
    assert set(data["want"]["at_least"]) == {"1", "2"}
    assert sum(data["point_length"].values()) == pytest.approx(1.0)
    assert sum(data["best_sequence"].values()) == pytest.approx(1.0)
    assert sum(data["best_set"].values()) == pytest.approx(1.0)
    table = runner.invoke(cli, args)
    assert table.exit_code == 0 and "Point length" in table.output
    younger = runner.invoke(
        cli, ["draw", HAND, "--discard", "8H 7H", "--younger", "--elder-took", "3", "--json"]
    )
    assert younger.exit_code == 0 and "uniform prior" in younger.output


def test_draw_help_has_example():
    out = CliRunner().invoke(cli, ["draw", "--help"])
    assert out.exit_code == 0 and "Example" in out.output


@pytest.mark.parametrize(
    "extra",
    [
        ["--discard", "AH"],  # not in the hand
        ["--discard", ""],  # elder must take at least one
        ["--discard", "8H 7H 9D 8C 7C 8D"],  # elder takes at most five
        ["--discard", "8H", "--younger", "--elder-took", "6"],
        ["--discard", "8H", "--younger", "--elder-took", "0"],
        ["--discard", "8H", "--elder-took", "3"],  # elder-took without --younger
        ["--discard", "8H 7H 9D 8C", "--younger"],  # younger after 5 may take 3
        ["--discard", "8H", "--want", "AS"],  # wanted card already held
        ["--discard", "8H", "--want", "XX"],
    ],
)
def test_bad_input_is_one_line_exit_2(extra, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["draw", HAND, *extra])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("piquet: error:") and err.count("\n") == 1


def test_every_draw_keeps_twelve_cards():
    hand = parse_cards(HAND, 12)
    result = draw_odds(hand, parse_cards("8H 7H"))
    assert popcount(hand) == 12 and len(result["kept"]) == 10 and result["cards_drawn"] == 2
