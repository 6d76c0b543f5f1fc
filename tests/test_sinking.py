"""Sinking declarations (docs/rules/piquet.md "Sinking"): declaration points given up, choice
masks, the
analysis API and `piquet sink`."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from piquet_sim.cli import cli
from piquet_sim.piquet import cards as C
from piquet_sim.piquet.declarations import DeclarationPolicy, compare_hands
from piquet_sim.piquet.kernels import sinking as K
from piquet_sim.piquet.kernels.tables import SUIT_TABLES
from piquet_sim.piquet.sinking import analyse

ELDER = C.parse_cards("AS KS QS JS 9S 8H 7H AD KD AC QC JC", 12)
YOUNGER = C.parse_cards("AH KH QH JH TH 9D 8D 7D TC 9C 8C 7C", 12)


def test_sinking_a_class_the_opponent_wins_anyway_changes_nothing_but_that_class():
    """Younger wins the point (five hearts, 51 against 50) and the sequences (quint against
    quart): elder sinking either gives up nothing, and the score is exactly the same."""
    base = compare_hands(ELDER, YOUNGER)
    for cls in ("point", "sequence"):
        sunk = compare_hands(ELDER, YOUNGER, elder_policy=DeclarationPolicy.sink(cls))
        assert sunk["elder"] == base["elder"] and sunk["younger"] == base["younger"]


def test_sinking_a_winning_class_gives_it_to_the_opponent():
    """Elder's trio of aces wins the sets (3); sunk, younger scores his best (nothing here:
    younger holds no set), and elder loses exactly 3."""
    base = compare_hands(ELDER, YOUNGER)
    sunk = compare_hands(ELDER, YOUNGER, elder_policy=DeclarationPolicy.sink("sets"))
    assert base["elder"]["sets"] == 3 and sunk["elder"]["sets"] == 0
    assert sunk["elder"]["total"] == base["elder"]["total"] - 3
    assert sunk["younger"]["sets"] == 0


def test_choice_masks():
    hand = np.int64(C.parse_cards("AS KS QS JS TS 9H 8H 7H AD KD AC QC", 12))
    pm, sm, tm = K.choice_masks(K.CH_LESSER_SEQUENCE, hand, SUIT_TABLES)
    assert pm == K.FULL and tm == K.FULL
    assert C.format_cards(int(hand & ~sm) & 0xFFFFFFFF) == "TS"  # quart to the ace remains
    pm, sm, tm = K.choice_masks(K.CH_SINK_ALL, hand, SUIT_TABLES)
    assert pm == sm == tm == 0
    pm, _, _ = K.choice_masks(K.CH_LESSER_POINT, hand, SUIT_TABLES)
    assert C.format_cards(int(hand & ~pm) & 0xFFFFFFFF) == "TS"


def test_analysis_is_paired_and_decomposes():
    a = analyse("AS KS QS JS TS 9H 8H 7H AD KD AC QC", worlds=12, play="dd", seed=3)
    names = [c.name for c in a.choices]
    assert "declare all" in names and "sink sequences" in names
    base = next(c for c in a.choices if c.name == "declare all")
    assert base.gain == 0 and base.parts["declarations"] == 0
    for c in a.choices:
        p = c.parts
        total = p["declarations"] + p["repique"] + p["pique"] + p["play"]
        assert abs(total - c.gain) < 1e-9
        assert p["concealment"] == 0  # dd play: hiding cards is worth nothing
    # sinking a quint and a quatorze-less hand's point gives points away here
    assert a.best.name == "declare all"
    b = analyse("AS KS QS JS TS 9H 8H 7H AD KD AC QC", worlds=12, play="dd", seed=3)
    assert [c.net for c in a.choices] == [c.net for c in b.choices]


def test_analysis_with_pimc_and_discard_counts_its_sampler():
    a = analyse(
        "AS KS QS JS 9H 8H 7H AD KD AC QC JC",
        role="younger",
        discard="9H 8H",
        elder_took=5,
        worlds=4,
        play="pimc",
        pimc_worlds=4,
        seed=2,
    )
    assert a.sampler["worlds"] > 0 and a.sampler["fallbacks"] <= a.sampler["worlds"]
    assert a.worlds == 4


def test_cli_sink_json_and_errors():
    runner = CliRunner()
    r = runner.invoke(
        cli,
        ["sink", "AS KS QS JS TS 9H 8H 7H AD KD AC QC", "--worlds", "6", "--play", "dd", "--json"],
    )
    assert r.exit_code == 0, r.output
    assert '"best"' in r.output
    r = runner.invoke(cli, ["sink", "AS KS QS JS TS 9H 8H 7H AD KD AC QC", "--discard", "2C"])
    assert r.exit_code == 2
    r = runner.invoke(cli, ["sink", "AS KS", "--worlds", "6"])
    assert r.exit_code == 2
    r = runner.invoke(cli, ["sink", "--help"])
    assert "Example" in r.output
