"""The core's rules options read every spelling from the rows: an older flag accepted and not
shown, a choice that was a bool flag still given bare or as ``--no-``, and the game's presets
(``--preset``, an option typed beside it winning)."""

from __future__ import annotations

import ast

import click
import pytest
from click.testing import CliRunner

from piquet_sim.core.app.rules_cli import rules_options
from piquet_sim.core.game.spec import Option, RulesSpec

SPEC = RulesSpec(
    "sample",
    [
        Option("lead", "any", "Who may lead.", choices=("any", "winner")),
        Option(
            "mercy",
            False,
            "When the mercy rule applies.",
            choices=(False, True, "late"),
            labels=("never", "always", "late"),
            was_bool=True,
        ),
        Option(
            "goal",
            100,
            "Points that win.",
            bounds=(1, 1000),
            scope="game",
            flag="--goal",
            older_flags=("--old-goal",),
        ),
    ],
    presets={"plain": {}, "club": {"lead": "winner", "mercy": "late", "goal": 50}},
    preset_help="Start from a named set of rules: plain or club.",
)
Sample = SPEC.rules_class(__name__)


def _command():
    @click.command()
    @rules_options(Sample)
    def cmd(rules):
        click.echo(repr(rules.to_dict()))

    return cmd


def _rules(*args: str) -> dict:
    result = CliRunner().invoke(_command(), list(args))
    assert result.exit_code == 0, result.output
    return ast.literal_eval(result.output)


def test_an_older_flag_is_taken_and_not_shown():
    assert _rules("--old-goal", "70")["goal"] == 70
    assert _rules("--goal", "80")["goal"] == 80
    shown = CliRunner().invoke(_command(), ["--help"]).output
    assert "--goal" in shown and "--old-goal" not in shown


@pytest.mark.parametrize(
    "args, mercy",
    [((), False), (("--mercy",), True), (("--mercy", "late"), "late"), (("--no-mercy",), False)],
)
def test_a_former_bool_is_taken_bare_and_negated(args, mercy):
    assert _rules(*args)["mercy"] == mercy


def test_a_former_bool_and_its_negation_conflict():
    result = CliRunner().invoke(_command(), ["--mercy", "late", "--no-mercy"])
    assert result.exit_code == 2
    assert "--mercy and --no-mercy conflict" in result.output


def test_a_preset_sets_the_options_not_typed():
    assert _rules("--preset", "club") == {"lead": "winner", "mercy": "late", "goal": 50}
    assert _rules("--preset", "club", "--goal", "60", "--no-mercy") == {
        "lead": "winner",
        "mercy": False,
        "goal": 60,
    }
    assert _rules() == {"lead": "any", "mercy": False, "goal": 100}  # the first preset: none
    assert "named set of rules" in CliRunner().invoke(_command(), ["--help"]).output


def test_rows_without_presets_offer_no_preset_option():
    bare = RulesSpec("bare", [Option("lead", "any", "Who may lead.", choices=("any", "winner"))])
    plain = bare.rules_class(__name__)

    @click.command()
    @rules_options(plain)
    def cmd(rules):
        click.echo(rules.lead)

    assert "--preset" not in CliRunner().invoke(cmd, ["--help"]).output


def test_presets_and_former_bools_are_checked_when_declared():
    with pytest.raises(Exception, match="lead must be one of"):
        RulesSpec(
            "bad",
            [Option("lead", "any", "Who may lead.", choices=("any", "winner"))],
            presets={"odd": {"lead": "loser"}},
        )
    with pytest.raises(ValueError, match="a former bool keeps True and False"):
        Option("lead", "any", "Who may lead.", choices=("any", "winner"), was_bool=True)
    with pytest.raises(ValueError, match="a bool's older spellings go in its flag"):
        Option("strict", False, "Strict play.", older_flags=("--hard",))
