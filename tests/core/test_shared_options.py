"""The options several games' own commands share (core.app.options): each game gives its
choices, default and help; the flag, its checks and how --help shows it are the core's. And
the step every command ends with, its JSON or its tables (core.app.cli.json_or_console). On a
toy command: no game, no kernel."""

from __future__ import annotations

import json

import click
from click.testing import CliRunner
from rich.console import Console

from piquet_sim.core.app.cli import json_or_console
from piquet_sim.core.app.options import (
    auction_option,
    chunk_size_option,
    games_option,
    others_option,
    play_option,
)


def _command(*decorators):
    @click.command()
    def run(**values):
        click.echo(repr(sorted(values.items())))

    for decorate in reversed(decorators):
        run = decorate(run)
    return run


def _invoke(command, *args):
    return CliRunner().invoke(command, list(args), terminal_width=100)


def test_play_option_takes_a_policy_of_the_choices_and_shows_its_default():
    cmd = _command(play_option(("random", "heuristic"), "heuristic", "How the cards are played."))
    assert _invoke(cmd).output.strip() == "[('play', 'heuristic')]"
    assert "('play', 'random')" in _invoke(cmd, "--play", "random").output
    bad = _invoke(cmd, "--play", "dd")
    assert bad.exit_code == 2 and "'dd' is not one of 'random', 'heuristic'" in bad.output
    assert "[default: heuristic]" in _invoke(cmd, "--help").output


def test_others_option_accepts_an_older_spelling_without_showing_it():
    cmd = _command(
        others_option(("threshold", "random"), "threshold", "How they bid.", ("--prior",))
    )
    assert "('others', 'random')" in _invoke(cmd, "--prior", "random").output
    assert "('others', 'random')" in _invoke(cmd, "--others", "random").output
    shown = _invoke(cmd, "--help").output
    assert "--others [threshold|random]" in shown and "--prior" not in shown


def test_chunk_size_option_refuses_chunks_under_a_thousand_deals():
    cmd = _command(chunk_size_option(500_000))
    assert "('chunk', 500000)" in _invoke(cmd).output
    bad = _invoke(cmd, "--chunk", "999")
    assert bad.exit_code == 2 and "x>=1000" in bad.output
    assert "Deals per chunk (memory stays flat" in _invoke(cmd, "--help").output


def test_games_option_is_bounded_by_ten_and_the_most_given():
    cmd = _command(games_option(4000, 1_000_000, "Games to the target per side."))
    assert "('games', 4000)" in _invoke(cmd).output
    assert _invoke(cmd, "--games", "9").exit_code == 2
    assert _invoke(cmd, "--games", "1000001").exit_code == 2
    assert "('games', 1000000)" in _invoke(cmd, "--games", "1000000").output


def test_auction_option_is_no_calls_when_not_given_and_shows_the_games_metavar():
    cmd = _command(auction_option("The calls before you.", '"0:pass 1:4"'))
    assert "('auction', '')" in _invoke(cmd).output
    assert "('auction', '0:pass 1:3')" in _invoke(cmd, "--auction", "0:pass 1:3").output
    assert '--auction "0:pass 1:4"' in _invoke(cmd, "--help").output
    assert "--auction TEXT" in _invoke(_command(auction_option("Calls.")), "--help").output


def test_json_or_console_prints_the_json_and_ends_the_output_only_under_json(capsys):
    class Result:
        def to_dict(self):
            return {"value": 1.5, "interval": [float("-inf"), 2.0]}

    assert json_or_console(True, Result()) is None
    assert json.loads(capsys.readouterr().out) == {"value": 1.5, "interval": [None, 2.0]}
    assert json_or_console(True, {"a": 1}) is None
    assert json.loads(capsys.readouterr().out) == {"a": 1}
    console = json_or_console(False, Result())
    assert isinstance(console, Console) and capsys.readouterr().out == ""
