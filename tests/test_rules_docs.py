"""Every game's rules document shows the options table generated from its rules rows, and the
core's rules declaration behaves as documented (validation, array, dict and CLI forms)."""

from __future__ import annotations

import importlib
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

from piquet_sim.core.app.rules_cli import rules_options
from piquet_sim.core.game.spec import DOC_END, DOC_START, Option, RulesError, RulesSpec
from piquet_sim.games import GAME_PACKAGES

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
GAMES = GAME_PACKAGES


@pytest.mark.parametrize("game", GAMES)
def test_rules_document_shows_the_generated_table(game):
    spec = importlib.import_module(f"piquet_sim.{game}.rules").SPEC
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    assert DOC_START in text and DOC_END in text, f"docs/rules/{game}.md has no table markers"
    shown = text[text.index(DOC_START) + len(DOC_START) : text.index(DOC_END)].strip()
    assert shown == spec.markdown_table().strip(), (
        f"docs/rules/{game}.md: run python scripts/update_rules_docs.py"
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_option_round_trips_through_array_and_dict(game):
    rules_mod = importlib.import_module(f"piquet_sim.{game}.rules")
    Rules, spec = rules_mod.Rules, rules_mod.SPEC
    default = Rules()
    assert default.to_array().dtype == np.int64
    assert len(default.to_array()) == len(spec) == int(rules_mod.RuleSlot.LEN)
    for option in spec.options:
        values = (
            option.choices
            if option.kind == "choice"
            else (True, False)
            if option.kind == "bool"
            else option.bounds
        )
        for value in values:
            rules = default.replace(**{option.name: value})
            assert Rules.from_array(rules.to_array()) == rules
            assert Rules.from_dict(rules.to_dict()) == rules
            assert rules.to_array()[spec.slot(option.name)] == option.encode(value)


SPEC = RulesSpec(
    "Toy",
    (
        Option("colour", "red", "The colour.", choices=("red", "blue")),
        Option("pair", (4, 3), "A pair.", choices=((4, 3), (3, 2)), labels=("4,3", "3,2")),
        Option("strict", False, "Strict play."),
        Option("target", 12, "The target.", bounds=(1, 99), scope="game"),
    ),
)
Toy = SPEC.rules_class(__name__)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"colour": "green"}, "colour must be one of red, blue; got 'green'"),
        ({"pair": (1, 1)}, "pair must be one of 4,3, 3,2; got (1, 1)"),
        ({"strict": 1}, "strict must be true or false, got 1"),
        ({"target": 0}, "target must be 1 to 99, got 0"),
        ({"target": 2.5}, "target must be a whole number, got 2.5"),
        ({"target": True}, "target must be a whole number, got True"),
    ],
)
def test_validation_names_the_option_and_its_values(changes, message):
    with pytest.raises(RulesError) as err:
        Toy(**changes)
    assert str(err.value) == message


def test_lists_and_numpy_values_are_normalised():
    toy = Toy(pair=[3, 2], target=np.int64(7))
    assert toy.pair == (3, 2) and type(toy.target) is int
    assert toy.to_dict() == {"colour": "red", "pair": [3, 2], "strict": False, "target": 7}
    assert toy.differences() == {"pair": [3, 2], "target": 7}


def test_from_array_and_from_dict_refuse_what_no_rules_produce():
    with pytest.raises(RulesError, match="rules slot colour is 2"):
        Toy.from_array(np.array([2, 0, 0, 12]))
    with pytest.raises(RulesError, match="a rules array has 4 entries"):
        Toy.from_array(np.array([0, 0, 0]))
    with pytest.raises(RulesError, match="unknown rules option"):
        Toy.from_dict({"nope": 1})


def test_cli_options_come_from_the_rows():
    @click.command()
    @rules_options(Toy, scopes=("deal",))
    def deal_cmd(rules):
        click.echo(repr(rules.to_dict()))

    @click.command()
    @rules_options(Toy)
    def game_cmd(rules):
        click.echo(repr(rules.to_dict()))

    runner = CliRunner()
    out = runner.invoke(deal_cmd, ["--colour", "blue", "--pair", "3,2", "--strict"]).output
    assert out.strip() == repr({"colour": "blue", "pair": [3, 2], "strict": True, "target": 12})
    assert "--target" not in runner.invoke(deal_cmd, ["--help"]).output
    assert runner.invoke(deal_cmd, ["--target", "5"]).exit_code == 2
    out = runner.invoke(game_cmd, ["--target", "50"]).output
    assert "'target': 50" in out
    assert runner.invoke(game_cmd, ["--target", "500"]).exit_code == 2
    assert runner.invoke(game_cmd, ["--colour", "green"]).exit_code == 2


def test_the_docs_table_lists_every_option():
    table = SPEC.markdown_table()
    assert "| `pair` | `--pair` | `4,3` | `4,3`, `3,2` | A pair. |" in table
    assert "| `strict` | `--strict/--no-strict` | `false` | true, false | Strict play. |" in table
    assert "| `target` | `--target` | `12` | 1 to 99 | The target. |" in table
